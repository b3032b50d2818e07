import { boundedDiagnostics } from '../core/bounded.js'
import { diagnostics } from '../core/diagnostics.js'
import { CONTROL_CHARACTERS } from './decode.js'
import type { CrDocument, Diagnostic, RuleRow } from '../core/types.js'

const WORD = /[\p{L}\p{N}]+/gu
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
 * lines aside, "Example:" marks aside) is in some row. Counts words as a multiset, so a line that was
 * dropped, cut short or misread as a heading shows up as words with no place, whatever the cause.
 */
export function checkCoverage(lines: string[], doc: CrDocument, rows: RuleRow[]): Coverage {
  const fast = countByHash(lines, doc, rows)
  // Every word in place: the usual case, answered by hashed counts. Otherwise the exact count below names the lines.
  if (fast.lost === 0) return { bodyWords: fast.bodyWords, wordsKept: fast.bodyWords, diagnostics: [] }
  return checkCoverageExactly(lines, doc, rows)
}

/**
 * Words counted by a 52-bit hash of their characters, without building a string per word: the
 * multiset comparison of checkCoverageExactly at a fraction of the cost. A lost word could only hide
 * behind a hash collision with a kept one; any loss found is confirmed by the exact count.
 */
function countByHash(lines: string[], doc: CrDocument, rows: RuleRow[]): { bodyWords: number; lost: number } {
  const headingLines = new Set([...doc.chapters, ...doc.sections].map((h) => h.line))
  // First the sums of the words' hashes: equal when the rows hold exactly the body's words, the
  // usual case, at no cost per word but the hash. Otherwise the rows hold words the body lacks
  // (which is no loss), and counting word by word tells.
  const body = new WordSum()
  for (let i = doc.body.start; i < doc.body.end; i++) if (!headingLines.has(i + 1)) body.add(sourceText(lines[i]!))
  const kept = new WordSum()
  for (const row of rows) {
    kept.add(row.number)
    kept.add(row.text)
    for (const e of row.examples) kept.add(e)
  }
  if (body.equals(kept)) return { bodyWords: body.words, lost: 0 }
  const counts = new WordCounts()
  let bodyWords = 0
  const add = { word: (a: number, b: number) => counts.add(a, b, 1) }
  const take = { word: (a: number, b: number) => counts.add(a, b, -1) }
  for (let i = doc.body.start; i < doc.body.end; i++) {
    if (headingLines.has(i + 1)) continue
    bodyWords += hashWords(sourceText(lines[i]!), add)
  }
  for (const row of rows) {
    hashWords(row.number, take)
    hashWords(row.text, take)
    for (const e of row.examples) hashWords(e, take)
  }
  return { bodyWords, lost: counts.positive() }
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

  add(a: number, b: number, by: number) {
    let i = (a ^ (b >>> 7)) & this.mask
    while (this.used[i] && (this.a[i] !== a || this.b[i] !== b)) i = (i + 1) & this.mask
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
      let j = (a[i]! ^ (b[i]! >>> 7)) & this.mask
      while (this.used[j]) j = (j + 1) & this.mask
      this.used[j] = 1
      this.a[j] = a[i]!
      this.b[j] = b[i]!
      this.n[j] = n[i]!
      this.size++
    }
  }
}

// Per UTF-16 code unit: 0 not yet known, 1 a word character (surrogates included: letters beyond
// the BMP), 2 not one. Filled as characters are met.
const WORD_CHAR = new Uint8Array(65536)
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u
function isWordChar(c: number): boolean {
  let v = WORD_CHAR[c]!
  if (v === 0) WORD_CHAR[c] = v = (c >= 0xd800 && c <= 0xdfff) || LETTER_OR_DIGIT.test(String.fromCharCode(c)) ? 1 : 2
  return v === 1
}

/** How many words a text has, and the sum of their 64-bit hashes (two 32-bit lanes, modulo 2^32: order-free and exact). */
class WordSum {
  words = 0
  private a = 0
  private b = 0

  add(text: string) {
    this.words += hashWords(text, this)
  }

  word(a: number, b: number) {
    // Finalised so that words differing in one character spread over the whole hash.
    this.a = (this.a + Math.imul(a ^ (a >>> 15), 0x2c1b3c6d)) | 0
    this.b = (this.b + Math.imul(b ^ (b >>> 13), 0x297a2d39)) | 0
  }

  equals(other: WordSum): boolean {
    return this.words === other.words && this.a === other.a && this.b === other.b
  }
}

/** What takes each word's hash. */
interface WordSink {
  word(a: number, b: number): void
}

