import { endianness } from 'node:os'
import { Buffer } from 'node:buffer'
import { parquetHeader } from 'hyparquet/src/column.js'
import { readRleBitPackedHybrid } from 'hyparquet/src/encoding.js'
import type { PageScratch } from './page-scratch.js'
import { int64sKernel, levelsKernel, type ListPage } from './page-kernels.js'
import { gunzipBounded } from '../../exports/parquet-groups.mjs'

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

/** A data page in the layout, found by its header: its values still compressed (or not). */
export interface PageRef {
  body: Uint8Array
  /** The page's level bytes (repetition, then definition), and its header. */
  levels: Uint8Array
  header: PageHeaderV2
  /** How many values, and the size of the values' bytes once decompressed. */
  values: number
  size: number
  compressed: boolean
}

/**
 * Each page of a UTF-8 string column in the layout, as it is unpacked (`into` a reused buffer): its
 * values (each after its four-byte length) and their count, to `each`, which says whether they fit
 * the page. False when the column is not in the layout or a page does not hold its values.
 */
export function eachStringPage(chunk: Uint8Array, column: FlatColumn, rows: number, each: (bytes: Buffer, count: number) => boolean, into?: PageScratch): boolean {
  const refs = stringPageRefs(chunk, column, rows)
  if (!refs) return false
  for (const ref of refs) {
    // Four bytes at least a value (its length): a header that claims more is refused before unpacking.
    if (ref.values * 4 > ref.size) return false
    const bytes = pageValues(ref, column.meta.codec, into)
    if (!bytes || !each(bytes, ref.values)) return false
  }
  return true
}

/** The pages of a UTF-8 string column in the layout, their values not yet decompressed; else null. */
export function stringPageRefs(chunk: Uint8Array, column: FlatColumn, rows: number): PageRef[] | null {
  const { element } = column
  const { converted_type: ctype, logical_type: ltype } = element
  // UTF8 and/or STRING, and no other annotation: hyparquet then hands the bytes over as they are.
  const utf8 = (ctype === 'UTF8' || ctype === undefined) && (ltype === undefined || ltype.type === 'STRING') && (ctype ?? ltype) !== undefined
  if (element.type !== 'BYTE_ARRAY' || !utf8) return null
  return pageRefs(chunk, column, rows)
}

/**
 * One page of byte arrays: decompressed, each value a range of it; null when its bytes do not hold
 * its values. With `into`, the bytes are valid only until its next use (see pageValues).
 */
export function stringPage(ref: PageRef, codec: string, into?: PageScratch): ByteArrayPage | null {
  // Four bytes at least a value (its length): a header that claims more is refused before allocating.
  if (ref.values * 4 > ref.size) return null
  const bytes = pageValues(ref, codec, into)
  return bytes && byteArrayPage(bytes, ref.values, into)
}

/** The `count` PLAIN byte arrays of a page's bytes (each after its four-byte length), or null when they do not fit. */
export function byteArrayPage(bytes: Buffer, count: number, into?: PageScratch): ByteArrayPage | null {
  const [starts, ends] = into ? into.offsets(count) : [new Int32Array(count), new Int32Array(count)]
  let at = 0
  for (let i = 0; i < count; i++) {
    if (at + 4 > bytes.length) return null
    const length = uint32At(bytes, at)
    starts[i] = at + 4
    at += 4 + length
    if (at > bytes.length) return null
    ends[i] = at
  }
  return { bytes, starts, ends }
}

/** The values of a plain INT64 column (index), as numbers (NaN where not a safe integer), or null. */
export function int64Values(chunk: Uint8Array, column: FlatColumn, rows: number, into?: PageScratch): Float64Array | null {
  const { element } = column
  if (element.type !== 'INT64' || element.converted_type !== undefined || element.logical_type !== undefined) return null
  const refs = pageRefs(chunk, column, rows)
  // Eight bytes a value: a footer that claims more rows than the pages hold is refused before allocating.
  if (!refs || refs.some((ref) => ref.size < ref.values * 8)) return null
  const out = new Float64Array(rows)
  let at = 0
  for (const ref of refs) {
    const bytes = pageValues(ref, column.meta.codec, into)
    if (!bytes || bytes.length < ref.values * 8) return null
    at = int64sInto(out, at, bytes, ref.values)
  }
  return out
}

/**
 * `count` little-endian INT64s from `bytes` into out[at…], as numbers (NaN where not a safe
 * integer): the row after them. Two halves, no BigInt: exact below 2^53, and never rounded into the
 * safe range from above. Read as 32-bit words where the bytes are aligned for it (a loop that stays
 * fast before the compiler has warmed up: a thread proves its first row groups cold).
 */
export function int64sInto(out: Float64Array, at: number, bytes: Buffer, count: number): number {
  return int64sKernel(out, at, bytes, count) ?? walkInt64s(out, at, bytes, count)
}

