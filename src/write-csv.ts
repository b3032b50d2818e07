import { stringify } from 'csv-stringify/sync'
import type { RuleRow } from './types.js'

export const CSV_COLUMNS = ['number', 'text', 'examples', 'index'] as const

/**
 * RFC 4180 CSV: header row, CRLF record ends, `examples` as a JSON array in one field.
 * quote_record_delimiter must stay on with a CRLF delimiter, or fields holding `\n` go unquoted.
 */
export function writeCsv(rows: RuleRow[]): Uint8Array {
  const text = stringify(
    rows.map((r) => [r.number, r.text, JSON.stringify(r.examples), String(r.index)]),
    { header: true, columns: [...CSV_COLUMNS], record_delimiter: 'windows', quote_record_delimiter: true },
  )
  return new TextEncoder().encode(text)
}
