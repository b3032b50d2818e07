import { Buffer } from 'node:buffer'
import { citationsInBytes, spaceLength, type CitationSink } from './byte-citations.js'
import { ByteScan } from './byte-scan.js'
import { SUBRULE_LETTERS } from '../../core/rule-number.js'


// Rank of each subrule letter by its character code (0: not a subrule letter).
const LETTER_RANK = new Uint8Array(128)
for (let i = 0; i < SUBRULE_LETTERS.length; i++) LETTER_RANK[SUBRULE_LETTERS.charCodeAt(i)] = i + 1

/**
 * A region of UTF-8 bytes for the clean proofs: its rule numbers read in place, and a text decoded
 * only when it may cite (citing). Positions are from the region's start, `base` in `buf`. (A latin1
 * string view of the region, for native string searches, cost more to make than it saved.)
 */
export class ByteView {
  private buf: Buffer = Buffer.alloc(0)
  private base = 0
  private length = 0
  /**
   * Where a text may cite: extractReferences needs a keyword, whitespace, then a digit, so a text
   * without whitespace (or the last byte of a non-ASCII character) before a digit cites nothing (the
   * scan's gates). Only at a gate is the keyword looked for, backwards (keywordStart): a text
   * without one is never decoded. With `controls`, the scan also has the region's control bytes.
   */
  readonly scan = new ByteScan()
  private gate = 0
  /** Where in the text citing() last gave the citations may start (see forEachReference). */
  citeFrom = 0
  /** The parts of the number last read by ruleNumber(). */
  section = 0
  rule = 0
  rank = 0

  /** Bytes from..to of buf; `controls`: the scan keeps their control bytes too (see ByteScan). */
  load(buf: Buffer, from: number, to: number, controls = false, maxControls = Infinity): void {
    this.buf = buf
    this.base = from
    this.length = to - from
    this.scan.scan(buf, from, to, controls, maxControls)
    this.gate = 0
    this.scanned = true
  }

  /** Bytes from..to of buf whose gates the scan already holds (ByteScan.gatesFrom): as load, without scanning. */
  loadScanned(buf: Buffer, from: number, to: number): void {
    this.buf = buf
    this.base = from
    this.length = to - from
    this.gate = 0
    this.scanned = true
  }

  /** Bytes from..to of buf for ruleNumber() only: not scanned for citations (citing and citeBytes refuse them). */
  loadNumbers(buf: Buffer, from: number, to: number): void {
    this.buf = buf
    this.base = from
    this.length = to - from
    this.scanned = false
  }

  private scanned = false

  private assertScanned(): void {
    if (!this.scanned) throw new Error('ByteView: a region loaded for its numbers only has no citations to read')
  }

  /**
   * A text of the region, for its citations: '' when it cannot cite, else the text. Texts are asked for
   * in the order they stand.
   */
  citing(from: number, to: number): string {
    this.assertScanned()
    const { gates, gateCount } = this.scan
    let g = this.gate
    while (g < gateCount && gates[g]! < from) g++
    this.gate = g
    for (; g < gateCount && gates[g]! < to; g++) {
      const keyword = keywordStart(this.buf, this.base + from, this.base + gates[g]!)
      if (keyword < 0) continue
      const text = this.string(from, to)
      // In an ASCII text a byte's position is its character's: no citation starts before it.
      const ascii = text.length === to - from
      this.citeFrom = ascii ? keyword - this.base - from : 0
      this.keywordCount = this.keywordsOf(from, to, g, ascii)
      return text
    }
    return ''
  }

  /**
   * The citations of the text at from..to, read from its bytes (citationsInBytes) for `sink`, with
   * the keywords citing() would find: false when one is of a shape left to the patterns, and the
   * caller then decodes the text (citing). Texts are asked for in the order they stand.
   */
  citeBytes(from: number, to: number, sink: CitationSink): boolean {
    this.assertScanned()
    const { gates, gateCount } = this.scan
    const { buf, base } = this
    let g = this.gate
    while (g < gateCount && gates[g]! < from) g++
    this.gate = g
    for (; g < gateCount && gates[g]! < to; g++) {
      if (keywordStart(buf, base + from, base + gates[g]!) < 0) continue
      const digit = base + gates[g]! + 1
      // keywordStart takes non-ASCII characters for whitespace: a keyword only if they all are.
      if (!allSpace(buf, keywordLastLetter + 1, digit)) continue
      if (!citationsInBytes(buf, digit, base + to, keywordWasSection, sink)) return false
    }
    return true
  }

  /** The keywords of citing()'s last text (see forEachReferenceAfter): exactly the keyword pattern's matches. */
  keywords = new Int32Array(64)
  keywordCount = -1

  /**
   * The keywords of the text at from..to, from its gate `g` on (the first with one). In a text that
   * is not ASCII, keywordStart takes every non-ASCII byte for whitespace: a place counts only when
   * the characters between the keyword and the digit are whitespace as `\s` has it, and its position
   * is counted in UTF-16 units, as the decoded text's.
   */
  private keywordsOf(from: number, to: number, g: number, ascii: boolean): number {
    const { gates, gateCount } = this.scan
    const { buf, base } = this
    let count = 0
    let units = 0
    let unitsAt = base + from
    for (; g < gateCount && gates[g]! < to; g++) {
      if (keywordStart(buf, base + from, base + gates[g]!) < 0) continue
      const digit = base + gates[g]! + 1
      if (!ascii && !allSpace(buf, keywordLastLetter + 1, digit)) continue
      if (!ascii) {
        for (; unitsAt < digit; unitsAt++) {
          const b = buf[unitsAt]!
          if ((b & 0xc0) !== 0x80) units += b >= 0xf0 ? 2 : 1
        }
      }
      if (count === this.keywords.length) {
        const grown = new Int32Array(count * 2)
        grown.set(this.keywords)
        this.keywords = grown
      }
      // Past the whitespace: the digit after the gate.
      this.keywords[count++] = ((ascii ? digit - base - from : units) << 1) | (keywordWasSection ? 1 : 0)
    }
    return count
  }

