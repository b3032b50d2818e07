import { EtlError } from '../core/errors.js'
import { findEffectiveDate } from '../text/parse.js'
import { decode, splitLines } from '../text/decode.js'

export interface ArchiveCandidate {
  name: string
  effectiveDate: string | null
}

/** The publisher's file name for a release: `MagicCompRules YYYYMMDD.txt`. */
export function releaseFileName(effectiveDate: string): string {
  return `MagicCompRules ${effectiveDate.replace(/-/g, '')}.txt`
}

/** Effective date of CR text bytes (in its first 50 lines), or null when the text has none (or is no text). */
export function effectiveDateOf(name: string, bytes: Uint8Array): string | null {
  const dateIn = (part: Uint8Array) => {
    try {
      return findEffectiveDate(splitLines(decode(part, name).text).slice(0, 50))
    } catch {
      return null
    }
  }
  // The first lines are read from the file's head, cut after a line's end (an archive is listed by
  // date: decoding 130 whole texts took most of a second); the whole text when they do not give it.
  const head = bytes.subarray(0, Math.max(bytes.lastIndexOf(0x0a, HEAD_BYTES), bytes.lastIndexOf(0x0d, HEAD_BYTES)) + 1)
  return (head.length < bytes.length ? dateIn(head) : null) ?? dateIn(bytes)
}

/** The effective date stands in a release's first few hundred bytes; its first 50 lines in far less than this. */
const HEAD_BYTES = 64 * 1024

/** The newest release by effective date (ties: the later file name). Throws when none has a date. */
export function chooseNewest(candidates: ArchiveCandidate[], folder: string): ArchiveCandidate & { effectiveDate: string } {
  const dated = candidates.filter((c): c is ArchiveCandidate & { effectiveDate: string } => c.effectiveDate !== null)
  if (dated.length === 0) {
    throw new EtlError('ARCHIVE_EMPTY', `fetch: no Comprehensive Rules text with an effective date in ${folder} (${candidates.length} .txt files looked at)`)
  }
  dated.sort((a, b) => a.effectiveDate.localeCompare(b.effectiveDate) || a.name.localeCompare(b.name))
  return dated[dated.length - 1]!
}
