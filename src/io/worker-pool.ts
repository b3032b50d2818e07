import { existsSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import { Worker, type ResourceLimits, type Transferable } from 'node:worker_threads'
import { EtlError, type EtlErrorCode } from '../core/errors.js'

/** Tasks run on worker threads: `history`'s releases and `validate`'s Parquet and Arrow decoding. */
export interface WorkerPool<Task, Result> {
  /** Run `task` on the next free worker, for its one answer; `onStart` is told when one takes it (its time starts then). */
  run(task: Task, onStart?: () => void): Promise<Result>
  /** Run `task` on a free worker (or a new one, never waiting), for the answers it sends until one says it is the last. */
  stream(task: Task, transfer?: readonly Transferable[]): TaskStream<Result>
  close(): Promise<void>
}

/** The answers of one streamed task, in the order they came. */
export interface TaskStream<Result> {
  /** The next answer (kept from when it came); rejects with a WorkerFailure when the task failed or its worker ended. */
  next(): Promise<Result>
  /** Tell the worker that its next answer is wanted (the worker script decides what it does with that). */
  ask(): void
  /** Done with the task: its worker goes back to the pool if it sent its last answer, else it is stopped. */
  stop(): void
}

/** A streamed task's failure, as its worker said it (`message`, and `code` when a worker ended: e.g. ERR_WORKER_OUT_OF_MEMORY). */
export class WorkerFailure extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message)
  }
}

export interface PoolOptions<Task, Result> {
  /** At most this many workers at once for `run` (never more than the cores); `stream` never waits. */
  size?: number
  /** Given to every worker as its workerData. */
  workerData?: unknown
  /** Every worker's heap limits (Node's Worker resourceLimits). */
  resourceLimits?: ResourceLimits
  /** How a `run` task runs in this thread where the compiled worker script is not there (tests run the TypeScript source). */
  inline?: (task: Task) => Promise<Result>
  /**
   * When set, an idle worker never holds the process open, at most as many as the cores are kept,
   * and each is stopped, with its heap, after this many ms without a task (read when it goes idle).
   * Without it, idle workers are kept until `close`.
   */
  idleMs?: () => number
}

/**
 * What a worker script says: `{ id, ok: true, result, last? }` or `{ id, ok: false, name, code, message }`
 * to the task sent with that `id` (a `run` task's one answer is its last). A streamed task is also
 * sent `{ id, next: true }` for each `ask`.
 */
type Answer = { id: number; ok: boolean; result?: unknown; last?: boolean; name?: string; code?: string; message?: string }

/** The task a worker is running: where its answers go, and whether it has a single one. */
interface Running {
  id: number
  single: boolean
  answer(m: Answer): void
  end(failure: WorkerFailure): void
}

/**
 * The one pool of worker threads. An EtlError in a worker comes back as an EtlError. A worker that
 * dies (out of memory, an uncaught error, an exit) fails its own task only, and later tasks go to a
 * new worker: the other tasks go on. A worker whose streamed task failed or was left before its
 * last answer is stopped, never used again.
 */
