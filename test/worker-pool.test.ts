import { spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Worker } from 'node:worker_threads'
import { afterEach, describe, expect, it } from 'vitest'
import { WorkerPool, type PooledWorker } from '../src/io/proof/proof-pool.js'
import { REPO } from './helpers/shared.js'

const SCRIPT = new URL('./fixtures/job-worker.mjs', import.meta.url)

/** A job sent to a worker, and its answer. */
async function ask(worker: Worker, job: unknown): Promise<{ job: unknown; heapMb: number }> {
  const answer = once(worker, 'message')
  worker.postMessage(job)
  return (await answer)[0]
}

// The clean proof's workers are kept between jobs: a pool hands out a waiting one whose heap limit
// is enough, keeps at most its size, lets go of any that end, and never holds the process.
describe('workers kept between jobs (WorkerPool)', () => {
  const started: PooledWorker[] = []
  const take = (pool: WorkerPool, heapMb: number) => {
    const pooled = pool.take(heapMb)
    started.push(pooled)
    return pooled
  }
  afterEach(async () => {
    await Promise.all(started.splice(0).map((p) => p.worker.terminate()))
  })

  it('hands out a waiting worker whose heap limit is enough, and starts one with the limit asked for otherwise', async () => {
    const pool = new WorkerPool(SCRIPT, 2)
    const a = take(pool, 96)
    expect(await ask(a.worker, 'a')).toEqual({ job: 'a', heapMb: 96 })
    pool.giveBack(a)
    expect(pool.waiting).toBe(1)
    const larger = take(pool, 128)
    expect([larger.heapMb, pool.waiting]).toEqual([128, 1])
    expect(await ask(larger.worker, 'b')).toEqual({ job: 'b', heapMb: 128 })
    const smaller = take(pool, 64)
    expect([smaller.worker, pool.waiting]).toEqual([a.worker, 0])
    expect(await ask(smaller.worker, 'c')).toEqual({ job: 'c', heapMb: 96 })
  })

  it('keeps a worker given back for the next job, and ends those beyond its size', async () => {
    const pool = new WorkerPool(SCRIPT, 1)
    const a = take(pool, 64)
    const b = take(pool, 64)
    expect(await ask(a.worker, 1)).toEqual({ job: 1, heapMb: 64 })
    pool.giveBack(a)
    const ended = once(b.worker, 'exit')
    pool.giveBack(b)
    await ended
    expect(pool.waiting).toBe(1)
    const again = take(pool, 64)
    expect(again.worker).toBe(a.worker)
    expect(await ask(again.worker, 2)).toEqual({ job: 2, heapMb: 64 })
  })

  it('lets go of a waiting worker that ends', async () => {
    const pool = new WorkerPool(SCRIPT, 1)
    const a = take(pool, 64)
    await ask(a.worker, 'first')
    pool.giveBack(a)
    // (Listened for after giveBack, which takes its user's listeners off.)
    const ended = once(a.worker, 'exit')
    a.worker.postMessage('end')
    await ended
    expect(pool.waiting).toBe(0)
    expect(take(pool, 64).worker).not.toBe(a.worker)
  })

  it('ends a worker that waits longer than its idle time', async () => {
    const pool = new WorkerPool(SCRIPT, 1, 50)
    const a = take(pool, 64)
    await ask(a.worker, 'first')
    pool.giveBack(a)
    // (Listened for after giveBack, which takes its user's listeners off.)
    await once(a.worker, 'exit')
    expect(pool.waiting).toBe(0)
    // One taken in time is not ended: it still answers after the idle time has passed.
    const b = take(pool, 64)
    pool.giveBack(b)
    const again = take(pool, 64)
    await new Promise((resolve) => setTimeout(resolve, 150))
    expect(again.worker).toBe(b.worker)
    expect(await ask(again.worker, 'later')).toEqual({ job: 'later', heapMb: 64 })
  })

  it('does not keep the process alive with the workers that wait', () => {
    // The compiled pool (make build), in a process of its own: two workers do a job each and are
    // given back, and the process ends at once.
    const dir = mkdtempSync(join(tmpdir(), 'pool-'))
    const script = join(dir, 'pool.mjs')
    writeFileSync(
      script,
      `import { once } from 'node:events'
      import { WorkerPool } from ${JSON.stringify(`${REPO}/dist/src/io/proof/proof-pool.js`)}
      const pool = new WorkerPool(new URL(${JSON.stringify(SCRIPT.href)}), 2)
      const taken = [pool.take(64), pool.take(64)]
      const answers = await Promise.all(taken.map((p, i) => (p.worker.postMessage(i), once(p.worker, 'message'))))
      for (const p of taken) pool.giveBack(p)
      process.stdout.write(answers.map(([a]) => a.job).join(' ') + ', ' + pool.waiting + ' waiting')`,
    )
    const run = spawnSync(process.execPath, [script], { encoding: 'utf8', timeout: 30_000 })
    rmSync(dir, { recursive: true, force: true })
    expect(run.error).toBeUndefined()
    expect([run.status, run.stdout, run.stderr]).toEqual([0, '0 1, 2 waiting', ''])
  })
})
