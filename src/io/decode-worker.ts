import { EtlError } from '../core/errors.js'
import { MAX_KEYS, PARQUET_BATCH_ROWS } from '../core/limits.js'
import { decodeFailure, type DecodeBinary, type DecodedBatch } from '../exports/binary-decoder.js'
import type { FileRef } from '../exports/parquet/parquet-frame.js'
import { wholeBuffer } from '../exports/read/read-export.js'
import { decodeTimeoutMs, ioSettings, MAX_TIMER_MS, timeLimit } from './settings.js'
import { startWorkerPool, WorkerFailure, type TaskStream, type WorkerPool } from './worker-pool.js'

const script = new URL('./workers/decode-binary.mjs', import.meta.url)

/** How long a worker may take to start and load its decoder, before its file's own time limit begins. */
const STARTUP_MS = 60_000

/** A file to decode (workers/decode-binary.mjs): its bytes, moved there, or its path, read there by ranges. */
interface DecodeJob {
  format: 'parquet' | 'arrow'
  maxTextBytes: number
  maxColumns: number
  batchRows: number
  /** Per row group, the columns read a slice at a time by their offset index (CheckedParquet.pageIndexed). */
  pageIndexed: string[][]
  buffer?: ArrayBuffer
  path?: string
  /** The file's size when its frame was checked: the worker reads that much of it, never what was appended since. */
  size?: number
}

/** What the worker answers: that its decoder is loaded (the time limit starts then), then the batches. */
type DecodeAnswer = DecodedBatch | { ready: true }

/**
 * The decoding workers: a pool per heap limit (a file's limit follows its largest row group). A
 * worker that read a file to its end waits for the next; one left idle is stopped with its heap
 * (`configureIo({ decoderIdleMs })`), and never holds the process open.
 */
const pools = new Map<number, WorkerPool<DecodeJob, DecodeAnswer>>()
function poolFor(heapMb: number): WorkerPool<DecodeJob, DecodeAnswer> {
  let pool = pools.get(heapMb)
  if (!pool) pools.set(heapMb, (pool = startWorkerPool(script, { resourceLimits: { maxOldGenerationSizeMb: heapMb }, idleMs: () => ioSettings.decoderIdleMs })))
  return pool
}

/**
 * Decode a Parquet or Arrow file in a worker thread with a time limit and a memory limit: the
 * decoders trust the sizes and counts inside the file, and a damaged one can make them loop or
 * allocate without end. Parquet comes back one row group at a time, the next decoded only when the
 * reader has taken the last, so memory holds a row group, not the table. The first batch (with the
 * column names) is awaited before this returns.
 */
export const decodeInWorker: DecodeBinary = async (name, format, source, what, heapMb = 2048, pageIndexed = []) => {
  const size = source instanceof Uint8Array ? source.length : source.size
  const timeoutMs = decodeTimeoutMs(size)
  // Bytes are moved to the worker, not copied (the caller does not use them again).
  const buffer = source instanceof Uint8Array ? wholeBuffer(source) : null
  // The text of a batch is packed outside the worker's heap: it gets the same limit.
  const job: DecodeJob = { format, maxTextBytes: heapMb * 1024 * 1024, maxColumns: MAX_KEYS, batchRows: PARQUET_BATCH_ROWS, pageIndexed, ...(buffer ? { buffer } : { path: (source as FileRef).path, size: (source as FileRef).size }) }
  let stream: TaskStream<DecodeAnswer>
  try {
    stream = poolFor(heapMb).stream(job, buffer ? [buffer] : [])
  } catch (e) {
    // A worker that cannot start (no memory for its heap): said as such, never as a damaged file.
    throw decodeFailure(name, what, (e as Error).message, (e as { code?: string }).code)
  }
  let group = 0
  let ready = false
  // The time limit counts from when the worker has its decoder loaded: a loaded host's slow start
  // of a worker is no sign of a damaged file.
  const next = async (): Promise<DecodedBatch> => {
    for (;;) {
      let timer: NodeJS.Timeout | undefined
      const expired = new Promise<never>((_, reject) => {
        // The file's structure was checked before decoding: a valid file can simply be too large.
        const late = () => new EtlError('EXPORT_MALFORMED', `read: ${name}: decoding ${format === 'parquet' ? `row group ${group}` : 'the file'} did not finish within ${timeLimit(timeoutMs)}: too large for the time limit (MTG_RULES_DECODE_TIMEOUT_MS, in ms, sets it), or damaged`)
        timer = setTimeout(() => reject(late()), Math.min(MAX_TIMER_MS, ready ? timeoutMs : STARTUP_MS + timeoutMs))
      })
      try {
        const answer = await Promise.race([stream.next(), expired])
        if (!('ready' in answer)) return answer
        ready = true
      } catch (e) {
        stream.stop()
        throw e instanceof WorkerFailure ? decodeFailure(name, what, e.message, e.code) : e
      } finally {
        clearTimeout(timer)
      }
    }
  }
  const first = await next()
  // Only these two of the first batch are kept here: a closure over `first` would hold it all.
  const { nextGroup: firstNext, last: firstLast } = first
  async function* rest(): AsyncGenerator<DecodedBatch> {
    try {
      for (let at = { nextGroup: firstNext, last: firstLast }; !at.last; ) {
        group = at.nextGroup ?? group
        stream.ask()
        const batch = await next()
        at = { nextGroup: batch.nextGroup, last: batch.last }
        yield batch
      }
    } finally {
      stream.stop()
    }
  }
  // The first batch is handed over once and then let go, like every other (the handle would
  // otherwise hold a whole row group to the end); `first` keeps only its names and types.
  let held: DecodedBatch | null = first
  const takeFirst = () => {
    const batch = held!
    held = null
    return batch
  }
  // A worker that sent its last batch is back in its pool already; one left mid-file is stopped
  // (else, still referenced, it would keep the process from exiting).
  return { first: { names: first.names, columns: [], rowCount: 0, types: first.types }, takeFirst, rest: rest(), stop: () => stream.stop() }
}
