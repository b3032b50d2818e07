// Decodes a Parquet or Arrow IPC file in a worker thread, so that a damaged file that makes the
// decoder loop or allocate without end can be stopped (see decodeInWorker in read-export.ts).
// Parquet is decoded one row group at a time, each sent when the reader asks for the next (one
// decoded ahead, so decoding and checking overlap), so memory holds two row groups, never the table. Plain JavaScript: the same file runs from src/ (tests)
// and dist/ (the CLI).
import { parentPort, workerData } from 'node:worker_threads'
import { packColumn, transfers } from './packed-columns.mjs'

// `buffer`: the file's bytes, moved here; or `path`: a regular file, read by ranges.
const { format, buffer, path, maxTextBytes } = workerData

// Wait until the reader has taken the previous batch.
const asked = () => new Promise((resolve) => parentPort.once('message', resolve))
// Columns go as UTF-8 bytes in moved buffers (packed-columns.mjs), not as cloned strings.
const send = (batch) => {
  const columns = batch.columns.map((c) => packColumn(c, maxTextBytes))
  parentPort.postMessage({ ok: true, ...batch, columns }, columns.flatMap(transfers))
}

async function decodeParquet() {
  const { asyncBufferFromFile, parquetMetadata, parquetMetadataAsync, parquetRead, parquetSchema } = await import('hyparquet')
  const { compressors: decoders } = await import('hyparquet-compressors')
  const { gunzipSync } = await import('node:zlib')
  // GZIP through Node's native zlib: twice as fast as the JavaScript one.
  const compressors = { ...decoders, GZIP: (input) => gunzipSync(input) }
  const file = path === undefined ? buffer : await asyncBufferFromFile(path)
  const metadata = path === undefined ? parquetMetadata(buffer) : await parquetMetadataAsync(file)
  const names = parquetSchema(metadata).children.map((c) => c.element.name)
  let rowStart = 0
  for (const [group, rowGroup] of metadata.row_groups.entries()) {
    const rowCount = Number(rowGroup.num_rows)
    const rowEnd = rowStart + rowCount
    // Columns as decoded, without assembling a row object per row.
    const columns = new Map(names.map((n) => [n, new Array(rowCount)]))
    await parquetRead({
      file,
      // Text stays UTF-8 bytes here; the main thread decodes it a batch at a time (packed-columns.mjs).
      parsers: { stringFromBytes: (bytes) => bytes },
      metadata,
      rowStart,
      rowEnd,
      compressors,
      onChunk: ({ columnName, columnData, rowStart: from }) => {
        const column = columns.get(columnName)
        if (!column) return
        for (let i = 0; i < columnData.length; i++) {
          const at = from + i - rowStart
          if (at >= 0 && at < rowCount) column[at] = columnData[i]
        }
      },
    })
    // One row group ahead: this one was decoded while the reader checked the last; send it when asked.
    if (group > 0) await asked()
    send({ names, columns: names.map((n) => columns.get(n)), rowCount, types: null, group, last: group === metadata.row_groups.length - 1 })
    rowStart = rowEnd
  }
  if (metadata.row_groups.length === 0) send({ names: [], columns: [], rowCount: 0, types: null, group: 0, last: true })
}

const plain = (v) => (v !== null && typeof v === 'object' && typeof v[Symbol.iterator] === 'function' ? Array.from(v, plain) : v)

async function decodeArrow() {
  const { tableFromIPC } = await import('apache-arrow')
  const table = tableFromIPC(new Uint8Array(buffer))
  const names = table.schema.fields.map((f) => f.name)
  const types = table.schema.fields.map((f) => String(f.type))
  const columns = names.map((n) => Array.from(table.getChild(n) ?? [], plain))
  send({ names, columns, rowCount: table.numRows, types, group: 0, last: true })
}

try {
  await (format === 'parquet' ? decodeParquet() : decodeArrow())
} catch (e) {
  parentPort.postMessage({ ok: false, message: e instanceof Error ? e.message : String(e) })
}
