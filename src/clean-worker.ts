// A worker of the clean proof (prove-file.ts): proves one part of a JSONL or CSV export, or some row
// groups of a Parquet one (a part per row group, sent as each is done).
import { parentPort, workerData } from 'node:worker_threads'
import type { ProofPart } from './checks/clean-proof.js'
import { provePart, type PartTask } from './prove-file.js'
import type { GroupsTask } from './prove-parquet.js'

const send = (message: { group?: number; part: ProofPart }) => parentPort!.postMessage(message, [message.part.keys.buffer as ArrayBuffer])
const task = workerData as PartTask | GroupsTask
if (task.format === 'parquet') await (await import('./prove-parquet.js')).proveRowGroups(task, (group, part) => send({ group, part }))
else send({ part: await provePart(task) })
