import { diagnostics } from '../core/diagnostics.js'
import { EtlError } from '../core/errors.js'
import { MAX_TEXT_RULES } from '../core/limits.js'
import { thousands } from '../core/words.js'
import { compareRuleNumbers, letterRank, parseRuleNumber } from '../core/rule-number.js'
import type { SourceLine } from './source-lines.js'
import type { Diagnostic, Heading, ParsedRule } from '../core/types.js'

export const CHAPTER = /^(\d)\.\s+(\S.*)$/
export const SECTION = /^(\d{3})\.\s+(\S.*)$/
// Lenient on purpose: the typos `119.1d.`, `606.5 ` and `901.4.All` are recognised, then reported.
export const RULE = /^(\d{3})\.(\d+)([a-z]*)(\.?)(\s*)(.*)$/
// `606. 8b Players win…`: a stray space after the section's period. Not a heading: no title
// begins with the tail of a rule number.
const STRAY_SPACE_RULE = /^(\d{3})\.\s+(\d+)([a-z]*)(\.?)(\s+|$)(.*)$/
// A number that cannot be read with confidence (`306.b If an effect…`).
const BAD_NUMBER = /^(\d{1,4}\.[0-9A-Za-z]+)\.?(?:\s|$)/
// Inside a hard-wrapped paragraph, only a line shaped exactly like a rule's start may begin one.
const STRICT_RULE_START = /^\d{3}\.\d+[a-z]{0,2}\.? +[A-Z“"(]/
const ENDS_SENTENCE = /[.:!?"”)]$/
export const EXAMPLE = /^Examples?:\s*(.*)$/

export interface Body {
  chapters: Heading[]
  sections: Heading[]
  rules: ParsedRule[]
}

type Part = 'text' | 'example'

/**
 * The rules body. Every non-blank line lands in a rule (its number and text, a continuation
 * paragraph or an example) or a heading; a line that fits nothing is kept as a paragraph of the rule
 * above and reported. In a hard-wrapped text (`wrapped`), lines inside a paragraph join with a space,
 * and a rule starts only at a paragraph's beginning.
 */
export function parseBody(lines: SourceLine[], wrapped: boolean, diags: Diagnostic[], contents: Set<string> = new Set()): Body {
  const chapters: Heading[] = []
  const sections: Heading[] = []
  const rules: ParsedRule[] = []
  let current = null as ParsedRule | null
  let part = null as Part | null
  let previous: SourceLine | null = null
  let afterHeading = false

  const startRule = (rule: ParsedRule) => {
    // Memory grows with the rules, a few hundred bytes each however short: bounded here, long
    // before a text of millions of one-line rules under the 64 MiB cap would take gigabytes.
    if (rules.length === MAX_TEXT_RULES) throw new EtlError('INPUT_TOO_LARGE', `parse: the text holds more than ${thousands(MAX_TEXT_RULES)} numbered rules (a published release has about 3,200); refused`)
    rules.push(rule)
    current = rule
    part = 'text'
  }
  /** Add a paragraph (or, in a wrapped text, a wrapped line) to the rule's current part. */
  const extend = (rule: ParsedRule, to: Part, text: string, join: '\n' | ' ') => {
    if (to === 'example' && rule.examples.length > 0) {
      rule.examples[rule.examples.length - 1] += join + text
    } else if (join === ' ' && rule.textLines.length > 0) {
      rule.textLines[rule.textLines.length - 1] += ' ' + text
    } else {
      rule.textLines.push(text)
    }
  }
  /** A line that fits nothing: kept with the rule above, never dropped. */
  const keepUnplaced = (sl: SourceLine, reason: 'bad-number' | 'unclassified') => {
    const above = current ?? rules[rules.length - 1]
    if (reason === 'bad-number') {
      const written = BAD_NUMBER.exec(sl.text)![1]!
      diags.push(diagnostics.badNumber(written, above?.number ?? null, { line: sl.line, ...(above ? { number: above.number } : {}) }))
    } else if (above) {
      diags.push(diagnostics.sourceFormat('unclassified-line', `line ${sl.line} fits no rule, heading or example: kept as a paragraph of rule ${above.number}: “${sl.text.slice(0, 60)}”`, { line: sl.line, number: above.number }))
    } else {
      diags.push(diagnostics.sourceFormat('unclassified-line', `line ${sl.line} fits no rule, heading or example and has no rule above it: left out of every row: “${sl.text.slice(0, 60)}”`, { line: sl.line }))
    }
    if (!above) return
    above.textLines.push(sl.text)
    current = above
    part = 'text'
  }

  for (const sl of lines) {
    const s = sl.text
    const prev = previous
    previous = sl
    if (s === '') {
      if (!wrapped) part = null
      continue
    }
    // A heading ends a paragraph as a blank line does.
    const afterHeadingBefore = afterHeading
    const paragraphStart = !wrapped || prev === null || prev.text === '' || sl.afterBreak || afterHeading
    afterHeading = false
    let m: RegExpExecArray | null

    // Inside a wrapped paragraph, a heading is only a line the Contents lists word for word, after a finished sentence.
    // One paragraph per line (modern texts): a heading stands after a blank line, never right below text.
    const blankBefore = prev === null || prev.text === '' || afterHeadingBefore
    // A line the Contents lists word for word, right below a finished sentence, is that heading
    // too (2014-07-18: `717.2. … by the rules.` then `8. Multiplayer Rules`, with no blank line).
    const listedHeading = contents.has(s) && prev !== null && ENDS_SENTENCE.test(prev.text)
    const headingHere = !wrapped ? (blankBefore && !sl.afterBreak) || listedHeading : paragraphStart ? !sl.afterBreak : listedHeading
    if (headingHere && (m = headingMatch(s)) && followsLast(m[1]!.length === 1 ? chapters : sections, m[1]!)) {
      if (!wrapped && !blankBefore) {
        diags.push(diagnostics.sourceFormat('heading-without-blank-line', `heading “${s}” follows the text of rule ${current?.number ?? 'above'} with no blank line: read as the heading, not as text`, { line: sl.line }))
      }
      afterHeading = true
      ;(m[1]!.length === 1 ? chapters : sections).push({ number: m[1]!, title: m[2]!, line: sl.line })
      current = null
      part = null
    } else if ((paragraphStart || startsRuleInsideParagraph(s, prev, current)) && (m = RULE.exec(s) ?? STRAY_SPACE_RULE.exec(s))) {
      const [, section, rule, letters, period, space, rest] = m as unknown as string[]
      const number = `${section}.${rule}${letters}`
      const where = { number, line: sl.line }
      if (!paragraphStart) diags.push(diagnostics.sourceFormat('rule-inside-paragraph', `rule ${number} starts inside a paragraph of ${current!.number} (no blank line before it)`, where))
      if (RULE.test(s)) reportNumberTypos(number, letters!, period!, space!, rest!, sl.line, diags)
      else diags.push(diagnostics.sourceFormat('number-with-space', `rule ${number} is written “${s.slice(0, s.indexOf(rule!, 4) + rule!.length + letters!.length)}”, with a space inside its number`, where))
      startRule({ number, textLines: rest === '' ? [] : [rest!], examples: [], line: sl.line })
    } else if ((m = EXAMPLE.exec(s))) {
      if (current) {
        current.examples.push(m[1]!)
        part = 'example'
      } else keepUnplaced(sl, 'unclassified')
    } else if (paragraphStart && BAD_NUMBER.test(s)) {
      keepUnplaced(sl, 'bad-number')
    } else if (current && part !== null && (!wrapped || !paragraphStart || sl.indented || sl.afterBreak)) {
      // Wrapped text: a plain line inside a paragraph is the same paragraph; an indented one starts another.
      const sameParagraph = wrapped && !paragraphStart && !sl.indented
      extend(current, part, s, sameParagraph ? ' ' : '\n')
    } else {
      keepUnplaced(sl, 'unclassified')
    }
  }
  return { chapters, sections, rules }
}

/**
 * Chapters and sections come in increasing order: a line shaped like a heading whose number does not
 * follow the last one ("1. First meaning." inside a rule) is text, not a heading.
 */
function followsLast(headings: Heading[], number: string): boolean {
  const last = headings[headings.length - 1]
  return last === undefined || Number(number) > Number(last.number)
}

/** A chapter or section heading, unless its "title" begins with the tail of a rule number. */
function headingMatch(s: string): RegExpExecArray | null {
  const m = CHAPTER.exec(s) ?? SECTION.exec(s)
  if (!m || /^\d+[a-z]*(?:[.\s]|$)/.test(m[2]!)) return null
  return m
}

/**
 * In a wrapped text: a line that looks exactly like the next rule's start, after a finished sentence:
 * a later number of the same section, or the first rule of a later section.
 */
function startsRuleInsideParagraph(s: string, prev: SourceLine | null, current: ParsedRule | null): boolean {
  if (!current || !prev || !STRICT_RULE_START.test(s)) return false
  const next = parseRuleNumber(RULE.exec(s)![0].match(/^\d{3}\.\d+[a-z]*/)![0])
  const now = parseRuleNumber(current.number)
  if (next === null || now === null) return false
  // The very next number (100.2 → 100.2a, 100.2a → 100.2b, 100.2b → 100.3) needs no full stop before it: a title has none.
  const immediate = next.section === now.section && ((next.rule === now.rule && letterRank(next.letters) === letterRank(now.letters) + 1) || (next.rule === now.rule + 1 && next.letters === ''))
  if (immediate) return true
  if (!ENDS_SENTENCE.test(prev.text)) return false
  if (next.section === now.section) return compareRuleNumbers(now, next) < 0
  return next.section > now.section && next.rule === 1 && next.letters === ''
}

function reportNumberTypos(number: string, letters: string, period: string, space: string, rest: string, line: number, diags: Diagnostic[]) {
  const where = { number, line }
  if (letters !== '' && period === '.') {
    diags.push(diagnostics.sourceFormat('subrule-with-period', `subrule ${number} is written "${number}." with a period`, where))
  } else if (letters === '' && period === '') {
    diags.push(diagnostics.sourceFormat('rule-without-period', `rule ${number} is written without the period after its number`, where))
  }
  if (space === '' && rest !== '') {
    diags.push(diagnostics.sourceFormat('no-space-after-number', `rule ${number} has no space between its number and its text`, where))
  }
}
