import { Buffer, isUtf8 } from 'node:buffer'
import { CleanProof, mergeProofs, type ProofPart } from './clean-proof.js'
import { MAX_JSONL_LINE } from '../../core/limits.js'
import type { ByteScan } from './byte-scan.js'
import { ascii, ByteView, bytesAt, EXAMPLE } from './clean-view.js'

/**
 * Prove a JSONL rules export clean straight from its bytes: each line is read as the writers write
 * it (`{"number":"…","text":"…","examples":[…],"index":N}`, compact, keys in that order, no escapes)
 * without decoding the file or building a record; a line of any other shape is decoded and parsed
 * on its own. Returns the row count when every check would find nothing, else null (the exact path
 * then reads the file and reports).
 */
export async function proveJsonlClean(chunks: AsyncIterable<Uint8Array>): Promise<number | null> {
  return mergeProofs([await proveJsonlPart(chunks)])
}

/**
 * The proof of whole lines (a file, or a part of one that starts at a line), for mergeProofs. A
 * reading error fails it: the exact path meets the error again and reports it.
 */
export async function proveJsonlPart(chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): Promise<ProofPart> {
  const proof = new CleanProof()
  const lines = new LineReader(proof)
  // The unfinished last line, in pieces.
  let carry: Buffer[] = []
  let carried = 0
  try {
    for await (const chunk of chunks) {
      const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
      let start = 0
      if (carried > 0) {
        const nl = buf.indexOf(NEWLINE)
        if (nl < 0) {
          carry.push(Buffer.from(buf))
          carried += buf.length
          if (carried > MAX_JSONL_LINE) proof.fail()
          if (!proof.proved) break
          continue
        }
        const line = Buffer.concat([...carry, buf.subarray(0, nl + 1)])
        carry = []
        carried = 0
        if (!lines.region(line, 0, line.length)) break
        start = nl + 1
      }
      const last = buf.lastIndexOf(NEWLINE)
      if (last >= start) {
        if (!lines.region(buf, start, last + 1)) break
        start = last + 1
      }
      if (start < buf.length) {
        carry = [Buffer.from(buf.subarray(start))]
        carried = buf.length - start
      }
    }
    if (proof.proved && carried > 0) lines.region(Buffer.concat(carry), 0, carried)
  } catch {
    proof.fail()
  }
  return proof.part()
}

const NEWLINE = 0x0a
const PREFIX = ascii('{"number":"')
const TEXT = ascii('","text":"')
const EXAMPLES = ascii(',"examples":[')
const INDEX = ascii('],"index":')

/** JSON lines of a region, each held to the proof. */
class LineReader {
  private readonly bytes = new ByteView()
  private buf: Buffer = Buffer.alloc(0)
  private base = 0
  // Positions (in the view) of the bytes no plain JSON string holds, and the next one to pass.
  private odd: number[] = []
  private nextOdd = 0
  // Past this position the odd bytes were not all kept (see oddBytes): lines there are parsed.
  private oddUpTo = Infinity

  constructor(private readonly proof: CleanProof) {}

  /** Whole lines in buf[from, to), each ending with \n but perhaps the last; false ends the proof. */
  region(buf: Buffer, from: number, to: number): boolean {
    // A \n byte is never inside a UTF-8 sequence, so whole lines can be checked on their own.
    if (!isUtf8(buf.subarray(from, to))) return this.proof.fail()
    this.buf = buf
    this.base = from
    // No latin1 view: the lines are read from their bytes (it cost more to make than it saved).
    this.bytes.load(buf, from, to, true, MAX_ODD)
    const odd = oddBytes(buf, from, to, this.bytes.scan)
    this.odd = odd.positions
    this.oddUpTo = odd.upTo
    this.nextOdd = 0
    const length = to - from
    for (let at = 0; at < length; ) {
      let nl = buf.indexOf(NEWLINE, from + at) - from
      if (nl < 0 || nl > length) nl = length
      // The exact path refuses a line this long (in characters, never more than its bytes).
      if (nl - at > MAX_JSONL_LINE) return this.proof.fail()
      const end = nl > at && buf[from + nl - 1] === 0x0d ? nl - 1 : nl
      if (end > at && !this.written(at, end)) this.parsed(at, end)
      if (!this.proof.proved) return false
      at = nl + 1
    }
    return true
  }

