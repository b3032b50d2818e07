// Decodes a Parquet or Arrow IPC file in a worker thread, so that a damaged file that makes the
// decoder loop or allocate without end can be stopped (see decodeInWorker in read-export.ts).
// Plain JavaScript: the same file runs from src/ (tests) and dist/ (the CLI).
import { parentPort, workerData } from 'node:worker_threads'

const { format, buffer } = workerData

async function decodeParquet() {
  const { parquetMetadata, parquetReadObjects } = await import('hyparquet')
  const metadata = parquetMetadata(buffer)
  const rows = await parquetReadObjects({ file: buffer, metadata })
  const names = rows.length > 0 ? Object.keys(rows[0]) : []
  return { names, columns: names.map((n) => rows.map((r) => r[n])), rowCount: rows.length, types: null }
}

const plain = (v) => (v !== null && typeof v === 'object' && typeof v[Symbol.iterator] === 'function' ? Array.from(v, plain) : v)

async function decodeArrow() {
  const { tableFromIPC } = await import('apache-arrow')
  const table = tableFromIPC(new Uint8Array(buffer))
  const names = table.schema.fields.map((f) => f.name)
  const types = table.schema.fields.map((f) => String(f.type))
  const columns = names.map((n) => Array.from(table.getChild(n) ?? [], plain))
  return { names, columns, rowCount: table.numRows, types }
}

try {
  parentPort.postMessage({ ok: true, ...(format === 'parquet' ? await decodeParquet() : await decodeArrow()) })
} catch (e) {
  parentPort.postMessage({ ok: false, message: e instanceof Error ? e.message : String(e) })
}
