import { availableParallelism } from 'node:os'
import { Worker } from 'node:worker_threads'
import { EtlError } from '../core/errors.js'
import { MAX_KEYS, PARQUET_BATCH_ROWS } from '../core/limits.js'
import { decodeFailure, type DecodeBinary, type DecodedBatch } from '../exports/binary-decoder.js'
import type { FileRef } from '../exports/parquet/parquet-frame.js'
import { wholeBuffer } from '../exports/read/read-export.js'
import { decodeTimeoutMs, ioSettings, MAX_TIMER_MS, timeLimit } from './settings.js'

const script = new URL('./workers/decode-binary.mjs', import.meta.url)

/** How long a worker may take to start and load its decoder, before its file's own time limit begins. */
const STARTUP_MS = 60_000

/** Workers that decoded a file to its last batch, each waiting for another, by heap limit. */
const idle = new Map<number, Worker[]>()
const forget = (heapMb: number, worker: Worker) => {
  const list = idle.get(heapMb)
  if (list?.includes(worker)) list.splice(list.indexOf(worker), 1)
}
const stopTimers = new WeakMap<Worker, NodeJS.Timeout>()

function takeWorker(heapMb: number): Worker {
  const ready = idle.get(heapMb)?.pop()
  if (ready) {
    clearTimeout(stopTimers.get(ready))
    ready.ref()
    return ready
  }
  const worker = new Worker(script, { resourceLimits: { maxOldGenerationSizeMb: heapMb } })
  worker.once('exit', () => forget(heapMb, worker))
  return worker
}

/** A worker whose file is done, kept for the next file (as many as cores; it never holds the process open). */
function putBack(worker: Worker, heapMb: number): void {
  worker.removeAllListeners('message')
  worker.removeAllListeners('error')
  // An error while idle (none is expected) must not crash the process: the worker is dropped.
  worker.on('error', () => forget(heapMb, worker))
  worker.unref()
  const list = idle.get(heapMb) ?? []
  idle.set(heapMb, list)
  list.push(worker)
  // An idle worker keeps the heap of the file it read: stopped when no file comes in time (a program
  // validating now and then holds no worker).
  stopTimers.set(
    worker,
    setTimeout(() => {
      forget(heapMb, worker)
      void worker.terminate()
    }, ioSettings.decoderIdleMs).unref(),
  )
  if (list.length > availableParallelism()) void list.shift()!.terminate()
}

/**
 * Decode a Parquet or Arrow file in a worker thread with a time limit and a memory limit: the
 * decoders trust the sizes and counts inside the file, and a damaged one can make them loop or
 * allocate without end. Parquet comes back one row group at a time, the next decoded only when the
 * reader has taken the last, so memory holds a row group, not the table. The first batch (with the
 * column names) is awaited before this returns.
 */
export const decodeInWorker: DecodeBinary = async (name, format, source, what, heapMb = 2048) => {
  const size = source instanceof Uint8Array ? source.length : source.size
  const timeoutMs = decodeTimeoutMs(size)
  // Bytes are moved to the worker, not copied (the caller does not use them again); a file is read
  // there by ranges.
  const buffer = source instanceof Uint8Array ? wholeBuffer(source) : null
  let worker: Worker
  try {
    worker = takeWorker(heapMb)
  } catch (e) {
    // A worker that cannot start (no memory for its heap): said as such, never as a damaged file.
    throw decodeFailure(name, what, (e as Error).message, (e as { code?: string }).code)
  }
  // The text of a batch is packed outside the worker's heap: it gets the same limit.
  worker.postMessage({ format, maxTextBytes: heapMb * 1024 * 1024, maxColumns: MAX_KEYS, batchRows: PARQUET_BATCH_ROWS, ...(buffer ? { buffer } : { path: (source as FileRef).path }) }, buffer ? [buffer] : [])
  // A worker is used again only when it has sent the last batch of its file; else it is stopped.
  let done = false
  const finish = () => {
    if (done) return
    done = true
    void worker.terminate()
  }
  const release = () => {
    if (done) return
    done = true
    putBack(worker, heapMb)
  }
  const fail = (why: string, code?: string) => decodeFailure(name, what, why, code)
  let group = 0
  // What the worker says is kept until asked for: it may fail while a batch is still being checked
  // here (a message with no listener would be lost, and an 'error' with none would crash the process).
  type Outcome = { batch: DecodedBatch } | { error: EtlError }
  const arrived: Outcome[] = []
  let waiting: ((o: Outcome) => void) | null = null
  const deliver = (o: Outcome) => {
    if (!waiting) return void arrived.push(o)
    const settle = waiting
    waiting = null
    settle(o)
  }
  // The time limit counts from when the worker has its decoder loaded (it says so): a loaded host's
  // slow start of a worker is no sign of a damaged file.
  let ready = false
  let onReady: (() => void) | null = null
  worker.on('message', (m: ({ ok: true } & DecodedBatch) | { ok: false; message: string } | { ready: true }) => {
    if ('ready' in m) {
      ready = true
      onReady?.()
      onReady = null
      return
    }
    deliver(m.ok ? { batch: m } : { error: fail(m.message) })
  })
  worker.on('error', (e: Error & { code?: string }) => deliver({ error: fail(e.message, e.code) }))
  const next = () =>
    new Promise<DecodedBatch>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined
      const settle = (o: Outcome) => {
        clearTimeout(timer)
        onReady = null
        if ('batch' in o) {
          if (o.batch.last) release()
          return resolve(o.batch)
        }
        finish()
        reject(o.error)
      }
      const early = arrived.shift()
      if (early) return settle(early)
      const expire = () => {
        waiting = null
        onReady = null
        finish()
        // The file's structure was checked before decoding: a valid file can simply be too large.
        reject(new EtlError('EXPORT_MALFORMED', `read: ${name}: decoding ${format === 'parquet' ? `row group ${group}` : 'the file'} did not finish within ${timeLimit(timeoutMs)}: too large for the time limit (MTG_RULES_DECODE_TIMEOUT_MS, in ms, sets it), or damaged`))
      }
      timer = setTimeout(expire, Math.min(MAX_TIMER_MS, ready ? timeoutMs : STARTUP_MS + timeoutMs))
      if (!ready) {
        onReady = () => {
          clearTimeout(timer)
          timer = setTimeout(expire, Math.min(MAX_TIMER_MS, timeoutMs))
        }
      }
      waiting = settle
    })
  const first = await next()
  // Only these two of the first batch are kept here: a closure over `first` would hold it all.
  const { nextGroup: firstNext, last: firstLast } = first
  async function* rest(): AsyncGenerator<DecodedBatch> {
    try {
      for (let at = { nextGroup: firstNext, last: firstLast }; !at.last; ) {
        group = at.nextGroup ?? group
        worker.postMessage('next')
        const batch = await next()
        at = { nextGroup: batch.nextGroup, last: batch.last }
        yield batch
      }
    } finally {
      finish()
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
  // A worker that sent its last batch is free already; one left mid-file is stopped (else, still
  // referenced, it would keep the process from exiting).
  return { first: { names: first.names, columns: [], rowCount: 0, types: first.types }, takeFirst, rest: rest(), stop: finish }
}
