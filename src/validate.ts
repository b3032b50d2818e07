import { checkDocument, toCheckRow } from './check.js'
import { runChecks } from './checks/index.js'
import { sortDiagnostics } from './diagnostics.js'
import { EtlError } from './errors.js'
import { normalizeRules } from './normalize.js'
import { parseDocument } from './parse.js'
import { decode, splitLines } from './read.js'
import { readExport, type ExportFormat } from './read-export.js'
import { makeReport, type Report, type SourceKind } from './report.js'

export interface ValidateOptions {
  /** Count warnings as errors (default false). */
  strict?: boolean
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

/** Validate CR text (parsed in memory) or an export: every check, one report. */
export async function validateSource(name: string, bytes: Uint8Array, options: ValidateOptions = {}): Promise<Report> {
  const kind = sourceKindOf(name)
  const strict = options.strict ?? false
  if (kind === 'cr-text') {
    const decoded = decode(bytes, name)
    const doc = parseDocument(splitLines(decoded.text), name)
    const rows = normalizeRules(doc.rules)
    return makeReport(name, kind, rows.length, checkDocument(doc, rows), strict)
  }
  if (bytes.length === 0) throw new EtlError('INPUT_EMPTY', `read: ${name} is empty (0 bytes)`)
  const read = await readExport(name, bytes, kind as ExportFormat)
  const rows = read.records.map((r) => toCheckRow(r.record, r.line === undefined ? { position: r.position } : { position: r.position, line: r.line }))
  const found = runChecks({ rows, glossary: [], sections: [] })
  return makeReport(name, kind, rows.length, sortDiagnostics([...read.diagnostics, ...found]), strict, read.notes)
}

