import { parquetWriteBuffer } from 'hyparquet-writer'
import type { SchemaElement } from 'hyparquet'
import type { RuleRow } from './types.js'

// The layout pyarrow and Hugging Face write: optional columns, `examples` as a 3-level LIST whose
// child is named `element`. Without an explicit schema hyparquet-writer would store the lists as
// JSON text and the index as INT32.
const SCHEMA: SchemaElement[] = [
  { name: 'schema', num_children: 4 },
  { name: 'number', type: 'BYTE_ARRAY', converted_type: 'UTF8', logical_type: { type: 'STRING' }, repetition_type: 'OPTIONAL' },
  { name: 'text', type: 'BYTE_ARRAY', converted_type: 'UTF8', logical_type: { type: 'STRING' }, repetition_type: 'OPTIONAL' },
  { name: 'examples', num_children: 1, converted_type: 'LIST', logical_type: { type: 'LIST' }, repetition_type: 'OPTIONAL' },
  { name: 'list', num_children: 1, repetition_type: 'REPEATED' },
  { name: 'element', type: 'BYTE_ARRAY', converted_type: 'UTF8', logical_type: { type: 'STRING' }, repetition_type: 'OPTIONAL' },
  { name: 'index', type: 'INT64', repetition_type: 'OPTIONAL' },
]

// What `datasets` stores in the file so that it loads `examples` as Sequence(string).
const HF_FEATURES = JSON.stringify({
  info: {
    features: {
      number: { dtype: 'string', _type: 'Value' },
      text: { dtype: 'string', _type: 'Value' },
      examples: { feature: { dtype: 'string', _type: 'Value' }, _type: 'Sequence' },
      index: { dtype: 'int64', _type: 'Value' },
    },
  },
})

/** Parquet, SNAPPY-compressed, one row group, columns number, text, examples, index. */
export function writeParquet(rows: RuleRow[], createdBy: string): Uint8Array {
  const buffer = parquetWriteBuffer({
    columnData: [
      { name: 'number', data: rows.map((r) => r.number) },
      { name: 'text', data: rows.map((r) => r.text) },
      { name: 'examples', data: rows.map((r) => r.examples) },
      { name: 'index', data: rows.map((r) => BigInt(r.index)) },
    ],
    schema: SCHEMA,
    codec: 'SNAPPY',
    rowGroupSize: Math.max(rows.length, 1),
    kvMetadata: [{ key: 'huggingface', value: HF_FEATURES }],
    createdBy,
  })
  return new Uint8Array(buffer)
}
