import { existsSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import { mergeProofs, type ProofPart } from './checks/clean-proof.js'
import { proveColumns, type RulesColumns } from './clean-parquet.js'
import { FAILED, WORKER } from './prove-file.js'
import { checkParquetFile, type FileRef } from './read-export.js'
import { packColumn } from './workers/packed-columns.mjs'
import { decodeRowGroup, openParquetSource } from './workers/parquet-groups.mjs'

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

/** Prove row groups one after another, each part handed to `each` as it is done. */
export async function proveRowGroups(task: GroupsTask, each: (group: number, part: ProofPart) => void): Promise<void> {
  const source = await openParquetSource({ path: task.path })
  for (const group of task.groups) {
    const { columns, rowCount } = await decodeRowGroup(source, group)
    const byName = Object.fromEntries(source.names.map((n, i) => [n, packColumn(columns[i]!, task.maxTextBytes)])) as unknown as RulesColumns
    each(group, proveColumns(byName, rowCount))
  }
}

/** A worker's row groups: true when every one came back (a part each, into `parts`) in time. */
function groupsInWorker(task: GroupsTask, heapMb: number, timeoutMs: number, parts: ProofPart[]): Promise<boolean> {
  return new Promise((resolve) => {
    const worker = new Worker(WORKER, { workerData: task, resourceLimits: { maxOldGenerationSizeMb: heapMb } })
    let left = task.groups.length
    let timer = setTimeout(() => stop(false), timeoutMs)
    const stop = (ok: boolean) => {
      clearTimeout(timer)
      worker.removeAllListeners()
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
    worker.once('error', () => stop(false))
    worker.once('exit', () => stop(left === 0))
  })
}
