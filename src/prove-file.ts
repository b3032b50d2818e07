import { closeSync, createReadStream, existsSync, openSync, readSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import { mergeProofs, type ProofPart } from './checks/clean-proof.js'
import { proveCsvPart } from './clean-csv.js'
import { proveJsonlPart } from './clean-jsonl.js'
import { MAX_CSV_RECORD } from './limits.js'

/** Below this size a file is proved in one thread: starting a worker would cost more than it saves. */
const PARALLEL_FROM = 8 * 1024 * 1024

export type ProvableFormat = 'jsonl' | 'csv'

/** One part of a file: its bytes start..end, and whether it starts with the file's header (CSV). */
export interface PartTask {
  format: ProvableFormat
  path: string
  start: number
  end: number
  header: boolean
}

/**
 * Prove a JSONL or CSV rules export on disk clean, on two cores when it is large: the first half
 * here, the second (from the first line past the middle that starts a row) in a worker, the two
 * joined by mergeProofs. A CSV cut that falls inside a quoted field leaves the first half ending
 * inside a record, which fails it: the cut is never trusted, only proved. The row count when clean,
 * else null (see CleanProof).
 */
export async function proveFile(format: ProvableFormat, path: string, size: number): Promise<number | null> {
  const cut = size < PARALLEL_FROM || availableParallelism() < 2 ? null : rowStartAfter(path, size >> 1, size, format)
  const whole: PartTask = { format, path, start: 0, end: size, header: format === 'csv' }
  if (cut === null) return mergeProofs([await provePart(whole)])
  const parts = await Promise.all([provePart({ ...whole, end: cut }), partInWorker({ ...whole, start: cut, header: false })])
  return mergeProofs(parts)
}

export function provePart(task: PartTask): Promise<ProofPart> {
  const chunks = createReadStream(task.path, { start: task.start, end: task.end - 1, highWaterMark: 1024 * 1024 })
  return task.format === 'jsonl' ? proveJsonlPart(chunks) : proveCsvPart(chunks, task.header)
}

// A CSV row starts with its rule number; a JSONL row is any line.
const ROW_START = { jsonl: /^/, csv: /^"?\d{3}\.\d/ }

/** Where the first line at or after `from` that looks like a row's start begins, or null (none within reach). */
function rowStartAfter(path: string, from: number, size: number, format: ProvableFormat): number | null {
  let fd: number
  try {
    fd = openSync(path, 'r')
  } catch {
    return null
  }
  try {
    const block = Buffer.alloc(64 * 1024)
    for (let at = from - 1; at < size && at < from + MAX_CSV_RECORD; ) {
      const n = readSync(fd, block, 0, block.length, at)
      if (n === 0) return null
      const bytes = block.subarray(0, n)
      // Each line start is judged by the 15 bytes after it; the last 16 of the block are read again.
      for (let nl = bytes.indexOf(0x0a); nl >= 0 && nl + 16 < n; nl = bytes.indexOf(0x0a, nl + 1)) {
        if (ROW_START[format].test(bytes.toString('latin1', nl + 1, nl + 16))) return at + nl + 1
      }
      if (at + n >= size) return null
      at += n - 16
    }
    return null
  } catch {
    return null
  } finally {
    closeSync(fd)
  }
}

export const WORKER = new URL('./clean-worker.js', import.meta.url)
export const FAILED: ProofPart = { failed: true, rows: 0, firstIndex: 0, first: null, last: null, keys: new Int32Array(0), sections: new Uint8Array(0), pending: [] }

/** A part proved in a worker; in this thread where the compiled worker is not there (tests run the source). */
function partInWorker(task: PartTask): Promise<ProofPart> {
  if (!existsSync(fileURLToPath(WORKER))) return provePart(task)
  return new Promise((resolve) => {
    const worker = new Worker(WORKER, { workerData: task, resourceLimits: { maxOldGenerationSizeMb: 512 } })
    worker.once('message', (m: { part: ProofPart }) => resolve(m.part))
    // Whatever stops the worker only leaves the proof unproved: the exact checks then run. (The
    // listener stays: an 'error' with none would crash the process.)
    worker.on('error', () => resolve(FAILED))
    worker.once('exit', () => resolve(FAILED))
  })
}
