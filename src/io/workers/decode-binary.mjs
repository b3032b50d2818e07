// Decodes a Parquet or Arrow IPC file in a worker thread of io/decode-worker.ts's pool
// (io/worker-pool.ts: each file a task `{ id, ... }`, each answer `{ id, ok, result, last }`), so that
// a damaged file that makes the decoder loop or allocate without end can be stopped. Its first
// answer, `{ ready: true }` once the decoder is loaded, starts the file's time limit. A worker that
// finished a file takes the next (one that failed or was stopped is never used again).
// Parquet is decoded one row group at a time, each sent when the reader asks for the next (one
// decoded ahead, so decoding and checking overlap), so memory holds two row groups, never the
// table. Plain JavaScript: the same file runs from src/ (tests) and dist/ (the CLI).
import { isUtf8 } from 'node:buffer'
import { parentPort } from 'node:worker_threads'
import { packColumn, transfers } from '../../exports/packed-columns.mjs'
import { groupRanges } from './group-ranges.mjs'

// The task being decoded; the reader's "next": counted, so that one sent while a row group is still being decoded is kept.
let task = -1
let credits = 0
let waiter = null
const asked = () =>
  new Promise((resolve) => {
    if (credits > 0) {
      credits--
      resolve()
    } else waiter = resolve
  })

// Columns go as UTF-8 bytes in moved buffers (packed-columns.mjs), not as cloned strings.
const sender = (maxTextBytes) => (batch, firstRow = 0) => {
  // A nested column of a large row group comes packed already (parquet-groups.mjs).
  const columns = batch.columns.map((c) => (Array.isArray(c) ? packColumn(c, maxTextBytes) : c))
  columns.forEach((c, i) => requireUtf8(c, batch.names[i], firstRow))
  parentPort.postMessage({ id: task, ok: true, last: batch.last, result: { ...batch, columns } }, columns.flatMap(transfers))
}

/**
 * `job`: the file's `format`, `maxTextBytes` and `batchRows` (PARQUET_BATCH_ROWS: a larger row group
 * is sent in slices of that many rows), `pageIndexed` (the columns read by their offset index, per
 * row group), and its bytes (`buffer`, moved here) or its `path` and `size` (read by ranges).
 */
async function decodeParquet({ buffer, path, size, maxTextBytes, batchRows, pageIndexed }) {
  const send = sender(maxTextBytes)
  const { openParquetSource, parquetBatches } = await import('../../exports/parquet-groups.mjs')
  parentPort.postMessage({ id: task, ok: true, result: { ready: true } })
  const ranges = path === undefined ? null : await groupRanges(path, size)
  try {
    const source = await openParquetSource(ranges === null ? { buffer } : { file: ranges.file })
    let sent = 0
    for await (const { from, ...batch } of parquetBatches(source, { batchRows, pageIndexed, maxTextBytes, ranges })) {
      // One batch ahead: this one was decoded while the reader checked the last; send it when asked.
      if (sent++ > 0) await asked()
      send({ names: source.names, types: null, ...batch }, from)
    }
    if (sent === 0) send({ names: [], columns: [], rowCount: 0, types: null, group: 0, nextGroup: null, last: true })
  } finally {
    await ranges?.close()
  }
}

/**
 * Parquet text is UTF-8 bytes here, as in a JSONL or CSV file, and is refused as they are when it is
 * not valid UTF-8 (never read as U+FFFD): the error names the column and the first row.
 */
function requireUtf8(column, name, firstRow) {
  const strings = column.kind === 'strings' ? column : column.kind === 'lists' ? column.items : null
  if (strings === null) return
  const at = firstNotUtf8(strings.bytes, (i) => strings.starts[i], strings.starts.length - 1)
  if (at === null) return
  const row = column.kind === 'lists' ? column.listStarts.findLastIndex((start) => start <= at) : at
  throw notUtf8(name, firstRow + row + 1)
}

/**
 * The first of `count` texts (text i: bytes offsetOf(i) to offsetOf(i + 1), offsets that run
 * forward) that is not UTF-8, or null: Parquet's and Arrow's text, checked alike.
 */
function firstNotUtf8(bytes, offsetOf, count) {
  if (isUtf8(bytes.subarray(offsetOf(0), offsetOf(count)))) return null
  for (let i = 0; i < count; i++) if (!isUtf8(bytes.subarray(offsetOf(i), offsetOf(i + 1)))) return i
  return null
}

