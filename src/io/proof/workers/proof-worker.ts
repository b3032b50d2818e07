// The worker of the clean proof (prove-shared.ts): given a job (a message), takes units of a JSONL,
// CSV or Parquet export from the queue it shares with the main thread, hands each part in as it is
// proved, says when it is done, and waits for the next job (see proof-pool.ts).
import { parentPort } from 'node:worker_threads'
import type { ProofPart } from '../../../validate/proof/clean-proof.js'
import { provePart, type FileJob } from '../prove-file.js'
import { parquetProver, type ParquetJob } from '../prove-parquet.js'
import { drain, UnitQueue, type SharedJob } from '../prove-shared.js'

const send = (unit: number, part: ProofPart) => parentPort!.postMessage({ unit, part }, [part.keys.buffer as ArrayBuffer])

// Both readers are imported with the worker: one graph, read at once while the thread starts, not
// a second import after it (under a busy core, each asynchronous read waits its turn). A job is
// sent only to a worker done with the last; one that throws ends the worker ('error' in the parent).
parentPort!.on('message', async ({ job, flags, size }: SharedJob<FileJob | ParquetJob>) => {
  // From the back: see UnitQueue.
  const queue = new UnitQueue(flags, size, true)
  const prove = job.kind === 'file' ? (k: number) => provePart(job.tasks[k]!) : await parquetProver(job)
  await drain(queue, prove, send)
  parentPort!.postMessage({ done: true })
})
