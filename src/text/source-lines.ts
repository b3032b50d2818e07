import { diagnostics } from '../core/diagnostics.js'
import { CONTROL_CHARACTERS } from './decode.js'
import type { Diagnostic } from '../core/types.js'

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
const LETTER = /\p{L}/u
const isLetter = (c: string | undefined) => c !== undefined && (/[A-Za-z]/.test(c) || (c > '\u007f' && LETTER.test(c)))

/** Where U+00A0 stands between two letters (a byte of another code page: "Ghazb\u00a0n"), or -1. */
function nbspInWord(raw: string): number {
  for (let i = raw.indexOf('\u00a0'); i >= 0; i = raw.indexOf('\u00a0', i + 1)) if (isLetter(raw[i - 1]) && isLetter(raw[i + 1])) return i
  return -1
}

/** Lines `start` to `end` (0-based, end excluded) as source lines; problems of the characters become diagnostics. */
export function sourceLines(lines: string[], start: number, end: number, diags: Diagnostic[]): SourceLine[] {
  const out: SourceLine[] = []
  for (let i = start; i < end; i++) {
    const raw = lines[i]!
    const line = i + 1
    const controls = HAS_CONTROL.test(raw)
    if (controls) diags.push(diagnostics.sourceFormat('control-character', `line ${line} holds control characters; they were removed`, { line }))
    const at = nbspInWord(raw)
    if (at >= 0) diags.push(diagnostics.sourceFormat('suspect-character', `line ${line} has U+00A0 (no-break space) inside a word (“${raw.slice(Math.max(0, at - 10), at + 10).trim()}”): probably a mis-encoded letter`, { line }))
    if (raw.indexOf('\u2028') < 0 && raw.indexOf('\u2029') < 0) {
      out.push({ text: clean(raw, controls), line, indented: INDENT.test(raw), afterBreak: false })
      continue
    }
    const parts = raw.split(PARAGRAPH_BREAK)
    parts.forEach((part, k) => {
      const text = clean(part, controls)
      // A break followed by nothing but padding adds no paragraph.
      if (k > 0 && text === '') return
      out.push({ text, line, indented: k === 0 && INDENT.test(part), afterBreak: k > 0 })
    })
  }
  return out
}

function clean(s: string, controls: boolean): string {
  const t = s.trim()
  return controls ? t.replace(CONTROL_CHARACTERS, '').trim() : t
}
