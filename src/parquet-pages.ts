import { Buffer } from 'node:buffer'
import { parquetHeader } from 'hyparquet/src/column.js'
import { gunzipBounded } from './workers/parquet-groups.mjs'

/**
 * The values of a flat Parquet column chunk read straight from its pages, for the clean proof: the
 * one layout our writer uses (data pages v2, PLAIN, GZIP or none, every value present) and nothing
 * else. Text is left in the decompressed pages, each value a range of them: no object per value.
 * Anything outside that layout gives null, and hyparquet decodes the column as the exact path does;
 * inside it, the values are the ones hyparquet reads (same page sizes checked, same levels).
 */
export interface ByteArrayPages {
  pages: { bytes: Buffer; starts: Int32Array; ends: Int32Array }[]
  count: number
}

/** What the reader needs of a column: its chunk's metadata and schema element. */
export interface FlatColumn {
  meta: {
    codec: string
    num_values: bigint | number
    data_page_offset: bigint | number
    dictionary_page_offset?: bigint | number
    total_compressed_size: bigint | number
  }
  element: { type?: string; repetition_type?: string; converted_type?: string; logical_type?: { type: string } }
}

export type ByteArrayPage = ByteArrayPages['pages'][number]

/**
 * Byte arrays of a UTF-8 string column (number, text), or null. With `each`, each page goes to it as
 * it is read and is not kept (a text column: one page in memory, not the row group's).
 */
export function stringPages(chunk: Uint8Array, column: FlatColumn, rows: number, each?: (page: ByteArrayPage) => void): ByteArrayPages | null {
  const { element } = column
  const { converted_type: ctype, logical_type: ltype } = element
  // UTF8 and/or STRING, and no other annotation: hyparquet then hands the bytes over as they are.
  const utf8 = (ctype === 'UTF8' || ctype === undefined) && (ltype === undefined || ltype.type === 'STRING') && (ctype ?? ltype) !== undefined
  if (element.type !== 'BYTE_ARRAY' || !utf8) return null
  const pages: ByteArrayPages['pages'] = []
  const count = eachPage(chunk, column, rows, (bytes, values) => {
    const starts = new Int32Array(values)
    const ends = new Int32Array(values)
    let at = 0
    for (let i = 0; i < values; i++) {
      if (at + 4 > bytes.length) return false
      const length = bytes.readUInt32LE(at)
      starts[i] = at + 4
      at += 4 + length
      if (at > bytes.length) return false
      ends[i] = at
    }
    if (each) each({ bytes, starts, ends })
    else pages.push({ bytes, starts, ends })
    return true
  })
  return count === null ? null : { pages, count }
}

/** The values of a plain INT64 column (index), as numbers (NaN where not a safe integer), or null. */
export function int64Values(chunk: Uint8Array, column: FlatColumn, rows: number): Float64Array | null {
  const { element } = column
  if (element.type !== 'INT64' || element.converted_type !== undefined || element.logical_type !== undefined) return null
  const out = new Float64Array(rows)
  let at = 0
  const count = eachPage(chunk, column, rows, (bytes, values) => {
    if (bytes.length < values * 8) return false
    for (let i = 0; i < values; i++) {
      const v = bytes.readBigInt64LE(i * 8)
      out[at++] = Number.isSafeInteger(Number(v)) ? Number(v) : NaN
    }
    return true
  })
  return count === null ? null : out
}

/**
 * Decompressed values of each data page of a chunk, to `each` (false: not this layout). The count
 * of values when every page is in the layout and they add up to `rows`, else null.
 */
function eachPage(chunk: Uint8Array, column: FlatColumn, rows: number, each: (values: Buffer, count: number) => boolean): number | null {
  const { meta, element } = column
  const codec = meta.codec
  if (codec !== 'GZIP' && codec !== 'UNCOMPRESSED') return null
  // (Page indexes are not read: hyparquet reads a whole row group without them too.)
  if (meta.dictionary_page_offset !== undefined) return null
  if (Number(meta.num_values) !== rows) return null
  const optional = element.repetition_type === 'OPTIONAL'
  if (!optional && element.repetition_type !== 'REQUIRED') return null
  const reader = { view: new DataView(chunk.buffer, chunk.byteOffset, chunk.byteLength), offset: 0 }
  let count = 0
  // hyparquet stops with one byte left; a header that does not parse is for it to report.
  while (reader.offset < chunk.length - 1) {
    let header: ReturnType<typeof parquetHeader>
    try {
      header = parquetHeader(reader)
    } catch {
      return null
    }
    const v2 = header.data_page_header_v2
    if (header.type !== 'DATA_PAGE_V2' || !v2 || v2.encoding !== 'PLAIN' || v2.num_nulls !== 0 || v2.repetition_levels_byte_length !== 0) return null
    const page = chunk.subarray(reader.offset, reader.offset + header.compressed_page_size)
    reader.offset += header.compressed_page_size
    const levels = v2.definition_levels_byte_length
    if (page.length !== header.compressed_page_size || levels < 0 || levels > page.length) return null
    // Every level must say "present": RLE runs of 1 that cover the page's values exactly.
    if (optional ? !allPresent(page.subarray(0, levels), v2.num_values) : levels !== 0) return null
    const body = page.subarray(levels)
    let values: Buffer
    if (v2.is_compressed === false || codec === 'UNCOMPRESSED') values = Buffer.from(body.buffer, body.byteOffset, body.byteLength)
    else {
      try {
        values = gunzipBounded(body, header.uncompressed_page_size - levels)
      } catch {
        return null
      }
    }
    // hyparquet holds a page that is said to be compressed to the size its header gives.
    if (v2.is_compressed !== false && values.length !== header.uncompressed_page_size - levels) return null
    if (!each(values, v2.num_values)) return null
    count += v2.num_values
  }
  return count === rows ? count : null
}

/** Whether RLE/bit-packed levels of width 1 are RLE runs of 1 adding up to exactly `n`. */
function allPresent(levels: Uint8Array, n: number): boolean {
  let at = 0
  let seen = 0
  while (seen < n) {
    let header = 0
    for (let shift = 0; ; shift += 7) {
      if (at >= levels.length || shift > 28) return false
      const b = levels[at++]!
      header |= (b & 0x7f) << shift
      if (b < 0x80) break
    }
    if (header & 1 || at >= levels.length || levels[at++] !== 1) return false
    seen += header >>> 1
  }
  return seen === n
}
