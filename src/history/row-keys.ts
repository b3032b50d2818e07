import { diffWords } from 'diff'
import { parentNumber, parseRuleNumber, type RuleNumber } from '../core/rule-number.js'
import type { RuleRow } from '../core/types.js'

/** A word-level change of a text, as the changelog marks it. */
export interface WordChange {
  op: 'equal' | 'insert' | 'delete'
  text: string
}

/** One example of a rule, old and new, diffed on its own (null where there is none). */
export interface ExampleChange {
  old: string | null
  new: string | null
  changes: WordChange[] | null
}

// What the matcher (diff.ts) compares rows by: their content and typography keys, their words (as
// ids, for Dice similarity), and the word-level changes it reports.

// --- Text keys -------------------------------------------------------------------------------

const WORD = /[\p{L}\p{N}]+/gu
export const words = (s: string) => s.toLowerCase().match(WORD) ?? []

// Anything typographyKey would change: most rule texts have none of it.
const TYPOGRAPHY = /[‘’‚‛′`'"“”„‟″‐‑‒–—―−…?_™®-]|\((?:TM|R)\)|[^\S ]|\s\s|^\s|\s$/

/**
 * Quotes, dashes, marks and white space folded: two texts equal here differ only in typography. The
 * ASCII texts of 2001–2009 write `?` (or ` -- `) where curly quotes and dashes stood (`cards?even`),
 * `_Magic_` for italics and `(TM)`/`(R)` for the marks: so every quote, dash and `?` folds to one
 * character, underscores and marks go.
 */
export function typographyKey(s: string): string {
  if (!TYPOGRAPHY.test(s)) return s
  return s
    .replace(/\((?:TM|R)\)|[™®_]/g, '')
    .replace(/\s*--\s*/g, "'")
    .replace(/[‘’‚‛′`'"“”„‟″‐‑‒–—―−?-]/g, "'")
    .replace(/…/g, '...')
    .replace(/[\s\u00a0]+/g, ' ')
    .trim()
}

export const contentOf = (r: RuleRow) => r.text + '\u0001' + r.examples.join('\u0002')

/** Dice similarity of two texts' word multisets: 1 for the same words, 0 for none in common. */
export function similarity(a: string, b: string): number {
  if (a === b) return 1
  const interner = new Map<string, number>()
  return diceOfIds(wordIds(a, interner), wordIds(b, interner))
}

export function wordIds(text: string, interner: Map<string, number>): Int32Array {
  const ws = words(text)
  const ids = new Int32Array(ws.length)
  ws.forEach((w, i) => {
    let id = interner.get(w)
    if (id === undefined) interner.set(w, (id = interner.size))
    ids[i] = id
  })
  return ids.sort()
}

export function diceOfIds(a: Int32Array, b: Int32Array): number {
  if (a.length + b.length === 0) return 1
  let i = 0
  let j = 0
  let common = 0
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      common++
      i++
      j++
    } else if (a[i]! < b[j]!) i++
    else j++
  }
  return (2 * common) / (a.length + b.length)
}

// jsdiff's word diff (Myers) costs about the two texts' length times their edit distance, which a
// crafted text of a few words repeated makes huge. The texts of the shared releases need at most
// 480 edits (words and spaces inserted or deleted) and 21 million characters × edits a diff.
/** The edits one pair of texts is searched for; past them the change is given whole. */
export const MAX_WORD_EDITS = 2000
/** The characters × edits all the word-level changes of one diff may cost. */
export const WORD_DIFF_WORK = 500_000_000

export type WordChanges = (a: string, b: string) => WordChange[] | null

/**
 * Word-level changes within a bound on their work (`work`: characters × edits, for all the calls
 * together): a pair of texts past MAX_WORD_EDITS, or past what is left of `work`, is given whole,
 * the old text deleted and the new one inserted. `whole()`: how many pairs ran out of `work` so.
 */
