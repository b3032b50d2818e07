// A worker of `history`: builds a release and writes its folder, for the main thread (history-run.ts, through worker-pool.ts),
// with the settings the main thread has.
import { parentPort, workerData } from 'node:worker_threads'
import { runHistoryTask, type HistoryTask } from '../history-tasks.js'
import { configureIo } from '../settings.js'

configureIo(workerData.settings)

parentPort!.on('message', async (task: HistoryTask & { id: number }) => {
  try {
    const result = await runHistoryTask(task)
    const p = result.prefixes
    const transfer = p ? [p.jsonl.buffer, p.jsonlEnds.buffer, p.csv.buffer, p.csvEnds.buffer] : []
    parentPort!.postMessage({ id: task.id, ok: true, result }, transfer as ArrayBuffer[])
  } catch (e) {
    const err = e as Error & { code?: string }
    parentPort!.postMessage({ id: task.id, ok: false, name: err.name, code: err.code, message: err.message })
  }
})
