import { describe, expect, it } from 'vitest'
import { extractReferences } from '../src/core/citations.js'

const targets = (text: string) => extractReferences(text, 'src').map((r) => `${r.kind}:${r.target}`)

describe('extractReferences', () => {
  it.each([
    ['See rule 704.5a.', ['rule:704.5a']],
    ['see rule 903, “Commander,” for details', ['section:903']],
    ['See section 8, “Multiplayer Rules.”', ['chapter:8']],
    ['rules 601.2b and 601.2f–h', ['rule:601.2b', 'rule:601.2f', 'rule:601.2g', 'rule:601.2h']],
    ['rules 601.2b and 601.2g-h (hyphen)', ['rule:601.2b', 'rule:601.2g', 'rule:601.2h']],
    ['rules 613.2, 707.2, and 707.3', ['rule:613.2', 'rule:707.2', 'rule:707.3']],
    ['rules 119.9–10', ['rule:119.9', 'rule:119.10']],
    ['rules 712.9–10', ['rule:712.9', 'rule:712.10']],
    ['rules 903.6–903.11', ['rule:903.6', 'rule:903.7', 'rule:903.8', 'rule:903.9', 'rule:903.10', 'rule:903.11']],
    ['see rules 704.5k–n', ['rule:704.5k', 'rule:704.5m', 'rule:704.5n']],
    ['rules 101.1y–ab', ['rule:101.1y', 'rule:101.1z', 'rule:101.1aa', 'rule:101.1ab']],
    ['(see 601.2b and 601.2f–h)', ['rule:601.2b', 'rule:601.2f', 'rule:601.2g', 'rule:601.2h']],
    ['the Magic Tournament Rules 2019 edition', []],
    ['PO Box 707, Renton', []],
    // 2005-10-01's 502.46a and "Convoke": 409.1f–h without its period, a citation of nothing.
    ['rules 409.1b and 4091f–h', ['rule:409.1b', 'rule:4091f']],
    ['the rules 2009 edition', []],
  ])('%s', (text, expected) => {
    expect(targets(text)).toEqual(expected)
  })

  it('keeps the span as written and the source line', () => {
    expect(extractReferences('See rules 601.2f–h.', 'glossary:Cast', 12)).toEqual([
      { source: 'glossary:Cast', target: '601.2f', kind: 'rule', span: '601.2f–h', line: 12 },
      { source: 'glossary:Cast', target: '601.2g', kind: 'rule', span: '601.2f–h', line: 12 },
      { source: 'glossary:Cast', target: '601.2h', kind: 'rule', span: '601.2f–h', line: 12 },
    ])
  })

  it('does not expand an absurd range', () => {
    expect(targets('rules 100.1–9999')).toEqual(['rule:100.1', 'rule:100.9999'])
  })
})

describe('a citation typo in a real text', () => {
  it('a citation that lost its period is a dangling reference of the rule that makes it', async () => {
    const { readFileSync } = await import('node:fs')
    const { validateText } = await import('../src/validate/validate.js')
    const { release } = await import('./helpers/shared.js')
    const r = release('2026-08-07')
    const text = readFileSync(r.path, 'utf8')
    const line = text.split(/\r?\n/).findIndex((l) => l.startsWith('702.27a ') && l.includes('601.2f–h'))
    expect(line).toBeGreaterThan(0)
    const typo = text.replace(/^(702\.27a .*?)601\.2f–h/m, '$16012f–h')
    const report = await validateText(r.file, new TextEncoder().encode(typo))
    expect(report.diagnostics.filter((d) => d.code === 'dangling-reference' && d.number === '702.27a').map((d) => [d.line, d.message])).toEqual([
      [line + 1, '702.27a cites 6012f (“6012f–h”), which does not exist'],
    ])
  })
})
