import { countDiagnostics } from './diagnostics.js'
import type { Diagnostic } from './types.js'

export type SourceKind = 'cr-text' | 'parquet' | 'jsonl' | 'csv' | 'arrow'

/** The validation report: what `validate --json` prints and `build` writes as report.json. */
export interface Report {
  valid: boolean
  strict: boolean
  source: { file: string; kind: SourceKind; table: string; rows: number }
  notes: string[]
  counts: { errors: number; warnings: number; byCode: Record<string, number> }
  diagnostics: Diagnostic[]
}

/** Build the report; with `strict`, warnings make the input invalid too. */
export function makeReport(source: Report['source'], diagnostics: Diagnostic[], strict = false, notes: string[] = []): Report {
  const counts = countDiagnostics(diagnostics)
  const valid = counts.errors === 0 && (!strict || counts.warnings === 0)
  return { valid, strict, source, notes, counts, diagnostics }
}
