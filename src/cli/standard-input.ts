import { closeSync, mkdtempSync, openSync, readdirSync, renameSync, rmSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { KnownRules } from '../checks/companion.js'
import { EtlError } from '../core/errors.js'
import type { Report } from '../core/report.js'
import { thousands } from '../core/words.js'
import { gunzipStart, looksGzipped } from '../exports/read/gzip.js'
import { MAX_EXPORT_BYTES } from '../io/files.js'
import { describeFsError } from '../io/fs-errors.js'
import { onInterrupt } from '../io/interrupts.js'
import { alive } from '../io/lock.js'
import { validateFile, type ValidateHow } from '../io/validate-folder.js'
import { CONTENT_HEAD_BYTES, extensionOfKind, sourceKindOfContent } from '../validate/validate-export.js'

// validate - : standard input, which has no name to tell its format by.

// The temporary copies of standard input are named by the process that made them: one whose process
// is gone (killed before it could remove it) is removed by the next run.
const COPY_PREFIX = 'mtg-rules-stdin-'

function sweepLeftovers(): void {
  for (const name of readdirSync(tmpdir())) {
    const pid = name.startsWith(COPY_PREFIX) ? Number(name.slice(COPY_PREFIX.length).split('-')[0]) : NaN
    if (Number.isNaN(pid) || alive(pid)) continue
    try {
      rmSync(join(tmpdir(), name), { recursive: true, force: true })
    } catch {
      // Left for a later run: a leftover that cannot be removed must not stop this one.
    }
  }
}

const KIND_SAID = { 'cr-text': 'CR text', jsonl: 'JSONL', csv: 'CSV', parquet: 'Parquet', arrow: 'Arrow' } as const

/**
 * Standard input (`-`), reported as `-`: copied to a temporary file (memory stays bounded, and the
 * file readers read it as any file), named by what its first bytes say it is.
 */
export async function validateStandardInput(how: ValidateHow, rules?: { knownRules: Promise<KnownRules | undefined> }): Promise<Report> {
  let dir: string
  try {
    sweepLeftovers()
    dir = mkdtempSync(join(tmpdir(), `${COPY_PREFIX}${process.pid}-`))
  } catch (e) {
    throw new EtlError('OUTPUT_UNWRITABLE', `validate: standard input is kept in a temporary file in ${tmpdir()}, where none can be made: ${describeFsError(e)}`)
  }
  const remove = () => rmSync(dir, { recursive: true, force: true })
  const forget = onInterrupt(remove)
  let file = join(dir, 'stdin')
  try {
    const head = await copyStandardInput(file)
    // gzip-compressed: what it holds is told from what its first bytes unpack to.
    const packed = looksGzipped(head)
    const kind = sourceKindOfContent(packed ? gunzipStart(head.subarray(0, CONTENT_HEAD_BYTES)) : head)
    renameSync(file, (file = join(dir, `stdin.${extensionOfKind(kind)}${packed ? '.gz' : ''}`)))
    const report = await validateFile(file, how, rules)
    // The temporary file's name appears in the report only where the file is named: it becomes `-`.
    const named = JSON.parse(JSON.stringify(report).replaceAll(JSON.stringify(file).slice(1, -1), '-')) as Report
    named.notes.unshift(`standard input read as ${packed ? 'gzip-compressed ' : ''}${KIND_SAID[kind]} (told by its first bytes)`)
    return named
  } catch (e) {
    if (e instanceof EtlError) throw new EtlError(e.code, e.message.replaceAll(file, '-'))
    throw e
  } finally {
    forget()
    remove()
  }
}

/** Standard input written to `file`, refused past MAX_EXPORT_BYTES; its first bytes (CONTENT_HEAD_BYTES at least). */
async function copyStandardInput(file: string): Promise<Uint8Array> {
  const out = openSync(file, 'w')
  let size = 0
  const head: Uint8Array[] = []
  try {
    for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
      size += chunk.length
      if (size > MAX_EXPORT_BYTES) throw new EtlError('INPUT_TOO_LARGE', `read: - (standard input) gave more than the ${thousands(MAX_EXPORT_BYTES)} bytes this input may have`)
      if (size - chunk.length < CONTENT_HEAD_BYTES) head.push(chunk)
      try {
        writeSync(out, chunk)
      } catch (e) {
        throw new EtlError('OUTPUT_UNWRITABLE', `validate: standard input is kept in a temporary file in ${tmpdir()}, which could not take it: ${describeFsError(e)}`)
      }
    }
  } catch (e) {
    if (e instanceof EtlError) throw e
    throw new EtlError('INPUT_UNREADABLE', `read: - (standard input) could not be read: ${describeFsError(e)}`)
  } finally {
    closeSync(out)
  }
  return Buffer.concat(head)
}
