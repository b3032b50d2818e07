import { boundedDiagnostics } from '../core/bounded.js'
import { daysInMonth } from '../core/calendar.js'
import { diagnostics } from '../core/diagnostics.js'
import { EtlError } from '../core/errors.js'
import { MAX_ROW_CHARS } from '../core/limits.js'
import { plural, thousands } from '../core/words.js'
import { CHAPTER, EXAMPLE, parseBody, RULE, SECTION } from './parse-body.js'
import { parseGlossary } from './parse-glossary.js'
import { sourceLines, type SourceLine } from './source-lines.js'
import type { CrDocument, Diagnostic, Heading } from '../core/types.js'

// Releases before July 2009 say "current as of", later ones "effective as of".
const EFFECTIVE = /(?:effective|current) as of ([A-Z][a-z]+) (\d{1,2}), (\d{4})/
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']

/**
 * Parse the lines of a Comprehensive Rules text into its parts. Problems in the text become
 * diagnostics; only a text with no rules body at all throws (EtlError INPUT_NOT_CR).
 */
export function parseDocument(lines: string[], name = 'input'): CrDocument {
  // Bounded: a text of millions of stray lines gives 1,000 warnings and a count, not millions of objects.
  const diags = boundedDiagnostics()
  const long = lines.findIndex((l) => l.length > MAX_ROW_CHARS)
  if (long >= 0) throw tooLong(`line ${long + 1}`)
  const firstRule = lines.findIndex((l) => RULE.test(l.trim()))
  if (firstRule < 0) {
    throw new EtlError('INPUT_NOT_CR', `parse: ${name} is not a Comprehensive Rules text (no numbered rule such as "100.1." found in ${lines.length} ${plural(lines.length, 'line')})`)
  }
  let bodyStart = firstRule
  while (bodyStart > 0 && isHeadingOrBlank(lines[bodyStart - 1]!)) bodyStart--
  const contentsAt = lines.slice(0, bodyStart).findIndex((l) => l.trim() === 'Contents')
  bodyStart = firstChapterHeading(lines, contentsAt, firstRule) ?? bodyStart

  if (contentsAt < 0) diags.push(diagnostics.structure('no "Contents" before the rules body: the text is not the whole document', 'error', { line: bodyStart + 1 }))
  const glossaryAt = indexOfLine(lines, 'Glossary', firstRule)
  if (glossaryAt < 0) diags.push(diagnostics.structure('no "Glossary" after the rules body: the text may be truncated', 'error', { line: lines.length }))
  const creditsAt = indexOfLine(lines, 'Credits', glossaryAt < 0 ? firstRule : glossaryAt)
  if (creditsAt < 0) diags.push(diagnostics.structure('no "Credits" after the Glossary: the text may be truncated', 'error', { line: lines.length }))
  const bodyEnd = glossaryAt >= 0 ? glossaryAt : creditsAt >= 0 ? creditsAt : lines.length

  const bodyLines = sourceLines(lines, bodyStart, bodyEnd, diags)
  const wrapped = isHardWrapped(bodyLines)
  const contents = contentsAt < 0 ? new Map<string, string>() : contentsHeadings(lines, contentsAt + 1, bodyStart)
  const body = parseBody(bodyLines, wrapped, diags, new Set([...contents].map(([n, t]) => `${n}. ${t}`)))
  const chapters = reconcileHeadings(body.chapters, contents, 'chapter', diags)
  const sections = reconcileHeadings(body.sections, contents, 'section', diags)
  const glossaryLines = glossaryAt >= 0 ? sourceLines(lines, glossaryAt + 1, creditsAt >= 0 ? creditsAt : lines.length, diags) : []
  const glossary = parseGlossary(glossaryLines, wrapped, diags)
  // Every row the build writes must be one the export readers take.
  for (const r of body.rules) if (charsOf(r.textLines) + charsOf(r.examples) > MAX_ROW_CHARS) throw tooLong(`rule ${r.number} (line ${r.line})`)
  for (const g of glossary) if (g.term.length + g.definition.length > MAX_ROW_CHARS) throw tooLong(`the glossary entry on line ${g.line}`)
  return {
    effectiveDate: findEffectiveDate(lines),
    wrapped,
    body: { start: bodyStart, end: bodyEnd },
    chapters,
    sections,
    rules: body.rules,
    glossary,
    diagnostics: diags,
  }
}

