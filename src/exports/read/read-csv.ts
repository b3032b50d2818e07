import { diagnostics } from '../../core/diagnostics.js'
import { EtlError } from '../../core/errors.js'
import { MAX_KEYS } from '../../core/limits.js'
import { type ColumnSpec, type TableSpec } from '../../core/tables.js'
import type { ExportRecord } from '../../core/types.js'
import { csvRecords, type CsvRecord } from './csv-records.js'
import { BATCH, PANDAS_INDEX, type ExportStream } from './export-stream.js'
import { columnMapping } from './read-columns.js'
import { plural } from '../../core/words.js'

// --- CSV -----------------------------------------------------------------------------------

// What a spreadsheet in another locale, or a tab-separated export, separates columns with.
const OTHER_SEPARATORS: [string, string][] = [[';', 'semicolons'], ['\t', 'tabs'], ['|', 'vertical bars']]

const MAX_SHOWN_START = 4096

/** A header (read as one column, or not read at all) that names several columns split by another separator: said so, not read on as a column count or quoting error. */
function refuseOtherSeparator(name: string, columns: string[]): void {
  if (columns.length !== 1) return
  const [only] = columns as [string]
  const other = OTHER_SEPARATORS.find(([sep]) => only.split(sep).filter((part) => part.trim() !== '').length > 1)
  if (!other) return
  const shown = only.length > 100 ? `${only.slice(0, 100)}…` : only
  throw new EtlError('EXPORT_MALFORMED', `read: ${name}: its header, ${JSON.stringify(shown)}, separates its names by ${other[1]}: CSV separates columns by commas (RFC 4180; in a spreadsheet, choose the comma when saving)`)
}

/** A CSV export as its text arrives: a header, then one record per row, typed by the table's columns. */
export async function openCsv(name: string, text: AsyncIterable<string>): Promise<ExportStream> {
  // The start of the text, kept for what the header says when it cannot be read as CSV at all.
  let start = ''
  const records = csvRecords(name, (async function* () {
    for await (const piece of text) {
      if (start.length < MAX_SHOWN_START) start += piece.slice(0, MAX_SHOWN_START - start.length)
      yield piece
    }
  })())
  let first: IteratorResult<CsvRecord[]>
  try {
    first = await records.next()
  } catch (e) {
    // A header whose names are all quoted and separated by another character ("number";"text"…) is
    // no CSV to csv-parse: what it is separated by is the finding, not where the parser stopped.
    refuseOtherSeparator(name, [start.split(/\r?\n|\r/, 1)[0]!])
    throw e
  }
  if (first.done) throw new EtlError('EXPORT_MALFORMED', `read: ${name}: no header row`)
  const [header, ...afterHeader] = first.value
  const columns = header!.fields
  refuseOtherSeparator(name, columns)
  if (columns.length > MAX_KEYS) throw new EtlError('EXPORT_MALFORMED', `read: ${name}: its header has ${columns.length} columns, more than ${MAX_KEYS} (a row of these tables has at most eight)`)
  const mapping = columnMapping(name, columns)
  const types = csvTypes(mapping.info.table)
  const typeAt = columns.map((c) => types.get(c))
  // A column the header names twice is read where it first stands (and reported: read-columns.ts).
  const named = new Set<string>()
  const firstOf = columns.map((c) => {
    if (named.has(c)) return false
    named.add(c)
    return true
  })
  // Lists and booleans written as Python writes them (pandas to_csv): how many, and the first line, per column.
  const pythonLists = new Map<string, { count: number; line: number }>()
  const pythonBooleans = new Map<string, { count: number; line: number }>()
  const tally = (seen: Map<string, { count: number; line: number }>, column: string, line: number) => {
    const had = seen.get(column)
    if (had) had.count++
    else seen.set(column, { count: 1, line })
  }
  async function* batches() {
    let position = 0
    let batch: ExportRecord[] = []
    const all = (async function* () {
      yield afterHeader
      yield* records
    })()
    for await (const read of all) {
      for (const { fields, line, endLine } of read) {
        if (fields.length !== columns.length) throw new EtlError('EXPORT_MALFORMED', `read: ${name}: Invalid Record Length: expect ${columns.length}, got ${fields.length} on line ${endLine}`)
        const raw: Record<string, unknown> = {}
        for (let i = 0; i < columns.length; i++) {
          if (!firstOf[i]) continue
          let value = typeCsvField(typeAt[i], fields[i]!)
          if (typeof value === 'string' && typeAt[i]?.type === 'list<string>' && PYTHON_LIST.test(value)) tally(pythonLists, columns[i]!, line)
          // pandas writes True and False, spreadsheets TRUE and FALSE; pandas and DuckDB read them back as booleans, and so does this.
          if (typeAt[i]?.type === 'bool' && typeof value === 'string' && OTHER_BOOLEAN.test(value)) {
            tally(pythonBooleans, columns[i]!, line)
            value = value.toLowerCase() === 'true'
          }
          raw[columns[i]!] = value
        }
        batch.push({ record: mapping.map(raw), position: position++, line })
        if (batch.length === BATCH) {
          yield batch
          batch = []
        }
      }
    }
    if (batch.length > 0) yield batch
  }
  const lateDiagnostics = () => [
    ...[...pythonLists].map(([column, { count, line }]) =>
      diagnostics.columns(`column ${column} holds ${count} ${plural(count, 'value')} written as Python lists (['…'], as pandas to_csv and DuckDB's COPY write them), not JSON arrays, the first on line ${line}: write lists as JSON (Python's json.dumps, DuckDB's to_json)`, { column, pythonLists: count }),
    ),
    ...[...pythonBooleans].map(([column, { count, line }]) =>
      diagnostics.columns(`column ${column} writes ${count} ${plural(count, 'boolean')} as True or False, or TRUE or FALSE (as pandas to_csv and spreadsheets do), the first on line ${line}: read as true and false, as pandas and DuckDB read them; the dataset writes true and false`, { column, pythonBooleans: count }, 'warning'),
    ),
  ]
  return { ...mapping.info, batches: batches(), lateDiagnostics, close: () => {} }
}

// true or false in another case than the dataset's CSV writes them (true, false; typeCsvField reads those).
const OTHER_BOOLEAN = /^(?:true|false)$/i

// A Python list's repr: a bracket, then a quoted item (single quotes first, as repr writes them).
const PYTHON_LIST = /^\[\s*'/

function csvTypes(table: TableSpec): Map<string, ColumnSpec> {
  const types = new Map<string, ColumnSpec>(table.columns.map((c) => [c.name, c]))
  types.set(PANDAS_INDEX, { name: PANDAS_INDEX, type: 'int64' })
  return types
}

// CSV holds only text: give each field the type its column declares, as write-csv writes it.
function typeCsvField(column: ColumnSpec | undefined, value: string): unknown {
  if (!column) return value
  if (value === '' && column.nullable) return null
  switch (column.type) {
    case 'list<string>':
      try {
        return JSON.parse(value)
      } catch {
        return value
      }
    case 'int64':
      return /^-?\d+$/.test(value) ? Number(value) : value
    case 'double':
      return /^-?\d+(?:\.\d+)?(?:e[-+]?\d+)?$/i.test(value) ? Number(value) : value
    case 'bool':
      return value === 'true' ? true : value === 'false' ? false : value
    default:
      return value
  }
}
