import type { TableRow, TableSpec } from './tables.js'

/** JSON Lines: one object per row, keys in the table's column order; UTF-8, `\n` after each. */
export function writeJsonl(table: TableSpec, rows: TableRow[]): Uint8Array {
  // A replacer array makes JSON.stringify write exactly these keys, in this order.
  const keys = table.columns.map((c) => c.name)
  let out = ''
  for (const row of rows) out += JSON.stringify(row, keys) + '\n'
  return Buffer.from(out, 'utf8')
}
