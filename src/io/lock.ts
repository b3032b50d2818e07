import { lstatSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs'
import { EtlError } from '../core/errors.js'
import { describeFsError } from './fs-errors.js'
import { ioSettings, timeLimit } from './settings.js'

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

/** A lock that is empty or unreadable for this long was left by a run that could not write its pid (a full disk). */
const STALE_EMPTY_MS = 5_000

/**
 * Take the lock file `lock` (created exclusively, holding this process's id), waiting while another
 * live run holds it, up to `timeoutMs`; a lock left by a killed run is taken over, and so is one left
 * empty for more than a few seconds. A lock path that is no lock file (a folder, a link) is refused
 * at once: waiting would never end.
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
    let stale = false
    try {
      const st = lstatSync(lock)
      if (!st.isFile()) throw new EtlError('OUTPUT_UNWRITABLE', `write: cannot write to ${target}: its lock ${lock} is ${st.isDirectory() ? 'a folder' : st.isSymbolicLink() ? 'a link' : 'not a file'}, not a lock file (remove it)`)
      const text = readFileSync(lock, 'utf8').trim()
      holder = /^\d+$/.test(text) ? Number(text) : NaN
      // An empty lock is a run that is just starting, or one that could not write its pid.
      stale = Number.isNaN(holder) && Date.now() - st.mtimeMs > STALE_EMPTY_MS
    } catch (e) {
      if (e instanceof EtlError) throw e
      // Gone meanwhile (its run ended): try again at once.
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') continue
      throw new EtlError('OUTPUT_UNWRITABLE', `write: cannot write to ${target}: its lock ${lock} cannot be read: ${describeFsError(e)}`)
    }
    // A lock whose run is gone (killed), or left empty, is taken over.
    if (stale || (!Number.isNaN(holder) && holder !== 0 && !alive(holder))) {
      try {
        unlinkSync(lock)
      } catch {
        // Another run took it over first.
      }
      continue
    }
    if (Date.now() > deadline) {
      const who = Number.isNaN(holder) || holder === 0 ? 'a run that is starting' : `pid ${holder}`
      throw new EtlError('OUTPUT_BUSY', `write: ${target} is being written by another run (${who}) for more than ${timeLimit(timeoutMs)}`)
    }
    await new Promise((r) => setTimeout(r, 25 + Math.random() * 50))
  }
}

/** Run `fn` while holding `lock`. */
export async function withLock<T>(lock: string, what: string, fn: () => Promise<T> | T, timeoutMs = ioSettings.lockTimeoutMs): Promise<T> {
  await acquireLock(lock, what, timeoutMs)
  try {
    return await fn()
  } finally {
    rmSync(lock, { force: true })
  }
}
