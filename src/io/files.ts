import { randomBytes } from 'node:crypto'
import { closeSync, constants, createReadStream, lstatSync, openSync, readSync, type Stats, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { chooseNewest, effectiveDateOf, releaseFileName } from '../fetch/archive.js'
import type { OutputFile } from '../build/build.js'
import { EtlError } from '../core/errors.js'
import type { FileRef, RangeReader } from '../exports/parquet/parquet-frame.js'
import type { RangeBuffer } from '../exports/parquet-groups.mjs'
import type { ExportChunks } from '../validate/options.js'
import { describeFsError } from './fs-errors.js'
import { onInterrupt } from './interrupts.js'
import { withLock } from './lock.js'
import { ioSettings } from './settings.js'
import { sha256 } from '../exports/manifest.js'

import { MAX_TEXT_BYTES } from '../core/limits.js'

export { MAX_EXPORT_BYTES, MAX_TEXT_BYTES } from '../core/limits.js'

/**
 * hyparquet's AsyncBuffer over a file, its slices read at once (as hyparquet's asyncBufferFromFile:
 * what the file holds of start..end, never more, whatever range a damaged footer asks for).
 */
export function syncBufferFromFile(path: string): RangeBuffer {
  const { size } = statSync(path)
  return {
    byteLength: size,
    slice(start: number, end = size): ArrayBuffer {
      const from = Math.max(0, Math.min(start, size))
      const out = Buffer.allocUnsafeSlow(Math.max(0, Math.min(end, size) - from))
      const fd = openSync(path, 'r')
      let got = 0
      try {
        for (let n = 1; got < out.length && n > 0; got += n) n = readSync(fd, out, got, out.length - got, from + got)
      } finally {
        closeSync(fd)
      }
      return (got === out.length ? out.buffer : out.buffer.slice(0, got)) as ArrayBuffer
    },
  }
}

/**
 * A regular file to read by ranges (Parquet's footer, pages and row groups): opened when a reader
 * asks, read synchronously, one clear error line when it cannot be opened.
 */
export function fileRef(path: string, size = statSync(path).size): FileRef {
  return {
    path,
    size,
    open(): RangeReader {
      let fd: number
      try {
        fd = openSync(path, 'r')
      } catch (e) {
        throw new EtlError('INPUT_UNREADABLE', `read: cannot read ${path}: ${describeFsError(e)}`)
      }
      return { read: (out, offset, length, position) => readSync(fd, out, offset, length, position), close: () => closeSync(fd) }
    },
  }
}

/** What a path names, or one clear error line when it names nothing readable. */
function inputStat(path: string): Stats {
  let st: Stats
  try {
    st = statSync(path)
  } catch (e) {
    throw new EtlError('INPUT_MISSING', `read: cannot open ${path}: ${describeFsError(e)}`)
  }
  if (st.isDirectory()) throw new EtlError('INPUT_UNREADABLE', `read: ${path} is a directory, not a file`)
  return st
}

function checkSize(path: string, size: number, maxBytes: number) {
  if (size > maxBytes) throw new EtlError('INPUT_TOO_LARGE', `read: ${path} is ${size} bytes, more than the ${maxBytes} this input may have`)
}

const tooMuch = (path: string, kind: string, maxBytes: number) =>
  new EtlError('INPUT_TOO_LARGE', `read: ${path} (${kind}) gave more than the ${maxBytes} bytes this input may have`)

const kindOf = (st: Stats) => (st.isFIFO() ? 'a FIFO' : st.isCharacterDevice() ? 'a character device' : st.isBlockDevice() ? 'a block device' : st.isSocket() ? 'a socket' : 'not a regular file')

/**
 * Read what is not a regular file (a FIFO, /dev/stdin, a device): it has no size to check first, so
 * the cap is enforced as bytes arrive, and a FIFO that no writer opens, or that stops sending, ends
 * in one error line after a time-out instead of a hang.
 */
async function readUnsized(path: string, st: Stats, maxBytes: number): Promise<Uint8Array> {
  const kind = kindOf(st)
  let handle
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK)
  } catch (e) {
    throw new EtlError('INPUT_UNREADABLE', `read: cannot open ${path} (${kind}): ${describeFsError(e)}`)
  }
  const chunks: Uint8Array[] = []
  let total = 0
  let idleSince = Date.now()
  try {
    for (;;) {
      const buffer = new Uint8Array(1 << 16)
      let n: number
      try {
        n = (await handle.read(buffer, 0, buffer.length, null)).bytesRead
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') throw new EtlError('INPUT_UNREADABLE', `read: cannot read ${path} (${kind}): ${describeFsError(e)}`)
        n = -1
      }
      if (n > 0) {
        total += n
        if (total > maxBytes) throw tooMuch(path, kind, maxBytes)
        chunks.push(buffer.subarray(0, n))
        idleSince = Date.now()
        continue
      }
      // 0 from a FIFO before any byte: no writer yet. After data: the writer closed, the end.
      if (n === 0 && (total > 0 || !st.isFIFO())) break
      if (Date.now() - idleSince > ioSettings.fifoTimeoutMs) {
        const why = total === 0 ? 'no writer opened it, or it sent nothing' : 'it stopped sending'
        throw new EtlError('INPUT_UNREADABLE', `read: ${path} is ${kind}: ${why} within ${ioSettings.fifoTimeoutMs / 1000} s`)
      }
      await new Promise((r) => setTimeout(r, 20))
    }
  } finally {
    await handle.close()
  }
  if (total === 0) throw new EtlError('INPUT_EMPTY', `read: ${path} (${kind}) gave no data`)
  return Buffer.concat(chunks)
}

