import { proveCsvClean } from './proof/clean-csv.js'
import { proveJsonlClean } from './proof/clean-jsonl.js'
import { EtlError } from '../core/errors.js'
import type { ExportFormat } from '../exports/read-export.js'
import type { ExportChunks, FileProof, ValidateOptions } from './options.js'
import { makeReport, type Report, type SourceKind } from '../core/report.js'
import { detectTable, RULES_TABLE } from '../core/tables.js'

// What `validate` loads for an export is light: a rules export proved clean is done without the
// readers and checks (validate-rows.ts), which are loaded only when the rows must be checked one by one.

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
 * A rules export that can be read twice is first proved clean from its bytes (a fraction of the
 * cost); only when that fails do the checks run row by row, and they alone say what is wrong.
 */
export async function validateExportStream(name: string, chunks: ExportChunks, options: ValidateOptions = {}): Promise<Report> {
  const format = exportFormatOf(name)
  const proved = options.exact ? null : await provedClean(name, format, chunks, options.fileProof)
  if (proved !== null) return makeReport({ file: name, kind: format, table: RULES_TABLE.name, rows: proved }, [], options.strict ?? false)
  const { validateExportRows } = await import('./validate-rows.js')
  return validateExportRows(name, format, chunks, options)
}

const RULES_COLUMNS = RULES_TABLE.columns.map((c) => c.name)

/** The row count of a rules export proved clean, or null (not proved, or no proof for its format). */
async function provedClean(name: string, format: ExportFormat, chunks: ExportChunks, fileProof: FileProof | undefined): Promise<number | null> {
  if (!chunks.again || detectTable(name, RULES_COLUMNS) !== RULES_TABLE || format === 'arrow') return null
  if (chunks.file && fileProof) return fileProof(name, format, chunks.file)
  if (format === 'parquet') return null
  return format === 'jsonl' ? proveJsonlClean(chunks.again()) : proveCsvClean(chunks.again())
}
