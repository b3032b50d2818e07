import { diagnostics } from './diagnostics.js'
import { CONTROL_CHARACTERS } from './read.js'
import type { Diagnostic } from './types.js'

/**
 * One line of the source as the parser reads it. A physical line holding U+2028/U+2029 is several
 * source lines with the same line number: the characters break a paragraph exactly as a newline does.
 */
export interface SourceLine {
  /** Trimmed, control characters removed; '' for a blank line. */
  text: string
  /** 1-based physical line. */
  line: number
  /** Began with two or more spaces, a tab or U+00A0: an indented paragraph. */
  indented: boolean
  /** Came after U+2028/U+2029 within its physical line. */
  afterBreak: boolean
}

const PARAGRAPH_BREAK = /[\u2028\u2029]/
const INDENT = /^[ \t\u00a0]{2,}/
// The same characters as CONTROL_CHARACTERS, without the g flag, so test() keeps no state.
const HAS_CONTROL = new RegExp(CONTROL_CHARACTERS.source)
// U+00A0 inside a word: a byte of another code page (a release stored "Ghazbán" that way).
const NBSP_IN_WORD = /\p{L}\u00a0\p{L}/u

/** Lines `start` to `end` (0-based, end excluded) as source lines; problems of the characters become diagnostics. */
export function sourceLines(lines: string[], start: number, end: number, diags: Diagnostic[]): SourceLine[] {
  const out: SourceLine[] = []
  for (let i = start; i < end; i++) {
    const raw = lines[i]!
    const line = i + 1
    if (HAS_CONTROL.test(raw)) diags.push(diagnostics.sourceFormat('control-character', `line ${line} holds control characters; they were removed`, { line }))
    if (NBSP_IN_WORD.test(raw)) {
      const at = NBSP_IN_WORD.exec(raw)!.index
      diags.push(diagnostics.sourceFormat('suspect-character', `line ${line} has U+00A0 (no-break space) inside a word (“${raw.slice(Math.max(0, at - 10), at + 10).trim()}”): probably a mis-encoded letter`, { line }))
    }
    if (!PARAGRAPH_BREAK.test(raw)) {
      out.push({ text: clean(raw), line, indented: INDENT.test(raw), afterBreak: false })
      continue
    }
    const parts = raw.split(PARAGRAPH_BREAK)
    parts.forEach((part, k) => {
      const text = clean(part)
      // A break followed by nothing but padding adds no paragraph.
      if (k > 0 && text === '') return
      out.push({ text, line, indented: k === 0 && INDENT.test(part), afterBreak: k > 0 })
    })
  }
  return out
}

function clean(s: string): string {
  const t = s.trim()
  return HAS_CONTROL.test(t) ? t.replace(CONTROL_CHARACTERS, '').trim() : t
}
