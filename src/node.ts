import { randomBytes } from 'node:crypto'
import { createReadStream, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { chooseNewest, effectiveDateOf, releaseFileName } from './archive.js'
import type { OutputFile } from './build.js'
import { EtlError } from './errors.js'
import { describeFsError } from './fs-errors.js'
import { withLock } from './lock.js'
import { sha256 } from './manifest.js'

/** CR texts are about 1 MB; anything far larger is refused before it is read into memory. */
export const MAX_TEXT_BYTES = 64 * 1024 * 1024
/** Exports of 300,000 rows stay well below this. */
export const MAX_EXPORT_BYTES = 1024 * 1024 * 1024

/** Check that an input file exists, is a file, and is not larger than it may be; returns its size. */
export function checkInputFile(path: string, maxBytes: number): number {
  let size: number
  try {
    const st = statSync(path)
    if (st.isDirectory()) throw new EtlError('INPUT_UNREADABLE', `read: ${path} is a directory, not a file`)
    size = st.size
  } catch (e) {
    if (e instanceof EtlError) throw e
    throw new EtlError('INPUT_MISSING', `read: cannot open ${path}: ${describeFsError(e)}`)
  }
  if (size > maxBytes) {
    throw new EtlError('INPUT_TOO_LARGE', `read: ${path} is ${size} bytes, more than the ${maxBytes} this input may have`)
  }
  return size
}

/** An input file as a stream of chunks, after the same checks as readInputFile. */
export function inputFileChunks(path: string, maxBytes: number): AsyncIterable<Uint8Array> {
  if (checkInputFile(path, maxBytes) === 0) throw new EtlError('INPUT_EMPTY', `read: ${path} is empty (0 bytes)`)
  const stream = createReadStream(path, { highWaterMark: 1024 * 1024 })
  return (async function* () {
    try {
      for await (const chunk of stream) yield chunk as Uint8Array
    } catch (e) {
      throw new EtlError('INPUT_UNREADABLE', `read: cannot read ${path}: ${describeFsError(e)}`)
    }
  })()
}

/** Read a whole input file, with one clear error line for every way that can fail. */
export function readInputFile(path: string, maxBytes: number): Uint8Array {
  checkInputFile(path, maxBytes)
  try {
    return readFileSync(path)
  } catch (e) {
    throw new EtlError('INPUT_UNREADABLE', `read: cannot read ${path}: ${describeFsError(e)}`)
  }
}

const pendingTemps = new Set<string>()
let signalsHooked = false

// An interrupted run must leave no temporary files behind: remove them, then end as the signal would.
function hookSignals() {
  if (signalsHooked) return
  signalsHooked = true
  const codes = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const
  for (const [signal, code] of Object.entries(codes)) {
    process.on(signal, () => {
      for (const temp of pendingTemps) rmSync(temp, { force: true })
      process.exit(code)
    })
  }
}

// Test seam: widens the window between temporary files so tests can interrupt a write.
const testDelayMs = Number(process.env.MTG_RULES_TEST_WRITE_DELAY_MS ?? 0)

/**
 * Write files into `dir`, beside what it holds (the raw/ cache, a changelog): every file goes to a
 * temporary name in the same folder first, and only when all are written are they renamed into place,
 * in one synchronous run that no signal can split. A failure or an interruption leaves the old files
 * and no temporary ones. A dataset folder, replaced whole, uses output-folder.ts instead.
 */
export async function writeFilesAtomically(dir: string, files: OutputFile[]): Promise<void> {
  hookSignals()
  const temps: { temp: string; final: string }[] = []
  try {
    mkdirSync(dir, { recursive: true })
    for (const file of files) {
      const final = join(dir, file.name)
      // Unpredictable and created exclusively: a link planted at the name makes the write fail, never follow.
      const temp = join(dirname(final), `.${basename(final)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`)
      pendingTemps.add(temp)
      temps.push({ temp, final })
      const handle = await open(temp, 'wx')
      try {
        await handle.writeFile(file.bytes)
        await handle.sync()
      } finally {
        await handle.close()
      }
      if (testDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, testDelayMs))
    }
    for (const { temp, final } of temps) renameSync(temp, final)
    for (const { temp } of temps) pendingTemps.delete(temp)
  } catch (e) {
    for (const { temp } of temps) {
      rmSync(temp, { force: true })
      pendingTemps.delete(temp)
    }
    throw new EtlError('OUTPUT_UNWRITABLE', `write: cannot write to ${dir}: ${describeFsError(e)}`)
  }
}

/** The CR texts (.txt) of a folder, oldest first by the effective date inside each, then by name. */
export function listReleases(folder: string): { name: string; path: string; effectiveDate: string | null }[] {
  let names: string[]
  try {
    names = readdirSync(folder).filter((n) => n.toLowerCase().endsWith('.txt'))
  } catch (e) {
    throw new EtlError('INPUT_MISSING', `history: cannot list ${folder}: ${describeFsError(e)}`)
  }
  if (names.length === 0) throw new EtlError('ARCHIVE_EMPTY', `history: no .txt files in ${folder}`)
  const releases = names.map((name) => {
    const path = join(folder, name)
    let effectiveDate: string | null = null
    try {
      effectiveDate = effectiveDateOf(name, readInputFile(path, MAX_TEXT_BYTES))
    } catch {
      // Unreadable releases still get their row: the build will say what is wrong.
    }
    return { name, path, effectiveDate }
  })
  return releases.sort((a, b) => (a.effectiveDate ?? '9999').localeCompare(b.effectiveDate ?? '9999') || a.name.localeCompare(b.name))
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
    throw new EtlError('INPUT_MISSING', `fetch: cannot list ${archive}: ${describeFsError(e)}`)
  }
  const candidates = names.map((name) => {
    const bytes = readInputFile(join(archive, name), MAX_TEXT_BYTES)
    return { name, bytes, effectiveDate: effectiveDateOf(name, bytes) }
  })
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
    const index = readIndex(join(dest, 'index.json'))
    const hash = sha256(bytes)
    let fileName = releaseFileName(effectiveDate)
    let note: string | null = null
    const held = index[fileName] as { sha256?: string } | undefined
    if (held && held.sha256 !== hash) {
      // Another text with the same date (a re-issue): keep both, never replace one silently.
      fileName = fileName.replace(/\.txt$/, ` ${hash.slice(0, 8)}.txt`)
      note = `fetch: ${dest} already holds a different text effective ${effectiveDate} (${releaseFileName(effectiveDate)}); kept both, this one as ${fileName}`
    }
    index[fileName] = { sha256: hash, bytes: bytes.length, effectiveDate, from }
    const sorted = Object.fromEntries(Object.entries(index).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    await writeFilesAtomically(dest, [
      { name: fileName, bytes },
      { name: 'index.json', bytes: new TextEncoder().encode(JSON.stringify(sorted, null, 2) + '\n') },
    ])
    return { path: join(dest, fileName), note }
  })
}

function readIndex(path: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(readFileSync(path, 'utf8'))
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}
