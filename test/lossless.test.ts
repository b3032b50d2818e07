import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { buildDataset } from '../src/build/build.js'
import { checkDocument } from '../src/checks/run-checks.js'
import { checkCoverage } from '../src/text/coverage.js'
import { historyFolders } from '../src/history/history-table.js'
import { normalizeRules } from '../src/text/normalize.js'
import { parseDocument } from '../src/text/parse.js'
import { decode, splitLines } from '../src/text/decode.js'
import { inProcess } from './helpers/cli.js'
import { readBytes, release, releases } from './helpers/shared.js'

const textOf = (path: string) => decode(readBytes(path)).text
const fixture = (name: string) => readFileSync(join(import.meta.dirname, 'fixtures', name), 'utf8')

/** Parse, normalize and run every check, as build and validate do. */
function run(text: string) {
  const lines = splitLines(text)
  const doc = parseDocument(lines)
  const located = normalizeRules(doc.rules)
  const rows = located.map((r) => r.row)
  const { diagnostics, coverage } = checkDocument(lines, doc, located)
  const row = (n: string) => rows.find((r) => r.number === n)!
  const kinds = (code: string) => diagnostics.filter((d) => d.code === code).map((d) => [d.number, d.params?.kind ?? d.line])
  return { lines, doc, rows, row, diagnostics, coverage, kinds }
}

describe('every word of every published release lands in a row', () => {
  it.each(releases().map((r) => [r.file, r] as const))('%s: the coverage check accounts for every word', (_, r) => {
    const { coverage, diagnostics, rows } = run(textOf(r.path))
    expect(rows).toHaveLength(r.rules)
    expect(coverage.bodyWords).toBeGreaterThan(20 * r.rules)
    expect(coverage.wordsKept).toBe(coverage.bodyWords)
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([])
  })
})

describe('CR 2026-08-07: paragraphs broken by U+2028 inside a line', () => {
  const text = textOf(release('2026-08-07').path)
  const published = run(text)
  // The publisher's re-issue of the same date has a newline where the first issue has U+2028.
  const reissue = run(text.replace(/\u2028/g, '\n'))

  it('keeps 205.4c and 509.1b, each with its second paragraph and 509.1b its example', () => {
    expect(text.match(/\u2028/g)).toHaveLength(38)
    const basic = published.row('205.4c').text.split('\n')
    expect(basic).toHaveLength(2)
    expect(basic[0]).toMatch(/^Any land with the supertype “basic” is a basic land\./)
    expect(basic[1]).toMatch(/^Cards printed in sets prior to the Eighth Edition core set didn’t use the word “basic”/)
    const blockers = published.row('509.1b')
    expect(blockers.text.split('\n')[1]).toMatch(/^A restriction may be created by an evasion ability/)
    expect(blockers.examples).toEqual(['An attacking creature with flying and shadow can’t be blocked by a creature with flying but without shadow.'])
    expect(published.row('509.1a').examples).toEqual([])
  })

  it('gives the same rows and glossary as the re-issue with newlines', () => {
    expect(published.rows).toEqual(reissue.rows)
    const entries = (doc: typeof published.doc) => doc.glossary.map(({ term, definition }) => ({ term, definition }))
    expect(entries(published.doc)).toEqual(entries(reissue.doc))
    const evasion = published.doc.glossary.find((g) => g.term === 'Evasion Ability')!
    expect(evasion.definition).toContain('509.1b')
    expect(published.diagnostics.filter((d) => d.code === 'dangling-reference')).toEqual([])
  })
})

