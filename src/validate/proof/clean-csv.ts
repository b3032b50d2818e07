import { Buffer, isUtf8 } from 'node:buffer'
import { CleanProof, mergeProofs, type ProofPart } from './clean-proof.js'
import { ascii, ByteView, bytesAt, EXAMPLE } from './clean-view.js'
import { giveBuffer, takeBuffer } from './buffer-pool.js'
import { MAX_CSV_RECORD } from '../../core/limits.js'

/**
 * Prove a CSV rules export clean straight from its bytes (see CleanProof): the header must be
 * `number,text,examples,index`, and each record is read in the RFC 4180 subset csv-records
 * tokenises, from its bytes, without building a record; only texts that may cite and
 * non-empty example lists are decoded. The row count when clean, else null.
 */
export async function proveCsvClean(chunks: AsyncIterable<Uint8Array>): Promise<number | null> {
  return mergeProofs([await proveCsvPart(chunks, true)])
}

/**
 * The proof of whole records from the start of a file (`header`) or from a record's start. A part
 * that ends inside a record (a quote never closed) fails: so a file cut at a line inside a quoted
 * field is never proved by parts (see prove-file.ts).
 */
export async function proveCsvPart(chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, header: boolean): Promise<ProofPart> {
  const proof = new CleanProof()
  const records = new RecordReader(proof, header)
  let carry: Buffer | null = null
  // The carried record and the next region, joined in one buffer (see buffer-pool.ts).
  let joined = takeBuffer(0)
  try {
    for await (const chunk of chunks) {
      const piece = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
      let buf = piece
      if (carry) {
        const length = carry.length + piece.length
        if (joined.length < length) {
          giveBuffer(joined)
          joined = takeBuffer(Math.max(length, 2 * joined.length))
        }
        carry.copy(joined, 0)
        piece.copy(joined, carry.length)
        buf = joined.subarray(0, length)
      }
      const done = records.region(buf, false)
      if (done < 0) break
      carry = done < buf.length ? Buffer.from(buf.subarray(done)) : null
      if (carry && carry.length > MAX_CSV_RECORD) proof.fail()
      if (!proof.proved) break
    }
    if (proof.proved && carry) records.region(carry, true)
    if (proof.proved && header && records.atHeader) proof.fail()
  } catch {
    proof.fail()
  } finally {
    giveBuffer(joined)
  }
  return proof.part()
}

const HEADER = ascii('number,text,examples,index')
const BOM = ascii('\xef\xbb\xbf')

/** Records of a region, each held to the proof. */
class RecordReader {
  private readonly bytes = new ByteView()
  atHeader: boolean
  // The fields of the record being read: where each starts and ends, and whether it holds a "".
  private readonly starts = [0, 0, 0, 0]
  private readonly ends = [0, 0, 0, 0]
  private readonly doubled = [false, false, false, false]
  // The next backslash in the region (searched on demand, in order).
  private backslash = -1
  // The region, read from its bytes (a latin1 view of it cost more than its string searches saved).
  private buf: Buffer = Buffer.alloc(0)

  constructor(
    private readonly proof: CleanProof,
    header: boolean,
  ) {
    this.atHeader = header
  }

  /**
   * The complete records at the start of buf (all of them when `final`): where the first record not
   * read begins, or -1 when the proof failed.
   */
  region(buf: Buffer, final: boolean): number {
    this.bytes.load(buf, 0, buf.length)
    this.buf = buf
    this.backslash = -1
    let at = 0
    if (this.atHeader) {
      // A byte order mark is dropped, as the exact path's decoder drops it.
      if (bytesAt(buf, 0, BOM)) at = 3
      if (buf.length - at < HEADER.length + 2 && !final) return 0
      if (!bytesAt(buf, at, HEADER)) return this.stop()
      at = lineEnd(buf, at + HEADER.length, final)
      if (at < 0) return this.stop()
      this.atHeader = false
    }
    const from = at
    for (;;) {
      if (at >= buf.length) break
      const end = this.record(at, final)
      if (end === -1) break
      // The exact path may refuse a record this long (in characters, never more than its bytes).
      if (end === -2 || end - at > MAX_CSV_RECORD || !this.check()) return this.stop()
      at = end
    }
    // Whole records end at a line end, never inside a UTF-8 sequence.
    if (!isUtf8(buf.subarray(from, at)) || (final && at < buf.length)) return this.stop()
    return at
  }

  private stop(): -1 {
    this.proof.fail()
    return -1
  }

