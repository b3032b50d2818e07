import { checkDocument, toCheckRow } from './check.js'
import { checkCompanion, type KnownRules } from './checks/companion.js'
import { runChecks } from './checks/index.js'
import { sortDiagnostics } from './diagnostics.js'
import { EtlError } from './errors.js'
import { normalizeRules } from './normalize.js'
import { parseDocument } from './parse.js'
import { decode, splitLines } from './read.js'
import { readExport, type ExportFormat, type ExportRecords } from './read-export.js'
import { makeReport, type Report, type SourceKind } from './report.js'
import { RULES_TABLE } from './tables.js'

export interface ValidateOptions {
  /** Count warnings as errors (default false). */
  strict?: boolean
  /** For a companion file: the rules it goes with (default: numbers are not cross-checked). */
  knownRules?: KnownRules
}

/** Which reader a file needs, from its name: .txt is CR text, else .parquet, .jsonl/.ndjson or .csv. */
export function sourceKindOf(name: string): SourceKind {
  const ext = /\.([^./\\]+)$/.exec(name)?.[1]?.toLowerCase()
  if (ext === 'txt') return 'cr-text'
  if (ext === 'parquet') return 'parquet'
  if (ext === 'jsonl' || ext === 'ndjson') return 'jsonl'
  if (ext === 'csv') return 'csv'
  throw new EtlError('USAGE', `validate: cannot tell the format of ${name}: expected .txt (CR text), .parquet, .jsonl or .csv`)
}

/** Read an export (any table) from its bytes; EtlError when it is empty or cannot be read. */
export async function readExportFile(name: string, bytes: Uint8Array): Promise<ExportRecords> {
  const kind = sourceKindOf(name)
  if (kind === 'cr-text') throw new EtlError('USAGE', `validate: ${name} is CR text, not an export`)
  if (bytes.length === 0) throw new EtlError('INPUT_EMPTY', `read: ${name} is empty (0 bytes)`)
  return readExport(name, bytes, kind as ExportFormat)
}

/** Validate CR text (parsed in memory) or an export of any table: every check, one report. */
export async function validateSource(name: string, bytes: Uint8Array, options: ValidateOptions = {}): Promise<Report> {
  const kind = sourceKindOf(name)
  const strict = options.strict ?? false
  if (kind === 'cr-text') {
    const decoded = decode(bytes, name)
    const doc = parseDocument(splitLines(decoded.text), name)
    const rows = normalizeRules(doc.rules)
    return makeReport({ file: name, kind, table: 'rules', rows: rows.length }, checkDocument(doc, rows), strict)
  }
  const read = await readExportFile(name, bytes)
  const source = { file: name, kind, table: read.table.name, rows: read.records.length }
  if (read.table !== RULES_TABLE) {
    const notes = options.knownRules ? read.notes : [...read.notes, 'no rules table given: the numbers it names were not checked against the rules']
    return makeReport(source, sortDiagnostics([...read.diagnostics, ...checkCompanion(read.table, read.records, options.knownRules ?? null)]), strict, notes)
  }
  const rows = read.records.map((r) => toCheckRow(r.record, r.line === undefined ? { position: r.position } : { position: r.position, line: r.line }))
  const found = runChecks({ rows, glossary: [], sections: [] })
  return makeReport(source, sortDiagnostics([...read.diagnostics, ...found]), strict, read.notes)
}
