import { randomBytes } from 'node:crypto'
import { lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import type { OutputFile } from '../build/build.js'
import { EtlError } from '../core/errors.js'
import { sha256 } from '../exports/manifest.js'
import { chooseNewest, effectiveDateOf, releaseFileName } from '../fetch/archive.js'
import { MAX_TEXT_BYTES, readInputFile } from './files.js'
import { describeFsError } from './fs-errors.js'
import { onInterrupt } from './interrupts.js'
import { withLock } from './lock.js'
import { ioSettings } from './settings.js'

// Files of releases on disk: an archive folder listed by effective date, the raw/ download cache
// (stored and indexed), a release's notes kept with its dataset, and files written beside others.

/**
 * Write files into `dir`, beside what it holds (the raw/ cache, a changelog): every file goes to a
 * temporary name in the same folder first, and only when all are written are they renamed into place,
 * in one synchronous run that no signal can split. A failure or an interruption leaves the old files
 * and no temporary ones. A dataset folder, replaced whole, uses output-folder.ts instead.
 */
export async function writeFilesAtomically(dir: string, files: OutputFile[]): Promise<void> {
  const temps: { temp: string; final: string }[] = []
  // An interrupted run must leave no temporary files behind.
  const forget = onInterrupt(() => {
    for (const { temp } of temps) rmSync(temp, { force: true })
  })
  try {
    mkdirSync(dir, { recursive: true })
    for (const file of files) {
      const final = join(dir, file.name)
      // Unpredictable and created exclusively: a link planted at the name makes the write fail, never follow.
      const temp = join(dirname(final), `.${basename(final)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`)
      temps.push({ temp, final })
      const handle = await open(temp, 'wx')
      try {
        await handle.writeFile(file.bytes)
        await handle.sync()
      } finally {
        await handle.close()
      }
      if (ioSettings.writeDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, ioSettings.writeDelayMs))
    }
    for (const { temp, final } of temps) renameSync(temp, final)
    temps.length = 0
  } catch (e) {
    for (const { temp } of temps) rmSync(temp, { force: true })
    throw new EtlError('OUTPUT_UNWRITABLE', `write: cannot write to ${dir}: ${describeFsError(e)}`)
  } finally {
    forget()
  }
}

/** A release file of an archive, as it was when listed: its effective date and the sha256 of those bytes. */
export interface ListedRelease {
  name: string
  path: string
  effectiveDate: string | null
  /** Of the bytes the date was read from (null when they could not be read). */
  sha256: string | null
}

/** The CR texts (.txt) of a folder, oldest first by the effective date inside each, then by name. */
export async function listReleases(folder: string): Promise<ListedRelease[]> {
  let names: string[]
  try {
    names = readdirSync(folder).filter((n) => n.toLowerCase().endsWith('.txt'))
  } catch (e) {
    throw new EtlError('INPUT_MISSING', `read: cannot list ${folder}: ${describeFsError(e)}`)
  }
  if (names.length === 0) throw new EtlError('ARCHIVE_EMPTY', `read: no .txt files in ${folder}`)
  const releases: ListedRelease[] = []
  for (const name of names) {
    const path = join(folder, name)
    let effectiveDate: string | null = null
    let hash: string | null = null
    try {
      // Only regular files: a FIFO or device among the releases is read (and refused) by its build.
      if (statSync(path).isFile()) {
        const bytes = await readInputFile(path, MAX_TEXT_BYTES)
        hash = sha256(bytes)
        effectiveDate = effectiveDateOf(name, bytes)
      }
    } catch {
      // Unreadable releases still get their row: the build will say what is wrong.
    }
    releases.push({ name, path, effectiveDate, sha256: hash })
  }
  return releases.sort((a, b) => (a.effectiveDate ?? '9999').localeCompare(b.effectiveDate ?? '9999') || a.name.localeCompare(b.name))
}

/** The files `make release` adds to a dataset folder: they describe the release it was built from. */
const RELEASE_NOTES = ['CHANGELOG.md', 'changes.json']

/**
 * The release notes a dataset folder holds, and whether they describe `sourceSha256` (the text about
 * to be built again): a rebuild of the same release keeps them; notes of another release go with
 * the folder they came with.
 */
export function releaseNotesOf(dir: string, sourceSha256: string): { same: boolean; files: OutputFile[] } {
  const small = (name: string): Uint8Array | null => {
    try {
      const path = join(dir, name)
      const st = lstatSync(path)
      return st.isFile() && st.size <= 16 * 1024 * 1024 ? readFileSync(path) : null
    } catch {
      return null
    }
  }
  const files = RELEASE_NOTES.flatMap((name) => {
    const bytes = small(name)
    return bytes ? [{ name, bytes }] : []
  })
  let same = false
  try {
    same = (JSON.parse(new TextDecoder().decode(small('manifest.json') ?? new Uint8Array())) as { source?: { sha256?: unknown } }).source?.sha256 === sourceSha256
  } catch {
    // No manifest of ours: nothing says what the notes describe.
  }
  return { same, files }
}

/**
 * Copy the newest release of an archive folder into `dest` as `MagicCompRules YYYYMMDD.txt` and
 * record its sha256 in `dest/index.json`. Returns the copied file's path.
 */
