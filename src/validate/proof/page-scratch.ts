import { Buffer } from 'node:buffer'
import zlib from 'node:zlib'

// What gunzipSync itself calls on its stream (node:zlib's processChunkSync): the native handle's
// writeSync into a given output buffer, and the state it leaves (output left, input left).
type HandleStream = zlib.Gunzip & {
  _handle?: { writeSync(flush: number, input: Uint8Array, inOffset: number, inLength: number, out: Uint8Array, outOffset: number, outLength: number): void }
  _writeState?: Uint32Array
  reset(): void
}

/** The largest page unpacked into the kept buffer; a larger one goes through gunzipSync. */
const MAX_KEPT_BYTES = 16 * 1024 * 1024
/** The most values whose offsets are kept (ours have thousands a page): a scratch holds at most ~24 MiB. */
const MAX_KEPT_VALUES = 1 << 20

/**
 * What a proof's pages are read into when they are read one at a time, each done with before the
 * next: each page a new buffer and new offset arrays was memory outside the heap, freed late.
 *
 * GZIP pages are unpacked one after another into one buffer, by one zlib stream reset between pages.
 * gunzipSync makes a new stream and a new output buffer per page: memory outside the heap that V8
 * frees only once ~64 MB more of it has piled up, in each thread; at 3M rows that was most of the
 * Parquet proof's growth. Only the plain case is answered: a page that is not exactly `size` bytes
 * of whole GZIP, or a Node whose stream lacks these internals, gives null, and the caller unpacks it
 * with gunzipSync (whose answer, and error, are the final word).
 */
export class PageScratch {
  /** null until the first page; false where this Node's stream lacks the internals. */
  private stream: HandleStream | null | false = null
  private out = Buffer.alloc(0)
  private starts = new Int32Array(0)
  private ends = new Int32Array(0)

  /** Two arrays of `n` offsets (their contents are whatever was there), valid until the next call. */
  offsets(n: number): [Int32Array, Int32Array] {
    // As for the buffer: arrays for a huge page are not kept.
    if (n > MAX_KEPT_VALUES) return [new Int32Array(n), new Int32Array(n)]
    if (this.starts.length < n) {
      this.starts = new Int32Array(Math.max(n, 2 * this.starts.length))
      this.ends = new Int32Array(this.starts.length)
    }
    return [this.starts.subarray(0, n), this.ends.subarray(0, n)]
  }

  /** `input` unpacked: a view of this buffer, valid until the next call; null as above. */
  unpack(input: Uint8Array, size: number): Buffer | null {
    if (size + 1 > MAX_KEPT_BYTES) return null
    const stream = (this.stream ??= openStream() ?? false)
    if (stream === false) return null
    // One byte more than the page should unpack to: a page that unpacks to more is seen.
    if (this.out.length < size + 1) this.out = Buffer.allocUnsafe(Math.max(size + 1, Math.min(2 * this.out.length, MAX_KEPT_BYTES)))
    try {
      stream.reset()
      stream._handle!.writeSync(zlib.constants.Z_FINISH, input, 0, input.length, this.out, 0, size + 1)
    } catch {
      this.stream = null
      return null
    }
    // A damaged page destroys the stream (its error event goes to the listener below): a new one next time.
    if (stream.destroyed) {
      this.stream = null
      return null
    }
    // What is left of the input (zeros after the last member) is left unread by gunzipSync too.
    return size + 1 - stream._writeState![0]! === size ? this.out.subarray(0, size) : null
  }
}

function openStream(): HandleStream | null {
  const stream = zlib.createGunzip() as HandleStream
  if (typeof stream._handle?.writeSync !== 'function' || !(stream._writeState instanceof Uint32Array) || typeof stream.reset !== 'function') return null
  stream.on('error', () => {})
  return stream
}
