import { readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs'
import { EtlError } from '../core/errors.js'
import { describeFsError } from './fs-errors.js'

/** Whether a process of that id runs (a lock or leftover of a killed run belongs to none). */
export const alive = (pid: number) => {
  if (!Number.isInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Take the lock file `lock` (created exclusively, holding this process's id), waiting while another
 * live run holds it, up to `timeoutMs`; a lock left by a killed run is taken over.
 */
export async function acquireLock(lock: string, target: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      writeFileSync(lock, String(process.pid), { flag: 'wx' })
      return
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw new EtlError('OUTPUT_UNWRITABLE', `write: cannot write to ${target}: ${describeFsError(e)}`)
    }
    let holder = NaN
    try {
      holder = Number(readFileSync(lock, 'utf8'))
    } catch {
      continue
    }
    // A lock whose run is gone (killed) is taken over; an empty one is a run that is just starting.
    if (!Number.isNaN(holder) && holder !== 0 && !alive(holder)) {
      try {
        unlinkSync(lock)
      } catch {
        // Another run took it over first.
      }
      continue
    }
    if (Date.now() > deadline) throw new EtlError('OUTPUT_BUSY', `write: ${target} is being written by another run (pid ${holder}) for more than ${Math.round(timeoutMs / 1000)} s`)
    await new Promise((r) => setTimeout(r, 25 + Math.random() * 50))
  }
}


/** Run `fn` while holding `lock`. */
export async function withLock<T>(lock: string, what: string, fn: () => Promise<T> | T, timeoutMs = 120_000): Promise<T> {
  await acquireLock(lock, what, timeoutMs)
  try {
    return await fn()
  } finally {
    rmSync(lock, { force: true })
  }
}