export async function copyNewestRelease(archive: string, dest: string): Promise<{ path: string; note: string | null }> {
  let names: string[]
  try {
    names = readdirSync(archive).filter((n) => n.toLowerCase().endsWith('.txt')).sort()
  } catch (e) {
    throw new EtlError('INPUT_MISSING', `read: cannot list ${archive}: ${describeFsError(e)}`)
  }
  const candidates: { name: string; bytes: Uint8Array; effectiveDate: string | null }[] = []
  for (const name of names) {
    const bytes = await readInputFile(join(archive, name), MAX_TEXT_BYTES)
    candidates.push({ name, bytes, effectiveDate: effectiveDateOf(name, bytes) })
  }
  const newest = chooseNewest(candidates, archive)
  const bytes = candidates.find((c) => c.name === newest.name)!.bytes
  return storeRelease(dest, bytes, newest.effectiveDate, newest.name)
}

/**
 * Store a release's bytes in the cache as `MagicCompRules YYYYMMDD.txt` and record its sha256,
 * size and origin in `dest/index.json`, both atomically. Returns the stored file's path.
 */
export async function storeRelease(dest: string, bytes: Uint8Array, effectiveDate: string, from: string): Promise<{ path: string; note: string | null }> {
  try {
    mkdirSync(dest, { recursive: true })
  } catch (e) {
    throw new EtlError('OUTPUT_UNWRITABLE', `write: cannot write to ${dest}: ${describeFsError(e)}`)
  }
  // Read, change and write index.json under a lock: two fetches at once must not lose an entry.
  return withLock(join(dest, '.index.lock'), dest, async () => {
    const index = cacheIndex(dest)
    const hash = sha256(bytes)
    const same = Object.keys(index).find((name) => index[name]!.sha256 === hash)
    let fileName = same ?? releaseFileName(effectiveDate)
    let note: string | null = null
    if (!same && index[fileName]) {
      // Another text with the same date (a re-issue): keep both, never replace one silently.
      fileName = fileName.replace(/\.txt$/, ` ${hash.slice(0, 8)}.txt`)
      note = `fetch: ${dest} already holds a different text effective ${effectiveDate} (${releaseFileName(effectiveDate)}); kept both, this one as ${fileName}`
    }
    index[fileName] = { sha256: hash, bytes: bytes.length, effectiveDate, from: same ? index[fileName]!.from : from }
    const sorted = Object.fromEntries(Object.entries(index).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    // A text already cached is never written again: only the index.
    await writeFilesAtomically(dest, [
      ...(same ? [] : [{ name: fileName, bytes }]),
      { name: 'index.json', bytes: new TextEncoder().encode(JSON.stringify(sorted, null, 2) + '\n') },
    ])
    return { path: join(dest, fileName), note }
  })
}

/** What the cache records of one text. */
interface CacheEntry {
  sha256: string
  bytes: number
  effectiveDate: string | null
  from: string
}

/**
 * The cache's index, made from the texts it holds (the files are the truth; index.json only adds
 * where each came from): a missing or damaged index.json loses no entry, and a text the index
 * does not know is still never overwritten.
 */
function cacheIndex(dest: string): Record<string, CacheEntry> {
  const recorded = readIndex(join(dest, 'index.json'))
  const index: Record<string, CacheEntry> = {}
  for (const name of readdirSync(dest).filter((n) => /^MagicCompRules .*\.txt$/.test(n)).sort()) {
    const path = join(dest, name)
    let bytes: Uint8Array
    try {
      if (!lstatSync(path).isFile()) continue
      bytes = readFileSync(path)
    } catch {
      continue
    }
    const hash = sha256(bytes)
    const known = recorded[name] as Partial<CacheEntry> | undefined
    if (known?.sha256 === hash && typeof known.from === 'string') index[name] = { sha256: hash, bytes: bytes.length, effectiveDate: known.effectiveDate ?? null, from: known.from }
    else {
      let effectiveDate: string | null = null
      try {
        effectiveDate = effectiveDateOf(name, bytes)
      } catch {
        // Not a CR text: still indexed, so that nothing is ever written over it.
      }
      index[name] = { sha256: hash, bytes: bytes.length, effectiveDate, from: 'found in the cache' }
    }
  }
  return index
}

function readIndex(path: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(readFileSync(path, 'utf8'))
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}

/**
 * The publisher's file name of a text: where it was fetched from, as the raw/ cache's index.json
 * beside it records it (a same-date re-issue is cached as `MagicCompRules 20260807 b3d9e20f.txt`, but
 * its dataset names the file the publisher gave, `MagicCompRules 20260819.txt`); else its own name.
 */
export function publisherNameOf(file: string): string {
  const name = basename(file)
  const entry = readIndex(join(dirname(file), 'index.json'))[name] as { from?: unknown; sha256?: unknown } | undefined
  if (typeof entry?.from !== 'string') return name
  let last = entry.from.replace(/[?#].*$/, '').split(/[/\\]/).pop() ?? ''
  try {
    last = decodeURIComponent(last)
  } catch {
    return name
  }
  return /^MagicCompRules [^/\\]*\.txt$/i.test(last) ? last : name
}

// A same-date re-issue's cache name: the publisher's name with 8 hex digits of its sha256.
const REISSUE = /^(MagicCompRules \d{8}) [0-9a-f]{8}\.txt$/

/**
 * The release before `file` in `dir`: for a same-date re-issue (cached under its hash), the first
 * issue of that date; else the newest release of an earlier date. Null when there is none.
 */
export async function previousRelease(dir: string, file: string, effectiveDate: string, fileSha256: string): Promise<string | null> {
  const listed = (await listReleases(dir)).filter((r) => r.effectiveDate !== null && r.sha256 !== fileSha256)
  const reissue = REISSUE.exec(basename(file))
  if (reissue) {
    const first = listed.find((r) => r.effectiveDate === effectiveDate && r.name === `${reissue[1]}.txt`)
    if (first) return first.path
  }
  const older = listed.filter((r) => r.effectiveDate! < effectiveDate)
  return older.length === 0 ? null : older[older.length - 1]!.path
}
