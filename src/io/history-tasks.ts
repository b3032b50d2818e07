import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { buildDataset } from '../build/build.js'
import { HISTORY_LEADING_TABLE, historyPrefixes, historyPrefixesOf, type HistoryPrefixes } from '../history/history-lines.js'
import { inMemoryBytes } from '../exports/card.js'
import { MAX_TEXT_BYTES, readInputFile } from './files.js'
import { sha256, type Manifest } from '../exports/manifest.js'
import { EtlError } from '../core/errors.js'
import { describeFsError } from './fs-errors.js'
import type { RuleRow } from '../core/types.js'

/**
 * What history asks of a worker: build one release and write its files into `outDir` (a folder in
 * the staging folder; `shownDir` names it in an error line). The main thread keeps the diffs: moved
 * to the workers, copying the rows there cost more than diffing consecutive releases (~15 ms).
 */
export type HistoryTask = {
  kind: 'build'
  name: string
  path: string
  /** The sha256 of the bytes the release was dated by: a file rewritten since is not built. */
  sha256: string | null
  arrow: boolean
  outDir: string
  shownDir: string
}

export interface BuiltRelease {
  manifest: Manifest
  rows: RuleRow[]
  effectiveDate: string | null
  valid: boolean
  /** The release's error codes and how many of each (what its history row says when it failed). */
  errorCodes: Record<string, number>
  /** The release's rules_history lines but for their lineage (null without an effective date). */
  prefixes: HistoryPrefixes | null
  /** Its rules_history rows' in-memory size (Arrow) but for the lineage columns, for the card (0 without a date). */
  leadingBytes: number
}

/** Run one task, in a worker or (when workers cannot be had) in this thread. */
export async function runHistoryTask(task: HistoryTask): Promise<BuiltRelease> {
  const arrow = task.arrow ? (await import('../exports/arrow-write.js')).writeArrow : undefined
  const bytes = await readInputFile(task.path, MAX_TEXT_BYTES)
  // Built from other bytes than it was dated by, it could land in another date's folder.
  if (task.sha256 !== null && sha256(bytes) !== task.sha256) throw new EtlError('INPUT_UNREADABLE', `read: ${task.name} changed while history was running; not built`)
  const result = buildDataset(task.name, bytes, arrow ? { arrow } : {})
  writeFilesInto(task.outDir, task.shownDir, result.files)
  const date = result.document.effectiveDate
  const errorCodes = countErrorCodes(result.report.diagnostics)
  // Measured here, on a core of its own: the main thread only adds the lineage columns'.
  const leadingBytes = date === null ? 0 : inMemoryBytes(HISTORY_LEADING_TABLE, result.rows.map((r, index) => ({ release: date, ...r, index })))
  return { manifest: result.manifest, rows: result.rows, effectiveDate: date, valid: result.report.valid, errorCodes, prefixes: date === null ? null : prefixesOf(date, result), leadingBytes }
}

/** How many errors of each code a report holds (its warnings aside; a strict build counts them as errors). */
function countErrorCodes(diagnostics: { code: string; severity: string; omitted?: number }[]): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const d of diagnostics) if (d.severity === 'error') counts[d.code] = (counts[d.code] ?? 0) + (d.omitted ?? 1)
  return counts
}

function prefixesOf(date: string, result: ReturnType<typeof buildDataset>): HistoryPrefixes {
  const file = (name: string) => result.files.find((f) => f.name === name)!.bytes
  return historyPrefixesOf(date, result.rows.length, file('rules.jsonl'), file('rules.csv')) ?? historyPrefixes(date, result.rows)
}

/**
 * Write files into `dir`, a folder inside a staging folder (Staging.dir), from a worker thread:
 * created exclusively like Staging.write, not synced one by one (for history, 1,700 fsyncs cost
 * seconds; the history tables themselves are synced). `shown` names the folder in the error line.
 */
export function writeFilesInto(dir: string, shown: string, files: { name: string; bytes: Uint8Array }[]): void {
  try {
    // Never with its parents: a staging folder an interrupted run has just removed must stay gone
    // (a worker still writing would otherwise create it again, and leave it behind).
    mkdirSync(dir)
    for (const f of files) writeFileSync(join(dir, f.name), f.bytes, { flag: 'wx' })
  } catch (e) {
    throw new EtlError('OUTPUT_UNWRITABLE', `write: cannot write to ${shown}: ${describeFsError(e)}`)
  }
}
