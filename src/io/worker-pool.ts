import { existsSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import { Worker, type ResourceLimits } from 'node:worker_threads'
import { EtlError, type EtlErrorCode } from '../core/errors.js'

/** Tasks run on the machine's cores. */
export interface WorkerPool<Task, Result> {
  /** Run `task` on the next free worker; `onStart` is told when one takes it (its time starts then). */
  run(task: Task, onStart?: () => void): Promise<Result>
  close(): Promise<void>
}

export interface PoolOptions<Task, Result> {
  /** At most this many workers (never more than the cores). */
  size?: number
  /** Given to every worker as its workerData. */
  workerData?: unknown
  /** Every worker's heap limits (Node's Worker resourceLimits). */
  resourceLimits?: ResourceLimits
  /** How a task runs in this thread where the compiled worker script is not there (tests run the TypeScript source). */
  inline: (task: Task) => Promise<Result>
}

type Answer = { id: number; ok: boolean; result?: unknown; name?: string; code?: string; message?: string }

/**
 * The one pool of worker threads: one worker per core, each task to the next free one. A worker
 * script answers `{ id, ok, result }` or `{ id, ok: false, name, code, message }` to each task (sent
 * with its `id`); an EtlError in a worker comes back as an EtlError. A worker that dies (out of
 * memory, an uncaught error, an exit) fails its own task only, with an INTERNAL EtlError, and is
 * replaced: the other tasks go on.
 */
export function startWorkerPool<Task extends object, Result>(script: URL, options: PoolOptions<Task, Result>): WorkerPool<Task, Result> {
  if (!existsSync(fileURLToPath(script))) {
    return {
      run: (task, onStart) => {
        onStart?.()
        return options.inline(task)
      },
      close: async () => {},
    }
  }
  const size = Math.max(1, Math.min(options.size ?? availableParallelism(), availableParallelism()))
  const idle: Worker[] = []
  const all = new Set<Worker>()
  const waiting: (() => void)[] = []
  const running = new Map<Worker, { id: number; resolve: (v: Result) => void; reject: (e: unknown) => void }>()
  let closed = false
  let next = 0

  const release = (w: Worker) => {
    idle.push(w)
    waiting.shift()?.()
  }
  const died = (w: Worker, why: string) => {
    if (!all.delete(w)) return
    if (idle.includes(w)) idle.splice(idle.indexOf(w), 1)
    const task = running.get(w)
    running.delete(w)
    task?.reject(new EtlError('INTERNAL', `a worker ended while running its task (${why})`))
    if (!closed) release(spawn())
  }
  const spawn = (): Worker => {
    const w = new Worker(script, { workerData: options.workerData, ...(options.resourceLimits ? { resourceLimits: options.resourceLimits } : {}) })
    all.add(w)
    w.on('message', (m: Answer) => {
      const task = running.get(w)
      if (!task || task.id !== m.id) return
      running.delete(w)
      release(w)
      if (m.ok) task.resolve(m.result as Result)
      else task.reject(m.name === 'EtlError' ? new EtlError(m.code as EtlErrorCode, m.message!) : new Error(m.message))
    })
    w.on('error', (e: Error & { code?: string }) => died(w, e.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'it ran out of memory' : e.message))
    w.on('exit', (code) => died(w, `exit code ${code}`))
    return w
  }
  for (let i = 0; i < size; i++) idle.push(spawn())

  return {
    async run(task, onStart) {
      while (idle.length === 0) await new Promise<void>((r) => waiting.push(r))
      const w = idle.pop()!
      onStart?.()
      const id = next++
      return new Promise<Result>((resolve, reject) => {
        running.set(w, { id, resolve, reject })
        w.postMessage({ ...task, id })
      })
    },
    async close() {
      closed = true
      const workers = [...all]
      all.clear()
      await Promise.all(workers.map((w) => w.terminate()))
    },
  }
}
