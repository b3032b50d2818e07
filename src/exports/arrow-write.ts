import { Bool, Field, Float64, Int64, List, Schema, Table, Utf8, vectorFromArray, tableToIPC, type DataType, type Vector } from 'apache-arrow'
import type { ColumnSpec, TableRow, TableSpec } from '../core/tables.js'

function arrowType(column: ColumnSpec): DataType {
  switch (column.type) {
    case 'string':
      return new Utf8()
    case 'int64':
      return new Int64()
    case 'double':
      return new Float64()
    case 'bool':
      return new Bool()
    case 'list<string>':
      // Named `element`, as pyarrow and the Parquet file name the list child.
      return new List(new Field('element', new Utf8(), true))
  }
}

function vectorOf(column: ColumnSpec, rows: TableRow[]): Vector {
  const values = rows.map((r) => {
    const v = r[column.name] ?? null
    return column.type === 'int64' && v !== null ? BigInt(v as number) : v
  })
  return vectorFromArray(values, arrowType(column))
}

/**
 * Arrow IPC file (Feather v2) with the same columns and types as the Parquet export. Imported
 * lazily by the CLI, only when Arrow output is asked for: apache-arrow costs ~150 ms to load.
 */
export function writeArrow(table: TableSpec, rows: TableRow[]): Uint8Array {
  const fields = table.columns.map((c) => new Field(c.name, arrowType(c), true))
  const vectors = Object.fromEntries(table.columns.map((c) => [c.name, vectorOf(c, rows)]))
  const arrowTable = new Table(new Schema(fields), vectors)
  return tableToIPC(arrowTable, 'file')
}
