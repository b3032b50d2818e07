import { parquetMetadata, type ColumnChunk, type FileMetaData } from 'hyparquet'
import { EtlError } from '../../core/errors.js'
import { MAX_KEYS, MAX_PAGE_BYTES, MAX_PARQUET_FOOTER, PARQUET_BATCH_ROWS } from '../../core/limits.js'
import { MAX_INDEXED_PAGES, offsetIndexMatches, type WalkedPage } from './offset-index.js'
import { readPageHeader, type PageHeader } from './page-header.js'

// A Parquet file's frame checked before anything is decoded (read-export.ts): its footer and every
// page header, whose sizes hyparquet trusts.

/** Ranges of an open file, read synchronously (io/files.ts opens them). */
export interface RangeReader {
  /** Up to `length` bytes at `position` into `out` from `offset`; how many (0 at the end of the file). */
  read(out: Uint8Array, offset: number, length: number, position: number): number
  close(): void
}

/** A file to read by ranges: its path and size when opened, and how to open it (io/files.ts fileRef). */
export interface FileRef {
  path: string
  size: number
  open(): RangeReader
}

/**
 * A Parquet file's footer read and every page header checked, by ranges (see damagedPage): what its
 * columns are and the heap a worker needs to decode a row group. A file whose frame does not hold a
 * footer comes back whole, to be refused by the in-memory path with the same error. EtlError when damaged.
 */
export function checkParquetFile(name: string, ref: FileRef, firstWindow = HEADER_WINDOW): CheckedParquet | Uint8Array {
  const file = ref.open()
  try {
    const readInto = (out: Uint8Array, start: number, length: number) => {
      for (let got = 0; got < length; ) {
        const n = file.read(out, got, length - got, start + got)
        if (n === 0) throw new EtlError('EXPORT_MALFORMED', `read: ${name} is not a readable Parquet file (it ended at byte ${start + got}, before byte ${start + length})`)
        got += n
      }
      return out
    }
    const read = (start: number, length: number) => readInto(new Uint8Array(length), start, length)
    const size = ref.size
    if (size < 12) return read(0, size)
    const head = read(0, 4)
    const tail = read(size - 8, 8)
    const footer = new DataView(tail.buffer).getUint32(0, true)
    if (new TextDecoder().decode(head) !== 'PAR1' || new TextDecoder().decode(tail.subarray(4)) !== 'PAR1' || footer + 8 > size - 4) return read(0, size)
    // Only the page headers are read, each in a window where it stands (grown while it does not
    // parse), not every column chunk whole.
    let window = new Uint8Array(firstWindow)
    const headerAt: PageHeaderAt = (start, chunkSize, offset) => {
      for (let length = Math.min(firstWindow, chunkSize - offset); ; length = Math.min(length * 8, chunkSize - offset)) {
        if (window.length < length) window = new Uint8Array(length)
        readInto(window, start + offset, length)
        const reader = { view: new DataView(window.buffer, 0, length), offset: 0 }
        try {
          return { header: readPageHeader(reader), length: reader.offset }
        } catch (e) {
          // Over the rest of the chunk it fails as over the whole chunk (a header is read forward only).
          if (length >= chunkSize - offset) throw e
        }
      }
    }
    const bytesAt = (start: number, length: number) => (start >= 4 && start + length <= size - 8 ? read(start, length) : null)
    return checkedParquet(name, footer, () => parquetMetadata(read(size - 8 - footer, footer + 8)), size, headerAt, bytesAt)
  } finally {
    file.close()
  }
}

export interface CheckedParquet {
  /** The top-level columns in the schema's order, a name given twice included (read-columns.ts reports it). */
  columns: string[]
  types: Map<string, string>
  heapMb: number
  rowGroups: number
  /**
   * Per row group larger than a batch, its columns whose offset index is their pages
   * (offset-index.ts): read a slice at a time by it. Any other nested column (examples) is decoded
   * whole for its group, any other flat column from its chunk read whole once for the group.
   */
  pageIndexed: string[][]
}

/** Bytes of a page read at first for its header (a header is smaller unless it holds large statistics). */
const HEADER_WINDOW = 1024

/**
 * The page header at `offset` of the column chunk at `start` (of `size` bytes), and its length:
 * readPageHeader's, and what it throws, as over the whole chunk.
 */
export type PageHeaderAt = (start: number, size: number, offset: number) => { header: PageHeader; length: number }

/** PageHeaderAt over a whole file in memory. */
export function headerIn(file: ArrayBuffer): PageHeaderAt {
  return (start, size, offset) => {
    const reader = { view: new DataView(file, start, size), offset }
    const header = readPageHeader(reader)
    return { header, length: reader.offset - offset }
  }
}

/** Bytes of a whole file in memory, where they lie between its magic and its footer's length; else null. */
export const bytesIn =
  (file: ArrayBuffer) =>
  (start: number, length: number): Uint8Array | null =>
    start >= 4 && start + length <= file.byteLength - 8 ? new Uint8Array(file, start, length) : null

