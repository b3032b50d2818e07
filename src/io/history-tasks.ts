import { buildDataset } from '../build/build.js'
import { historyPrefixes, historyPrefixesOf, type HistoryPrefixes } from '../history/history-lines.js'
import { MAX_TEXT_BYTES, readInputFile } from './files.js'
import type { Manifest } from '../exports/manifest.js'
import { writeFilesInto } from './output-folder.js'
import type { RuleRow } from '../core/types.js'

/**
 * What history asks of a worker: build one release and write its files into `outDir` (a folder in
 * the staging folder; `shownDir` names it in an error line). The main thread keeps the diffs: moved
 * to the workers, copying the rows there cost more than diffing consecutive releases (~15 ms).
 */
export type HistoryTask = { kind: 'build'; name: string; path: string; arrow: boolean; outDir: string; shownDir: string }

export interface BuiltRelease {
  manifest: Manifest
  rows: RuleRow[]
  effectiveDate: string | null
  valid: boolean
  /** The release's rules_history lines but for their lineage (null without an effective date). */
  prefixes: HistoryPrefixes | null
}

/** Run one task, in a worker or (when workers cannot be had) in this thread. */
export async function runHistoryTask(task: HistoryTask): Promise<BuiltRelease> {
  const arrow = task.arrow ? (await import('../exports/arrow-write.js')).writeArrow : undefined
  const result = buildDataset(task.name, await readInputFile(task.path, MAX_TEXT_BYTES), arrow ? { arrow } : {})
  writeFilesInto(task.outDir, task.shownDir, result.files)
  const date = result.document.effectiveDate
  return { manifest: result.manifest, rows: result.rows, effectiveDate: date, valid: result.report.valid, prefixes: date === null ? null : prefixesOf(date, result) }
}

function prefixesOf(date: string, result: ReturnType<typeof buildDataset>): HistoryPrefixes {
  const file = (name: string) => result.files.find((f) => f.name === name)!.bytes
  return historyPrefixesOf(date, result.rows.length, file('rules.jsonl'), file('rules.csv')) ?? historyPrefixes(date, result.rows)
}
