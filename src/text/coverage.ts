import { boundedDiagnostics } from '../core/bounded.js'
import { diagnostics } from '../core/diagnostics.js'
import { CONTROL_CHARACTERS } from './decode.js'
import type { CrDocument, Diagnostic, RuleRow } from '../core/types.js'

const PARAGRAPH_BREAK = /[\u2028\u2029]/
const EXAMPLE_MARK = /^\s*Examples?:/
// Beyond this many lines, lost words are summed up in one more diagnostic.
const MAX_REPORTED_LINES = 100

export interface Coverage {
  /** Words (runs of letters and digits) of the rules body, heading lines aside. */
  bodyWords: number
  /** Of those, how many the rows hold (number, text and examples). */
  wordsKept: number
  /** One `text-lost` error per line whose words no row holds. */
  diagnostics: Diagnostic[]
}

/**
 * The parser's invariant, proved independently of the parser: every word of the rules body (heading
 * lines aside, "Example:" marks aside) is in some row. Words are runs of letters and digits of the
 * NFC text, counted as a multiset by a 64-bit hash of each (no string per word), so a line that was
 * dropped, cut short or misread as a heading shows up as words with no place, whatever the cause. A
 * lost word could only hide behind a hash collision with a kept one.
 */
export function checkCoverage(lines: string[], doc: CrDocument, rows: RuleRow[]): Coverage {
  const headingLines = new Set([...doc.chapters, ...doc.sections].map((h) => h.line))
  const bodyLine = (i: number) => (headingLines.has(i + 1) ? '' : sourceText(lines[i]!))
  // First the sums of the words' hashes: equal when the rows hold exactly the body's words, the
  // usual case, at no cost per word but the hash.
  const body = new WordSum()
  for (let i = doc.body.start; i < doc.body.end; i++) forEachWord(bodyLine(i), body)
  const kept = new WordSum()
  const forEachRowText = (visit: (text: string) => void) => {
    for (const row of rows) {
      visit(row.number.normalize('NFC'))
      visit(row.text.normalize('NFC'))
      for (const e of row.examples) visit(e.normalize('NFC'))
    }
  }
  forEachRowText((text) => forEachWord(text, kept))
  const whole = { bodyWords: body.words, wordsKept: body.words, diagnostics: [] }
  if (body.equals(kept)) return whole
  // Otherwise the rows hold words the body lacks (which is no loss), or lack some of its words:
  // counting word by word tells.
  const missing = new WordCounts()
  for (let i = doc.body.start; i < doc.body.end; i++) forEachWord(bodyLine(i), { word: (a, b) => missing.add(a, b, 1) })
  forEachRowText((text) => forEachWord(text, { word: (a, b) => missing.add(a, b, -1) }))
  const lost = missing.positive()
  if (lost === 0) return whole
  return { bodyWords: body.words, wordsKept: body.words - lost, diagnostics: placeLostWords(doc, bodyLine, missing, lost) }
}

/** A source line as the rows hold its words: controls removed, "Example:" marks removed, NFC. */
// Control characters and paragraph breaks: what makes a line need more than the Example mark removed.
const SPECIAL = /[\u0000-\u0008\u000b\u000e-\u001f\u007f\u2028\u2029]/

function sourceText(raw: string): string {
  if (!SPECIAL.test(raw)) return (raw.indexOf('Example') < 0 ? raw : raw.replace(EXAMPLE_MARK, '')).normalize('NFC')
  const s = raw.replace(CONTROL_CHARACTERS, '')
  return s
    .split(PARAGRAPH_BREAK)
    .map((p) => p.replace(EXAMPLE_MARK, ''))
    .join(' ')
    .normalize('NFC')
}

type Word = { a: number; b: number; text: string }

/**
 * Name the lines the lost words come from: first lines none of whose words is anywhere in the rows
 * (a dropped line), then, for words still unaccounted for, the last line that holds each.
 */
function placeLostWords(doc: CrDocument, bodyLine: (i: number) => string, missing: WordCounts, lost: number): Diagnostic[] {
  const wordsOf = (i: number): Word[] => {
    const text = bodyLine(i)
    const out: Word[] = []
    forEachWord(text, { word: (a, b, start, end) => out.push({ a, b, text: text.slice(start, end) }) })
    return out
  }
  const byLine = new Map<number, string[]>()
  let left = lost
  for (let i = doc.body.start; i < doc.body.end; i++) {
    const ws = wordsOf(i)
    if (ws.length === 0) continue
    const need = new Map<string, { word: Word; n: number }>()
    for (const w of ws) {
      const key = `${w.a} ${w.b}`
      const had = need.get(key)
      if (had) had.n++
      else need.set(key, { word: w, n: 1 })
    }
    if (![...need.values()].every(({ word, n }) => missing.count(word.a, word.b) >= n)) continue
    for (const { word, n } of need.values()) missing.add(word.a, word.b, -n)
    left -= ws.length
    byLine.set(i + 1, ws.map((w) => w.text))
  }
  for (let i = doc.body.end - 1; i >= doc.body.start && left > 0; i--) {
    const found = wordsOf(i).filter((w) => {
      if (missing.count(w.a, w.b) <= 0) return false
      missing.add(w.a, w.b, -1)
      return true
    })
    left -= found.length
    if (found.length > 0) byLine.set(i + 1, [...found.map((w) => w.text), ...(byLine.get(i + 1) ?? [])])
  }
  const out = boundedDiagnostics()
  let reported = 0
  for (const line of [...byLine.keys()].sort((a, b) => a - b)) {
    const ws = byLine.get(line)!
    if (out.length === MAX_REPORTED_LINES) {
      out.push(diagnostics.textLost([], lost - reported, { line }))
      break
    }
    out.push(diagnostics.textLost(ws, ws.length, { line }))
    reported += ws.length
  }
  return out
}