/** int64sInto in JavaScript, where its kernel does not take the page (and in tests, its twin). */
export function walkInt64s(out: Float64Array, at: number, bytes: Buffer, count: number): number {
  if (LITTLE_ENDIAN && bytes.byteOffset % 4 === 0) {
    const words = new Int32Array(bytes.buffer, bytes.byteOffset, 2 * count)
    for (let i = 0; i < count; i++) {
      const v = words[2 * i + 1]! * 4294967296 + (words[2 * i]! >>> 0)
      out[at++] = Number.isSafeInteger(v) ? v : NaN
    }
    return at
  }
  for (let i = 0; i < count; i++) {
    const v = bytes.readInt32LE(i * 8 + 4) * 4294967296 + bytes.readUInt32LE(i * 8)
    out[at++] = Number.isSafeInteger(v) ? v : NaN
  }
  return at
}

const LITTLE_ENDIAN = endianness() === 'LE'

/**
 * The data pages of a chunk, when every page header is in the layout (levels included) and their
 * values add up to `rows`; else null. Nothing is decompressed: see pageValues.
 */
function pageRefs(chunk: Uint8Array, column: FlatColumn, rows: number): PageRef[] | null {
  const optional = column.element.repetition_type === 'OPTIONAL'
  if (!optional && column.element.repetition_type !== 'REQUIRED') return null
  return headerWalk(chunk, column.meta, rows, (v2, page) => {
    if (v2.num_nulls !== 0 || v2.repetition_levels_byte_length !== 0) return null
    const levels = v2.definition_levels_byte_length
    if (levels < 0 || levels > page.length) return null
    // Every level must say "present": RLE runs of 1 that cover the page's values exactly.
    if (optional ? !allPresent(page.subarray(0, levels), v2.num_values) : levels !== 0) return null
    return levels
  })
}

type PageHeaderV2 = NonNullable<ReturnType<typeof parquetHeader>['data_page_header_v2']>

/**
 * The data pages of a chunk (v2, PLAIN, GZIP or none, no dictionary) whose `num_values` add up to
 * `values`, each page's levels judged by `levelsOf` (the bytes they take, or null: not the layout).
 */
function headerWalk(chunk: Uint8Array, meta: FlatColumn['meta'], values: number, levelsOf: (v2: PageHeaderV2, page: Uint8Array) => number | null): PageRef[] | null {
  const codec = meta.codec
  if (codec !== 'GZIP' && codec !== 'UNCOMPRESSED') return null
  // (Page indexes are not read: hyparquet reads a whole row group without them too.)
  if (meta.dictionary_page_offset !== undefined) return null
  if (Number(meta.num_values) !== values) return null
  const reader = { view: new DataView(chunk.buffer, chunk.byteOffset, chunk.byteLength), offset: 0 }
  const refs: PageRef[] = []
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
    if (header.type !== 'DATA_PAGE_V2' || !v2 || v2.encoding !== 'PLAIN') return null
    const page = chunk.subarray(reader.offset, reader.offset + header.compressed_page_size)
    reader.offset += header.compressed_page_size
    if (page.length !== header.compressed_page_size) return null
    const levels = levelsOf(v2, page)
    if (levels === null) return null
    refs.push({ body: page.subarray(levels), levels: page.subarray(0, levels), header: v2, values: v2.num_values, size: header.uncompressed_page_size - levels, compressed: v2.is_compressed !== false })
    count += v2.num_values
  }
  return count === values ? refs : null
}

/**
 * The pages of a list-of-strings column written as our writer writes `examples` (an optional LIST
 * of a repeated group of one optional UTF-8 element: repetition levels 0..1, definition levels 0..3),
 * or null; their levels are read by listPage.
 */
export function listPageRefs(chunk: Uint8Array, column: ListColumn): PageRef[] | null {
  const [list, repeated, element] = column.elements
  const utf8 = element.converted_type === 'UTF8' && (element.logical_type === undefined || element.logical_type.type === 'STRING')
  if (list.repetition_type !== 'OPTIONAL' || list.converted_type !== 'LIST' || list.num_children !== 1) return null
  if (repeated.repetition_type !== 'REPEATED' || repeated.num_children !== 1 || repeated.type !== undefined) return null
  if (element.repetition_type !== 'OPTIONAL' || element.type !== 'BYTE_ARRAY' || !utf8 || element.num_children !== undefined) return null
  return headerWalk(chunk, column.meta, Number(column.meta.num_values), (v2, page) => {
    const levels = v2.repetition_levels_byte_length + v2.definition_levels_byte_length
    return v2.repetition_levels_byte_length >= 0 && v2.definition_levels_byte_length >= 0 && levels <= page.length ? levels : null
  })
}

/** What the list reader needs of a column: its chunk's metadata and the schema elements on its path. */
export interface ListColumn {
  meta: FlatColumn['meta']
  elements: [FlatColumn['element'] & ListElement, FlatColumn['element'] & ListElement, FlatColumn['element'] & ListElement]
}
type ListElement = { name: string; num_children?: number; converted_type?: string }

