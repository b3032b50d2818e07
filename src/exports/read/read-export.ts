import { parquetMetadata } from 'hyparquet'
import { BATCH, type ExportFormat, type ExportRecords, type ExportStream } from './export-stream.js'
import { columnMapping } from './read-columns.js'
import { openCsv } from './read-csv.js'
import { openJsonl } from './read-jsonl.js'
import { append, diagnostics } from '../../core/diagnostics.js'
import { EtlError } from '../../core/errors.js'
import { bytesIn, checkedParquet, checkParquetFile, headerIn, type CheckedParquet, type FileRef } from '../parquet/parquet-frame.js'
import { MAX_HELD_ROWS, MAX_JSONL_LINE, MAX_KEYS, tooManyHeldRows } from '../../core/limits.js'
import { detectTable } from '../../core/tables.js'

export { detectTable }
import type { ExportRecord } from '../../core/types.js'
import { valueAt } from '../packed-columns.mjs'
import { binaryDecoder, decodeFailure, type DecodedBinary } from '../binary-decoder.js'

export type { ExportFormat, ExportRecord, ExportRecords, ExportStream } from './export-stream.js'
export { PANDAS_INDEX } from './export-stream.js'
export { MAX_JSONL_LINE, MAX_KEYS }

/**
 * Open an export from its bytes as they arrive: JSONL and CSV stream record by record; Parquet comes
 * a row group at a time, read by ranges when `chunks.file` names a regular file (never whole), else
 * from the bytes; Arrow is read whole. Tells which table the file holds (by its name, else by its columns).
 * Malformed input throws EtlError EXPORT_MALFORMED, now or while the records are read.
 */
export async function openExport(name: string, format: ExportFormat, chunks: AsyncIterable<Uint8Array> & { file?: FileRef }): Promise<ExportStream> {
  if (format === 'parquet' || format === 'arrow') {
    try {
      // A regular file of Parquet is read by ranges; anything else (a pipe, Arrow) whole.
      if (format === 'parquet' && chunks.file) return await openParquetFile(name, chunks.file)
      const bytes = await collect(chunks)
      return await (format === 'parquet' ? openParquet(name, bytes) : openArrow(name, bytes))
    } catch (e) {
      // Whatever a damaged file makes the decoders throw (even a stack overflow) is one error line;
      // running out of memory is said as such.
      if (e instanceof EtlError) throw e
      throw decodeFailure(name, `a readable ${format === 'parquet' ? 'Parquet' : 'Arrow IPC'} file`, (e as Error).message)
    }
  }
  if (format === 'csv') return openCsv(name, utf8Text(name, chunks))
  // A byte order mark is taken off the text either way; CSV readers (pandas, DuckDB) expect one from
  // spreadsheets, JSON readers need not take one.
  const head = { bom: false }
  const stream = await openJsonl(name, utf8Text(name, chunks, head))
  return head.bom ? { ...stream, diagnostics: [diagnostics.byteOrderMark(), ...stream.diagnostics] } : stream
}

/**
 * Read a whole export from its bytes. For a command that holds it in memory (`heldBy`: diff), a
 * table past MAX_HELD_ROWS is refused as it is read, before its rows fill the heap.
 */
export async function readExport(name: string, bytes: Uint8Array, format: ExportFormat, heldBy?: string): Promise<ExportRecords> {
  // In pieces, as a file is read: the text readers then give their rows a piece at a time.
  const stream = await openExport(name, format, (async function* () {
    for (let at = 0; at < bytes.length; at += PIECE) yield bytes.subarray(at, at + PIECE)
  })())
  const limit = heldBy === undefined ? Infinity : (MAX_HELD_ROWS[stream.table.name] ?? Infinity)
  const records: ExportRecord[] = []
  try {
    for await (const batch of stream.batches) {
      // Not push(...batch): a batch can hold more rows than a call takes arguments.
      append(records, batch)
      if (records.length > limit) throw tooManyHeldRows(heldBy!, name, stream.table.name)
    }
  } finally {
    stream.close()
  }
  return { table: stream.table, records, diagnostics: [...stream.diagnostics, ...stream.lateDiagnostics()], notes: stream.notes }
}

const PIECE = 1024 * 1024

/** The whole file in a buffer of its own (it is moved to a worker later, so never the caller's). */
async function collect(chunks: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = []
  let size = 0
  for await (const c of chunks) {
    parts.push(c)
    size += c.length
  }
  const out = new Uint8Array(size)
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}

/** The text of UTF-8 bytes, piece by piece; `head.bom` is set when they begin with a byte order mark (which the text leaves out). */
async function* utf8Text(name: string, chunks: AsyncIterable<Uint8Array>, head?: { bom: boolean }): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true })
  const start: number[] = []
  try {
    for await (const chunk of chunks) {
      for (let i = 0; start.length < 3 && i < chunk.length; i++) start.push(chunk[i]!)
      if (head && start.length === 3) head.bom = start[0] === 0xef && start[1] === 0xbb && start[2] === 0xbf
      yield decoder.decode(chunk, { stream: true })
    }
    yield decoder.decode()
  } catch (e) {
    if (e instanceof EtlError) throw e
    // Spreadsheets save "Unicode text" as UTF-16, which begins with its byte order mark.
    const utf16 = (start[0] === 0xff && start[1] === 0xfe) || (start[0] === 0xfe && start[1] === 0xff)
    throw new EtlError('EXPORT_MALFORMED', `read: ${name} is not valid UTF-8${utf16 ? ': it is UTF-16 (it begins with the byte order mark of UTF-16); save it as UTF-8' : ''}`)
  }
}

// --- Binary formats, decoded in a worker ---------------------------------------------------


