// Row groups of a Parquet file decoded into columns with hyparquet, for decode-binary.mjs. Plain
// JavaScript: it runs from src/ (tests) and dist/.
import { parquetMetadata, parquetMetadataAsync, parquetRead, parquetSchema } from 'hyparquet'
import { gunzipSync } from 'node:zlib'
import { packColumn, sliceColumn } from './packed-columns.mjs'

// GZIP through Node's native zlib: twice as fast as the JavaScript one. Never past the size the page
// header gives: a small page that unpacks to gigabytes (outside any heap limit) is refused at that size.
// The other codecs are loaded on first use (25 ms of every start, and our own files never need them).
let compressors
async function compressorsOf() {
  if (!compressors) {
    const { compressors: decoders } = await import('hyparquet-compressors')
    compressors = { ...decoders, GZIP: (input, size) => gunzipBounded(input, size) }
  }
  return compressors
}

/** GZIP bytes unpacked to at most `size` bytes; an error beyond. */
export function gunzipBounded(input, size) {
  try {
    return gunzipSync(input, { maxOutputLength: Math.max(1, size), chunkSize: Math.max(64 * 1024, Math.min(size + 1, 64 * 1024 * 1024)) })
  } catch (e) {
    if (e?.code === 'ERR_BUFFER_TOO_LARGE') throw new Error(`a GZIP page unpacks to more than the ${size} bytes its header gives`)
    throw e
  }
}

/**
 * A Parquet file from its bytes (`buffer`) or read by ranges (`file`, hyparquet's AsyncBuffer over
 * a file: io/ makes it).
 */
export async function openParquetSource({ buffer, file: ranges }) {
  const file = ranges ?? buffer
  const metadata = ranges === undefined ? parquetMetadata(buffer) : await parquetMetadataAsync(ranges)
  const top = parquetSchema(metadata).children
  const names = top.map((c) => c.element.name)
  // Lists and other nested columns: hyparquet reads their pages from the group's start to its end
  // whatever rows are asked for (a plain column's, only those of the rows asked for).
  const nested = top.filter((c) => c.children.length > 0 || c.element.repetition_type === 'REPEATED').map((c) => c.element.name)
  const rowStarts = [0]
  for (const g of metadata.row_groups) rowStarts.push(rowStarts.at(-1) + Number(g.num_rows))
  return { file, metadata, names, nested, rowStarts }
}

/**
 * Rows `from` to `to` (positions in the file, within one row group) of the columns `only` (all by
 * default) as one array of values per column, in `names` order (undefined for a column not read);
 * text stays UTF-8 bytes. hyparquet skips the pages of a plain column before `from` unread; with
 * `byOffsetIndex`, it reads only the pages that hold the rows, by the columns' offset indexes (only
 * for columns whose index the frame check found to be their pages: hyparquet seeks by it as it is).
 */
export async function decodeRows({ file, metadata, names }, from, to, only = names, byOffsetIndex = false) {
  const rowCount = to - from
  // Columns as decoded, without assembling a row object per row.
  const columns = new Map(only.map((n) => [n, new Array(rowCount)]))
  await parquetRead({
    file,
    // Text stays UTF-8 bytes here: strings are made only where needed (packed-columns.mjs).
    parsers: { stringFromBytes: (bytes) => bytes },
    metadata,
    columns: only,
    rowStart: from,
    rowEnd: to,
    useOffsetIndex: byOffsetIndex,
    compressors: await compressorsOf(),
    onChunk: ({ columnName, columnData, rowStart: first }) => {
      const column = columns.get(columnName)
      if (!column) return
      for (let i = 0; i < columnData.length; i++) {
        const at = first + i - from
        if (at >= 0 && at < rowCount) column[at] = columnData[i]
      }
    },
  })
  return { columns: names.map((n) => columns.get(n)), rowCount }
}

/**
 * The rows of the file in batches, in order: each row group once, in slices of at most `batchRows`
 * rows (`from`: the batch's first row in the file; `nextGroup`, `last`: what comes after it).
 * A group read in slices has each column that `pageIndexed[group]` names read a slice at a time from
 * the pages that hold the slice, by its offset index. Without one, a nested column is decoded once,
 * whole, and handed out a slice at a time (hyparquet decodes a list column from a slice's start to
 * its group's end: for every slice, that took time of the square of the group's rows, and memory of
 * its whole column at the first slice), packed (packed-columns.mjs: at most `maxTextBytes` of text);
 * a flat one is read from its whole chunk for each slice (`ranges` keeps the bytes). `ranges`:
 * `newGroup()` is called before each group after the first, `batchRead()` after each batch's reads.
 */
export async function* parquetBatches(source, { batchRows, pageIndexed = [], maxTextBytes = Infinity, ranges }) {
  const { names, nested, rowStarts } = source
  for (let group = 0; group < rowStarts.length - 1; group++) {
    const start = rowStarts[group]
    const end = rowStarts[group + 1]
    if (group > 0) ranges?.newGroup()
    const sliced = end - start > batchRows
    const indexed = sliced ? names.filter((n) => pageIndexed[group]?.includes(n)) : []
    const decodedWhole = sliced ? nested.filter((n) => !indexed.includes(n)) : []
    // Packed as soon as decoded: a JavaScript array and a view per value, for every row of the group,
    // would be kept (and traced by every collection) until the group's last slice.
    const whole = decodedWhole.length > 0 ? (await decodeRows(source, start, end, decodedWhole)).columns.map((c) => c && packColumn(c, maxTextBytes)) : null
    const rest = names.filter((n) => !decodedWhole.includes(n) && !indexed.includes(n))
    let from = start
    do {
      const to = Math.min(end, from + batchRows)
      const { columns, rowCount } = rest.length > 0 ? await decodeRows(source, from, to, rest) : { columns: names.map(() => undefined), rowCount: to - from }
      if (indexed.length > 0) {
        const byIndex = (await decodeRows(source, from, to, indexed, true)).columns
        byIndex.forEach((column, c) => {
          if (column !== undefined) columns[c] = column
        })
      }
      whole?.forEach((column, c) => {
        if (column === undefined) return
        columns[c] = sliceColumn(column, from - start, to - start)
      })
      ranges?.batchRead()
      const last = to === end && group === rowStarts.length - 2
      yield { columns, rowCount, from, group, nextGroup: to < end ? group : last ? null : group + 1, last }
      from = to
    } while (from < end)
  }
}