  /**
   * A line as the writers write it, held to the proof; false when it is not in that shape (it is
   * then parsed instead). Positions are from the region's start (`base` in `buf`).
   */
  private written(at: number, end: number): boolean {
    const { bytes, buf, base } = this
    if (end > this.oddUpTo) return false
    while (this.nextOdd < this.odd.length && this.odd[this.nextOdd]! < at) this.nextOdd++
    if (this.nextOdd < this.odd.length && this.odd[this.nextOdd]! < end) return false
    const quote = (after: number) => {
      const q = buf.indexOf(0x22, base + after)
      return q < 0 ? -1 : q - base
    }
    if (!bytesAt(buf, base + at, PREFIX)) return false
    let i = bytes.ruleNumber(at + PREFIX.length, end)
    if (i < 0) return false
    if (!bytesAt(buf, base + i, TEXT)) return false
    const textStart = i + TEXT.length
    const textEnd = quote(textStart)
    if (textEnd < 0 || textEnd >= end || !bytesAt(buf, base + textEnd + 1, EXAMPLES)) return false
    i = textEnd + 1 + EXAMPLES.length
    const examplesStart = i
    if (buf[base + i] !== 0x5d) {
      for (;;) {
        if (buf[base + i] !== 0x22) return false
        i = quote(i + 1)
        if (i < 0 || i >= end) return false
        if (buf[base + ++i] === 0x2c) i++
        else break
      }
    }
    const examplesEnd = i
    if (!bytesAt(buf, base + i, INDEX)) return false
    i += INDEX.length
    let index = 0
    const indexStart = i
    for (let d = buf[base + i]! - 48; i < end && d >= 0 && d <= 9 && i - indexStart < 15; d = buf[base + ++i]! - 48) index = index * 10 + d
    if (i === indexStart || (buf[base + indexStart] === 48 && i - indexStart > 1) || buf[base + i] !== 0x7d || i + 1 !== end) return false
    // The line is well formed: from here on, what it says keeps the proof or ends it.
    const proof = this.proof
    if (!proof.number(bytes.section, bytes.rule, bytes.rank, index)) return true
    if (textEnd === textStart || bytesAt(buf, base + textStart, EXAMPLE)) return !proof.fail()
    if (!proof.citesIn(bytes, textStart, textEnd)) return true
    for (let e = examplesStart; e < examplesEnd; ) {
      const close = quote(e + 1)
      if (close === e + 1) return !proof.fail()
      if (!proof.citesIn(bytes, e + 1, close)) return true
      e = close + 2
    }
    return true
  }

  /** Any other line: parsed as the exact path parses it, then held to the same proof. */
  private parsed(at: number, end: number): void {
    const line = this.buf.toString('utf8', this.base + at, this.base + end)
    if (line.trim() === '') return
    const proof = this.proof
    let record: unknown
    try {
      record = JSON.parse(line)
    } catch {
      proof.fail()
      return
    }
    const r = (typeof record === 'object' && record !== null && !Array.isArray(record) ? record : {}) as Record<string, unknown>
    let keys = 0
    for (const _ in r) keys++
    if (keys !== 4 || typeof r.number !== 'string' || typeof r.text !== 'string' || typeof r.index !== 'number' || !Array.isArray(r.examples)) {
      proof.fail()
      return
    }
    if (!proof.numberText(r.number, r.index) || !proof.text(r.text)) return
    for (const e of r.examples) if (typeof e !== 'string' || !proof.example(e)) return void proof.fail()
  }
}

/**
 * Positions, from `from`, of the bytes in buf[from, to) that no plain JSON string holds: a backslash
 * (an escape) or a control byte other than a line's end (\n, or the \r of \r\n; found by the scan).
 */
function oddBytes(buf: Buffer, from: number, to: number, scan: ByteScan): { positions: number[]; upTo: number } {
  const out: number[] = []
  // Kept to MAX_ODD of each kind (a region of backslashes must not become an array of millions):
  // past the last kept one, lines are taken as odd and parsed (upTo).
  let upTo = scan.controlsUpTo
  for (let at = buf.indexOf(0x5c, from); at >= 0 && at < to; at = buf.indexOf(0x5c, at + 1)) {
    out.push(at - from)
    if (out.length === MAX_ODD) {
      upTo = Math.min(upTo, at - from)
      break
    }
  }
  if (scan.controls.length === 0) return { positions: out, upTo }
  return { positions: out.concat(scan.controls).sort((a, b) => a - b), upTo }
}

const MAX_ODD = 65536