async function* columnBatches(
  decoded: Pick<DecodedBinary, 'takeFirst' | 'rest' | 'stop'>,
  map: (raw: Record<string, unknown>) => Record<string, unknown>,
  convert: (v: unknown) => unknown,
) {
  let offset = 0
  const groups = (async function* () {
    yield decoded.takeFirst()
    yield* decoded.rest
  })()
  try {
    for await (const group of groups) {
      for (let start = 0; start < group.rowCount; start += BATCH) {
        const end = Math.min(group.rowCount, start + BATCH)
        const batch: ExportRecord[] = []
        for (let at = start; at < end; at++) {
          const raw: Record<string, unknown> = {}
          group.names.forEach((n, i) => (raw[n] = convert(valueAt(group.columns[i]!, at))))
          batch.push({ record: map(raw), position: offset + at })
        }
        yield batch
      }
      offset += group.rowCount
    }
  } finally {
    // A loop left before the end stops the decoding too; a reader that never starts one calls close().
    decoded.stop()
  }
}

/** The bytes' own ArrayBuffer when they fill it (no copy of a file of hundreds of megabytes), else a copy. */
export function wholeBuffer(bytes: Uint8Array): ArrayBuffer {
  if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer) return bytes.buffer
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer
}

// --- Parquet -------------------------------------------------------------------------------

async function openParquet(name: string, bytes: Uint8Array): Promise<ExportStream> {
  const magic = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4))
  if (bytes.length < 12 || magic(0) !== 'PAR1' || magic(bytes.length - 4) !== 'PAR1') {
    throw new EtlError('EXPORT_MALFORMED', `read: ${name} is not a Parquet file (no PAR1 magic bytes)`)
  }
  const file = wholeBuffer(bytes)
  const checked = checkedParquet(name, new DataView(file).getUint32(bytes.length - 8, true), () => parquetMetadata(file), bytes.length, headerIn(file), bytesIn(file))
  return parquetStream(name, checked, await binaryDecoder()(name, 'parquet', bytes, 'a readable Parquet file', checked.heapMb, checked.pageIndexed))
}

/**
 * A Parquet file on disk, read by ranges: the footer, then each column chunk once to check its page
 * headers, then row groups in the worker. Never the whole file in memory (3M rows: 250 MB less). A
 * footer that does not fit the file goes the in-memory way, for the same error.
 */
async function openParquetFile(name: string, ref: FileRef): Promise<ExportStream> {
  const checked = checkParquetFile(name, ref)
  if (checked instanceof Uint8Array) return openParquet(name, checked)
  return parquetStream(name, checked, await binaryDecoder()(name, 'parquet', ref, 'a readable Parquet file', checked.heapMb, checked.pageIndexed))
}

function parquetStream(name: string, { columns, types }: CheckedParquet, decoded: DecodedBinary): ExportStream {
  return decodedStream(decoded, () => columnMapping(name, columns, types), fromInt64)
}

/** The stream of a file being decoded: its worker stopped if telling its columns fails, or when closed. */
function decodedStream(decoded: DecodedBinary, mapColumns: () => ReturnType<typeof columnMapping>, convert: (v: unknown) => unknown): ExportStream {
  try {
    const mapping = mapColumns()
    return { ...mapping.info, batches: columnBatches(decoded, mapping.map, convert), lateDiagnostics: () => [], close: decoded.stop }
  } catch (e) {
    decoded.stop()
    throw e
  }
}

/**
 * A 64-bit integer becomes a number, as JSON.parse and the CSV reader make digits: past 2^53 it is
 * rounded alike, so a row gets the same report in every format (a BigInt left as it is would also
 * fail the schema's `integer`, a second finding for the one value).
 */
function fromInt64(v: unknown): unknown {
  return typeof v === 'bigint' ? Number(v) : v
}

// --- Arrow IPC -----------------------------------------------------------------------------

// apache-arrow is loaded only for .arrow files: it costs ~150 ms to load.
async function openArrow(name: string, bytes: Uint8Array): Promise<ExportStream> {
  // An .arrow or .feather file is the IPC *file* format (magic ARROW1 at both ends), which pyarrow's
  // open_file and feather readers take; the *stream* format (what a socket carries) they refuse.
  if (!isArrowFile(bytes)) throw new EtlError('EXPORT_MALFORMED', `read: ${name} is not an Arrow IPC file (no ARROW1 magic at its start and end${bytes[0] === 0xff ? '; it reads as the Arrow IPC stream format, which file readers such as pyarrow.ipc.open_file refuse' : ''})`)
  const decoded = await binaryDecoder()(name, 'arrow', bytes, 'an Arrow IPC file')
  const { names } = decoded.first
  return decodedStream(decoded, () => columnMapping(name, names, new Map(names.map((n, i) => [n, arrowTypeName(decoded.first.types![i]!)]))), fromInt64)
}

const ARROW_MAGIC = [0x41, 0x52, 0x52, 0x4f, 0x57, 0x31] // ARROW1

function isArrowFile(bytes: Uint8Array): boolean {
  if (bytes.length < 12) return false
  return ARROW_MAGIC.every((b, i) => bytes[i] === b && bytes[bytes.length - 6 + i] === b)
}

// Arrow type names as the Parquet check names them: Utf8 → string, Int64 → int64, List<Utf8> → list<string>.
// Text held as views (Utf8View: Polars writes it so) is text too.
function arrowTypeName(type: string): string {
  const names: Record<string, string> = { Utf8: 'string', LargeUtf8: 'string', Utf8View: 'string', Int64: 'int64', Float64: 'double', Bool: 'boolean' }
  const list = /^(?:Large)?List<(.*)>$/.exec(type)
  if (list) return `list<${arrowTypeName(list[1]!)}>`
  return names[type] ?? type.toLowerCase()
}


export { checkParquetFile, type CheckedParquet, type FileRef }
