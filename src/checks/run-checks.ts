import { boundedDiagnostics } from '../core/bounded.js'
import { checkCoverage, type Coverage } from '../text/coverage.js'
import { runChecks } from './index.js'
import type { CheckInput, CheckRow } from './types.js'
import { diagnostics, sortDiagnostics } from '../core/diagnostics.js'
import { parseRuleNumber } from '../core/rule-number.js'
import type { CrDocument, DecodedText, Diagnostic, LocatedRow } from '../core/types.js'

/** The checks' view of a record read from anywhere: fields of the wrong type become null. */
export function toCheckRow(record: Record<string, unknown>, where: { line?: number; position?: number }): CheckRow {
  const isText = (e: unknown): e is string => typeof e === 'string'
  const examples = Array.isArray(record.examples) ? (record.examples.every(isText) ? record.examples : record.examples.filter(isText)) : []
  const number = typeof record.number === 'string' ? record.number : null
  const row: CheckRow = {
    number,
    parsed: number === null ? null : parseRuleNumber(number),
    text: typeof record.text === 'string' ? record.text : null,
    examples,
    index: record.index,
    record,
  }
  if (where.line !== undefined) row.line = where.line
  if (where.position !== undefined) row.position = where.position
  return row
}

/** What the checks see of a parsed CR text: its rows with their lines, glossary and sections. */
export function checkInputOf(doc: CrDocument, rows: LocatedRow[]): CheckInput {
  const checkRows = rows.map((r) => toCheckRow({ ...r.row }, r.line === undefined ? {} : { line: r.line }))
  return { rows: checkRows, glossary: doc.glossary, sections: doc.sections }
}

/**
 * Every diagnostic for a parsed CR text: what the parser reported, every check on its rows, and the
 * coverage check (`text-lost`) of the source `lines` against the rows. `input` (checkInputOf): pass
 * the one the caller also gives collectReferences, so each row's citations are found once.
 */
export function checkDocument(
  lines: string[],
  doc: CrDocument,
  rows: LocatedRow[],
  decoded?: DecodedText,
  input: CheckInput = checkInputOf(doc, rows),
): { diagnostics: Diagnostic[]; coverage: Coverage } {
  const coverage = checkCoverage(lines, doc, rows.map((r) => r.row))
  const bytes = (decoded?.invalidBytes ?? []).map((b) => diagnostics.invalidByte(b.byte, b.offset, b.line))
  // The bad bytes past those located are counted, as every code's diagnostics past the cap are.
  const unlocated = (decoded?.invalidByteCount ?? 0) - bytes.length
  if (unlocated > 0) bytes.push({ code: 'encoding', severity: 'error', message: 'more encoding diagnostics', omitted: unlocated })
  return { diagnostics: sortDiagnostics([...bytes, ...doc.diagnostics, ...runChecks(input), ...formulaLike(rows), ...coverage.diagnostics]), coverage }
}

// What a spreadsheet runs as a formula when it opens a CSV cell that begins so.
const FORMULA_START = /^[=+\-@]/

/**
 * Rules whose text or an example begins like a spreadsheet formula (`=`, `+`, `-`, `@`): kept as
 * published (the data stays byte-faithful), and reported, since no published rule begins so and a
 * spreadsheet opening rules.csv would run it (see the README on opening the CSV).
 */
function formulaLike(rows: LocatedRow[]): Diagnostic[] {
  const out = boundedDiagnostics()
  for (const { row, line } of rows) {
    const field = FORMULA_START.test(row.text) ? 'text' : row.examples.some((e) => FORMULA_START.test(e)) ? 'an example' : null
    if (field === null) continue
    const where = line === undefined ? { number: row.number } : { number: row.number, line }
    out.push(diagnostics.sourceFormat('formula-like', `${field} of rule ${row.number} begins with “${(field === 'text' ? row.text : row.examples.find((e) => FORMULA_START.test(e))!)[0]}”, which a spreadsheet opening the CSV would run as a formula`, where))
  }
  return out
}
