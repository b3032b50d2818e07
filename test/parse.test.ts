import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { normalizeRules } from '../src/text/normalize.js'
import { parseDocument } from '../src/text/parse.js'
import { decode, splitLines } from '../src/text/decode.js'
import { chapterCount, readBytes, release, releases } from './helpers/shared.js'

const parseFile = (path: string) => parseDocument(splitLines(decode(readBytes(path)).text))

describe('parseDocument on every published release', () => {
  it.each(releases().map((r) => [r.file, r] as const))('%s: rule, example and glossary counts match the archive README', (_, r) => {
    const doc = parseFile(r.path)
    expect(doc.effectiveDate).toBe(r.effective)
    expect(doc.rules).toHaveLength(r.rules)
    expect(doc.rules.reduce((n, rule) => n + rule.examples.length, 0)).toBe(r.examples)
    expect(doc.glossary).toHaveLength(r.glossary)
    // The Contents repeats the chapter and section titles: each heading must be read once.
    // How many chapters each era has is the archive README's (five in 2001 … nine since 2009-09-04).
    const chapters = chapterCount(r.effective)
    expect(doc.chapters.map((c) => c.number)).toEqual(Array.from({ length: chapters }, (_, i) => String(i + 1)))
    expect(doc.sections[0]).toMatchObject({ number: '100', title: 'General' })
    expect(doc.diagnostics.filter((d) => d.code === 'structure' || d.params?.kind === 'unclassified-line')).toEqual([])
  })
})

describe('parseDocument on CR 2025-02-07', () => {
  const r = release('2025-02-07')
  const doc = parseFile(r.path)
  const rows = new Map(normalizeRules(doc.rules).map((x) => [x.row.number, x]))

  it('joins continuation paragraphs to the rule above with a single newline', () => {
    const text = rows.get('205.4c')!.row.text
    expect(text.split('\n')).toHaveLength(2)
    expect(text.split('\n')[1]).toMatch(/^Cards printed in sets prior to the Eighth Edition core set didn’t use the word “basic”/)
    const blockers = rows.get('509.1b')!.row
    expect(blockers.text.split('\n')[1]).toMatch(/^A restriction may be created by an evasion ability/)
    expect(blockers.examples[0]).toMatch(/^An attacking creature with flying and shadow can’t be blocked/)
  })

  it('keeps title-only rules as rows', () => {
    expect(rows.get('702.81')!.row.text).toBe('Retrace')
  })

  it('reports each number typo as a source-format warning with its line', () => {
    const typos = doc.diagnostics.filter((d) => d.code === 'source-format').map((d) => [d.number, d.line, d.params?.kind])
    expect(typos).toEqual([
      ['119.1d', 1050, 'subrule-with-period'],
      ['606.5', 2698, 'rule-without-period'],
      ['901.4', 6547, 'no-space-after-number'],
    ])
    expect(rows.get('901.4')!.row.text).toMatch(/^All plane and phenomenon cards remain in the command zone/)
    expect(rows.get('119.1d')!.row.text).toMatch(/^In a two-player Brawl game/)
  })

  it('reads glossary terms and multi-line definitions', () => {
    const ability = doc.glossary.find((g) => g.term === 'Ability')!
    expect(ability.definition.split('\n')).toEqual([
      '1. Text on an object that explains what that object does or can do.',
      '2. An activated or triggered ability on the stack. This kind of ability is an object.',
      'See rule 113, “Abilities,” and section 6, “Spells, Abilities, and Effects.”',
    ])
    expect(doc.glossary[0]!.term).toBe('Abandon')
  })
})

