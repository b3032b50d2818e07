// The worker of the clean proof (prove-shared.ts): takes units of a JSONL, CSV or Parquet export
// from the queue it shares with the main thread, and hands each part in as it is proved.
import { parentPort, workerData } from 'node:worker_threads'
import type { ProofPart } from './checks/clean-proof.js'
import type { FileJob } from './prove-file.js'
import type { ParquetJob } from './prove-parquet.js'
import { drain, UnitQueue, type SharedJob } from './prove-shared.js'

const { job, flags, size } = workerData as SharedJob<FileJob | ParquetJob>
// From the back: see UnitQueue.
const queue = new UnitQueue(flags, size, true)
const send = (unit: number, part: ProofPart) => parentPort!.postMessage({ unit, part }, [part.keys.buffer as ArrayBuffer])
// Each kind loads only its own reader: the worker starts while this thread is already proving.
const prove = job.kind === 'file' ? await fileProver(job) : await (await import('./prove-parquet.js')).parquetProver(job)

async function fileProver(job: FileJob) {
  const { provePart } = await import('./prove-file.js')
  return (k: number) => provePart(job.tasks[k]!)
}
await drain(queue, prove, send)
parentPort!.postMessage({ done: true })
