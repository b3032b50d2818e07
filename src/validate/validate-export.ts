import { EtlError } from '../core/errors.js'
import type { ExportFormat } from '../exports/read/read-export.js'
import type { ExportChunks, ValidateOptions } from './options.js'
import type { Report, SourceKind } from '../core/report.js'

// What `validate` loads for CR text is light: the export readers and checks (validate-rows.ts) are
// loaded only for an export.

export type { ExportChunks, ValidateOptions } from './options.js'

/** Which reader a file needs, from its name: .txt is CR text, else .parquet, .jsonl/.ndjson or .csv. */
export function sourceKindOf(name: string): Exclude<SourceKind, 'manifest' | 'unknown'> {
  const ext = /\.([^./\\]+)$/.exec(name)?.[1]?.toLowerCase()
  if (ext === 'txt') return 'cr-text'
  if (ext === 'parquet') return 'parquet'
  if (ext === 'jsonl' || ext === 'ndjson') return 'jsonl'
  if (ext === 'csv') return 'csv'
  if (ext === 'arrow' || ext === 'feather') return 'arrow'
  throw new EtlError('USAGE', `validate: cannot tell the format of ${name}: expected .txt (CR text), .parquet, .jsonl, .csv or .arrow`)
}

export function exportFormatOf(name: string): ExportFormat {
  const kind = sourceKindOf(name)
  if (kind === 'cr-text') throw new EtlError('USAGE', `validate: ${name} is CR text, not an export`)
  return kind
}

/**
 * Validate an export as its bytes stream in: every check sees each row once and keeps only what it
 * needs (the rule numbers), so JSONL and CSV are checked in memory that does not hold all the rows.
 */
export async function validateExportStream(name: string, chunks: ExportChunks, options: ValidateOptions = {}): Promise<Report> {
  const format = exportFormatOf(name)
  const { validateExportRows } = await import('./validate-rows.js')
  return validateExportRows(name, format, chunks, options)
}
