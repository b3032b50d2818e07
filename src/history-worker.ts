// A worker of `history`: builds a release, or diffs two, for the main thread (history-pool.ts).
import { parentPort } from 'node:worker_threads'
import { runHistoryTask, type HistoryTask } from './history-tasks.js'

parentPort!.on('message', async (task: HistoryTask & { id: number }) => {
  try {
    const result = await runHistoryTask(task)
    const transfer = 'files' in result && result.files ? result.files.map((f) => f.bytes.buffer as ArrayBuffer) : []
    parentPort!.postMessage({ id: task.id, ok: true, result }, transfer)
  } catch (e) {
    const err = e as Error & { code?: string }
    parentPort!.postMessage({ id: task.id, ok: false, name: err.name, code: err.code, message: err.message })
  }
})
