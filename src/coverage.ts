import { boundedDiagnostics } from './bounded.js'
import { diagnostics } from './diagnostics.js'
import { CONTROL_CHARACTERS } from './read.js'
import type { CrDocument, Diagnostic, RuleRow } from './types.js'

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
