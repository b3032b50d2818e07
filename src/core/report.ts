import { BoundedDiagnostics } from './bounded.js'
import { append, countDiagnostics } from './diagnostics.js'
import type { Diagnostic } from './types.js'

export type SourceKind = 'cr-text' | 'parquet' | 'jsonl' | 'csv' | 'arrow' | 'manifest' | 'unknown'

/** The validation report: what `validate --json` prints and `build` writes as report.json. */
export interface Report {
  valid: boolean
  strict: boolean
  source: { file: string; kind: SourceKind; table: string; rows: number }
  notes: string[]
  /** Exact counts, listed or not. */
  counts: { errors: number; warnings: number; byCode: Record<string, number> }
  /** At most MAX_DIAGNOSTICS_PER_CODE of each code; the rest are counted in `omitted`. */
  diagnostics: Diagnostic[]
  /** Diagnostics counted but not listed, by code (absent when every one is listed). */
  omitted?: Record<string, number>
}

/** Build the report; with `strict`, warnings make the input invalid too. */
export function makeReport(source: Report['source'], diagnostics: Diagnostic[], strict = false, notes: string[] = []): Report {
  // Lists from several bounded sources may together pass the cap: bound the whole once more.
  const bounded = new BoundedDiagnostics()
  append(bounded, diagnostics)
  const listed = bounded.filter((d) => d.omitted === undefined)
  const counts = countDiagnostics(bounded)
  const valid = counts.errors === 0 && (!strict || counts.warnings === 0)
  const report: Report = { valid, strict, source, notes, counts, diagnostics: listed }
  const omitted: Record<string, number> = {}
  for (const d of bounded) if (d.omitted !== undefined) omitted[d.code] = (omitted[d.code] ?? 0) + d.omitted
  if (Object.keys(omitted).length > 0) report.omitted = Object.fromEntries(Object.entries(omitted).sort(([a], [b]) => (a < b ? -1 : 1)))
  return report
}