describe('CR 2001-07-23: a hard-wrapped release', () => {
  const r = release('2001-07-23')
  const { doc, rows, row, diagnostics } = run(textOf(r.path))

  it('is detected as hard-wrapped, and the modern releases are not', () => {
    expect(doc.wrapped).toBe(true)
    expect(doc.effectiveDate).toBe('2001-07-23')
    for (const other of releases().filter((x) => x.effective !== r.effective)) expect(parseDocument(splitLines(textOf(other.path))).wrapped).toBe(false)
  })

  it('has 474 rules, no false duplicates and no order errors', () => {
    expect(rows).toHaveLength(474)
    expect(new Set(rows.map((x) => x.number)).size).toBe(474)
    expect(diagnostics.filter((d) => d.code === 'duplicate-number' || d.code === 'order')).toEqual([])
  })

  it('joins the lines of a paragraph with a space, and reads a wrapped line that begins with a citation as text', () => {
    expect(row('100.1').text).toBe('These Magic rules assume a game between two players. Optional rules allow for more players but aren\'t discussed here. These rules can be found at the Wizards of the Coast website at www.wizards.com/magic/MTG_Rules.asp.')
    expect(row('214.9e').text).toContain('(See rule 406.1, "Mana Abilities.") The card is treated as if its text box read')
    expect(rows.filter((x) => x.text.includes('212.2c).'))).toHaveLength(1)
  })

  it('starts a new example at each Example: line, and a new paragraph at each indented line', () => {
    expect(row('212.2a').examples).toEqual(['"Creature — Minotaur" means the card is a creature with the Minotaur subtype. "Creature — Goblin Wizard" means the card is a creature with the creature types Goblin and Wizard.'])
    const paragraphs = row('409.1').text.split('\n')
    expect(paragraphs).toHaveLength(2)
    expect(paragraphs[1]).toMatch(/^Some spells and abilities specify that their controller's opponent does something/)
    expect(paragraphs[1]).toMatch(/This applies to all parts of rule 409\.1\.$/)
  })

  it('unwraps glossary definitions too', () => {
    const ability = doc.glossary.find((g) => g.term === 'Ability')!
    expect(ability.definition.split('\n')).toHaveLength(3)
    expect(ability.definition.split('\n')[1]).toBe('A card or permanent may have one or more abilities or no abilities at all. For more information, see section 4, "Spells, Abilities, and Effects."')
  })

  it('does not call a rule that cites itself an example', () => {
    expect(diagnostics.filter((d) => d.code === 'example-as-row')).toEqual([])
  })
})

/**
 * `text` hard-wrapped as 2001-07-23 is: its body and glossary paragraphs broken at a space into lines
 * of at most 95 characters (each broken line keeping its trailing space), an Example: paragraph right
 * under its rule with no blank line, and a glossary definition's later paragraphs indented five spaces.
 * The releases between 2001 and 2009 that the shared folder lacks may be of either shape.
 */
function hardWrapped(text: string): string {
  const lines = text.split('\n')
  const body = lines.findIndex((l, i) => /^1\. /.test(l) && lines.slice(0, i).some((p) => /^1\. /.test(p)))
  const glossary = lines.findIndex((l, i) => i > body && l.trim() === 'Glossary')
  const out: string[] = []
  lines.forEach((line, i) => {
    if (i < body) return void out.push(line)
    if (i < glossary && line.startsWith('Example') && out.at(-1) === '') out.pop()
    const laterParagraph = i > glossary + 2 && line !== '' && lines[i - 1] !== '' && lines[i - 2] !== ''
    const words = line.trim().split(' ')
    const parts: string[] = []
    let current = (laterParagraph ? '     ' : '') + /^\s*/.exec(line)![0] + words[0]
    for (const word of words.slice(1)) {
      if (current.length + 1 + word.length <= 95) current += ` ${word}`
      else {
        parts.push(`${current} `)
        current = word
      }
    }
    parts.push(current)
    out.push(...parts)
  })
  return out.join('\n')
}

describe('a release hard-wrapped as 2001-07-23 is', () => {
  it.each(['2009-05-01', '2016-07-22', '2025-02-07'])('%s: the same rules, examples and glossary as published, but for the breaks of its lines', (date) => {
    const text = textOf(release(date).path)
    const wrapped = hardWrapped(text)
    expect(wrapped.split('\n').length).toBeGreaterThan(1.4 * text.split('\n').length)
    const [published, rewrapped] = [run(text), run(wrapped)]
    expect([published.doc.wrapped, rewrapped.doc.wrapped]).toEqual([false, true])
    // Spaces aside (a broken line keeps its trailing space), every paragraph and example as published.
    const spaced = (s: string) => s.replace(/ +/g, ' ').replace(/ ?\n ?/g, '\n').trim()
    const rows = (r: typeof published) => r.rows.map((x) => ({ number: x.number, text: spaced(x.text), examples: x.examples.map(spaced) }))
    expect(rows(rewrapped)).toEqual(rows(published))
    const entries = (r: typeof published) => r.doc.glossary.map((g) => ({ term: g.term, definition: spaced(g.definition) }))
    expect(entries(rewrapped)).toEqual(entries(published))
    expect(rewrapped.coverage.wordsKept).toBe(rewrapped.coverage.bodyWords)
    expect(rewrapped.diagnostics.filter((d) => d.severity === 'error')).toEqual([])
  })
})

describe('a hard-wrapped fixture', () => {
  const { doc, rows, row, diagnostics, coverage } = run(fixture('wrapped-cr.txt'))

  it('unwraps rules, examples, indented paragraphs and citations at line starts', () => {
    expect(doc.wrapped).toBe(true)
    expect(doc.effectiveDate).toBe('2003-03-01')
    expect(rows.map((r) => r.number)).toEqual(['100.1', '100.2', '100.2a', '100.2b', '101.1', '101.2', '101.2a'])
    expect(row('100.2').text).toBe('A rule that cites another rule at the start of a wrapped line (see rules 100.1 and 101.1). The wrapped line above begins with a number but is text.')
    expect(row('100.2a').examples).toEqual([
      "An example that is long enough to be wrapped by the publisher's layout onto more than one line, which the parser joins with a space.",
      'A second example.',
    ])
    expect(row('101.1').text).toBe(
      'A rule with an indented continuation paragraph. The first paragraph wraps onto a second line here.\nThe indented paragraph starts a new paragraph of the same rule, and it wraps onto a second line too.',
    )
    expect(doc.glossary[0]!.definition).toBe('"Ability" and "effect" are often confused with one another. An instruction in a card\'s text is an ability.\nA card may have one or more abilities or no abilities at all. See section 1.')
    expect(coverage.wordsKept).toBe(coverage.bodyWords)
    expect(diagnostics).toEqual([])
  })
})

describe('a hard-wrapped text with no blank line between paragraphs', () => {
  it('gives the same rows as with them: a rule starts at the next number, a heading at a Contents line', () => {
    const text = fixture('wrapped-cr.txt')
    const lines = text.split('\n')
    const start = lines.lastIndexOf('1. The Game')
    const end = lines.lastIndexOf('Glossary')
    const squeezed = [...lines.slice(0, start), ...lines.slice(start, end).filter((l) => l.trim() !== ''), '', ...lines.slice(end)].join('\n')
    const spaced = run(text)
    const tight = run(squeezed)
    expect(tight.doc.wrapped).toBe(true)
    expect(tight.rows).toEqual(spaced.rows)
    expect(tight.doc.sections.map((x) => x.number)).toEqual(['100', '101'])
    expect(tight.coverage.wordsKept).toBe(tight.coverage.bodyWords)
    expect(tight.kinds('source-format').filter(([, k]) => k === 'rule-inside-paragraph').map(([n]) => n)).toEqual(['100.2', '100.2a', '100.2b', '101.2', '101.2a'])
  })
})

describe('shapes seen in published releases, on the hand-written fixture', () => {
  const base = fixture('mini-cr.txt')
  const edit = (pairs: [string, string][]) => pairs.reduce((t, [from, to]) => {
    if (!t.includes(from)) throw new Error(`fixture has no “${from}”`)
    return t.replace(from, to)
  }, base)

  it('reads a stray space after the section period as a rule, with a warning', () => {
    const { row, kinds, doc } = run(edit([['100.1c The last lettered subrule here.', '100. 1c The last lettered subrule here.']]))
    expect(row('100.1c').text).toBe('The last lettered subrule here.')
    expect(kinds('source-format')).toContainEqual(['100.1c', 'number-with-space'])
    expect(doc.sections.map((s) => s.number)).toEqual(['100', '101'])
  })

  it('keeps a line whose number cannot be read, and reports it as an error', () => {
    const { row, diagnostics, coverage } = run(edit([['100.2. Title Only', '100.b If an effect has no number.\n\n100.2. Title Only']]))
    expect(row('100.1c').text).toBe('The last lettered subrule here.\n100.b If an effect has no number.')
    const bad = diagnostics.filter((d) => d.code === 'bad-number')
    expect(bad.map((d) => [d.severity, d.number, d.params])).toEqual([['error', '100.1c', { written: '100.b' }]])
    expect(bad[0]!.message).toMatch(/^line \d+ begins with “100\.b”, which is not a rule number: its text was kept as a paragraph of rule 100\.1c/)
    expect(coverage.wordsKept).toBe(coverage.bodyWords)
  })

  it('reports a valid number in the wrong place (306.1c where 306.3c belongs) as an order error, keeping the row', () => {
    const { row, diagnostics } = run(edit([['101.3.No space after the number.', '101.3.No space after the number.\n\n101.1c Misnumbered.']]))
    expect(row('101.1c').text).toBe('c')
    expect(diagnostics.filter((d) => d.code === 'order' || d.code === 'duplicate-number').map((d) => d.code)).toEqual(['duplicate-number', 'order'])
  })

  it('makes a comma typo in a citation a dangling reference', () => {
    const { diagnostics } = run(edit([['See rule 101.9, which does not exist.', 'See rule 101,2.']]))
    expect(diagnostics.filter((d) => d.code === 'dangling-reference' && d.number === '101.2').map((d) => d.params)).toEqual([{ target: '101,2', span: '101,2' }])
  })

  it('keeps the Contents title of a heading that disagrees with it, with a warning', () => {
    const { doc, kinds } = run(edit([['\n101. Quirks\n\n101.1.', '\n101. Oddities\n\n101.1.']]))
    expect(doc.sections.find((s) => s.number === '101')!.title).toBe('Quirks')
    expect(kinds('source-format')).toContainEqual(['101', 'heading-differs'])
  })

  it('calls a missing rule above its subrules a gap, not an order error, and gives them no parent', () => {
    const text = edit([['100.2. Title Only', '100.2. Title Only\n\n100.3a An orphan subrule.\n\n100.3b Another.']])
    const { diagnostics } = run(text)
    expect(diagnostics.filter((d) => d.code === 'order')).toEqual([])
    expect(diagnostics.filter((d) => d.code === 'gap').map((d) => d.message)).toEqual(['rule 100.3 is missing: subrule 100.3a comes after 100.2 with no rule above it'])
    const meta = buildDataset('x.txt', new TextEncoder().encode(text)).tables.find((t) => t.spec.name === 'rules_meta')!.rows
    expect(meta.find((m) => m.number === '100.3a')).toMatchObject({ parent: null, depth: 2 })
  })

  it('reads a numbered line inside a rule ("1. First meaning.") as text, not a chapter heading', () => {
    const { row, doc, coverage } = run(edit([['100.1c The last lettered subrule here.', '100.1c The last lettered subrule here.\n1. First meaning.\n2. Second meaning.']]))
    expect(row('100.1c').text).toBe('The last lettered subrule here.\n1. First meaning.\n2. Second meaning.')
    expect(doc.chapters.map((c) => c.number)).toEqual(['1'])
    expect(coverage.wordsKept).toBe(coverage.bodyWords)
  })

  it('warns about U+00A0 inside a word (a mis-encoded letter)', () => {
    const { kinds, row } = run(edit([['100.1c The last lettered subrule here.', '100.1c The last lettered subrule, Ghazb\u00a0n, here.']]))
    expect(kinds('source-format')).toContainEqual([undefined, 'suspect-character'])
    expect(row('100.1c').text).toBe('The last lettered subrule, Ghazb\u00a0n, here.')
  })

  it('reports text it cannot place as text-lost, an error, with its line', () => {
    const text = edit([['1. Game Concepts\n\n100. General', '1. Game Concepts\n\nAn introduction that belongs to no rule.\n\n100. General']])
    const { diagnostics, coverage, lines } = run(text)
    const lost = diagnostics.filter((d) => d.code === 'text-lost')
    expect(lost.map((d) => [d.severity, d.line])).toEqual([['error', lines.indexOf('An introduction that belongs to no rule.') + 1]])
    expect(coverage.bodyWords - coverage.wordsKept).toBe(7)
    expect(buildDataset('x.txt', new TextEncoder().encode(text)).report.valid).toBe(false)
  })
})

describe('the coverage check', () => {
  it('fails a parse that dropped a line, naming the line', () => {
    const lines = splitLines(fixture('mini-cr.txt'))
    const doc = parseDocument(lines)
    const rows = normalizeRules(doc.rules).map((r) => r.row)
    const b = rows.find((r) => r.number === '100.1b')!
    b.text = b.text.split('\n').slice(0, 2).join('\n')
    const coverage = checkCoverage(lines, doc, rows)
    expect(coverage.diagnostics.map((d) => [d.code, d.severity, d.line, d.params?.count])).toEqual([['text-lost', 'error', lines.indexOf('Not indented, and still part of 100.1b.') + 1, 8]])
  })

  it('counts no loss when the rows hold a word the body lacks (the sums differ, the counts decide)', () => {
    const lines = splitLines(fixture('mini-cr.txt'))
    const doc = parseDocument(lines)
    const rows = normalizeRules(doc.rules).map((r) => r.row)
    const exact = checkCoverage(lines, doc, rows)
    rows.find((r) => r.number === '100.1b')!.text += ' surplus'
    const coverage = checkCoverage(lines, doc, rows)
    expect(coverage.diagnostics).toEqual([])
    expect([coverage.bodyWords, coverage.wordsKept]).toEqual([exact.bodyWords, exact.bodyWords])
  })

  it('finds a word replaced by another (same word count, different words)', () => {
    const lines = splitLines(fixture('mini-cr.txt'))
    const doc = parseDocument(lines)
    const rows = normalizeRules(doc.rules).map((r) => r.row)
    const b = rows.find((r) => r.number === '100.1b')!
    b.text = b.text.replace('still', 'stull')
    const coverage = checkCoverage(lines, doc, rows)
    expect(coverage.diagnostics.map((d) => [d.code, d.line, d.params?.count])).toEqual([['text-lost', lines.indexOf('Not indented, and still part of 100.1b.') + 1, 1]])
  })

  it('reads words as the NFC text has them: a decomposed source word is the composed word of its row; a letter beyond the BMP is one', () => {
    const text = fixture('mini-cr.txt').replace('Not indented, and still part of 100.1b.', 'Not indented, \u1100\u1161\u11a8 \ud835\udc9cbc\ud83d\ude00qux, still part of 100.1b.')
    const lines = splitLines(text)
    const doc = parseDocument(lines)
    const rows = normalizeRules(doc.rules).map((r) => r.row)
    expect(rows.find((r) => r.number === '100.1b')!.text).toContain('\uac01 \ud835\udc9cbc\ud83d\ude00qux')
    const whole = checkCoverage(lines, doc, rows)
    expect([whole.diagnostics, whole.wordsKept]).toEqual([[], whole.bodyWords])
    const b = rows.find((r) => r.number === '100.1b')!
    b.text = b.text.replace(' \ud835\udc9cbc\ud83d\ude00qux,', ',')
    // The emoji is no letter: 𝒜bc and qux are two words, both lost with their line.
    expect(checkCoverage(lines, doc, rows).diagnostics.map((d) => [d.line, d.params?.words])).toEqual([[lines.findIndex((l) => l.startsWith('Not indented')) + 1, ['\ud835\udc9cbc', 'qux']]])
  })

  it('records body words and words kept in the manifest', () => {
    const r = release('2025-02-07')
    const { manifest } = buildDataset(r.file, readBytes(r.path))
    expect(manifest.counts.bodyWords).toBeGreaterThan(100_000)
    expect(manifest.counts.wordsKept).toBe(manifest.counts.bodyWords)
  })
})

describe('history keeps re-issues apart', () => {
  it('gives the later file of a pair the date folder', () => {
    expect(
      historyFolders([
        { name: 'MagicCompRules 20260807 first issue.txt', effectiveDate: '2026-08-07' },
        { name: 'MagicCompRules 20260807.txt', effectiveDate: '2026-08-07' },
        { name: 'broken.txt', effectiveDate: null },
      ]),
    ).toEqual(['2026-08-07~MagicCompRules 20260807 first issue', '2026-08-07', 'broken'])
  })

  it('builds both texts of one effective date, oldest release first', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'reissue-'))
    const newest = release('2026-08-07')
    copyFileSync(release('2001-07-23').path, join(dir, 'MagicCompRules 20010723.txt'))
    copyFileSync(newest.path, join(dir, 'MagicCompRules 20260807 first issue.txt'))
    writeFileSync(join(dir, newest.file), textOf(newest.path).replace(/\u2028/g, '\n'))
    const out = mkdtempSync(join(tmpdir(), 'history-'))
    const result = await inProcess(['history', dir, '--out', out])
    expect(result.status).toBe(0)
    const rows = JSON.parse(readFileSync(join(out, 'history.json'), 'utf8'))
    expect(rows.map((r: { file: string; rules: number }) => [r.file, r.rules])).toEqual([
      ['MagicCompRules 20010723.txt', 474],
      ['MagicCompRules 20260807 first issue.txt', 3162],
      ['MagicCompRules 20260807.txt', 3162],
    ])
    const rulesOf = (folder: string) => readFileSync(join(out, folder, 'rules.jsonl'), 'utf8')
    expect(rulesOf('2026-08-07')).toBe(rulesOf('2026-08-07~MagicCompRules 20260807 first issue'))
    expect(JSON.parse(readFileSync(join(out, '2001-07-23', 'manifest.json'), 'utf8')).source.effectiveDate).toBe('2001-07-23')
    // Which of the two the rules_history takes is said, and only that release is in it.
    expect(result.stderr).toContain(`history: MagicCompRules 20260807 first issue.txt is effective 2026-08-07, as ${newest.file} is: rules_history takes the later file name, ${newest.file}; MagicCompRules 20260807 first issue.txt is built in 2026-08-07~MagicCompRules 20260807 first issue/\n`)
    expect(result.stderr).toMatch(/\(\d+ rows, 2 releases\)\n/)
    // The later name cut short (its effective date kept, its rules gone): it fails, and the first issue
    // of that date is taken instead, in the date's folder; the run still says that one text failed.
    const firstIssue = rulesOf('2026-08-07~MagicCompRules 20260807 first issue')
    writeFileSync(join(dir, newest.file), textOf(newest.path).slice(0, 3000))
    const failed = await inProcess(['history', dir, '--out', out])
    expect(failed.status).toBe(1)
    expect(failed.stderr).toContain(`history: ${newest.file}, the later file name of 2026-08-07, did not build: rules_history takes MagicCompRules 20260807 first issue.txt, of the same date, built in 2026-08-07/\n`)
    expect(failed.stderr).toMatch(/\(\d+ rows, 2 releases\)\n/)
    expect([rulesOf('2026-08-07'), existsSync(join(out, '2026-08-07~MagicCompRules 20260807 first issue'))]).toEqual([firstIssue, false])
    const taken = readFileSync(join(out, 'rules_history.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l)).filter((r) => r.release === '2026-08-07')
    expect(taken.map((r) => r.number)).toEqual(firstIssue.trim().split('\n').map((l) => JSON.parse(l).number))
    expect(JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')).releases.at(-1)).toMatchObject({ release: '2026-08-07', file: 'MagicCompRules 20260807 first issue.txt' })
    // The later name listed first (listing sorts as the locale does; the later name is the greater in
    // code points, lower case after upper): the text of the date is known to have failed when the other comes.
    const other = mkdtempSync(join(tmpdir(), 'reissue-'))
    copyFileSync(newest.path, join(other, newest.file))
    writeFileSync(join(other, newest.file.toLowerCase()), textOf(newest.path).slice(0, 3000))
    const afterwards = await inProcess(['history', other, '--out', mkdtempSync(join(tmpdir(), 'history-'))])
    expect(afterwards.stdout.split('\n').slice(1, 3).map((l) => l.split(/\s{2,}/).slice(0, 3))).toEqual([['-', newest.file.toLowerCase(), 'FAILED'], ['2026-08-07', newest.file, 'ok']])
    expect(afterwards.stderr).toContain(`history: ${newest.file.toLowerCase()}, the later file name of 2026-08-07, did not build: rules_history takes ${newest.file}, of the same date, built in 2026-08-07/\n`)
    expect(afterwards.stderr).toMatch(/\(3162 rows, 1 release\)\n/)
  })
})
