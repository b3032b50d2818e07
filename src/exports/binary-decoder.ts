import { EtlError } from '../core/errors.js'
import type { PackedColumn } from './packed-columns.mjs'
import type { FileRef } from './parquet/parquet-frame.js'

/** Columns of a Parquet row group or an Arrow table, as decoded apart from this thread. */
export interface Decoded {
  names: string[]
  columns: PackedColumn[]
  rowCount: number
  types: string[] | null
}

/** Rows of one row group (Parquet: a group, or a slice of a large one) or the whole table (Arrow). */
export interface DecodedBatch extends Decoded {
  group: number
  /** The row group of the next batch (null after the last): what a time-out while waiting for it names. */
  nextGroup: number | null
  last: boolean
}

/** A file being decoded: its names and types at once, then its batches one at a time. */
export interface DecodedBinary {
  first: Decoded
  takeFirst(): DecodedBatch
  rest: AsyncGenerator<DecodedBatch>
  /**
   * Stop decoding: what decodes the file is let go, whether or not its last batch was taken. A
   * reader that may leave a file before its end (a refused row, a table too long) must call it.
   */
  stop(): void
}

/**
 * Decodes a Parquet or Arrow file (its bytes, or a file by ranges) where it can be stopped: the
 * decoders trust the sizes and counts inside the file, and a damaged one can make them loop or
 * allocate without end. EtlError EXPORT_MALFORMED when it fails or runs out of time or memory.
 * `pageIndexed`: a Parquet file's CheckedParquet.pageIndexed, the columns read by their offset index.
 */
export type DecodeBinary = (name: string, format: 'parquet' | 'arrow', source: Uint8Array | FileRef, what: string, heapMb?: number, pageIndexed?: string[][]) => Promise<DecodedBinary>

// The place where decoding can be stopped is the Node edge's (io/decode-worker.ts, a worker thread
// with a time and a memory limit), installed once by installNodeHost: the CLI, the package entry and
// the test setup call it. This stage only names it, so that it imports no later stage.
let installed: DecodeBinary | null = null

/** Use `decode` for every Parquet and Arrow file read from now on. */
export function installBinaryDecoder(decode: DecodeBinary): void {
  installed = decode
}

export function binaryDecoder(): DecodeBinary {
  if (!installed) throw new EtlError('INTERNAL', 'read: no decoder for Parquet and Arrow is installed (import the package entry, or call installNodeHost)')
  return installed
}

// What running out of memory looks like, in the worker or when starting it (an address-space cap
// makes allocations fail before the heap limit is reached).
const OUT_OF_MEMORY = /allocation failed|out of memory|cannot allocate|ENOMEM/i

/**
 * The error line of a decoding that failed: out of memory is said as such (the file is not shown to
 * be damaged), text that is not UTF-8 as a JSONL or CSV file's is, anything else as damage.
 */
export function decodeFailure(name: string, what: string, why: string, code?: string): EtlError {
  if (code === 'ERR_WORKER_OUT_OF_MEMORY' || code === 'ERR_WORKER_INIT_FAILED' || OUT_OF_MEMORY.test(why)) {
    return new EtlError('INPUT_TOO_LARGE', `read: ${name}: out of memory while decoding it (${why}); the file is not shown to be damaged: give the process more memory, or write smaller row groups`)
  }
  const utf8 = /^not valid UTF-8: (.*)$/.exec(why)
  return new EtlError('EXPORT_MALFORMED', utf8 ? `read: ${name} is not valid UTF-8 (${utf8[1]})` : `read: ${name} is not ${what} (${why})`)
}
