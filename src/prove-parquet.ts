import { closeSync, existsSync, openSync, readSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import { mergeProofs, type ProofPart } from './checks/clean-proof.js'
import { CleanProof } from './checks/clean-proof.js'
import { numbersOf, pagesOfPacked, proveExamples, proveNumbers, proveTexts } from './clean-parquet.js'
import { ByteView } from './clean-view.js'
import { int64Values, stringPages, type FlatColumn } from './parquet-pages.js'
import { FAILED, WORKER } from './prove-file.js'
import { checkParquetFile, type FileRef } from './read-export.js'
import { packColumn } from './workers/packed-columns.mjs'
import { decodeRowGroup, openParquetSource, type ParquetSource } from './workers/parquet-groups.mjs'

/** Some row groups of a Parquet file, for one worker. */
export interface GroupsTask {
  format: 'parquet'
  path: string
  groups: number[]
  /** Text one row group may unpack to (as the exact path's worker allows). */
  maxTextBytes: number
}

const RULES_TYPES: Record<string, string> = { number: 'string', text: 'string', examples: 'list<string>', index: 'int64' }

/**
 * Prove a Parquet rules export on disk clean: its footer and page headers checked as the exact path
 * checks them, its columns exactly the rules columns, then its row groups proved on every core (a
 * worker each, with the exact path's heap limit and time limit), each row group a part for
 * mergeProofs. The row count when clean, else null (damage included: the exact path reports it).
 */
export async function proveParquetFile(name: string, ref: FileRef): Promise<number | null> {
  let checked
  try {
    checked = checkParquetFile(name, ref)
  } catch {
    return null
  }
  if (checked instanceof Uint8Array || checked.rowGroups === 0) return null
  if (checked.types.size !== 4 || Object.entries(RULES_TYPES).some(([column, type]) => checked.types.get(column) !== type)) return null
  const workers = Math.max(1, Math.min(availableParallelism(), checked.rowGroups))
  const tasks: GroupsTask[] = Array.from({ length: workers }, (_, w) => ({
    format: 'parquet',
    path: ref.path,
    groups: Array.from({ length: Math.ceil((checked.rowGroups - w) / workers) }, (_, k) => w + k * workers),
    maxTextBytes: checked.heapMb * 1024 * 1024,
  }))
  const timeoutMs = Number(process.env.MTG_RULES_DECODE_TIMEOUT_MS ?? 20_000 + ref.size / 10_000)
  const parts: ProofPart[] = new Array(checked.rowGroups).fill(FAILED)
  const compiled = existsSync(fileURLToPath(WORKER))
  const done = await Promise.all(tasks.map((task) => (compiled ? groupsInWorker(task, checked.heapMb, timeoutMs, parts) : proveRowGroups(task, (g, p) => (parts[g] = p)).then(() => true, () => false))))
  return done.every(Boolean) ? mergeProofs(parts) : null
}

/**
 * Prove row groups one after another, each part handed to `each` as it is done. Number, text and
 * index are read straight from their pages when written as our writer writes them; the examples (a
 * list column, small) and any column written otherwise are decoded by hyparquet.
 */
export async function proveRowGroups(task: GroupsTask, each: (group: number, part: ProofPart) => void): Promise<void> {
  const source = await openParquetSource({ path: task.path })
  const fd = openSync(task.path, 'r')
  try {
    for (const group of task.groups) {
      const rows = source.rowStarts[group + 1]! - source.rowStarts[group]!
      const chunk = (name: string) => flatColumn(source, fd, group, name, task.maxTextBytes)
      const proof = new CleanProof()
      const view = new ByteView()
      const number = chunk('number')
      const index = chunk('index')
      let numbers = number && stringPages(number.bytes, number.column, rows)
      let indexes = index && int64Values(index.bytes, index.column, rows)
      // Numbers first, so that the texts' citations resolve as they come (not all left to the end).
      if (numbers && indexes) proveNumbers(proof, view, numbers, indexes, rows)
      // The text, page by page as it is read (the most of a row group, never held whole).
      const text = chunk('text')
      let texts = text && stringPages(text.bytes, text.column, rows, (page) => proveTexts(proof, view, page))
      const others = ['examples', ...(!numbers ? ['number'] : []), ...(!indexes ? ['index'] : []), ...(!texts ? ['text'] : [])]
      const decoded = await decodeRowGroup(source, group, others)
      const packed = (name: string) => packColumn(decoded.columns[others.indexOf(name)]!, task.maxTextBytes)
      if (!numbers || !indexes) {
        numbers ??= pagesOfPacked(packed('number'), rows)
        indexes ??= numbersOf(decoded.columns[others.indexOf('index')]!)
        if (numbers) proveNumbers(proof, view, numbers, indexes, rows)
      }
      if (!texts) {
        // Pages read before the layout broke were proved already: proving them again changes nothing.
        texts = pagesOfPacked(packed('text'), rows)
        if (texts) proveTexts(proof, view, texts.pages[0]!)
      }
      if (!texts || texts.count !== rows || !numbers) proof.fail()
      proveExamples(proof, view, packed('examples'), rows)
      each(group, proof.part())
    }
  } finally {
    closeSync(fd)
  }
}

/** A top-level column's chunk of a row group, read whole (its size was checked against the heap limit). */
function flatColumn(source: ParquetSource, fd: number, group: number, name: string, maxBytes: number): { bytes: Uint8Array; column: FlatColumn } | null {
  const chunk = source.metadata.row_groups[group]!.columns.find((c) => c.meta_data?.path_in_schema.length === 1 && c.meta_data.path_in_schema[0] === name)
  const element = topLevel(source.metadata.schema).find((e) => e.name === name && !e.num_children)
  if (!chunk?.meta_data || !element) return null
  const meta = chunk.meta_data as unknown as FlatColumn['meta']
  const start = Number(meta.data_page_offset)
  const size = Number(meta.total_compressed_size)
  if (!(size >= 0 && size <= maxBytes)) return null
  const bytes = new Uint8Array(size)
  for (let got = 0; got < size; ) {
    const n = readSync(fd, bytes, got, size - got, start + got)
    if (n === 0) return null
    got += n
  }
  return { bytes, column: { meta, element: element as FlatColumn['element'] } }
}

/** The top-level elements of a flattened Parquet schema. */
function topLevel<T extends { num_children?: number }>(schema: T[]): T[] {
  const out: T[] = []
  const skip = (at: number): number => {
    let next = at + 1
    for (let c = 0; c < (schema[at]!.num_children ?? 0); c++) next = skip(next)
    return next
  }
  for (let at = 1; at < schema.length; at = skip(at)) out.push(schema[at]!)
  return out
}

/** A worker's row groups: true when every one came back (a part each, into `parts`) in time. */
function groupsInWorker(task: GroupsTask, heapMb: number, timeoutMs: number, parts: ProofPart[]): Promise<boolean> {
  return new Promise((resolve) => {
    const worker = new Worker(WORKER, { workerData: task, resourceLimits: { maxOldGenerationSizeMb: heapMb } })
    let left = task.groups.length
    let timer = setTimeout(() => stop(false), timeoutMs)
    const stop = (ok: boolean) => {
      clearTimeout(timer)
      worker.removeAllListeners('message').removeAllListeners('exit')
      void worker.terminate()
      resolve(ok)
    }
    worker.on('message', (m: { group: number; part: ProofPart }) => {
      parts[m.group] = m.part
      clearTimeout(timer)
      timer = setTimeout(() => stop(false), timeoutMs)
      // A failed row group settles it: the others need not be decoded.
      if (m.part.failed || --left === 0) stop(!m.part.failed)
    })
    // Kept for good: an 'error' with no listener would crash the process.
    worker.on('error', () => stop(false))
    worker.once('exit', () => stop(left === 0))
  })
}
