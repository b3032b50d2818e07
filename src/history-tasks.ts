import { buildDataset } from './build.js'
import { diffReleases, type ReleaseDiff } from './diff.js'
import { MAX_TEXT_BYTES, readInputFile } from './node.js'
import type { Manifest } from './manifest.js'
import type { RuleRow } from './types.js'

/** What history asks of a worker: build one release, or diff two releases' rows. */
export type HistoryTask =
  | { kind: 'build'; name: string; path: string; arrow: boolean }
  | { kind: 'diff'; old: { label: string; rows: RuleRow[] }; new: { label: string; rows: RuleRow[] } }

export interface BuiltRelease {
  manifest: Manifest
  files: { name: string; bytes: Uint8Array }[]
  rows: RuleRow[]
  effectiveDate: string | null
  valid: boolean
}

export interface DiffedPair {
  lineage: ReleaseDiff['lineage']
  counts: ReleaseDiff['counts']
}

/** Run one task, in a worker or (when workers cannot be had) in this thread. */
export async function runHistoryTask(task: HistoryTask): Promise<BuiltRelease | DiffedPair> {
  if (task.kind === 'diff') {
    const d = diffReleases({ ...task.old, sectionTitles: new Map() }, { ...task.new, sectionTitles: new Map() }, { wordChanges: false })
    return { lineage: d.lineage, counts: d.counts }
  }
  const arrow = task.arrow ? (await import('./write-arrow.js')).writeArrow : undefined
  const result = buildDataset(task.name, await readInputFile(task.path, MAX_TEXT_BYTES), arrow ? { arrow } : {})
  return { manifest: result.manifest, files: result.files, rows: result.rows, effectiveDate: result.document.effectiveDate, valid: result.report.valid }
}
