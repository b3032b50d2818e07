import { closeSync, constants, createReadStream, existsSync, openSync, readSync, type Stats, readFileSync, realpathSync, statSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path'
import { EtlError } from '../core/errors.js'
import { isGzipped } from '../core/tables.js'
import { gunzipBytes, gunzipChunks } from '../exports/read/gzip.js'
import type { FileRef, RangeReader } from '../exports/parquet/parquet-frame.js'
import type { ExportChunks } from '../validate/options.js'
import { emptyIsNoRows, EXPORT_EXTENSIONS, GZIP_EXTENSIONS } from '../validate/validate-export.js'
import { describeFsError } from './fs-errors.js'
import { ioSettings, timeLimit } from './settings.js'


export { MAX_EXPORT_BYTES, MAX_TEXT_BYTES } from '../core/limits.js'

/**
 * A regular file to read by ranges (Parquet's footer, pages and row groups): opened when a reader
 * asks, read synchronously, one clear error line when it cannot be opened.
 */
export function fileRef(path: string, size = statSync(path).size): FileRef {
  return {
    path,
    size,
    open(): RangeReader {
      const fd = openFile(path)
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
        throw new EtlError('INPUT_UNREADABLE', `read: ${path} is ${kind}: ${why} within ${timeLimit(ioSettings.fifoTimeoutMs)}`)
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
      yield isGzipped(path) ? gunzipBytes(path, bytes, maxBytes) : bytes
    })()
  }
  checkSize(path, st.size, maxBytes)
  if (st.size === 0 && !emptyIsNoRows(path)) throw new EtlError('INPUT_EMPTY', `read: ${path} is empty (0 bytes)`)
  if (isGzipped(path)) return gunzipChunks(path, chunksOf(path, maxBytes), maxBytes)
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
  if (!st.isFile()) return unpacked(path, await readUnsized(path, st, maxBytes), maxBytes)
  checkSize(path, st.size, maxBytes)
  try {
    const bytes = readFileSync(path)
    if (bytes.length > maxBytes) throw tooMuch(path, 'a file that grew', maxBytes)
    return unpacked(path, bytes, maxBytes)
  } catch (e) {
    if (e instanceof EtlError) throw e
    throw new EtlError('INPUT_UNREADABLE', `read: cannot read ${path}: ${describeFsError(e)}`)
  }
}

const unpacked = (path: string, bytes: Uint8Array, maxBytes: number) => (isGzipped(path) ? gunzipBytes(path, bytes, maxBytes) : bytes)

/** The bytes of `ranges` of a regular file, one after the other; an error when the file ends first. */
export function readFileRanges(path: string, ranges: { offset: number; length: number }[]): Uint8Array {
  const out = Buffer.allocUnsafe(ranges.reduce((n, r) => n + r.length, 0))
  const reader = fileRef(path).open()
  try {
    let at = 0
    for (const { offset, length } of ranges) {
      for (let got = 0, n = 1; got < length; got += n) {
        n = reader.read(out, at + got, length - got, offset + got)
        if (n === 0) throw new EtlError('INPUT_UNREADABLE', `read: ${path} ended before byte ${offset + length}`)
      }
      at += length
    }
  } finally {
    reader.close()
  }
  return out
}

function openFile(path: string): number {
  try {
    return openSync(path, 'r')
  } catch (e) {
    throw new EtlError('INPUT_UNREADABLE', `read: cannot read ${path}: ${describeFsError(e)}`)
  }
}

/**
 * `read()` of a folder that a run may replace meanwhile: `build`, `site` and `history` switch a new
 * folder in with two renames, and a reader that saw part of each set would make or report what is
 * in neither. The folder's identity (device and inode) is compared before and after; a switch
 * meanwhile (or a file gone between listing and reading) means the whole folder is read again, a
 * few times at most.
 */
export async function readOneSet<T>(dir: string, read: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const before = folderIdentity(dir)
    let value: T
    try {
      value = await read()
    } catch (e) {
      if (attempt < MAX_READS && folderIdentity(dir) !== before) continue
      throw e
    }
    if (attempt === MAX_READS || folderIdentity(dir) === before) return value
  }
}

const MAX_READS = 4

/** The folder's device and inode: a switched-in folder is another directory under the same path. */
function folderIdentity(dir: string): string {
  try {
    const st = statSync(dir)
    return `${st.dev}:${st.ino}`
  } catch {
    return 'gone'
  }
}

/** Whether `path` is a folder (links followed); false when it is missing or cannot be read. */
export function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}

/**
 * A dataset folder's export of `table`: the first of `table.jsonl`, `.ndjson`, … (EXPORT_EXTENSIONS)
 * there, then of those gzip-compressed (`table.jsonl.gz`); null when none is.
 */
export function tableFile(dir: string, table: string): string | null {
  for (const ext of [...EXPORT_EXTENSIONS.map(([e]) => e), ...GZIP_EXTENSIONS]) {
    const path = join(dir, `${table}.${ext}`)
    if (existsSync(path)) return path
  }
  return null
}

/**
 * The real path (links followed) of `path`, made absolute; for a path not made yet, the real path of
 * its nearest existing folder with the rest appended (a folder to be made through a link is inside
 * what the link points to).
 */
export function realPath(path: string): string {
  const absolute = resolve(path)
  try {
    return realpathSync(absolute)
  } catch {
    const parent = dirname(absolute)
    return parent === absolute ? absolute : join(realPath(parent), basename(absolute))
  }
}

/** Whether `path` is `folder` or lies inside it (both absolute; `..notes/` inside it is inside). */
export function isWithin(folder: string, path: string): boolean {
  const rel = relative(folder, path)
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel))
}
