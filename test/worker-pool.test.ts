import { describe, expect, it } from 'vitest'
import { EtlError } from '../src/core/errors.js'
import { startWorkerPool } from '../src/io/worker-pool.js'

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

  it('runs tasks in this thread where the worker script is not there', async () => {
    const missing = new URL('./fixtures/no-such-worker.mjs', import.meta.url)
    const pool = startWorkerPool<Task, Result>(missing, { inline: async ({ job }) => ({ job: `${job} inline`, thread: 0, tag: '' }) })
    let started = 0
    expect(await pool.run({ job: 'x' }, () => started++)).toEqual({ job: 'x inline', thread: 0, tag: '' })
    expect(started).toBe(1)
  })
})