/**
 * Counts keyed by a 64-bit word hash (two 32-bit halves), in typed arrays with open addressing: no
 * string and no boxed number per word. A count may go negative (a row word not in the body): only
 * positive counts are lost words.
 */
class WordCounts {
  private mask = (1 << 14) - 1
  private a = new Int32Array(this.mask + 1)
  private b = new Int32Array(this.mask + 1)
  private n = new Int32Array(this.mask + 1)
  private used = new Uint8Array(this.mask + 1)
  private size = 0

  private slot(a: number, b: number): number {
    let i = (a ^ (b >>> 7)) & this.mask
    while (this.used[i] && (this.a[i] !== a || this.b[i] !== b)) i = (i + 1) & this.mask
    return i
  }

  count(a: number, b: number): number {
    const i = this.slot(a, b)
    return this.used[i] ? this.n[i]! : 0
  }

  add(a: number, b: number, by: number): void {
    const i = this.slot(a, b)
    if (!this.used[i]) {
      if (by < 0) return
      this.used[i] = 1
      this.a[i] = a
      this.b[i] = b
      if (++this.size * 2 > this.mask) {
        this.n[i] = by
        this.grow()
        return
      }
    }
    this.n[i]! += by
  }

  positive(): number {
    let lost = 0
    for (let i = 0; i <= this.mask; i++) if (this.used[i] && this.n[i]! > 0) lost += this.n[i]!
    return lost
  }

  private grow() {
    const { a, b, n, used } = this
    this.mask = this.mask * 2 + 1
    this.a = new Int32Array(this.mask + 1)
    this.b = new Int32Array(this.mask + 1)
    this.n = new Int32Array(this.mask + 1)
    this.used = new Uint8Array(this.mask + 1)
    this.size = 0
    for (let i = 0; i < used.length; i++) {
      if (!used[i]) continue
      const j = this.slot(a[i]!, b[i]!)
      this.used[j] = 1
      this.a[j] = a[i]!
      this.b[j] = b[i]!
      this.n[j] = n[i]!
      this.size++
    }
  }
}

// Per UTF-16 code unit: 0 not yet known, 1 a letter or digit, 2 not one (a surrogate is never one
// alone: a pair is looked up as its code point). Filled as characters are met.
const WORD_CHAR = new Uint8Array(65536)
const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u
const ASTRAL_WORD_CHAR = new Map<number, boolean>()

function isWordChar(c: number): boolean {
  let v = WORD_CHAR[c]!
  if (v === 0) WORD_CHAR[c] = v = (c < 0xd800 || c > 0xdfff) && LETTER_OR_DIGIT.test(String.fromCharCode(c)) ? 1 : 2
  return v === 1
}

const isLowSurrogate = (c: number) => c >= 0xdc00 && c <= 0xdfff

function isAstralWordChar(cp: number): boolean {
  let v = ASTRAL_WORD_CHAR.get(cp)
  if (v === undefined) ASTRAL_WORD_CHAR.set(cp, (v = LETTER_OR_DIGIT.test(String.fromCodePoint(cp))))
  return v
}

/** How many words a text has, and the sum of their 64-bit hashes (two 32-bit lanes, modulo 2^32: order-free and exact). */
class WordSum {
  words = 0
  private a = 0
  private b = 0

  word(a: number, b: number) {
    this.words++
    // Finalised so that words differing in one character spread over the whole hash.
    this.a = (this.a + Math.imul(a ^ (a >>> 15), 0x2c1b3c6d)) | 0
    this.b = (this.b + Math.imul(b ^ (b >>> 13), 0x297a2d39)) | 0
  }

  equals(other: WordSum): boolean {
    return this.words === other.words && this.a === other.a && this.b === other.b
  }
}

/** What takes each word: its 64-bit hash (two int32 halves) and where it stands in the text. */
interface WordSink {
  word(a: number, b: number, start: number, end: number): void
}

/** Each word of `text` (a run of letters and digits, as /[\p{L}\p{N}]+/u finds them) to `sink`. */
function forEachWord(text: string, sink: WordSink): void {
  let a = 0
  let b = 0
  let start = -1
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 32
    // A surrogate pair is one character: a letter or digit when its code point is.
    const pair = c >= 0xd800 && c <= 0xdbff && isLowSurrogate(text.charCodeAt(i + 1))
    if (pair ? isAstralWordChar(((c - 0xd800) << 10) + (text.charCodeAt(i + 1) - 0xdc00) + 0x10000) : isWordChar(c)) {
      if (start < 0) {
        start = i
        a = 0x811c9dc5
        b = 0x01000193
      }
      a = Math.imul(a ^ c, 0x01000193)
      b = Math.imul(b ^ c, 0x5bd1e995)
      if (pair) {
        const low = text.charCodeAt(++i)
        a = Math.imul(a ^ low, 0x01000193)
        b = Math.imul(b ^ low, 0x5bd1e995)
      }
    } else if (start >= 0) {
      sink.word(a, b, start, i)
      start = -1
    }
  }
}