describe('parseDocument on the hand-written fixture', () => {
  const text = readFileSync(join(import.meta.dirname, 'fixtures/mini-cr.txt'), 'utf8')
  const doc = parseDocument(splitLines(text))
  const rows = normalizeRules(doc.rules).map((x) => x.row)
  const numbers = rows.map((r) => r.number)

  it('reads rules, subrules past z, and skips the Contents', () => {
    expect(doc.effectiveDate).toBe('2030-04-01')
    expect(numbers.slice(0, 6)).toEqual(['100.1', '100.1a', '100.1b', '100.1c', '100.2', '101.1'])
    expect(numbers).toContain('101.1aa')
    expect(numbers.at(-1)).toBe('101.3')
    expect(doc.sections.map((s) => s.number)).toEqual(['100', '101'])
  })

  it('keeps examples in order and joins indented and plain continuation lines', () => {
    expect(rows[0]!.examples).toEqual(['An example line.', 'A second example, in order.'])
    expect(rows[2]!.text).toBe('Another subrule, with a continuation paragraph.\nThis indented paragraph belongs to 100.1b.\nNot indented, and still part of 100.1b.')
    expect(rows[4]!.text).toBe('Title Only')
  })

  it('reports the typos and keeps the glossary headwords whole', () => {
    expect(doc.diagnostics.map((d) => [d.number, d.params?.kind])).toEqual([
      ['101.1d', 'subrule-with-period'],
      ['101.2', 'rule-without-period'],
      ['101.3', 'no-space-after-number'],
    ])
    expect(doc.glossary.map((g) => g.term)).toEqual(['Active Player', 'Control, Controller', 'Banding (Obsolete)'])
  })

  it('reports a truncated text as structure warnings, and a stray line as unclassified', () => {
    const lines = splitLines(text)
    const cut = lines.slice(0, lines.indexOf('101.2 Written without a period. See rule 101.9, which does not exist.'))
    cut.splice(cut.indexOf('100.2. Title Only'), 0, '', 'A stray paragraph after a blank line.')
    const truncated = parseDocument(cut)
    expect(truncated.diagnostics.filter((d) => d.code === 'structure').map((d) => d.message)).toEqual([
      'no "Glossary" after the rules body: the text may be truncated',
      'no "Credits" after the Glossary: the text may be truncated',
    ])
    const stray = truncated.diagnostics.find((d) => d.params?.kind === 'unclassified-line')!
    expect(stray.message).toContain('A stray paragraph after a blank line.')
    // Never dropped: kept as a paragraph of the rule above, and reported.
    expect(stray.message).toContain('kept as a paragraph of rule 100.1c')
    expect(truncated.rules.find((r) => r.number === '100.1c')!.textLines).toEqual(['The last lettered subrule here.', 'A stray paragraph after a blank line.'])
  })

  it('takes a line of only spaces and U+00A0 for a blank line', () => {
    const lines = splitLines(text)
    const at = lines.indexOf('100.1c The last lettered subrule here.')
    lines.splice(at + 1, 1, ' \u00a0\u00a0 ', 'Not indented, but after a blank line: not a continuation.')
    const doc2 = parseDocument(lines)
    expect(doc2.rules.find((r) => r.number === '100.1c')!.textLines).toEqual(['The last lettered subrule here.', 'Not indented, but after a blank line: not a continuation.'])
    expect(doc2.diagnostics.filter((d) => d.params?.kind === 'unclassified-line').map((d) => d.line)).toEqual([at + 3])
  })

  it('throws INPUT_NOT_CR for a text without rules', () => {
    expect(() => parseDocument(['<html><body>Not found</body></html>'], 'page.html')).toThrow(/^parse: page.html is not a Comprehensive Rules text/)
  })
})

describe('a chapter heading right below a rule, with no blank line (2014-07-18, 2018-01-19, 2018-04-27)', () => {
  it('starts the chapter, is not glued into the rule, and is reported', () => {
    const r = release('2026-08-07')
    const text = decode(readBytes(r.path)).text
    const glued = text.replace(/(\n733\.2\. [^\n]*)\n\n(8\. Multiplayer Rules\n)/, '$1\n$2')
    expect(glued).not.toBe(text)
    const doc = parseDocument(splitLines(glued))
    const before = parseDocument(splitLines(text))
    expect(doc.chapters.map((c) => c.number)).toEqual(before.chapters.map((c) => c.number))
    const rule = (d: typeof doc, n: string) => d.rules.find((x) => x.number === n)!
    expect(rule(doc, '733.2').textLines).toEqual(rule(before, '733.2').textLines)
    expect(doc.rules).toHaveLength(before.rules.length)
    const line = glued.split('\n').lastIndexOf('8. Multiplayer Rules') + 1
    expect(doc.diagnostics.filter((d) => d.params?.kind === 'heading-without-blank-line').map((d) => [d.line, d.message])).toEqual([
      [line, 'heading “8. Multiplayer Rules” follows the text of rule 733.2 with no blank line: read as the heading, not as text'],
    ])
  })
})
