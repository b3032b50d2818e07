import type { TableRow, TableSpec } from './tables.js'

/** JSON Lines: one object per row, keys in the table's column order; UTF-8, `\n` after each. */
export function writeJsonl(table: TableSpec, rows: TableRow[]): Uint8Array {
  const parts: string[] = []
  for (const row of rows) {
    const ordered: TableRow = {}
    for (const c of table.columns) ordered[c.name] = row[c.name] ?? null
    parts.push(JSON.stringify(ordered) + '\n')
  }
  return new TextEncoder().encode(parts.join(''))
}