/**
 * An input file as a stream of chunks, its size capped while it is read (a device or FIFO has no
 * size to check first).
 */
export async function inputFileChunks(path: string, maxBytes: number): Promise<ExportChunks> {
  const st = inputStat(path)
  if (!st.isFile()) {
    const bytes = await readUnsized(path, st, maxBytes)
    return (async function* () {
      yield bytes
    })()
  }
  checkSize(path, st.size, maxBytes)
  if (st.size === 0) throw new EtlError('INPUT_EMPTY', `read: ${path} is empty (0 bytes)`)
  // A regular file also says where it is, for readers that take ranges of it (Parquet) and never
  // read the chunks; a stream is opened only when read.
  const file = fileRef(path, st.size)
  return Object.assign(chunksOf(path, maxBytes), { file })
}

function chunksOf(path: string, maxBytes: number): AsyncGenerator<Uint8Array> {
  return (async function* () {
    const stream = createReadStream(path, { highWaterMark: 1024 * 1024 })
    let total = 0
    try {
      for await (const chunk of stream) {
        total += (chunk as Uint8Array).length
        // The file may grow while it is read.
        if (total > maxBytes) throw tooMuch(path, 'a file that grew', maxBytes)
        yield chunk as Uint8Array
      }
    } catch (e) {
      if (e instanceof EtlError) throw e
      throw new EtlError('INPUT_UNREADABLE', `read: cannot read ${path}: ${describeFsError(e)}`)
    } finally {
      stream.destroy()
    }
  })()
}

/**
 * A Parquet file's frame, checked before the file is read: `PAR1` at both ends and a footer that fits.
 * A 900 MB file of zeros is refused after reading 12 bytes, not 900 MB.
 */
export function checkParquetFrame(path: string): void {
  const st = inputStat(path)
  if (!st.isFile()) return
  const fd = openSync(path, 'r')
  try {
    const head = Buffer.alloc(4)
    const tail = Buffer.alloc(8)
    readSync(fd, head, 0, 4, 0)
    if (st.size >= 12) readSync(fd, tail, 0, 8, st.size - 8)
    const footer = tail.readUInt32LE(0)
    if (st.size < 12 || head.toString('latin1') !== 'PAR1' || tail.toString('latin1', 4) !== 'PAR1') {
      throw new EtlError('EXPORT_MALFORMED', `read: ${path} is not a Parquet file (no PAR1 magic bytes)`)
    }
    if (footer > st.size - 12) throw new EtlError('EXPORT_MALFORMED', `read: ${path} is not a readable Parquet file (its footer claims ${footer} bytes of a ${st.size}-byte file)`)
  } finally {
    closeSync(fd)
  }
}

/** Read a whole input file, its size capped (while reading, for what has no size), with one clear error line for every way that can fail. */
export async function readInputFile(path: string, maxBytes: number): Promise<Uint8Array> {
  const st = inputStat(path)
  if (!st.isFile()) return readUnsized(path, st, maxBytes)
  checkSize(path, st.size, maxBytes)
  try {
    const bytes = readFileSync(path)
    if (bytes.length > maxBytes) throw tooMuch(path, 'a file that grew', maxBytes)
    return bytes
  } catch (e) {
    if (e instanceof EtlError) throw e
    throw new EtlError('INPUT_UNREADABLE', `read: cannot read ${path}: ${describeFsError(e)}`)
  }
}

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

/** The CR texts (.txt) of a folder, oldest first by the effective date inside each, then by name. */
/** A release file of an archive, as it was when listed: its effective date and the sha256 of those bytes. */
export interface ListedRelease {
  name: string
  path: string
  effectiveDate: string | null
  /** Of the bytes the date was read from (null when they could not be read). */
  sha256: string | null
}

export async function listReleases(folder: string): Promise<ListedRelease[]> {
  let names: string[]
  try {
    names = readdirSync(folder).filter((n) => n.toLowerCase().endsWith('.txt'))
  } catch (e) {
    throw new EtlError('INPUT_MISSING', `history: cannot list ${folder}: ${describeFsError(e)}`)
  }
  if (names.length === 0) throw new EtlError('ARCHIVE_EMPTY', `history: no .txt files in ${folder}`)
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
    throw new EtlError('INPUT_MISSING', `fetch: cannot list ${archive}: ${describeFsError(e)}`)
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