const notUtf8 = (name, row) => new Error(`not valid UTF-8: column ${name}, row ${row}`)

const plain = (v) => (v !== null && typeof v === 'object' && typeof v[Symbol.iterator] === 'function' ? Array.from(v, plain) : v)

async function decodeArrow({ buffer, maxTextBytes, maxColumns }) {
  const send = sender(maxTextBytes)
  const { tableFromIPC, makeVector, RecordBatchReader, compressionRegistry, CompressionType, DataType } = await import('apache-arrow')
  // Buffers compressed with LZ4 (frames) or ZSTD, as pyarrow's write_feather writes them by default,
  // each unpacked to no more than the text limit (a small buffer can claim gigabytes).
  const [lz4, { Decompress }] = await Promise.all([import('lz4js'), import('fzstd')])
  const { decompress: lz4Decompress, decompressBound } = lz4.default ?? lz4
  compressionRegistry.set(CompressionType.LZ4_FRAME, {
    decode(data) {
      const bound = decompressBound(data)
      if (!(bound <= maxTextBytes)) throw new Error(`an LZ4 buffer unpacks to ${bound} bytes, more than the ${maxTextBytes} a batch may hold`)
      return lz4Decompress(data, bound)
    },
  })
  compressionRegistry.set(CompressionType.ZSTD, {
    decode(data) {
      const parts = []
      let size = 0
      const stream = new Decompress((part) => {
        size += part.length
        if (size > maxTextBytes) throw new Error(`a ZSTD buffer unpacks to more than the ${maxTextBytes} bytes a batch may hold`)
        parts.push(part)
      })
      stream.push(data, true)
      return new Uint8Array(Buffer.concat(parts, size))
    },
  })
  parentPort.postMessage({ id: task, ok: true, result: { ready: true } })
  // The schema is read first: apache-arrow's work on a table grows with the square of its columns.
  const fields = RecordBatchReader.from(new Uint8Array(buffer)).open().schema.fields.length
  if (fields > maxColumns) throw new Error(`its schema has ${fields} columns, more than ${maxColumns}`)
  const table = tableFromIPC(new Uint8Array(buffer))
  const names = table.schema.fields.map((f) => f.name)
  const types = table.schema.fields.map((f) => String(f.type))
  // A name given twice is read where it first stands (as getChild(name) would), looked up once.
  const first = new Map()
  names.forEach((n, i) => first.has(n) || first.set(n, i))
  const child = (n) => table.getChildAt(first.get(n))
  for (const name of names) requireArrowOffsets(child(name), name, DataType)
  for (const name of names) requireArrowUtf8(child(name), name, DataType)
  // Read a record batch at a time: apache-arrow's iterator over a column of many batches slices the
  // whole column for each one (work that grows with the square of the batches).
  const rowsOf = (vector) => {
    const out = []
    for (const data of vector?.data ?? []) for (const value of makeVector(data)) out.push(plain(value))
    return out
  }
  const columns = names.map((n) => rowsOf(child(n)))
  send({ names, columns, rowCount: table.numRows, types, group: 0, nextGroup: null, last: true })
}

/**
 * apache-arrow trusts the offsets of a text or list column: damaged ones can make one row's list
 * claim millions of items its column does not hold, which reading would then make. Each column's
 * offsets (and its children's) must run forward within what they index, or the file is refused.
 */
function requireArrowOffsets(vector, name, DataType) {
  let firstRow = 0
  for (const data of vector?.data ?? []) {
    const bad = badOffsetsRow(data, DataType)
    if (bad !== null) throw new Error(`column ${name}, row ${firstRow + bad + 1}: its offsets point outside the values they index`)
    firstRow += data.length
  }
}

/** The first row of an Arrow Data (or of its children, as their own rows) whose offsets are out of order or out of range, or null. */
function badOffsetsRow(data, DataType) {
  if (isView(data, DataType)) {
    for (let row = 0; row < data.length; row++) if (data.getValid(row) && viewBytes(data, row) === null) return row
    return null
  }
  const offsets = data.valueOffsets
  // What the offsets index: a list's child rows, or a text's (or binary's) bytes; a dense union's offsets are no range.
  const size = data.children?.length === 1 ? data.children[0].length : data.values?.length
  if (offsets && !data.typeIds && size !== undefined) {
    if (offsets.length < data.length + 1) return 0
    for (let row = 0; row < data.length; row++) {
      const from = Number(offsets[row])
      const to = Number(offsets[row + 1])
      if (!(from >= 0 && from <= to && to <= size)) return row
    }
  }
  for (const child of data.children ?? []) if (badOffsetsRow(child, DataType) !== null) return 0
  // A dictionary's words are indexed by offsets of their own; every batch shares them, so they are
  // checked once (each batch again would cost batches × words).
  for (const words of data.dictionary?.data ?? []) if (dictionaryVerdict(offsetsChecked, words, () => badOffsetsRow(words, DataType)) !== null) return 0
  return null
}

