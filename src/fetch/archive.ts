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

/** Effective date of CR text bytes, or null when the text has none (or is no text). */
export function effectiveDateOf(name: string, bytes: Uint8Array): string | null {
  try {
    return findEffectiveDate(splitLines(decode(bytes, name).text).slice(0, 50))
  } catch {
    return null
  }
}

/** The newest release by effective date (ties: the later file name). Throws when none has a date. */
export function chooseNewest(candidates: ArchiveCandidate[], folder: string): ArchiveCandidate & { effectiveDate: string } {
  const dated = candidates.filter((c): c is ArchiveCandidate & { effectiveDate: string } => c.effectiveDate !== null)
  if (dated.length === 0) {
    throw new EtlError('ARCHIVE_EMPTY', `fetch: no Comprehensive Rules text with an effective date in ${folder} (${candidates.length} .txt files looked at)`)
  }
  dated.sort((a, b) => a.effectiveDate.localeCompare(b.effectiveDate) || a.name.localeCompare(b.name))
  return dated[dated.length - 1]!
}
