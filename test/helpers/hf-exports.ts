import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { stringify } from 'csv-stringify/sync'
import { parquetWriteBuffer } from 'hyparquet-writer'
import type { HfRow } from './hf-sample.js'

/**
 * Write the sample rows in the public dataset's layout (columns number, text, examples,
 * __index_level_0__) as Parquet, JSONL and CSV; returns the three paths.
 */
export function writeHfExports(dir: string, rows: HfRow[]): { parquet: string; jsonl: string; csv: string } {
  const paths = { parquet: join(dir, 'hf.parquet'), jsonl: join(dir, 'hf.jsonl'), csv: join(dir, 'hf.csv') }
  const str = { type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' } as const
  const parquet = parquetWriteBuffer({
    columnData: [
      { name: 'number', data: rows.map((r) => r.number) },
      { name: 'text', data: rows.map((r) => r.text) },
      { name: 'examples', data: rows.map((r) => r.examples) },
      { name: '__index_level_0__', data: rows.map((r) => BigInt(r.__index_level_0__)) },
    ],
    schema: [
      { name: 'schema', num_children: 4 },
      { name: 'number', ...str },
      { name: 'text', ...str },
      { name: 'examples', num_children: 1, converted_type: 'LIST', repetition_type: 'OPTIONAL' },
      { name: 'list', num_children: 1, repetition_type: 'REPEATED' },
      { name: 'element', ...str },
      { name: '__index_level_0__', type: 'INT64', repetition_type: 'OPTIONAL' },
    ],
  })
  writeFileSync(paths.parquet, new Uint8Array(parquet))
  writeFileSync(paths.jsonl, rows.map((r) => JSON.stringify(r)).join('\n') + '\n')
  writeFileSync(paths.csv, stringify(rows.map((r) => [r.number, r.text, JSON.stringify(r.examples), r.__index_level_0__]), { header: true, columns: ['number', 'text', 'examples', '__index_level_0__'] }))
  return paths
}