/**
 * The footer (`footerLength` bytes) read and every page header checked (see damagedPage); the
 * worker's heap size.
 */
export function checkedParquet(name: string, footerLength: number, metadataOf: () => FileMetaData, size: number, headerAt: PageHeaderAt, bytesAt: (start: number, length: number) => Uint8Array | null): CheckedParquet {
  try {
    // The footer describes every row group's every column: its objects, in both threads, take ~40
    // times its bytes. A file's footer is kilobytes; one of tiny row groups by the ten thousand is
    // refused before it is read (a length past the file is damage, which hyparquet names).
    if (footerLength > MAX_PARQUET_FOOTER && footerLength + 12 <= size) throw new Error(`its footer is ${footerLength} bytes, more than ${MAX_PARQUET_FOOTER}: row groups by the ten thousand`)
    const metadata = metadataOf()
    if (metadata.schema.length - 1 > MAX_KEYS) throw new Error(`its schema has ${metadata.schema.length - 1} columns and fields, more than ${MAX_KEYS}`)
    // The rows a file claims bound the work of reading it (each is decoded and checked): a row of
    // this dataset is never less than a byte of the file, so a small file that claims millions is
    // refused before any is decoded; so is a footer whose count disagrees with its row groups.
    let rows = 0
    for (const g of metadata.row_groups) rows += Number(g.num_rows)
    if (rows !== Number(metadata.num_rows)) throw new Error(`its footer says ${metadata.num_rows} rows, its row groups hold ${rows}`)
    if (rows > size) throw new Error(`it claims ${rows} rows in ${size} bytes: more rows than bytes, which no export of these tables has`)
    let largestGroup = 0
    for (const g of metadata.row_groups) largestGroup = Math.max(largestGroup, Number(g.total_byte_size))
    // The worker's heap is sized to the largest row group (two decoded at a time, as JS strings), so
    // V8 collects as it goes instead of growing towards 2 GiB; a file of huge row groups gets 2 GiB.
    const heapMb = Math.min(2048, Math.max(256, Math.ceil((8 * largestGroup) / 1024 / 1024) + 128))
    // Decompressed pages and text bytes live outside that heap: a row group may unpack to no more.
    const top = topLevelColumns(metadata.schema)
    // The column chunks, in groups read in slices, whose offset index is their pages: each checked
    // as soon as its pages are walked, so that one chunk's pages are held at a time.
    const sliced = (rows: bigint) => Number(rows) > PARQUET_BATCH_ROWS
    const wanted = (group: number) => sliced(metadata.row_groups[group]!.num_rows)
    const flat = (chunk: ColumnChunk) => !top.nested.includes(chunk.meta_data?.path_in_schema[0] ?? '')
    const indexed = new Set<ColumnChunk>()
    const damage = damagedPage(metadata, size, headerAt, heapMb * 1024 * 1024, wanted, flat, (group, chunk, pages) => {
      if (pages !== null && offsetIndexMatches(chunk, pages, Number(metadata.row_groups[group]!.num_rows), bytesAt)) indexed.add(chunk)
    })
    if (damage) throw new Error(damage)
    const pageIndexed = metadata.row_groups.map((group) => (sliced(group.num_rows) ? [...new Set(top.columns)].filter((name) => {
          const leaves = group.columns.filter((c) => c.meta_data?.path_in_schema[0] === name)
          return leaves.length > 0 && leaves.every((c) => indexed.has(c))
        }) : []))
    return { columns: top.columns, types: top.types, heapMb, rowGroups: metadata.row_groups.length, pageIndexed }
  } catch (e) {
    if (e instanceof EtlError) throw e
    throw new EtlError('EXPORT_MALFORMED', `read: ${name} is not a readable Parquet file (${(e as Error).message})`)
  }
}


/**
 * Walk every page header of every column chunk before decoding anything: hyparquet trusts the
 * sizes and value counts in them, so one damaged header can make it loop or allocate without end.
 * Returns what is wrong, or null.
 */
