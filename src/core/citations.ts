import { lettersAt, letterRank } from './rule-number.js'

export type ReferenceKind = 'rule' | 'section' | 'chapter'

/** One citation found in a text: `rule 704.5a`, `section 8`, one target of `rules 601.2f–h`. */
export interface Reference {
  /** Rule number, or `glossary:<term>`, of the text that cites. */
  source: string
  target: string
  kind: ReferenceKind
  /** The reference as written, e.g. `601.2f–h`. */
  span: string
  /** Where in its source it stands: `text`, `example 1`, `example 2`, …, or `definition` (a glossary entry). */
  location?: string
  line?: number
}

const HAS_DIGIT = /\d/
const KEYWORD = /\b(rules?|sections?|see)\s+(?=\d)/gi
// `419,8` (a comma typo for 419.8) and `4091f` (409.1f without its period) are read as written, so
// they are reported as dangling references.
const RULE_REF = /(\d{3}(?:\.\d+[a-z]*|,\d{1,2}[a-z]*(?!\d)|\d{1,2}[a-z]+(?![a-z\d]))?)(?![\d.]?\d)(?:\s?[–-]\s?(\d{3}\.\d+[a-z]*|\d+[a-z]*|[a-z]+)\b)?/y
const CHAPTER_OR_SECTION_REF = /(\d{3}|\d)(?!\d)(?:\s?[–-]\s?(\d{3}|\d)(?!\d))?/y
const SEPARATOR = /(?:,\s*(?:and\s+|or\s+)?|\s+(?:and|or|through)\s+)(?=\d)/y
// A malformed range must not turn one citation into thousands of targets.
export const MAX_RANGE = 100

/**
 * Find every rule, section and chapter citation in `text`, ranges expanded:
 * `rules 601.2b and 601.2f–h` gives 601.2b, 601.2f, 601.2g, 601.2h.
 */
export function extractReferences(text: string, source: string, line?: number): Reference[] {
  const refs: Reference[] = []
  forEachReference(text, (target, kind, span) => {
    const ref: Reference = { source, target, kind, span }
    if (line !== undefined) ref.line = line
    refs.push(ref)
  })
  return refs
}

/**
 * Each citation target of `text`, as extractReferences finds them, without a Reference object each.
 * `hasDigit`: the caller knows the text holds a digit (else it is looked for first); `from`: it knows
 * no citation's keyword starts before there.
 */
export function forEachReference(text: string, visit: (target: string, kind: ReferenceKind, span: string, start: number) => void, hasDigit = false, from = 0): void {
  // Most texts cite nothing: without a digit there is nothing to find.
  if (!hasDigit && !HAS_DIGIT.test(text)) return
  // exec, not matchAll: no iterator and match array kept per text (KEYWORD is used nowhere else).
  KEYWORD.lastIndex = from
  for (let keyword = KEYWORD.exec(text); keyword; keyword = KEYWORD.exec(text)) {
    // section or sections (7 or 8 letters), else rule, rules or see.
    citationsAfter(text, keyword.index + keyword[0].length, keyword[1]!.length >= 7, visit)
  }
}

/** The citations from `at`, just past a keyword and its whitespace: a list, ranges expanded. */
function citationsAfter(text: string, at: number, section: boolean, visit: (target: string, kind: ReferenceKind, span: string, start: number) => void): void {
  const pattern = section ? CHAPTER_OR_SECTION_REF : RULE_REF
  for (;;) {
    pattern.lastIndex = at
    const m = pattern.exec(text)
    if (!m) break
    const span = m[0]
    for (const target of expand(m[1]!, m[2])) visit(target, kindOf(target), span, m.index)
    at = pattern.lastIndex
    SEPARATOR.lastIndex = at
    if (!SEPARATOR.exec(text)) break
    at = SEPARATOR.lastIndex
  }
}

/** A citation as written in a text: where it stands, and its targets (a range's in order). */
export interface CitationSpan {
  start: number
  end: number
  targets: { target: string; kind: ReferenceKind }[]
}

/** Every citation of `text` with its place, in order (what extractReferences finds, by span). */
export function citationSpans(text: string): CitationSpan[] {
  const spans: CitationSpan[] = []
  forEachReference(text, (target, kind, span, start) => {
    const last = spans.at(-1)
    if (last?.start === start) last.targets.push({ target, kind })
    else spans.push({ start, end: start + span.length, targets: [{ target, kind }] })
  })
  return spans
}

/** The kind of a target citationsAfter gives: a rule number, a section (three digits) or a chapter. */
export function kindOf(target: string): ReferenceKind {
  if (target.includes('.') || target.includes(',') || /^\d{4}/.test(target)) return 'rule'
  return target.length === 3 ? 'section' : 'chapter'
}

/** The targets of a citation (`start`, and a range's `end` as written): a range expanded. */
export function expand(start: string, end: string | undefined): string[] {
  if (end === undefined) return [start]
  const a = /^(\d{3})(?:\.(\d+)([a-z]*))?$/.exec(start)
  if (!a) return [start]
  const [, section, ruleText, letters = ''] = a
  if (ruleText === undefined) return range(Number(section), Number(end), (n) => String(n))
  const rule = Number(ruleText)
  if (/^[a-z]+$/.test(end)) {
    // 601.2f–h: a range of subrule letters
    return range(letterRank(letters), letterRank(end), (r) => `${section}.${rule}${lettersAt(r)}`)
  }
  const b = /^(?:(\d{3})\.)?(\d+)([a-z]*)$/.exec(end)
  if (!b) return [start, end]
  const [, endSection = section, endRuleText, endLetters] = b
  if (endSection !== section) return [start, `${endSection}.${endRuleText}${endLetters}`]
  const endRule = Number(endRuleText)
  if (letters === '' && endLetters === '') return range(rule, endRule, (n) => `${section}.${n}`)
  if (endRule === rule) return range(letterRank(letters), letterRank(endLetters!), (r) => `${section}.${rule}${lettersAt(r)}`)
  return [start, `${section}.${endRule}${endLetters}`]
}

function range(from: number, to: number, name: (n: number) => string): string[] {
  if (!(to > from) || to - from > MAX_RANGE) return [name(from), name(to)]
  const out: string[] = []
  for (let n = from; n <= to; n++) out.push(name(n))
  return out
}