/** One page of a list column: each entry's levels, and its values decompressed. */
export type { ListPage }

/**
 * A page of listPageRefs read as hyparquet reads it (the same level decoder); null when its levels
 * do not decode to one of each per entry, or its values do not decompress.
 */
export function listPage(ref: PageRef, codec: string, into?: PageScratch): ListPage | null {
  const v2 = ref.header
  // Levels are decoded into arrays as long as the header says, and a run may lengthen them: both are
  // bounded first (this runs where no heap limit would stop a damaged page's billions of levels).
  const present = v2.num_values - v2.num_nulls
  if (!(v2.num_values <= MAX_PAGE_LEVELS && present >= 0 && present * 4 <= ref.size)) return null
  const repLength = v2.repetition_levels_byte_length
  if (!levelsFit(ref.levels, repLength, v2.num_values)) return null
  const levels = levelsKernel(ref.levels, repLength, v2.num_values) ?? walkLevels(ref.levels, v2)
  if (!levels) return null
  const values = pageValues(ref, codec, into)
  return values && { repetition: levels[0], definition: levels[1], values, present: v2.num_values - v2.num_nulls }
}

/**
 * Whether a list page's level runs (repetition, width 1, then definition, width 2) lie within their
 * bytes and add up to `n` levels (a bit-packed run's last group may pass it by 7): what the decoders
 * are given, so that no run lengthens their arrays without bound.
 */
export function levelsFit(levels: Uint8Array, repLength: number, n: number): boolean {
  return runsFit(levels.subarray(0, repLength), 1, n) && runsFit(levels.subarray(repLength), 2, n)
}

/**
 * A list page's repetition and definition levels decoded by hyparquet's decoder, as the exact path
 * decodes them (where the kernel does not take them, and in tests, its twin); null when they do
 * not decode to one of each per entry. Only for levels that fit (levelsFit).
 */
export function walkLevels(levels: Uint8Array, v2: PageHeaderV2): [number[], number[]] | null {
  const reader = { view: new DataView(levels.buffer, levels.byteOffset, levels.byteLength), offset: 0 }
  // Arrays as hyparquet's: a run that goes past the end lengthens one, and that is seen (not taken).
  const repetition = new Array<number>(v2.num_values)
  const definition = new Array<number>(v2.num_values)
  try {
    readRleBitPackedHybrid(reader, 1, repetition, v2.repetition_levels_byte_length)
    reader.offset = v2.repetition_levels_byte_length
    readRleBitPackedHybrid(reader, 2, definition, v2.definition_levels_byte_length)
  } catch {
    return null
  }
  return repetition.length === v2.num_values && definition.length === v2.num_values ? [repetition, definition] : null
}

/**
 * A page's values, decompressed; null when they do not unpack to the size its header gives. With
 * `into` (pages read one at a time), into its buffer, valid until its next use; else a buffer of their own.
 */
export function pageValues(ref: PageRef, codec: string, into?: PageScratch): Buffer | null {
  const { body } = ref
  let values: Buffer
  if (!ref.compressed || codec === 'UNCOMPRESSED') values = Buffer.from(body.buffer, body.byteOffset, body.byteLength)
  else {
    const unpacked = into?.unpack(body, ref.size)
    if (unpacked) return unpacked
    try {
      values = gunzipBounded(body, ref.size)
    } catch {
      return null
    }
  }
  // hyparquet holds a page that is said to be compressed to the size its header gives.
  return !ref.compressed || values.length === ref.size ? values : null
}

/** Levels a list page may have (ours have tens of thousands). */
const MAX_PAGE_LEVELS = 1 << 24

/**
 * Whether the RLE/bit-packed hybrid runs in `levels` (of `width` bits) hold no more than `n` values
 * (bit-packed runs come in eights, so up to 7 more) and are whole.
 */
function runsFit(levels: Uint8Array, width: number, n: number): boolean {
  let at = 0
  let seen = 0
  const bytes = (width + 7) >> 3
  while (seen < n) {
    let header = 0
    for (let shift = 0; ; shift += 7) {
      if (at >= levels.length || shift > 28) return false
      const b = levels[at++]!
      header += (b & 0x7f) * 2 ** shift
      if (b < 0x80) break
    }
    const count = header % 2 === 1 ? Math.floor(header / 2) * 8 : Math.floor(header / 2)
    at += header % 2 === 1 ? Math.floor(header / 2) * width : bytes
    seen += count
    if (at > levels.length || seen > n + 7) return false
  }
  return true
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

/**
 * The little-endian uint32 at `at` (the caller has checked that its four bytes are there): what
 * `readUInt32LE` reads, without its call and bounds check in loops over every value of a page.
 */
export function uint32At(bytes: Uint8Array, at: number): number {
  return (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16)) + bytes[at + 3]! * 16777216
}