  /** One record's fields from `at`: where the next begins, -1 when more bytes are needed, -2 when it cannot be proved. */
  private record(at: number, final: boolean): number {
    const buf = this.buf
    let i = at
    for (let f = 0; ; f++) {
      if (f === 4) return -2
      this.doubled[f] = false
      if (buf[i] === 0x22) {
        let from = i + 1
        for (;;) {
          const q = buf.indexOf(0x22, from)
          if (q < 0) return final ? -2 : -1
          if (buf[q + 1] === 0x22) {
            this.doubled[f] = true
            from = q + 2
            continue
          }
          if (q + 1 >= buf.length && !final) return -1
          this.starts[f] = i + 1
          this.ends[f] = q
          i = q + 1
          break
        }
      } else {
        let e = i
        for (let c = buf[e]; e < buf.length && c !== 0x2c && c !== 0x22 && c !== 0x0d && c !== 0x0a; c = buf[++e]);
        if (buf[e] === 0x22) return -2
        this.starts[f] = i
        this.ends[f] = e
        i = e
      }
      if (buf[i] === 0x2c) {
        i++
        continue
      }
      if (i >= buf.length && !final) return -1
      if (f !== 3) return -2
      if (i >= buf.length) return i
      const end = lineEnd(buf, i, final)
      return end === -1 ? -1 : end < 0 ? -2 : end
    }
  }

  /** The record just read, held to the proof. */
  private check(): boolean {
    const { bytes, proof, starts, ends, doubled, buf } = this
    const [numberAt, textAt, examplesAt, indexAt] = starts as [number, number, number, number]
    if (doubled[0] || bytes.ruleNumber(numberAt) !== ends[0]) return proof.fail()
    // The index as the exact path takes it: -?[0-9]{1,15}, nothing else in the field.
    const negative = buf[indexAt] === 0x2d
    let k = negative ? indexAt + 1 : indexAt
    const digits = k
    let index = 0
    for (let d = buf[k]! - 48; k < ends[3]! && d >= 0 && d <= 9; d = buf[++k]! - 48) index = index * 10 + d
    if (doubled[3] || k !== ends[3] || k === digits || k - digits > 15) return proof.fail()
    if (!proof.number(bytes.section, bytes.rule, bytes.rank, negative ? -index : index)) return false
    if (ends[1] === textAt || bytesAt(buf, textAt, EXAMPLE)) return proof.fail()
    if (doubled[1] ? !proof.cites(bytes.citing(textAt, ends[1]!).replaceAll('""', '"'), true) : !proof.citesIn(bytes, textAt, ends[1]!)) return false
    if (ends[2]! - examplesAt === 2 && buf[examplesAt] === 0x5b && buf[examplesAt + 1] === 0x5d) return true
    const written = doubled[2] ? this.examplesWritten(examplesAt, ends[2]!) : null
    if (written !== null) return written
    let examples: unknown
    try {
      const written = bytes.string(examplesAt, ends[2]!)
      examples = JSON.parse(doubled[2] ? written.replaceAll('""', '"') : written)
    } catch {
      return proof.fail()
    }
    if (!Array.isArray(examples)) return proof.fail()
    for (const e of examples) if (typeof e !== 'string' || !proof.example(e)) return proof.fail()
    return true
  }

  /**
   * The examples field as our writer writes it, a JSON array of strings with its quotes doubled
   * (`[""…"",""…""]`) and no escape or control byte in it (so each string is its bytes), held to
   * the proof; null when it is written otherwise (it is then parsed). What it proved of the strings
   * before it gives up stands: they are the parsed strings too.
   */
  private examplesWritten(from: number, to: number): boolean | null {
    const { bytes, proof, buf } = this
    if (buf[from] !== 0x5b || this.controlIn(from, to) || this.backslashIn(from, to)) return null
    for (let i = from + 1; ; ) {
      if (buf[i] !== 0x22 || buf[i + 1] !== 0x22) return null
      const start = i + 2
      const end = buf.indexOf(0x22, start)
      if (end < 0 || end + 1 >= to || buf[end + 1] !== 0x22) return null
      if (end === start) return proof.fail()
      if (!proof.citesIn(bytes, start, end)) return false
      i = end + 2
      const c = buf[i]
      if (c === 0x5d) return i === to - 1 ? true : null
      if (c !== 0x2c) return null
      i++
    }
  }

  /** Whether the region's bytes from..to hold a control byte (a field of examples: a small share of the bytes). */
  private controlIn(from: number, to: number): boolean {
    for (let k = from; k < to; k++) if (this.buf[k]! < 0x20) return true
    return false
  }

  private backslashIn(from: number, to: number): boolean {
    if (this.backslash !== Infinity && this.backslash < from) {
      const at = this.buf.indexOf(0x5c, from)
      this.backslash = at < 0 ? Infinity : at
    }
    return this.backslash < to
  }
}

/** Past the line end (\r\n, \n or \r) at `i`: -1 when more bytes may be needed, -2 when none is there. */
function lineEnd(buf: Buffer, i: number, final: boolean): number {
  const c = buf[i]
  if (c === 0x0a) return i + 1
  if (c !== 0x0d) return i >= buf.length && final ? i : -2
  if (i + 1 >= buf.length && !final) return -1
  return buf[i + 1] === 0x0a ? i + 2 : i + 1
}

