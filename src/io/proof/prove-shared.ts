import { availableParallelism } from 'node:os'
import type { ProofPart } from '../../validate/proof/clean-proof.js'
import { proofWorkers, workerCompiled } from './proof-pool.js'

/**
 * Units of a proof shared by this thread and its workers: each takes the next unit nobody has taken
 * (a flag per unit in shared memory, claimed by compare-and-swap), so that none waits for another
 * however the machine's cores are shared out (a fixed half each left one thread idle for a tenth of
 * the run while the other finished). This thread takes from the front and the workers from the back:
 * a worker starts late and cold (its own modules, Node's, and code not yet compiled beside a busy
 * thread), and a Parquet file's last units are its lightest, text slices only, while its first
 * carry the numbers, indexes and examples of each row group.
 */
export class UnitQueue {
  private cursor: number

  /** `flags`: the queue's shared state (create's), closed flag first, then one per unit. */
  constructor(
    readonly flags: Int32Array,
    readonly size: number,
    private readonly fromBack = false,
  ) {
    this.cursor = fromBack ? size - 1 : 0
  }

  static create(size: number): UnitQueue {
    return new UnitQueue(new Int32Array(new SharedArrayBuffer(4 * (size + 1))), size)
  }

  /** The next unit not yet taken, from this end; -1 when all are taken (or the queue is closed). */
  take(): number {
    for (; this.cursor >= 0 && this.cursor < this.size; this.cursor += this.fromBack ? -1 : 1) {
      if (Atomics.load(this.flags, 0) !== 0) return -1
      const k = this.cursor
      if (Atomics.compareExchange(this.flags, 1 + k, 0, 1) === 0) {
        this.cursor += this.fromBack ? -1 : 1
        return k
      }
    }
    return -1
  }

  /** No unit is handed out after this: one unit not proved settles the whole. */
  close(): void {
    Atomics.store(this.flags, 0, 1)
  }
}

/**
 * Take units until none is left, each proved by `prove` and handed to `each`. A unit that throws is
 * not proved (the exact path then meets what threw, and reports it).
 */
export async function drain(queue: UnitQueue, prove: (unit: number) => Promise<ProofPart>, each: (unit: number, part: ProofPart) => void): Promise<void> {
  for (let k = queue.take(); k >= 0; k = queue.take()) {
    const part = await Promise.resolve(k).then(prove).catch(() => FAILED)
    if (part.failed) queue.close()
    each(k, part)
  }
}

/** What a worker of the proof is given: the units' description (`job`) and the queue's shared state. */
export interface SharedJob<J> {
  job: J
  flags: Int32Array
  size: number
}

export interface ShareOptions {
  /** The workers' heap, MiB. */
  heapMb: number
  /** How long a worker may go without handing in a unit. */
  timeoutMs?: number
  /**
   * Whether this thread proves units too (the fastest: no worker to wait for), or leaves them all
   * to workers, one per core, whose heap limit holds what a unit may take (a hostile file's).
   */
  here: boolean
}

/**
 * Prove `size` units here and in workers (workers/proof-worker.ts, given `job`), in whatever order they are
 * taken; their parts by unit, a unit not proved (its thread stopped, timed out or failed) left as
 * `FAILED`. Here alone where there is one unit, one core or no compiled worker (tests run the source).
 */
export async function proveShared<J>(job: J, size: number, prove: (unit: number) => Promise<ProofPart>, options: ShareOptions): Promise<ProofPart[]> {
  const parts: ProofPart[] = new Array(size).fill(FAILED)
  const queue = UnitQueue.create(size)
  const keep = (k: number, part: ProofPart) => (parts[k] = part)
  const cores = availableParallelism()
  const compiled = workerCompiled()
  const here = options.here || !compiled
  const count = !compiled ? 0 : Math.min(size - (here ? 1 : 0), here ? cores - 1 : cores)
  const helpers = Array.from({ length: Math.max(0, count) }, () => inWorker({ job, flags: queue.flags, size }, queue, keep, options))
  // A unit not proved settles it: the units under way elsewhere are not waited for.
  const settle = (k: number, part: ProofPart) => {
    keep(k, part)
    if (part.failed) for (const h of helpers) h.stop()
  }
  if (here) await drain(queue, prove, settle)
  await Promise.all(helpers.map((h) => h.done))
  return parts
}

/**
 * The worker's share: its parts as they come, until it says it is done (it is then kept for the next
 * job, see proof-pool.ts), stops, or is stopped (it is then ended).
 */
function inWorker<J>(shared: SharedJob<J>, queue: UnitQueue, keep: (k: number, part: ProofPart) => void, options: ShareOptions): { done: Promise<void>; stop: () => void } {
  let stop = () => {}
  const done = new Promise<void>((resolve) => {
    const pooled = proofWorkers.take(options.heapMb)
    const worker = pooled.worker
    let timer: NodeJS.Timeout | undefined
    stop = () => {
      clearTimeout(timer)
      worker.removeAllListeners('message').removeAllListeners('exit')
      // Units it took and did not hand in stay FAILED: the whole is then not proved.
      queue.close()
      void worker.terminate()
      resolve()
    }
    const finish = () => {
      clearTimeout(timer)
      proofWorkers.giveBack(pooled)
      resolve()
    }
    const wait = () => {
      clearTimeout(timer)
      if (options.timeoutMs !== undefined) timer = setTimeout(stop, options.timeoutMs)
    }
    wait()
    worker.on('message', (m: { unit: number; part: ProofPart } | { done: true }) => {
      if ('done' in m) return void finish()
      keep(m.unit, m.part)
      if (m.part.failed) return void stop()
      wait()
    })
    // Kept for good: an 'error' with no listener would crash the process.
    worker.on('error', () => stop())
    worker.once('exit', () => stop())
    worker.postMessage(shared)
  })
  return { done, stop: () => stop() }
}

export const FAILED: ProofPart = { failed: true, rows: 0, firstIndex: 0, first: null, last: null, keys: new Int32Array(0), sections: new Uint8Array(0), pending: [] }
