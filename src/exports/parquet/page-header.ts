// A Parquet page header (Thrift compact protocol), read to check a file's frame before hyparquet
// decodes it: hyparquet trusts the sizes in these headers and does not export its reader of them.
// Only the fields the frame check needs are named; every other field is skipped by its type.

/** The fields of a page header the frame check reads (absent when the header lacks them). */
export interface PageHeader {
  uncompressed_page_size: number
  compressed_page_size: number
  data_page_header?: { num_values: number; encoding?: number }
  dictionary_page_header?: { num_values: number }
  data_page_header_v2?: {
    num_values: number
    num_nulls: number
    num_rows: number
    encoding?: number
    definition_levels_byte_length?: number
    repetition_levels_byte_length?: number
  }
}

/** A header read from `view` at `offset`; `offset` moves past it. Throws when it does not parse there. */
export function readPageHeader(reader: { view: DataView; offset: number }): PageHeader {
  const fields = readStruct(reader, 0)
  const num = (f: Fields, id: number) => (typeof f.get(id) === 'number' ? (f.get(id) as number) : undefined)
  const struct = (id: number) => (fields.get(id) instanceof Map ? (fields.get(id) as Fields) : undefined)
  const uncompressed = num(fields, 2)
  const compressed = num(fields, 3)
  if (num(fields, 1) === undefined || uncompressed === undefined || compressed === undefined) throw new Error('a page header lacks its type or sizes')
  const header: PageHeader = { uncompressed_page_size: uncompressed, compressed_page_size: compressed }
  const v1 = struct(5)
  if (v1) header.data_page_header = { num_values: num(v1, 1) ?? -1, encoding: num(v1, 2) }
  const dictionary = struct(7)
  if (dictionary) header.dictionary_page_header = { num_values: num(dictionary, 1) ?? -1 }
  const v2 = struct(8)
  if (v2) {
    header.data_page_header_v2 = {
      num_values: num(v2, 1) ?? -1,
      num_nulls: num(v2, 2) ?? -1,
      num_rows: num(v2, 3) ?? -1,
      encoding: num(v2, 4),
      definition_levels_byte_length: num(v2, 5),
      repetition_levels_byte_length: num(v2, 6),
    }
  }
  return header
}

type Value = number | boolean | Fields | null
type Fields = Map<number, Value>

// Nested structs deeper than any page header's (statistics inside a data page header) are damage.
const MAX_DEPTH = 8

const STOP = 0
const TRUE = 1
const FALSE = 2
const BYTE = 3
const I16 = 4
const I32 = 5
const I64 = 6
const DOUBLE = 7
const BINARY = 8
const LIST = 9
const SET = 10
const MAP = 11
const STRUCT = 12

function readStruct(reader: { view: DataView; offset: number }, depth: number): Fields {
  if (depth > MAX_DEPTH) throw new Error('a page header nests too deep')
  const fields: Fields = new Map()
  let id = 0
  for (;;) {
    const byte = reader.view.getUint8(reader.offset++)
    const type = byte & 0x0f
    if (type === STOP) return fields
    const delta = byte >> 4
    id = delta === 0 ? zigzag(readVarint(reader)) : id + delta
    fields.set(id, readValue(reader, type, depth))
  }
}

function readValue(reader: { view: DataView; offset: number }, type: number, depth: number): Value {
  switch (type) {
    case TRUE:
      return true
    case FALSE:
      return false
    case BYTE:
      return reader.view.getInt8(reader.offset++)
    case I16:
    case I32:
    case I64:
      return zigzag(readVarint(reader))
    case DOUBLE:
      reader.offset += 8
      if (reader.offset > reader.view.byteLength) throw new RangeError('a page header ends in a number')
      return null
    case BINARY: {
      const length = readVarint(reader)
      reader.offset += length
      if (reader.offset > reader.view.byteLength) throw new RangeError('a page header ends in a string')
      return null
    }
    case LIST:
    case SET: {
      const head = reader.view.getUint8(reader.offset++)
      const size = head >> 4 === 15 ? readVarint(reader) : head >> 4
      for (let i = 0; i < size; i++) readElement(reader, head & 0x0f, depth)
      return null
    }
    case MAP: {
      const size = readVarint(reader)
      if (size === 0) return null
      const kinds = reader.view.getUint8(reader.offset++)
      for (let i = 0; i < size; i++) {
        readElement(reader, kinds >> 4, depth)
        readElement(reader, kinds & 0x0f, depth)
      }
      return null
    }
    case STRUCT:
      return readStruct(reader, depth + 1)
    default:
      throw new Error(`a page header holds an unknown field type ${type}`)
  }
}

// In a list or map a boolean is a byte of its own.
function readElement(reader: { view: DataView; offset: number }, type: number, depth: number): void {
  if (type === TRUE || type === FALSE) reader.offset++
  else readValue(reader, type, depth)
  if (reader.offset > reader.view.byteLength) throw new RangeError('a page header ends in a list')
}

/** An unsigned varint of at most 10 bytes, as a number (exact to 2^53, which no page header passes). */
function readVarint(reader: { view: DataView; offset: number }): number {
  let value = 0
  let scale = 1
  for (let i = 0; i < 10; i++) {
    const byte = reader.view.getUint8(reader.offset++)
    value += (byte & 0x7f) * scale
    if ((byte & 0x80) === 0) return value
    scale *= 128
  }
  throw new Error('a page header holds a number longer than 10 bytes')
}

const zigzag = (n: number) => (n % 2 === 0 ? n / 2 : -(n + 1) / 2)
