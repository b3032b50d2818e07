import { closeSync, openSync, readSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { mergeProofs, type ProofPart } from '../../validate/proof/clean-proof.js'
import { proveCsvPart } from '../../validate/proof/clean-csv.js'
import { proveJsonlPart } from '../../validate/proof/clean-jsonl.js'
import { giveBuffer, takeBuffer } from '../../validate/proof/buffer-pool.js'
import { MAX_CSV_RECORD } from '../../core/limits.js'
import { proveShared } from './prove-shared.js'

/** Below this size a file is proved in one thread: starting a worker would cost more than it saves. */
const PARALLEL_FROM = 8 * 1024 * 1024
/** About the bytes of one unit of a file proved on two cores: small enough that neither waits long. */
const UNIT_BYTES = 8 * 1024 * 1024

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
 * Prove a JSONL or CSV rules export on disk clean, on two cores when it is large: the file is cut
 * into parts of about UNIT_BYTES, each from a line that looks like a row's start, proved here and in
 * a worker (whichever is free takes the next), the parts joined by mergeProofs. A CSV cut that falls
 * inside a quoted field leaves the part before it ending inside a record, which fails it: a cut is
 * never trusted, only proved. The row count when clean, else null (see CleanProof).
 */
export async function proveFile(format: ProvableFormat, path: string, size: number): Promise<number | null> {
  const tasks = partsOf(format, path, size)
  const parts = await proveShared<FileJob>({ kind: 'file', tasks }, tasks.length, (k) => provePart(tasks[k]!), { heapMb: 512, here: true })
  return mergeProofs(parts)
}

/** What a worker is given to prove parts of a file. */
export interface FileJob {
  kind: 'file'
  tasks: PartTask[]
}

/** The parts of a file: one below PARALLEL_FROM or on one core, else cut at rows about UNIT_BYTES apart. */
function partsOf(format: ProvableFormat, path: string, size: number): PartTask[] {
  const cuts = [0]
  if (size >= PARALLEL_FROM && availableParallelism() > 1) {
    let fd: number | null = null
    try {
      fd = openSync(path, 'r')
      const count = Math.max(2, Math.round(size / UNIT_BYTES))
      for (let i = 1; i < count; i++) {
        const cut = rowStartAfter(fd, Math.max(Math.floor((i * size) / count), cuts.at(-1)! + 1), size, format)
        if (cut !== null && cut > cuts.at(-1)!) cuts.push(cut)
      }
    } catch {
      // Unreadable here: proved whole, the reading error is then met again and reported.
    } finally {
      if (fd !== null) closeSync(fd)
    }
  }
  cuts.push(size)
  return cuts.slice(1).map((end, k) => ({ format, path, start: cuts[k]!, end, header: format === 'csv' && k === 0 }))
}

export function provePart(task: PartTask): Promise<ProofPart> {
  const chunks = regionsOf(task.path, task.start, task.end)
  return task.format === 'jsonl' ? proveJsonlPart(chunks) : proveCsvPart(chunks, task.header)
}

/**
 * The bytes start..end of a file, 1 MiB at a time, each read into the same buffer: the proofs are
 * done with a region (or have copied what they keep of it) before asking for the next. A new buffer
 * per read (a read stream's) left the collector hundreds of megabytes of them to find at 3M rows.
 */
function* regionsOf(path: string, start: number, end: number): Generator<Buffer> {
  const fd = openSync(path, 'r')
  const buffer = takeBuffer(REGION_BYTES)
  try {
    for (let at = start; at < end; ) {
      const n = readSync(fd, buffer, 0, Math.min(buffer.length, end - at), at)
      if (n === 0) throw new Error(`${path} ended at byte ${at}, before byte ${end}`)
      yield buffer.subarray(0, n)
      at += n
    }
  } finally {
    closeSync(fd)
    giveBuffer(buffer)
  }
}

const REGION_BYTES = 1024 * 1024

// A CSV row starts with its rule number; a JSONL row is any line.
const ROW_START = { jsonl: /^/, csv: /^"?\d{3}\.\d/ }

/** Where the first line at or after `from` that looks like a row's start begins, or null (none within reach). */
function rowStartAfter(fd: number, from: number, size: number, format: ProvableFormat): number | null {
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
}
