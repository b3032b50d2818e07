import { describe, expect, it } from 'vitest'
import { EtlError } from '../src/core/errors.js'
import { startWorkerPool, WorkerFailure, type TaskStream, type WorkerPool } from '../src/io/worker-pool.js'

const SCRIPT = new URL('./fixtures/job-worker.mjs', import.meta.url)
type Task = { job: string }
type Result = { job: string; thread: number; tag: string }

const outcome = (p: Promise<Result>) =>
  p.then(
    (r) => r.job,
    (e: unknown) => (e instanceof EtlError ? `${e.code}: ${e.message}` : `not an EtlError: ${String(e)}`),
  )

// The one pool of workers (history's releases run on it): tasks queue for a free worker, and a worker
// that dies fails its own task only.
describe('the worker pool', () => {
  it('runs more tasks than it has workers, each answered with its own result, on workers given workerData', async () => {
    const pool = startWorkerPool<Task, Result>(SCRIPT, { size: 2, workerData: { tag: 'pooled' }, inline: async () => ({ job: 'inline', thread: 0, tag: '' }) })
    try {
      const results = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((job) => pool.run({ job })))
      expect(results.map((r) => [r.job, r.tag])).toEqual(['a', 'b', 'c', 'd', 'e'].map((j) => [j, 'pooled']))
      expect(results.every((r) => r.thread > 0)).toBe(true)
      expect(new Set(results.map((r) => r.thread)).size).toBeLessThanOrEqual(2)
    } finally {
      await pool.close()
    }
  })

  it('a worker that exits or throws fails its task only; the others and later tasks go on, on a new worker', async () => {
    const pool = startWorkerPool<Task, Result>(SCRIPT, { size: 2, workerData: { tag: 'pooled' }, inline: async () => ({ job: 'inline', thread: 0, tag: '' }) })
    try {
      const jobs = ['a', 'exit', 'b', 'throw', 'c', 'refuse', 'd']
      expect(await Promise.all(jobs.map((job) => outcome(pool.run({ job }))))).toEqual([
        'a',
        'INTERNAL: a worker ended while running its task (exit code 3)',
        'b',
        'INTERNAL: a worker ended while running its task (thrown in the worker)',
        'c',
        'INPUT_EMPTY: read: pooled is empty',
        'd',
      ])
      expect(await outcome(pool.run({ job: 'after' }))).toBe('after')
    } finally {
      await pool.close()
    }
  })

  it('a task that cannot be sent to a worker is refused, and its worker stays free for the next', async () => {
    const pool = startWorkerPool<Task, Result>(SCRIPT, { size: 1, workerData: { tag: 'pooled' } })
    try {
      const unsendable = { job: 'a', call: () => 1 } as Task
      await expect(pool.run(unsendable)).rejects.toThrow(/could not be cloned/)
      expect(() => pool.stream(unsendable)).toThrow(/could not be cloned/)
      expect((await pool.run({ job: 'after' })).job).toBe('after')
    } finally {
      await pool.close()
    }
  })

  it('runs tasks in this thread where the worker script is not there', async () => {
    const missing = new URL('./fixtures/no-such-worker.mjs', import.meta.url)
    const pool = startWorkerPool<Task, Result>(missing, { inline: async ({ job }) => ({ job: `${job} inline`, thread: 0, tag: '' }) })
    let started = 0
    expect(await pool.run({ job: 'x' }, () => started++)).toEqual({ job: 'x inline', thread: 0, tag: '' })
    expect(started).toBe(1)
  })
})

describe('a streamed task on the pool (validate decodes a Parquet file so, a row group at a time)', () => {
  /** `test` on a pool (of `size` workers for `run`) whose idle workers are stopped after `idleMs`, closed after. */
  const onPool = async (test: (pool: WorkerPool<Task, Result>) => Promise<void>, { idleMs = 60_000, size = 2 } = {}) => {
    const pool = startWorkerPool<Task, Result>(SCRIPT, { workerData: { tag: 'streamed' }, idleMs: () => idleMs, size })
    try {
      await test(pool)
    } finally {
      await pool.close()
    }
  }
  const answers = async (stream: TaskStream<Result>, n: number) => {
    const got = []
    for (let i = 0; i < n; i++) {
      if (i > 0) stream.ask()
      got.push(await stream.next())
    }
    return got
  }

  it('gives its answers in order, each asked for; its worker takes the next task only after the last answer', () =>
    onPool(async (pool) => {
      const stream = pool.stream({ job: 'count 3' })
      const got = await answers(stream, 3)
      expect(got.map((r) => r.job)).toEqual(['count 3 #1', 'count 3 #2', 'count 3 #3'])
      stream.stop()
      expect((await pool.run({ job: 'after' })).thread).toBe(got[0]!.thread)
    }))

  // (A pool of one worker for `run`: one left running would hold its place, and the run would wait.)
  it('a task left before its last answer has its worker stopped: the next task runs on a new one', () =>
    onPool(
      async (pool) => {
        const stream = pool.stream({ job: 'count 3' })
        const [first] = await answers(stream, 1)
        stream.stop()
        expect((await pool.run({ job: 'after' })).thread).not.toBe(first!.thread)
      },
      { size: 1 },
    ))

  it('a worker left idle past idleMs is stopped: the next task runs on a new one', () =>
    onPool(async (pool) => {
      const [first] = await answers(pool.stream({ job: 'count 1' }), 1)
      await new Promise((r) => setTimeout(r, 200))
      expect((await pool.run({ job: 'after' })).thread).not.toBe(first!.thread)
    }, { idleMs: 20 }))

  it('a worker that ends mid-task fails that task with why, and only it', () =>
    onPool(async (pool) => {
      const dying = pool.stream({ job: 'count 1 exit' })
      const other = pool.stream({ job: 'count 2' })
      expect((await dying.next()).job).toBe('count 1 exit #1')
      dying.ask()
      await expect(dying.next()).rejects.toEqual(new WorkerFailure('exit code 4'))
      expect((await answers(other, 2)).map((r) => r.job)).toEqual(['count 2 #1', 'count 2 #2'])
    }))
})