  /** The text at from..to. */
  string(from: number, to: number): string {
    return utf8(this.buf, this.base + from, this.base + to)
  }

  /** The byte at `i` (from the region's start). */
  byte(i: number): number {
    return this.buf[this.base + i]!
  }

  /**
   * A rule number as the row schema writes it (three digits, a dot, the rule, up to two subrule
   * letters) from `at`, not past `end`, its parts kept in section, rule and rank: where it ends, or -1.
   */
  ruleNumber(at: number, end = this.length): number {
    const buf = this.buf
    const b = this.base
    if (!(at + 4 < end)) return -1
    const d0 = buf[b + at]! - 48, d1 = buf[b + at + 1]! - 48, d2 = buf[b + at + 2]! - 48
    if (!(d0 >= 1 && d0 <= 9 && d1 >= 0 && d1 <= 9 && d2 >= 0 && d2 <= 9 && buf[b + at + 3] === 0x2e)) return -1
    let i = at + 4
    let rule = 0
    // More than nine digits cannot be proved (nor is there such a rule).
    for (let d = buf[b + i]! - 48; i < end && d >= 0 && d <= 9 && i - at < 13; d = buf[b + ++i]! - 48) rule = rule * 10 + d
    if (i === at + 4 || buf[b + at + 4] === 48) return -1
    let rank = 0
    for (let letters = 0; letters < 2 && i < end; letters++, i++) {
      const c = buf[b + i]!
      const r = c < 128 ? LETTER_RANK[c]! : 0
      if (r === 0) break
      rank = rank * SUBRULE_LETTERS.length + r
    }
    this.section = 100 * d0 + 10 * d1 + d2
    this.rule = rule
    this.rank = rank
    return i
  }
}

/**
 * Where the keyword starts when the whitespace at `at` (a byte before a digit) may end what
 * extractReferences' keyword pattern matches, `\b(rules?|sections?|see)\s+` (ASCII letters in any
 * case), in a text starting at `from`; else -1. Every byte of a non-ASCII character is taken for
 * whitespace, so that it never says no where the decoded text cites: at worst the text is decoded
 * and found to cite nothing. (The first such place is never after the first citation's keyword.)
 */
export function keywordStart(bytes: Uint8Array, from: number, at: number): number {
  let end = at
  while (end >= from && isSpaceLike(bytes[end]!)) end--
  if (end < from) return -1
  keywordLastLetter = end
  // end: the keyword's last letter, if there is one.
  let start = -1
  const last = bytes[end]! | 0x20
  keywordWasSection = false
  if (last === 0x65 /* e */) start = endsWith(bytes, from, end, 'see')
  else if (last === 0x73 /* s */) {
    start = endsWith(bytes, from, end - 1, 'rule')
    if (start < 0) keywordWasSection = (start = endsWith(bytes, from, end - 1, 'section')) >= 0
  }
  if (start < 0) {
    start = endsWith(bytes, from, end, 'rule')
    if (start < 0) keywordWasSection = (start = endsWith(bytes, from, end, 'section')) >= 0
  }
  return start >= from && (start === from || !isWordChar(bytes[start - 1]!)) ? start : -1
}

/** A string's characters as bytes (ASCII), to compare with bytesAt. */
export const ascii = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0))
export const EXAMPLE = ascii('Example')

/** Whether `buf` holds `bytes` at `at`. */
export function bytesAt(buf: Uint8Array, at: number, bytes: Uint8Array): boolean {
  for (let k = 0; k < bytes.length; k++) if (buf[at + k] !== bytes[k]) return false
  return true
}

/** Whether the keyword keywordStart() last found is "section(s)" (else "rule(s)" or "see"), and where it ends. */
let keywordWasSection = false
let keywordLastLetter = 0

/** Whether the UTF-8 bytes from..to are all whitespace as JavaScript's `\s` has it (see spaceLength). */
function allSpace(bytes: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i < to; ) {
    const n = spaceLength(bytes, i, to)
    if (n === 0) return false
    i += n
  }
  return true
}

/** Where `word` (lowercase ASCII) starts when it ends at `end`, in any case, not before `from`; else -1. */
function endsWith(bytes: Uint8Array, from: number, end: number, word: string): number {
  const start = end - word.length + 1
  if (start < from) return -1
  for (let i = 0; i < word.length; i++) if ((bytes[start + i]! | 0x20) !== word.charCodeAt(i)) return -1
  return start
}

const isSpaceLike = (c: number) => c === 0x20 || (c >= 0x09 && c <= 0x0d) || c >= 0x80
const isWordChar = (c: number) => (c >= 0x30 && c <= 0x39) || c === 0x5f || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a)

// Buffer's own slices, without toString's argument handling (a third of the time of a short text).
type Slices = { utf8Slice(from: number, to: number): string }
const utf8 = (buf: Buffer, from: number, to: number) => (buf as unknown as Slices).utf8Slice(from, to)
