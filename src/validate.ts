import { append } from './append.js'
import { checkDocument, toCheckRow } from './check.js'
import { checkCompanionRecord, type KnownRules } from './checks/companion.js'
import { startChecks } from './checks/index.js'
import { diagnostics, sortDiagnostics } from './diagnostics.js'
import { EtlError } from './errors.js'
import { normalizeRules } from './normalize.js'
import { parseDocument } from './parse.js'
import { decode, splitLines } from './read.js'
import { openExport, readExport, type ExportFormat, type ExportRecords } from './read-export.js'
import { makeReport, type Report, type SourceKind } from './report.js'
import { RULES_HISTORY_TABLE, RULES_TABLE } from './tables.js'
import { startHistoryChecks } from './checks/rules-history.js'
import type { Diagnostic } from './types.js'

export interface ValidateOptions {
  /** Count warnings as errors (default false). */
  strict?: boolean
  /** For a companion file: the rules it goes with (default: numbers are not cross-checked). */
  knownRules?: KnownRules
}

/** Which reader a file needs, from its name: .txt is CR text, else .parquet, .jsonl/.ndjson or .csv. */
export function sourceKindOf(name: string): Exclude<SourceKind, 'manifest'> {
  const ext = /\.([^./\\]+)$/.exec(name)?.[1]?.toLowerCase()
  if (ext === 'txt') return 'cr-text'
  if (ext === 'parquet') return 'parquet'
  if (ext === 'jsonl' || ext === 'ndjson') return 'jsonl'
  if (ext === 'csv') return 'csv'
  if (ext === 'arrow' || ext === 'feather') return 'arrow'
  throw new EtlError('USAGE', `validate: cannot tell the format of ${name}: expected .txt (CR text), .parquet, .jsonl, .csv or .arrow`)
}

function exportFormatOf(name: string): ExportFormat {
  const kind = sourceKindOf(name)
  if (kind === 'cr-text') throw new EtlError('USAGE', `validate: ${name} is CR text, not an export`)
  return kind
}

/** Read a whole export (any table) from its bytes; EtlError when it is empty or cannot be read. */
export async function readExportFile(name: string, bytes: Uint8Array): Promise<ExportRecords> {
  const format = exportFormatOf(name)
  if (bytes.length === 0) throw new EtlError('INPUT_EMPTY', `read: ${name} is empty (0 bytes)`)
  return readExport(name, bytes, format)
}

/** Validate CR text (parsed in memory) or an export of any table, from its bytes. */
export async function validateSource(name: string, bytes: Uint8Array, options: ValidateOptions = {}): Promise<Report> {
  if (sourceKindOf(name) === 'cr-text') return validateText(name, bytes, options)
  if (bytes.length === 0) throw new EtlError('INPUT_EMPTY', `read: ${name} is empty (0 bytes)`)
  return validateExportStream(
    name,
    (async function* () {
      yield bytes
    })(),
    options,
  )
}

/** Validate CR text: parse it in memory, then every check. */
export function validateText(name: string, bytes: Uint8Array, options: ValidateOptions = {}): Report {
  const decoded = decode(bytes, name)
  const lines = splitLines(decoded.text)
  const doc = parseDocument(lines, name)
  const rows = normalizeRules(doc.rules)
  return makeReport({ file: name, kind: 'cr-text', table: 'rules', rows: rows.length }, checkDocument(lines, doc, rows, decoded).diagnostics, options.strict ?? false)
}

/**
 * Validate an export as its bytes stream in: every check sees each row once and keeps only what it
 * needs (the rule numbers), so JSONL and CSV are checked in memory that does not hold all the rows.
 */
export async function validateExportStream(name: string, chunks: AsyncIterable<Uint8Array>, options: ValidateOptions = {}): Promise<Report> {
  const format = exportFormatOf(name)
  const stream = await openExport(name, format, chunks)
  const found: Diagnostic[] = []
  let rows = 0
  const notes = [...stream.notes]
  if (stream.table === RULES_HISTORY_TABLE) {
    const history = startHistoryChecks()
    for await (const batch of stream.batches) {
      for (const r of batch) history.visit(r)
      rows += batch.length
    }
    append(found, history.finish())
  } else if (stream.table === RULES_TABLE) {
    const session = startChecks({ glossary: [], sections: [] })
    for await (const batch of stream.batches) {
      for (const r of batch) session.visit(toCheckRow(r.record, r.line === undefined ? { position: r.position } : { position: r.position, line: r.line }))
      rows += batch.length
    }
    append(found, session.finish())
  } else {
    const known = options.knownRules ?? null
    if (!known) notes.push('no rules table given: the numbers it names were not checked against the rules')
    for await (const batch of stream.batches) {
      for (const r of batch) append(found, checkCompanionRecord(stream.table, r, known))
      rows += batch.length
    }
  }
  // An export without rows is never a dataset, whatever its header says.
  if (rows === 0) found.push(diagnostics.structure(`the export holds no rows`, 'error'))
  const all = sortDiagnostics([...stream.diagnostics, ...stream.lateDiagnostics(), ...found])
  return makeReport({ file: name, kind: format, table: stream.table.name, rows }, all, options.strict ?? false, notes)
}
