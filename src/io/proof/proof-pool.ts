import { existsSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'

/** A worker and its heap limit. */
export interface PooledWorker {
  worker: Worker
  heapMb: number
}

/**
 * Workers of one script kept between jobs: each is given a job (a message) and says when it is done
 * with it. At most `size` wait, unreferenced, so that the process ends without waiting for them, and
 * each for `idleMs` at most (a program that uses the library keeps no thread it does not use); one
 * that fails or ends while it waits leaves the pool. A worker that failed a job, or was stopped, is
 * ended by its user, not given back.
 */
export class WorkerPool {
  private readonly idle: { pooled: PooledWorker; timer: NodeJS.Timeout }[] = []

  constructor(
    readonly script: URL,
    readonly size: number,
    readonly idleMs = 2000,
  ) {}

  /**
   * A worker whose heap limit is at least `heapMb`: a waiting one (its limit may be larger: a job is
   * bounded by it all the same), else a new one with that limit.
   */
  take(heapMb: number): PooledWorker {
    const at = this.idle.findIndex((w) => w.pooled.heapMb >= heapMb)
    if (at < 0) return { worker: this.start(heapMb), heapMb }
    const { pooled, timer } = this.idle.splice(at, 1)[0]!
    clearTimeout(timer)
    pooled.worker.removeAllListeners('error').removeAllListeners('exit').ref()
    return pooled
  }

  /** A worker done with its job, to wait for the next; ended when `size` already wait. */
  giveBack(pooled: PooledWorker): void {
    const { worker } = pooled
    if (this.idle.length >= this.size) return void worker.terminate()
    const entry = { pooled, timer: setTimeout(() => void worker.terminate(), this.idleMs).unref() }
    const leave = () => {
      clearTimeout(entry.timer)
      const at = this.idle.indexOf(entry)
      if (at >= 0) this.idle.splice(at, 1)
    }
    // An 'error' with no listener would crash the process.
    worker.removeAllListeners('message').removeAllListeners('error').removeAllListeners('exit')
    worker.on('error', leave).once('exit', leave).unref()
    this.idle.push(entry)
  }

  /** How many workers wait. */
  get waiting(): number {
    return this.idle.length
  }

  private start(heapMb: number): Worker {
    return new Worker(this.script, { resourceLimits: { maxOldGenerationSizeMb: heapMb } })
  }
}

/** The worker of the clean proof (workers/proof-worker.ts, compiled; tests run the source, without it). */
export const WORKER = new URL('./workers/proof-worker.js', import.meta.url)

/** Whether the compiled worker exists. */
export const workerCompiled = (): boolean => existsSync(fileURLToPath(WORKER))

/**
 * The clean proof's workers, one per core but this thread's, kept between jobs: the same command
 * proves several files (a dataset folder holds the rules in three formats) with workers already
 * started, their code already compiled.
 */
export const proofWorkers = new WorkerPool(WORKER, availableParallelism() - 1)
