import { diagnostics } from './diagnostics.js'
import { EtlError } from './errors.js'
import { CONTROL_CHARACTERS } from './read.js'
import type { CrDocument, Diagnostic, GlossaryEntry, Heading, ParsedRule } from './types.js'

const CHAPTER = /^(\d)\.\s+(\S.*)$/
const SECTION = /^(\d{3})\.\s+(\S.*)$/
// Lenient on purpose: the typos `119.1d.`, `606.5 ` and `901.4.All` are recognised, then reported.
const RULE = /^(\d{3})\.(\d+)([a-z]*)(\.?)(\s*)(.*)$/
const EXAMPLE = /^Examples?:\s*(.*)$/
const EFFECTIVE = /effective as of ([A-Z][a-z]+) (\d{1,2}), (\d{4})/
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']

/** Blank: empty or only white space, U+00A0 included (String.prototype.trim removes it). */
const isBlank = (line: string) => line.trim() === ''

/**
 * Parse the lines of a Comprehensive Rules text into its parts. Problems in the text become
 * diagnostics; only a text with no rules body at all throws (EtlError INPUT_NOT_CR).
 */
export function parseDocument(lines: string[], name = 'input'): CrDocument {
  const diags: Diagnostic[] = []
  const firstRule = lines.findIndex((l) => RULE.test(l.trim()))
  if (firstRule < 0) {
    throw new EtlError('INPUT_NOT_CR', `parse: ${name} is not a Comprehensive Rules text (no numbered rule such as "100.1." found in ${lines.length} lines)`)
  }
  let bodyStart = firstRule
  while (bodyStart > 0 && isHeadingOrBlank(lines[bodyStart - 1]!)) bodyStart--

  const contentsAt = lines.slice(0, bodyStart).findIndex((l) => l.trim() === 'Contents')
  if (contentsAt < 0) diags.push(diagnostics.structure('no "Contents" before the rules body: the text is not the whole document', 'error', { line: bodyStart + 1 }))
  const glossaryAt = indexOfLine(lines, 'Glossary', firstRule)
  if (glossaryAt < 0) diags.push(diagnostics.structure('no "Glossary" after the rules body: the text may be truncated', 'error', { line: lines.length }))
  const creditsAt = indexOfLine(lines, 'Credits', glossaryAt < 0 ? firstRule : glossaryAt)
  if (creditsAt < 0) diags.push(diagnostics.structure('no "Credits" after the Glossary: the text may be truncated', 'error', { line: lines.length }))
  const bodyEnd = glossaryAt >= 0 ? glossaryAt : creditsAt >= 0 ? creditsAt : lines.length

  const body = parseBody(lines, bodyStart, bodyEnd, diags)
  const glossary = glossaryAt >= 0 ? parseGlossary(lines, glossaryAt + 1, creditsAt >= 0 ? creditsAt : lines.length, diags) : []
  return { effectiveDate: findEffectiveDate(lines), ...body, glossary, diagnostics: diags }
}

function isHeadingOrBlank(line: string): boolean {
  const s = line.trim()
  return s === '' || CHAPTER.test(s) || SECTION.test(s)
}

function indexOfLine(lines: string[], text: string, from: number): number {
  for (let i = from; i < lines.length; i++) if (lines[i]!.trim() === text) return i
  return -1
}

/** ISO date of the first "These rules are effective as of Month D, YYYY." line, or null. */
export function findEffectiveDate(lines: string[]): string | null {
  for (const line of lines) {
    const m = EFFECTIVE.exec(line)
    if (!m) continue
    const month = MONTHS.indexOf(m[1]!) + 1
    if (month === 0) continue
    return `${m[3]}-${String(month).padStart(2, '0')}-${m[2]!.padStart(2, '0')}`
  }
  return null
}

// The same characters as CONTROL_CHARACTERS, without the g flag, so test() keeps no state.
const HAS_CONTROL = new RegExp(CONTROL_CHARACTERS.source)

function cleanLine(raw: string, lineNo: number, diags: Diagnostic[]): string {
  const s = raw.trim()
  if (!HAS_CONTROL.test(s)) return s
  diags.push(diagnostics.sourceFormat('control-character', `line ${lineNo} holds control characters; they were removed`, { line: lineNo }))
  return s.replace(CONTROL_CHARACTERS, '').trim()
}

function parseBody(lines: string[], start: number, end: number, diags: Diagnostic[]) {
  const chapters: Heading[] = []
  const sections: Heading[] = []
  const rules: ParsedRule[] = []
  let current: ParsedRule | null = null
  // What a continuation paragraph extends: the rule's text, or its last example.
  let lastPart: 'text' | 'example' | null = null

  for (let i = start; i < end; i++) {
    const lineNo = i + 1
    const s = cleanLine(lines[i]!, lineNo, diags)
    if (s === '') {
      lastPart = null
      continue
    }
    let m: RegExpExecArray | null
    if ((m = CHAPTER.exec(s))) {
      chapters.push({ number: m[1]!, title: m[2]!, line: lineNo })
      current = null
      lastPart = null
    } else if ((m = SECTION.exec(s))) {
      sections.push({ number: m[1]!, title: m[2]!, line: lineNo })
      current = null
      lastPart = null
    } else if ((m = RULE.exec(s))) {
      const [, section, rule, letters, period, space, rest] = m as unknown as string[]
      const number = `${section}.${rule}${letters}`
      reportNumberTypos(number, letters!, period!, space!, rest!, lineNo, diags)
      current = { number, textLines: rest === '' ? [] : [rest!], examples: [], line: lineNo }
      rules.push(current)
      lastPart = 'text'
    } else if ((m = EXAMPLE.exec(s))) {
      if (current) {
        current.examples.push(m[1]!)
        lastPart = 'example'
      } else {
        diags.push(diagnostics.sourceFormat('example-without-rule', `line ${lineNo}: an example with no rule above it was left out`, { line: lineNo }))
      }
    } else if (current && lastPart === 'example') {
      const ex = current.examples
      ex[ex.length - 1] += '\n' + s
    } else if (current && lastPart === 'text') {
      current.textLines.push(s)
    } else {
      const where = current ? { line: lineNo, number: current.number } : { line: lineNo }
      diags.push(diagnostics.sourceFormat('unclassified-line', `line ${lineNo} fits no rule, heading or example and was left out: “${s.slice(0, 60)}”`, where))
    }
  }
  return { chapters, sections, rules }
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

function parseGlossary(lines: string[], start: number, end: number, diags: Diagnostic[]): GlossaryEntry[] {
  const entries: GlossaryEntry[] = []
  let block: { line: number; text: string }[] = []
  const flush = () => {
    const [head, ...rest] = block
    block = []
    if (!head) return
    if (rest.length === 0) {
      diags.push(diagnostics.sourceFormat('glossary-entry-without-definition', `glossary entry “${head.text}” has no definition`, { line: head.line, number: `glossary:${head.text}` }))
    }
    entries.push({ term: head.text, definition: rest.map((r) => r.text).join('\n'), line: head.line })
  }
  for (let i = start; i < end; i++) {
    const s = cleanLine(lines[i]!, i + 1, diags)
    if (s === '') flush()
    else block.push({ line: i + 1, text: s })
  }
  flush()
  return entries
}