const charsOf = (parts: string[]) => parts.reduce((n, p) => n + p.length, 0)

const tooLong = (what: string) =>
  new EtlError('INPUT_TOO_LARGE', `parse: ${what} holds more than ${thousands(MAX_ROW_CHARS)} characters (a published rule has at most about 3,000): no export reader would take its row; refused`)

function isHeadingOrBlank(line: string): boolean {
  const s = line.trim()
  return s === '' || CHAPTER.test(s) || SECTION.test(s)
}

/**
 * The body begins at its first chapter heading: the second time the Contents' first chapter line
 * ("1. Game Concepts") is written. Text between it and the first rule is then part of the body, so
 * no line there escapes the parser.
 */
function firstChapterHeading(lines: string[], contentsAt: number, firstRule: number): number | null {
  if (contentsAt < 0) return null
  let listed = -1
  for (let i = contentsAt + 1; i < firstRule; i++) {
    const m = CHAPTER.exec(lines[i]!.trim())
    if (!m) continue
    if (listed < 0) listed = i
    else if (m[1] === CHAPTER.exec(lines[listed]!.trim())![1]) return i
  }
  return null
}

function indexOfLine(lines: string[], text: string, from: number): number {
  for (let i = from; i < lines.length; i++) if (lines[i]!.trim() === text) return i
  return -1
}

/**
 * A hard-wrapped text (2001–2004) breaks every paragraph into lines of about 100 characters: many
 * lines continue the line above, and none is long. Published texts since hold one paragraph per line.
 */
export function isHardWrapped(lines: SourceLine[]): boolean {
  let ruleLines = 0
  let wrappedLines = 0
  let longest = 0
  let previousBlank = true
  for (const sl of lines) {
    const s = sl.text
    if (s.length > longest) longest = s.length
    if (s === '') {
      previousBlank = true
      continue
    }
    if (RULE.test(s)) ruleLines++
    else if (!previousBlank && !sl.indented && !sl.afterBreak && !EXAMPLE.test(s) && !CHAPTER.test(s) && !SECTION.test(s)) wrappedLines++
    previousBlank = false
  }
  return ruleLines > 0 && wrappedLines >= 0.3 * ruleLines && longest <= 160
}

/** The chapter and section headings the Contents lists. */
function contentsHeadings(lines: string[], start: number, end: number): Map<string, string> {
  const titles = new Map<string, string>()
  for (let i = start; i < end; i++) {
    const s = lines[i]!.trim()
    const m = CHAPTER.exec(s) ?? SECTION.exec(s)
    if (m && !titles.has(m[1]!)) titles.set(m[1]!, m[2]!)
  }
  return titles
}

/** Body headings take the Contents' title; a heading that disagrees with it, or is not in it, is reported. */
function reconcileHeadings(headings: Heading[], contents: Map<string, string>, kind: 'chapter' | 'section', diags: Diagnostic[]): Heading[] {
  if (contents.size === 0) return headings
  return headings.map((h) => {
    const listed = contents.get(h.number)
    const where = { line: h.line, number: h.number }
    if (listed === undefined) {
      diags.push(diagnostics.sourceFormat('heading-not-in-contents', `${kind} heading “${h.number}. ${h.title}” is not in the Contents`, where))
      return h
    }
    if (listed === h.title) return h
    diags.push(diagnostics.sourceFormat('heading-differs', `${kind} heading “${h.number}. ${h.title}” differs from the Contents (“${h.number}. ${listed}”); the Contents' title is kept`, where))
    return { ...h, title: listed }
  })
}

/** ISO date of the first "These rules are effective (or current) as of Month D, YYYY." line, or null. */
export function findEffectiveDate(lines: string[]): string | null {
  for (const line of lines) {
    const m = EFFECTIVE.exec(line)
    if (!m) continue
    const month = MONTHS.indexOf(m[1]!) + 1
    const day = Number(m[2])
    if (month === 0 || day < 1 || day > daysInMonth(Number(m[3]), month)) continue
    return `${m[3]}-${String(month).padStart(2, '0')}-${m[2]!.padStart(2, '0')}`
  }
  return null
}