/** Gives `sink` a 64-bit hash (two int32 halves) of each word (run of letters and digits); returns how many. */
function hashWords(text: string, sink: WordSink): number {
  let n = 0
  let a = 0x811c9dc5
  let b = 0x01000193
  let inWord = false
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 32
    if (isWordChar(c)) {
      if (!inWord) {
        inWord = true
        a = 0x811c9dc5
        b = 0x01000193
      }
      a = Math.imul(a ^ c, 0x01000193)
      b = Math.imul(b ^ c, 0x5bd1e995)
    } else if (inWord) {
      inWord = false
      n++
      sink.word(a, b)
    }
  }
  return n
}

/** A source line as the rows hold its words: controls removed, "Example:" marks removed, NFC where it matters. */
// Control characters, paragraph breaks, combining marks: what makes a line need more than the fast path.
const SPECIAL = /[\u0000-\u0008\u000b\u000e-\u001f\u007f\u2028\u2029\u0300-\u036f]/

function sourceText(raw: string): string {
  if (!SPECIAL.test(raw)) return raw.indexOf('Example') < 0 ? raw : raw.replace(EXAMPLE_MARK, '')
  let s = raw.replace(CONTROL_CHARACTERS, '')
  if (/[\u2028\u2029]/.test(s)) s = s.split(PARAGRAPH_BREAK).map((p) => p.replace(EXAMPLE_MARK, '')).join(' ')
  else s = s.replace(EXAMPLE_MARK, '')
  return /[\u0300-\u036f]/.test(s) ? s.normalize('NFC') : s
}

/** The coverage check word by word, as strings: slower, and it names the lines words were lost from. */
export function checkCoverageExactly(lines: string[], doc: CrDocument, rows: RuleRow[]): Coverage {
  const headingLines = new Set([...doc.chapters, ...doc.sections].map((h) => h.line))
  const bodyLineWords = (i: number) => (headingLines.has(i + 1) ? [] : sourceWords(lines[i]!))
  const source = new Map<string, number>()
  let bodyWords = 0
  for (let i = doc.body.start; i < doc.body.end; i++) {
    for (const w of bodyLineWords(i)) {
      source.set(w, (source.get(w) ?? 0) + 1)
      bodyWords++
    }
  }
  const missing = source
  for (const row of rows) for (const text of [row.number, row.text, ...row.examples]) for (const w of words(text)) {
    const n = missing.get(w)
    if (n !== undefined) missing.set(w, n - 1)
  }
  let lost = 0
  for (const [w, n] of missing) {
    if (n > 0) lost += n
    else missing.delete(w)
  }
  const diags = lost === 0 ? [] : placeLostWords(doc, bodyLineWords, missing, lost)
  return { bodyWords, wordsKept: bodyWords - lost, diagnostics: diags }
}

/**
 * Name the lines the lost words come from: first lines none of whose words is anywhere in the rows
 * (a dropped line), then, for words still unaccounted for, the last line that holds each.
 */
function placeLostWords(doc: CrDocument, bodyLineWords: (i: number) => string[], missing: Map<string, number>, lost: number): Diagnostic[] {
  const byLine = new Map<number, string[]>()
  for (let i = doc.body.start; i < doc.body.end; i++) {
    const ws = bodyLineWords(i)
    if (ws.length === 0) continue
    const need = new Map<string, number>()
    for (const w of ws) need.set(w, (need.get(w) ?? 0) + 1)
    if (![...need].every(([w, n]) => (missing.get(w) ?? 0) >= n)) continue
    for (const [w, n] of need) take(missing, w, n)
    byLine.set(i + 1, ws)
  }
  for (let i = doc.body.end - 1; i >= doc.body.start && missing.size > 0; i--) {
    const found = bodyLineWords(i).filter((w) => missing.has(w) && take(missing, w, 1))
    if (found.length > 0) byLine.set(i + 1, [...found, ...(byLine.get(i + 1) ?? [])])
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

function take(missing: Map<string, number>, w: string, n: number): boolean {
  const left = (missing.get(w) ?? 0) - n
  if (left > 0) missing.set(w, left)
  else missing.delete(w)
  return true
}

function sourceWords(raw: string): string[] {
  const out: string[] = []
  for (const part of raw.replace(CONTROL_CHARACTERS, '').split(PARAGRAPH_BREAK)) for (const w of words(part.replace(EXAMPLE_MARK, ''))) out.push(w)
  return out
}

function words(text: string): string[] {
  return text.normalize('NFC').match(WORD) ?? []
}