function damagedPage(
  metadata: FileMetaData,
  fileSize: number,
  headerAt: PageHeaderAt,
  maxGroupBytes: number,
  wanted: (group: number) => boolean,
  flat: (chunk: ColumnChunk) => boolean,
  onPages: (group: number, chunk: ColumnChunk, pages: WalkedPage[] | null) => void,
): string | null {
  for (const [g, group] of metadata.row_groups.entries()) {
    let unpacked = 0
    for (const column of group.columns) {
      const meta = column.meta_data
      if (!meta) continue
      const name = meta.path_in_schema.join('.')
      const start = Number(meta.dictionary_page_offset ?? meta.data_page_offset)
      const size = Number(meta.total_compressed_size)
      if (!(start >= 4 && size >= 0 && start + size <= fileSize - 8)) return `column ${name} lies outside the file`
      const reader = { offset: 0 }
      let values = 0
      // A wanted chunk's data pages, up to MAX_INDEXED_PAGES (null past it). A page of a flat
      // column holds a value a row, so its value count is its rows (v1 pages give no row count).
      let pages: WalkedPage[] | null = wanted(g) ? [] : null
      const keepPages = pages !== null
      const rowsAreValues = keepPages && flat(column)
      while (reader.offset < size) {
        const at = start + reader.offset
        const { header, length } = headerAt(start, size, reader.offset)
        reader.offset += length
        const compressed = header.compressed_page_size
        if (!(compressed >= 0 && reader.offset + compressed <= size)) return `page at byte ${at} of column ${name} claims ${compressed} bytes, past its column`
        if (!(header.uncompressed_page_size >= 0 && header.uncompressed_page_size <= MAX_PAGE_BYTES)) return `page at byte ${at} of column ${name} claims ${header.uncompressed_page_size} bytes uncompressed`
        const count = header.data_page_header?.num_values ?? header.data_page_header_v2?.num_values ?? header.dictionary_page_header?.num_values ?? 0
        if (!(count >= 0 && count <= Number(meta.num_values) + (header.dictionary_page_header ? MAX_PAGE_BYTES : 0))) return `page at byte ${at} of column ${name} claims ${count} values`
        const v2 = header.data_page_header_v2
        if (v2) {
          const levels = (v2.definition_levels_byte_length ?? -1) + (v2.repetition_levels_byte_length ?? -1)
          const sane = v2.num_nulls >= 0 && v2.num_nulls <= count && v2.num_rows >= 0 && v2.num_rows <= count && levels >= 0 && levels <= compressed && v2.encoding !== undefined
          if (!sane) return `page at byte ${at} of column ${name} has a damaged header`
        } else if (header.data_page_header && header.data_page_header.encoding === undefined) {
          return `page at byte ${at} of column ${name} has a damaged header`
        }
        if (!header.dictionary_page_header) {
          values += count
          if (pages !== null && pages.length >= MAX_INDEXED_PAGES) pages = null
          pages?.push(v2 ? { start: at, length: length + compressed, rows: v2.num_rows } : rowsAreValues ? { start: at, length: length + compressed, rows: count } : { start: at, length: length + compressed })
        }
        unpacked += header.uncompressed_page_size
        if (unpacked > maxGroupBytes) return `row group ${g} unpacks to more than ${Math.round(maxGroupBytes / 1024 / 1024)} MiB, the most its footer's sizes allow`
        reader.offset += compressed
      }
      if (values !== Number(meta.num_values)) return `column ${name} holds ${values} values in its pages, ${meta.num_values} in the footer`
      if (keepPages) onPages(g, column, pages)
    }
  }
  return null
}

type SchemaElementLike = {
  name: string
  type?: string
  num_children?: number
  repetition_type?: string
  converted_type?: string
  logical_type?: { type: string; isSigned?: boolean; bitWidth?: number }
}

// Walk the flattened schema and name each top-level column and its type: string, int64, list<string>, …
function topLevelColumns(schema: SchemaElementLike[]): { columns: string[]; types: Map<string, string>; nested: string[] } {
  let i = 1
  // A leaf's type as its physical type and annotation say it: an INT64 that is unsigned, a decimal
  // or a time is not this dataset's int64, nor an INT96 or a JSON byte array its string.
  const leafType = (el: SchemaElementLike) => {
    const logical = el.logical_type
    const annotation = logical?.type ?? el.converted_type
    if (annotation === 'UTF8' || annotation === 'STRING' || annotation === 'ENUM') return 'string'
    const physical = (el.type ?? 'unknown').toLowerCase()
    if (annotation === undefined || annotation === 'INT_64' || annotation === 'INT_32') return physical
    if (annotation === 'INTEGER') return logical!.isSigned === false ? `uint${logical!.bitWidth ?? ''}` : physical
    if (/^UINT_\d+$/.test(annotation)) return annotation.replace('UINT_', 'uint')
    return `${physical} (${annotation.toLowerCase()})`
  }
  const describe = (): string => {
    const el = schema[i++]!
    if (!el.num_children) return el.repetition_type === 'REPEATED' ? `legacy-list<${leafType(el)}>` : leafType(el)
    const children: string[] = []
    for (let c = 0; c < el.num_children; c++) children.push(describe())
    if (el.converted_type === 'LIST' || el.logical_type?.type === 'LIST') return `list<${children[0]!.replace(/^legacy-list<(.*)>$/, '$1')}>`
    if (el.repetition_type === 'REPEATED' && children.length === 1) return `legacy-list<${children[0]}>`
    return `struct<${children.join(',')}>`
  }
  const columns: string[] = []
  const types = new Map<string, string>()
  // Lists and other nested columns (as parquet-groups.mjs tells them): a group's slice of one is
  // decoded from the group's start unless its offset index is used.
  const nested: string[] = []
  while (i < schema.length) {
    const el = schema[i]!
    columns.push(el.name)
    if (el.num_children || el.repetition_type === 'REPEATED') nested.push(el.name)
    types.set(el.name, describe())
  }
  return { columns, types, nested }
}