// The verdicts on a file's dictionary Data, each found once (the Data die with the file's table).
const offsetsChecked = new WeakMap()
const textChecked = new WeakMap()
function dictionaryVerdict(verdicts, words, find) {
  if (!verdicts.has(words)) verdicts.set(words, find())
  return verdicts.get(words)
}

// A view column (Utf8View, as Polars writes text, or BinaryView) holds 16 bytes a row: the value's
// length, then the value itself when it has at most 12 bytes, else its first 4 bytes, the index of a
// data buffer and the value's offset in it. apache-arrow cuts a view that points past its buffer
// short without a word, so each is checked here before the column is read.
const isView = (data, DataType) => DataType.isUtf8View(data.type) || DataType.isBinaryView(data.type)
const int32At = (bytes, at) => bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16) | (bytes[at + 3] << 24)

/** The bytes of row `row` of a view column, or null when its view points outside the buffers. */
function viewBytes(data, row) {
  const views = data.values
  const at = row * 16
  if (!(at + 16 <= views.length)) return null
  const size = int32At(views, at)
  if (size <= 12) return size < 0 ? null : views.subarray(at + 4, at + 4 + size)
  const buffer = data.variadicBuffers?.[int32At(views, at + 8)]
  const from = int32At(views, at + 12)
  return buffer && from >= 0 && from + size <= buffer.length ? buffer.subarray(from, from + size) : null
}

/**
 * Arrow text is checked as UTF-8 on the file's bytes, before apache-arrow decodes it (it would read
 * a bad byte as U+FFFD), and refused as Parquet, JSONL and CSV text is: the error names the column
 * and the first row. Text in lists, structs and dictionaries too.
 */
function requireArrowUtf8(vector, name, DataType) {
  let firstRow = 0
  for (const data of vector?.data ?? []) {
    const row = badTextRow(data, DataType)
    if (row !== null) throw notUtf8(name, firstRow + row + 1)
    firstRow += data.length
  }
}

/** The first row of an Arrow Data whose text (its own or its children's) is not UTF-8, or null. */
function badTextRow(data, DataType) {
  const offsets = data.valueOffsets
  if (DataType.isUtf8(data.type) || DataType.isLargeUtf8(data.type)) return firstNotUtf8(data.values, (i) => Number(offsets[i]), data.length)
  if (DataType.isUtf8View(data.type)) {
    for (let row = 0; row < data.length; row++) if (data.getValid(row) && !isUtf8(viewBytes(data, row))) return row
    return null
  }
  if (DataType.isDictionary(data.type)) {
    let entry = 0
    for (const words of data.dictionary?.data ?? []) {
      const bad = dictionaryVerdict(textChecked, words, () => badTextRow(words, DataType))
      if (bad !== null) {
        // The first row that uses the entry (a dictionary entry no row uses is read by no one).
        for (let row = 0; row < data.length; row++) if (data.getValid(row) && Number(data.values[row]) === entry + bad) return row
      }
      entry += words.length
    }
    return null
  }
  for (const child of data.children ?? []) {
    const bad = badTextRow(child, DataType)
    if (bad === null) continue
    // A list's (or map's) items are rows of its child: the row is the one whose list holds the
    // item. A struct's fields share its rows.
    if (DataType.isFixedSizeList(data.type)) return Math.floor(bad / data.type.listSize)
    if (!offsets) return bad
    let row = 0
    while (Number(offsets[row + 1]) <= bad) row++
    return row
  }
  return null
}

parentPort.on('message', async (message) => {
  if (message.next) {
    if (message.id !== task) return
    const resolve = waiter
    waiter = null
    if (resolve) resolve()
    else credits++
    return
  }
  task = message.id
  credits = 0
  try {
    await (message.format === 'parquet' ? decodeParquet(message) : decodeArrow(message))
  } catch (e) {
    parentPort.postMessage({ id: message.id, ok: false, message: e instanceof Error ? e.message : String(e) })
  }
})