export function boundedWordChanges(work = WORD_DIFF_WORK): { changes: WordChanges; whole: () => number } {
  let left = work
  let whole = 0
  const changes = (a: string, b: string): WordChange[] | null => {
    if (a === b) return null
    const length = a.length + b.length
    const edits = Math.min(MAX_WORD_EDITS, Math.floor(left / length))
    const parts = edits > 0 ? diffWords(a, b, { maxEditLength: edits }) : undefined
    if (parts === undefined) {
      left -= length * edits
      if (edits < MAX_WORD_EDITS) whole++
      return [
        { op: 'delete', text: a },
        { op: 'insert', text: b },
      ]
    }
    left -= length * parts.reduce((sum, c) => sum + (c.added || c.removed ? c.count : 0), 0)
    return parts.map((c) => ({ op: c.added ? 'insert' : c.removed ? 'delete' : 'equal', text: c.value }))
  }
  return { changes, whole: () => whole }
}

/** The warning when word-level changes ran out of their bound (`whole` pairs given whole), or null. */
export const wordsWarning = (bound: number, whole: number) => (whole === 0 ? null : `the word-level changes stopped at their bound of ${bound.toLocaleString('en-US')} characters × edits: ${whole} changed text${whole === 1 ? ' is' : 's are'} given whole, the old deleted and the new inserted`)

/** Examples diffed one by one, by position; null when they are the same. */
export function exampleChanges(a: RuleRow, b: RuleRow, changes: WordChanges): ExampleChange[] | null {
  if (a.examples.length === b.examples.length && a.examples.every((e, i) => e === b.examples[i])) return null
  const out: ExampleChange[] = []
  for (let i = 0; i < Math.max(a.examples.length, b.examples.length); i++) {
    const o = a.examples[i] ?? null
    const n = b.examples[i] ?? null
    out.push({ old: o, new: n, changes: o !== null && n !== null ? changes(o, n) : null })
  }
  return out
}

// --- Rows as the matcher sees them -----------------------------------------------------------

// The number's parts, the content key, the typography key and the word ids are computed on first
// use: most rows of a consecutive pair match in step 1 (compared field by field) and never need them.
export class Prepared {
  readonly section: string
  #parsed: RuleNumber | null | undefined
  #parent: string | null | undefined
  #content: string | undefined
  #typo: string | undefined
  #ids: Int32Array | undefined
  constructor(
    readonly row: RuleRow,
    readonly pos: number,
    private readonly interner: Map<string, number>,
  ) {
    this.section = row.number.slice(0, 3)
  }
  get parsed(): RuleNumber | null {
    if (this.#parsed === undefined) this.#parsed = parseRuleNumber(this.row.number)
    return this.#parsed
  }
  /**
   * The parent rule's number of a subrule (`702.19` of `702.19c`), else null: one string a row, so
   * that the pair tests' map lookups by it (cross-section.ts parentsAgree) hash it once.
   */
  get parent(): string | null {
    if (this.#parent === undefined) this.#parent = this.parsed === null ? null : parentNumber(this.parsed)
    return this.#parent
  }
  get content(): string {
    return (this.#content ??= contentOf(this.row))
  }
  get typo(): string {
    return (this.#typo ??= typographyKey(this.content))
  }
  get ids(): Int32Array {
    return (this.#ids ??= wordIds(this.row.text, this.interner))
  }
}

export const sameContent = (a: RuleRow, b: RuleRow) => a.text === b.text && a.examples.length === b.examples.length && a.examples.every((e, i) => e === b.examples[i])

export const prepare = (rows: RuleRow[], interner: Map<string, number>) => rows.map((row, pos) => new Prepared(row, pos, interner))

export const push = <K, V>(map: Map<K, V[]>, key: K, value: V) => {
  const list = map.get(key)
  if (list) list.push(value)
  else map.set(key, [value])
}

export function duplicates(label: string, rows: RuleRow[]): string | null {
  const seen = new Map<string, number>()
  for (const r of rows) seen.set(r.number, (seen.get(r.number) ?? 0) + 1)
  const dup = [...seen].filter(([, n]) => n > 1)
  if (dup.length === 0) return null
  const shown = dup.slice(0, 10).map(([number, n]) => `${number} (${n}×)`).join(', ')
  return `${label} has duplicate rule numbers: ${shown}${dup.length > 10 ? `, … ${dup.length - 10} more` : ''}; they are matched by position and text`
}
