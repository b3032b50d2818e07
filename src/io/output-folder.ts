import { chmodSync, closeSync, createReadStream, existsSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { createHash, randomBytes } from 'node:crypto'
import { basename, dirname, join, resolve } from 'node:path'
import { EtlError } from '../core/errors.js'
import { safeText } from '../core/report-format.js'
import {  } from '../core/words.js'
import { describeFsError } from './fs-errors.js'
import { onInterrupt } from './interrupts.js'
import { acquireLock, alive } from './lock.js'
import { markerOf, MARKER, refuseForeign, refuseHomeOfTheRun, refuseInputs, type Ownership } from './output-ownership.js'
import { ioSettings } from './settings.js'

export { MARKER, type Ownership } from './output-ownership.js'

export interface StagingOptions {
  /** Replace the folder even when it holds entries `owned` does not claim. */
  force?: boolean
  /** How long to wait for another run writing to the same folder (default 120 s). */
  lockTimeoutMs?: number
  /** What the run reads (a CR text, a dataset folder, an archive): never inside the output folder, --force or not. */
  inputs?: readonly string[]
}

/** A new output folder being written beside the old one; `commit` switches to it whole. */
export interface Staging {
  /**
   * Write a file, created exclusively; `durable` (default) syncs it to disk first. The switch is
   * atomic either way: durability only matters for a power loss, not for a killed process.
   * A failure aborts the staging folder unless `abortOnFailure` is false (the caller aborts).
   */
  write(name: string, bytes: Uint8Array, durable?: boolean, abortOnFailure?: boolean): Promise<void>
  /** A file written in pieces (created exclusively on the first). */
  append(name: string, bytes: Uint8Array): Promise<void>
  /** The staging folder itself, for workers that write their files there (history's builds). */
  readonly dir: string
  /** Size and sha256 of a file already written to the staging folder, read as a stream. */
  digest(name: string): Promise<{ bytes: number; sha256: string }>
  /** Switch the new set in; a note when something was left behind (the run still succeeded). */
  commit(): string | null
  abort(): void
}

/**
 * Start replacing the folder `dir`: take its lock (another run writing there is waited for, up to a
 * limit), sweep what killed runs left, refuse a folder holding entries the tool did not write
 * (unless `force`), and open a fresh staging folder beside it. Files are created exclusively
 * (`wx`, never through a link). `commit` swaps the staging folder in with two renames, so readers
 * see the old set or the new one, never a mixture; a run killed between them is repaired by the next.
 */
export async function openStaging(dir: string, owned: Ownership, options: StagingOptions = {}): Promise<Staging> {
  const target = resolve(dir)
  refuseHomeOfTheRun(target)
  refuseInputs(target, options.inputs ?? [])
  const parent = dirname(target)
  const base = basename(target)
  try {
    mkdirSync(parent, { recursive: true })
  } catch (e) {
    // mkdir says EEXIST when a part of the path is a file.
    const cause = (e as NodeJS.ErrnoException).code === 'EEXIST' ? 'a part of the path is not a directory' : describeFsError(e)
    throw new EtlError('OUTPUT_UNWRITABLE', `write: cannot write to ${dir}: ${cause}`)
  }
  const lock = join(parent, `.${base}.lock`)
  await acquireLock(lock, target, options.lockTimeoutMs ?? ioSettings.lockTimeoutMs)
  let staging: string | null = null
  let old: string | null = null
  let done = false
  let forget = () => {}
  const release = () => {
    rmSync(lock, { force: true })
    forget()
  }
  // An interrupted run leaves the old folder, no staging folder and no lock.
  const handle = {
    abort() {
      if (done) return
      done = true
      // Killed between the two renames: put the old folder back.
      if (old !== null && existsSync(old) && !existsSync(target)) renameSync(old, target)
      try {
        if (staging !== null) {
          // Writes still under way on libuv's threads could add a file while the folder is emptied
          // (ENOTEMPTY): renamed first (the sweep knows that name too), it takes no new file.
          let gone = staging
          try {
            renameSync(staging, (gone = `${staging}-aborted`))
          } catch {
            gone = staging
          }
          rmSync(gone, { recursive: true, force: true, maxRetries: 10, retryDelay: 5 })
        }
      } finally {
        // The lock goes even when the staging folder could not (the next run sweeps that).
        release()
      }
    },
  }
  forget = onInterrupt(() => handle.abort())
  try {
    sweep(parent, base, target)
    refuseForeign(target, owned, options.force ?? false)
    staging = makeStagingFolder(parent, base, target)
  } catch (e) {
    handle.abort()
    if (e instanceof EtlError) throw e
    throw new EtlError('OUTPUT_UNWRITABLE', `write: cannot write to ${dir}: ${describeFsError(e)}`)
  }
  const stagingDir = staging
  const appended = new Set<string>()
  // The folders made so far: a site's thousands of pages share a few.
  const folders = new Set<string>([stagingDir])
  return {
    dir: stagingDir,
    async write(name, bytes, durable = true, abortOnFailure = true) {
      const path = join(stagingDir, name)
      try {
        if (!folders.has(dirname(path))) mkdirSync(dirname(path), { recursive: true })
        folders.add(dirname(path))
        if (durable) {
          const file = await open(path, 'wx')
          try {
            await file.writeFile(bytes)
            await file.sync()
          } finally {
            await file.close()
          }
        } else {
          // Unsynced files are written on this thread, one after another: creating files in one
          // folder from libuv's threads at once gained no time and cost twice the kernel's CPU
          // (measured on a site's 4,000 pages), the threads spinning on the folder's lock.
          const fd = openSync(path, 'wx')
          try {
            writeFileSync(fd, bytes)
          } finally {
            closeSync(fd)
          }
        }
      } catch (e) {
        if (abortOnFailure) handle.abort()
        throw new EtlError('OUTPUT_UNWRITABLE', `write: cannot write ${join(dir, name)}: ${describeFsError(e)}`)
      }
      // Test seam: widens the window between files so tests can interrupt a write.
      if (ioSettings.writeDelayMs > 0) await new Promise((r) => setTimeout(r, ioSettings.writeDelayMs))
    },
    async append(name, bytes) {
      const path = join(stagingDir, name)
      try {
        const file = await open(path, appended.has(name) ? 'a' : 'wx')
        appended.add(name)
        try {
          await file.writeFile(bytes)
        } finally {
          await file.close()
        }
      } catch (e) {
        handle.abort()
        throw new EtlError('OUTPUT_UNWRITABLE', `write: cannot write ${join(dir, name)}: ${describeFsError(e)}`)
      }
    },
    async digest(name) {
      const hash = createHash('sha256')
      let bytes = 0
      for await (const chunk of createReadStream(join(stagingDir, name))) {
        hash.update(chunk as Buffer)
        bytes += (chunk as Buffer).length
      }
      return { bytes, sha256: hash.digest('hex') }
    },
    commit() {
      try {
        // The proof that this tool wrote the folder, and what it wrote: only what it lists (and the
        // files the tool's own commands add, such as a changelog) may be replaced by a later run.
        writeFileSync(join(stagingDir, MARKER), markerOf(readdirSync(stagingDir).sort()), { flag: 'wx' })
        if (existsSync(target)) {
          old = join(parent, `.${base}.old-${process.pid}-${basename(stagingDir).slice(-6)}`)
          renameSync(target, old)
        }
        renameSync(stagingDir, target)
      } catch (e) {
        handle.abort()
        throw new EtlError('OUTPUT_UNWRITABLE', `write: cannot replace ${dir}: ${describeFsError(e)}`)
      }
      // The new set is in place: what is left to do can no longer fail the run, only leave a note.
      staging = null
      done = true
      let note: string | null = null
      if (old !== null) {
        try {
          rmSync(old, { recursive: true, force: true })
        } catch (e) {
          note = `write: ${safeText(dir)} holds the new set; the previous one, moved aside to ${safeText(old)}, could not be removed (${describeFsError(e)}): the next run removes it`
        }
      }
      release()
      return note
    },
    abort: () => handle.abort(),
  }
}

/**
 * Write `files` as the whole new content of `dir` (see openStaging), side by side, WRITES_AT_ONCE at
 * a time (one after another, a build's fsyncs took 25 ms, a site's thousands of pages seconds);
 * synced unless `durable` is false. A failure aborts the whole folder once the writes under way have
 * settled, and names the first file that failed in the order given, whatever order they ended in.
 */
export async function replaceFolder(dir: string, files: Iterable<{ name: string; bytes: Uint8Array }>, owned: Ownership, options: StagingOptions & { durable?: boolean } = {}): Promise<string | null> {
  const staging = await openStaging(dir, owned, options)
  // The files may be made as they are taken (the site's pages): a batch at a time is in memory.
  let batch: { name: string; bytes: Uint8Array }[] = []
  const flush = async () => {
    const settled = await Promise.allSettled(batch.map((f) => staging.write(f.name, f.bytes, options.durable ?? true, false)))
    batch = []
    const failed = settled.find((s) => s.status === 'rejected')
    if (failed) throw failed.reason
  }
  try {
    for (const f of files) {
      batch.push(f)
      if (batch.length < WRITES_AT_ONCE) continue
      await flush()
      // (Unsynced writes run on this thread: a signal is seen between batches.)
      await new Promise((resolve) => setImmediate(resolve))
    }
    await flush()
  } catch (e) {
    staging.abort()
    throw e
  }
  return staging.commit()
}

/** Files written at once: enough to keep the disk busy, few enough for the open-file limit. */
const WRITES_AT_ONCE = 64

/**
 * A fresh staging folder beside `target`, created exclusively, with the folder's usual mode: the
 * previous folder's when there is one, else what the umask gives a new folder (mkdtemp's 0700
 * would leave the output unreadable to the rest of a team or a web server).
 */
function makeStagingFolder(parent: string, base: string, target: string): string {
  for (;;) {
    const path = join(parent, `.${base}.staging-${process.pid}-${randomBytes(4).toString('hex')}`)
    try {
      mkdirSync(path)
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') continue
      throw e
    }
    if (existsSync(target)) chmodSync(path, statSync(target).mode & 0o7777)
    return path
  }
}

// What killed runs left beside the folder: staging folders (removed) and an old folder that was
// moved aside but never deleted (put back if the folder itself is missing, else removed).
function sweep(parent: string, base: string, target: string) {
  const leftover = new RegExp(`^\\.${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.(staging|old)-(\\d+)-`)
  for (const name of readdirSync(parent)) {
    const m = leftover.exec(name)
    if (!m || alive(Number(m[2])) && Number(m[2]) !== process.pid) continue
    const path = join(parent, name)
    if (m[1] === 'old' && !existsSync(target)) renameSync(path, target)
    else {
      try {
        rmSync(path, { recursive: true, force: true })
      } catch {
        // Left for a later run: a leftover that cannot be removed must not stop this one.
      }
    }
  }
}