export function startWorkerPool<Task extends object, Result>(script: URL, options: PoolOptions<Task, Result>): WorkerPool<Task, Result> {
  const present = existsSync(fileURLToPath(script))
  const cores = availableParallelism()
  const size = Math.max(1, Math.min(options.size ?? cores, cores))
  const idle: Worker[] = []
  const all = new Set<Worker>()
  const waiting: ((w: Worker) => void)[] = []
  const running = new Map<Worker, Running>()
  const stopTimers = new Map<Worker, NodeJS.Timeout>()
  let closed = false
  let nextId = 0

  const stopWorker = (w: Worker) => {
    forget(w)
    all.delete(w)
    running.delete(w)
    void w.terminate()
  }
  const release = (w: Worker) => {
    running.delete(w)
    const waiter = waiting.shift()
    if (waiter) return waiter(w)
    idle.push(w)
    if (!options.idleMs) return
    w.unref()
    stopTimers.set(w, setTimeout(() => stopWorker(w), options.idleMs()).unref())
    if (idle.length > cores) stopWorker(idle.shift()!)
  }
  const forget = (w: Worker) => {
    clearTimeout(stopTimers.get(w))
    stopTimers.delete(w)
    if (idle.includes(w)) idle.splice(idle.indexOf(w), 1)
  }
  const died = (w: Worker, why: string, code?: string) => {
    if (!all.delete(w)) return
    forget(w)
    const task = running.get(w)
    running.delete(w)
    task?.end(new WorkerFailure(why, code))
    if (!closed && waiting.length > 0) waiting.shift()!(spawn())
  }
  const spawn = (): Worker => {
    const w = new Worker(script, { workerData: options.workerData, ...(options.resourceLimits ? { resourceLimits: options.resourceLimits } : {}) })
    all.add(w)
    w.on('message', (m: Answer) => {
      const task = running.get(w)
      if (!task || task.id !== m.id) return
      if (task.single || (m.ok && m.last)) release(w)
      else if (!m.ok) stopWorker(w)
      task.answer(m)
    })
    w.on('error', (e: Error & { code?: string }) => died(w, e.message, e.code))
    w.on('exit', (code) => died(w, `exit code ${code}`))
    return w
  }
  /** `w` taken for a task: no longer idle, and holding the process open while it works. */
  const taken = (w: Worker): Worker => {
    forget(w)
    w.ref()
    return w
  }
  // A task that cannot be sent (a value with no structured clone) leaves its worker free: it got nothing.
  const post = (w: Worker, task: Task, id: number, transfer?: readonly Transferable[]) => {
    try {
      w.postMessage({ ...task, id }, transfer as Transferable[] | undefined)
    } catch (e) {
      release(w)
      throw e
    }
  }

  return {
    async run(task, onStart) {
      if (!present) {
        if (!options.inline) throw new EtlError('INTERNAL', `no worker script at ${fileURLToPath(script)}`)
        onStart?.()
        return options.inline(task)
      }
      // A free worker, a new one while there are fewer than `size`, else the next one freed.
      const w = taken(idle.pop() ?? (all.size < size ? spawn() : await new Promise<Worker>((r) => waiting.push(r))))
      onStart?.()
      const id = nextId++
      return new Promise<Result>((resolve, reject) => {
        const end = (f: WorkerFailure) => reject(new EtlError('INTERNAL', `a worker ended while running its task (${f.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'it ran out of memory' : f.message})`))
        const answer = (m: Answer) => {
          if (m.ok) resolve(m.result as Result)
          else reject(m.name === 'EtlError' ? new EtlError(m.code as EtlErrorCode, m.message!) : new Error(m.message))
        }
        running.set(w, { id, single: true, answer, end })
        post(w, task, id)
      })
    },

    stream(task, transfer) {
      if (!present) throw new EtlError('INTERNAL', `no worker script at ${fileURLToPath(script)}`)
      // Never waits for a free worker: the caller bounds how many files are read at once.
      const w = taken(idle.pop() ?? spawn())
      const id = nextId++
      const arrived: (Answer | WorkerFailure)[] = []
      let waiter: ((o: Answer | WorkerFailure) => void) | null = null
      let finished = false
      const deliver = (o: Answer | WorkerFailure) => {
        if (o instanceof WorkerFailure || !o.ok || o.last) finished = true
        if (!waiter) return void arrived.push(o)
        const settle = waiter
        waiter = null
        settle(o)
      }
      running.set(w, { id, single: false, answer: deliver, end: deliver })
      post(w, task, id, transfer)
      return {
        next: () =>
          new Promise<Result>((resolve, reject) => {
            const settle = (o: Answer | WorkerFailure) => {
              if (o instanceof WorkerFailure) reject(o)
              else if (!o.ok) reject(new WorkerFailure(o.message ?? 'failed', o.code))
              else resolve(o.result as Result)
            }
            const early = arrived.shift()
            if (early) settle(early)
            else waiter = settle
          }),
        ask: () => {
          if (!finished) w.postMessage({ id, next: true })
        },
        stop: () => {
          waiter = null
          if (running.get(w)?.id === id) stopWorker(w)
          finished = true
        },
      }
    },

    async close() {
      closed = true
      const workers = [...all]
      all.clear()
      idle.length = 0
      for (const timer of stopTimers.values()) clearTimeout(timer)
      await Promise.all(workers.map((w) => w.terminate()))
    },
  }
}
