// Decodes a Parquet or Arrow IPC file in a worker thread, so that a damaged file that makes the
// decoder loop or allocate without end can be stopped (see decodeInWorker in read-export.ts).
// Parquet is decoded one row group at a time, each sent when the reader asks for the next, so memory
// holds one row group, never the whole table. Plain JavaScript: the same file runs from src/ (tests)
// and dist/ (the CLI).
import { parentPort, workerData } from 'node:worker_threads'

const { format, buffer } = workerData

// Wait until the reader has taken the previous batch.
const asked = () => new Promise((resolve) => parentPort.once('message', resolve))
const send = (batch) => parentPort.postMessage({ ok: true, ...batch })

async function decodeParquet() {
  const { parquetMetadata, parquetReadObjects } = await import('hyparquet')
  const { compressors } = await import('hyparquet-compressors')
  const metadata = parquetMetadata(buffer)
  let rowStart = 0
  for (const [group, rowGroup] of metadata.row_groups.entries()) {
    const rowEnd = rowStart + Number(rowGroup.num_rows)
    const rows = await parquetReadObjects({ file: buffer, metadata, rowStart, rowEnd, compressors })
    const names = rows.length > 0 ? Object.keys(rows[0]) : []
    send({ names, columns: names.map((n) => rows.map((r) => r[n])), rowCount: rows.length, types: null, group, last: group === metadata.row_groups.length - 1 })
    rowStart = rowEnd
    await asked()
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
