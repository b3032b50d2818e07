import { stringify } from 'csv-stringify/sync'
import type { ColumnSpec, TableRow, TableSpec } from './tables.js'

function field(column: ColumnSpec, value: TableRow[string] | undefined): string {
  if (value === null || value === undefined) return ''
  if (column.type === 'list<string>') return JSON.stringify(value)
  return String(value)
}

/**
 * RFC 4180 CSV: header row, CRLF record ends, lists as JSON arrays in one field, booleans as
 * true/false, null as an empty field. quote_record_delimiter must stay on with a CRLF delimiter,
 * or fields holding `\n` go unquoted.
 */
export function writeCsv(table: TableSpec, rows: TableRow[]): Uint8Array {
  const text = stringify(
    rows.map((row) => table.columns.map((c) => field(c, row[c.name]))),
    { header: true, columns: table.columns.map((c) => c.name), record_delimiter: 'windows', quote_record_delimiter: true },
  )
  return new TextEncoder().encode(text)
}
