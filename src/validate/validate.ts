import { checkDocument } from '../checks/run-checks.js'
import { EtlError, requireNamedBytes } from '../core/errors.js'
import { normalizeRules } from '../text/normalize.js'
import { parseDocument } from '../text/parse.js'
import { decode, splitLines } from '../text/decode.js'
import { readExport, type ExportRecords } from '../exports/read/read-export.js'
import { makeReport, type Report } from '../core/report.js'
import { emptyIsNoRows, exportFormatOf, sourceKindOf, validateExportStream, type ValidateOptions } from './validate-export.js'

export { exportFormatOf, sourceKindOf, validateExportStream, type ExportChunks, type ValidateOptions } from './validate-export.js'

/**
 * Read a whole export (any table) from its bytes; EtlError when it is empty or cannot be read, or
 * (for a command that holds it: `heldBy`) when it has more rows than MAX_HELD_ROWS.
 */
export async function readExportFile(name: string, bytes: Uint8Array, heldBy?: string): Promise<ExportRecords> {
  requireNamedBytes('readExportFile', name, bytes)
  const format = exportFormatOf(name)
  if (bytes.length === 0 && !emptyIsNoRows(name)) throw new EtlError('INPUT_EMPTY', `read: ${name} is empty (0 bytes)`)
  return readExport(name, bytes, format, heldBy)
}

/** Validate CR text (parsed in memory) or an export of any table, from its bytes. */
export async function validateSource(name: string, bytes: Uint8Array, options: ValidateOptions = {}): Promise<Report> {
  requireNamedBytes('validateSource', name, bytes)
  if (sourceKindOf(name) === 'cr-text') return validateText(name, bytes, options)
  if (bytes.length === 0 && !emptyIsNoRows(name)) throw new EtlError('INPUT_EMPTY', `read: ${name} is empty (0 bytes)`)
  const chunks = async function* () {
    yield bytes
  }
  return validateExportStream(name, chunks(), options)
}

/** Validate CR text: parse it in memory, then every check. */
export function validateText(name: string, bytes: Uint8Array, options: ValidateOptions = {}): Report {
  requireNamedBytes('validateText', name, bytes)
  const decoded = decode(bytes, name)
  const lines = splitLines(decoded.text)
  const doc = parseDocument(lines, name)
  const rows = normalizeRules(doc.rules)
  return makeReport({ file: name, kind: 'cr-text', table: 'rules', rows: rows.length }, checkDocument(lines, doc, rows, decoded).diagnostics, options.strict ?? false)
}

