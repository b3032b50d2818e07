import { existsSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import { ioSettings } from './settings.js'
import { EtlError, type EtlErrorCode } from '../core/errors.js'
import { runHistoryTask, type HistoryTask } from './history-tasks.js'

/**
 * Run history tasks on the machine's cores: one worker thread per core (at most `max`), each task
 * to the next free worker. Where the compiled worker is not there (tests run the TypeScript source),
 * tasks run in this thread, one after another. An EtlError in a worker comes back as an EtlError.
 */
export function startPool(max = availableParallelism()) {
  const url = new URL('./workers/history-worker.js', import.meta.url)
  const size = Math.max(1, Math.min(max, availableParallelism()))
  if (!existsSync(fileURLToPath(url))) {
    return {
      run: <T>(task: HistoryTask, onStart?: () => void) => {
        onStart?.()
        return runHistoryTask(task) as Promise<T>
      },
      close: async () => {},
    }
  }
  const workers = Array.from({ length: size }, () => new Worker(url, { workerData: { settings: { ...ioSettings } } }))
  const idle = [...workers]
  const waiting: (() => void)[] = []
  let next = 0
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: unknown) => void }>()
  for (const w of workers) {
    w.on('message', (m: { id: number; ok: boolean; result?: unknown; name?: string; code?: string; message?: string }) => {
      const p = pending.get(m.id)!
      pending.delete(m.id)
      idle.push(w)
      waiting.shift()?.()
      if (m.ok) p.resolve(m.result)
      else p.reject(m.name === 'EtlError' ? new EtlError(m.code as EtlErrorCode, m.message!) : new Error(m.message))
    })
    w.on('error', (e) => {
      for (const p of pending.values()) p.reject(e)
      pending.clear()
    })
  }
  return {
    /** Run `task` on the next free worker; `onStart` is told when one takes it (its time starts then). */
    async run<T>(task: HistoryTask, onStart?: () => void): Promise<T> {
      while (idle.length === 0) await new Promise<void>((r) => waiting.push(r))
      const w = idle.pop()!
      onStart?.()
      const id = next++
      return new Promise<T>((resolve, reject) => {
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject })
        w.postMessage({ ...task, id })
      })
    },
    close: async () => {
      await Promise.all(workers.map((w) => w.terminate()))
    },
  }
}
