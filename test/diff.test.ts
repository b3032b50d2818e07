import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { renderChangelog } from '../src/history/changelog.js'
import { glossaryChanges } from '../src/history/changelog-parts.js'
import { diffReleases, MATCH_WORK, similarity, typographyKey, type DiffSide } from '../src/history/diff.js'
import { diffSideOf } from '../src/history/diff-input.js'
import { boundedWordChanges, MAX_WORD_EDITS } from '../src/history/row-keys.js'
import { isBudgetWarning } from '../src/history/work-budget.js'
import { buildDataset } from '../src/build/build.js'
import { builtDataset, datasetCopy } from './helpers/built.js'
import { inProcess } from './helpers/cli.js'
import { readBytes, release } from './helpers/shared.js'

const side = (label: string, rows: [string, string, string[]?][]): DiffSide => ({
  label,
  rows: rows.map(([number, text, examples], index) => ({ number, text, examples: examples ?? [], index })),
  sectionTitles: new Map([['100', 'General']]),
})

describe('diffReleases on small releases', () => {
  const oldSide = side('old', [
    ['100.1', 'Players play the game.'],
    ['100.1a', 'A two-player game has two players.'],
    ['100.1b', 'A multiplayer game has more than two players.'],
    ['100.2', 'Each player needs a deck.', ['Sixty cards.']],
    ['100.3', 'A rule that goes away.'],
  ])
  const newSide = side('new', [
    ['100.1', 'Players play the game.'],
    ['100.1a', 'A brand new rule about sideboards and wishes.'],
    ['100.1b', 'A two-player game has two players.'],
    ['100.1c', 'A multiplayer game has more than two players.'],
    ['100.2', 'Each player needs their own deck.', ['Forty cards.']],
  ])
  const d = diffReleases(oldSide, newSide)

  it('tells renumbered rules from added and removed ones', () => {
    expect(d.counts).toEqual({ old: 5, new: 5, unchanged: 1, typography: 0, edited: 1, added: 1, removed: 1, moved: 2 })
    expect(d.moved.map((m) => [m.from, m.to, m.similarity])).toEqual([
      ['100.1a', '100.1b', 1],
      ['100.1b', '100.1c', 1],
    ])
    expect(d.added.map((r) => r.number)).toEqual(['100.1a'])
    expect(d.removed.map((r) => r.number)).toEqual(['100.3'])
  })

  it('diffs the words of edited text and examples', () => {
    expect(d.edited).toEqual([
      {
        number: '100.2',
        oldIndex: 3,
        newIndex: 4,
        text: [
          { op: 'equal', text: 'Each player needs ' },
          { op: 'delete', text: 'a' },
          { op: 'insert', text: 'their own' },
          { op: 'equal', text: ' deck.' },
        ],
        examples: [
          {
            old: 'Sixty cards.',
            new: 'Forty cards.',
            changes: [
              { op: 'delete', text: 'Sixty' },
              { op: 'insert', text: 'Forty' },
              { op: 'equal', text: ' cards.' },
            ],
          },
        ],
        referencesRenumbered: false,
      },
    ])
    const md = renderChangelog(d, newSide)
    expect(md).toContain('- **100.2** Each player needs ~~a~~**their own** deck.\n  - Example 1: ~~Sixty~~**Forty** cards.')
    // Added and removed rules are quoted in full; a run of renumbered rules is one range.
    expect(md).toContain('- **100.1a** A brand new rule about sideboards and wishes.')
    expect(md).toContain('- **100.3** A rule that goes away.')
    expect(md).toContain('- **100.1a–100.1b → 100.1b–100.1c**, same text')
  })

  it('similarity is 1 for the same words and falls with each change', () => {
    expect(similarity('A b c', 'a B c')).toBe(1)
    expect(similarity('one two three four', 'one two three five')).toBe(0.75)
    expect(similarity('alpha', 'beta')).toBe(0)
  })
})

describe('diff of CR 2025-02-07 → 2026-06-19', async () => {
  const a = release('2025-02-07')
  const b = release('2026-06-19')
  const oldSide = await diffSideOf(a.path, readBytes(a.path))
  const newSide = await diffSideOf(b.path, readBytes(b.path))
  const d = diffReleases(oldSide, newSide)

  it('counts that add up on both sides', () => {
    const c = d.counts
    expect([c.old, c.new]).toEqual([a.rules, b.rules])
    expect(c.unchanged + c.typography + c.edited + c.added + c.moved).toBe(c.new)
    expect(c.unchanged + c.typography + c.edited + c.removed + c.moved).toBe(c.old)
  })

  it('finds real changes, checked by reading both texts', () => {
    // 104.6 now cites rule 727 for "Restarting the Game" (724 before): the section moved, the text did not.
    const restart = d.edited.find((e) => e.number === '104.6')!
    expect(restart.referencesRenumbered).toBe(true)
    expect(restart.text!.filter((c) => c.op !== 'equal').map((c) => [c.op, c.text])).toEqual([
      ['delete', '724'],
      ['insert', '727'],
    ])
    // 603.1b is new; the "becomes" trigger rule moved from 603.2f to 603.2e unchanged.
    expect(d.added.map((r) => r.number)).toContain('603.1b')
    expect(d.moved).toContainEqual(expect.objectContaining({ from: '603.2f', to: '603.2e', similarity: 1, text: null }))
    // Keyword action "Behold" took 701.4; "Cast" moved on to 701.5.
    expect(d.added.find((r) => r.number === '701.4')!.text).toBe('Behold')
    expect(d.moved).toContainEqual(expect.objectContaining({ from: '701.4', to: '701.5', similarity: 1 }))
  })

  it('reads our exports as well as the text', async () => {
    const built = buildDataset(b.file, readBytes(b.path))
    const jsonl = built.files.find((f) => f.name === 'rules.jsonl')!.bytes
    const fromExport = diffReleases(oldSide, await diffSideOf('rules.jsonl', jsonl))
    expect(fromExport.counts).toEqual(d.counts)
  })

  it('renders a Markdown changelog grouped by section, with counts', () => {
    const md = renderChangelog(d, newSide, oldSide)
    expect(md.split('\n')[0]).toBe('# Comprehensive Rules: 2025-02-07 → 2026-06-19')
    expect(md).toContain(`| moved | ${d.counts.moved} |`)
    expect(md).toContain('## 104. Ending the Game')
    expect(md).toContain('- **104.6** references renumbered: One card (Karn Liberated) restarts the game. All players still in the game when it restarts then immediately begin a new game. See rule ~~724~~**727**, “Restarting the Game.”')
  })
})

describe('diffReleases properties', async () => {
  const b = release('2026-06-19')
  const side = await diffSideOf(b.path, readBytes(b.path))

  it('a release against itself: every rule unchanged', () => {
    expect(diffReleases(side, side).counts).toEqual({ old: b.rules, new: b.rules, unchanged: b.rules, typography: 0, edited: 0, added: 0, removed: 0, moved: 0 })
  })

  it('a rule inserted at the head of a section renumbers the rest: one addition, the others moved', () => {
    const rows = side.rows.filter((r) => r.number.startsWith('104.'))
    const renumbered = rows.map((r) => ({ ...r, number: r.number.replace(/^104\.(\d+)/, (_, n) => `104.${Number(n) + 1}`) }))
    const inserted = { number: '104.1', text: 'A brand new first rule of the section.', examples: [], index: -1 }
    const d = diffReleases({ ...side, rows }, { ...side, rows: [inserted, ...renumbered] })
    expect(d.counts).toMatchObject({ added: 1, removed: 0, edited: 0, moved: rows.length, unchanged: 0 })
    expect(d.moved[0]).toMatchObject({ from: '104.1', to: '104.2', similarity: 1 })
  })
})

describe('diff: the cases real releases have', () => {
  const make = (label: string, rows: [string, string][], titles: [string, string][] = []) => ({
    label,
    rows: rows.map(([number, text], index) => ({ number, text, examples: [], index })),
    sectionTitles: new Map(titles),
  })
  /** Every row of each side classified exactly once. */
  const classifiedOnce = (d: ReturnType<typeof diffReleases>) => {
    const c = d.counts
    expect(c.unchanged + c.typography + c.edited + c.moved + c.added).toBe(c.new)
    expect(c.unchanged + c.typography + c.edited + c.moved + c.removed).toBe(c.old)
    const olds = d.lineage.filter((l) => l !== null).map((l) => l!.old)
    expect(new Set(olds).size).toBe(olds.length)
    expect(d.lineage).toHaveLength(c.new)
  }

  it('duplicate numbers are matched by position and text, and warned about', () => {
    const old = make('old', [
      ['702.174', 'Gift'],
      ['702.175', 'Offspring'],
      ['702.175', 'Impending'],
      ['702.175a', 'Offspring is a static ability.'],
    ])
    const fixed = make('new', [
      ['702.174', 'Gift'],
      ['702.175', 'Offspring'],
      ['702.175a', 'Offspring is a static ability.'],
      ['702.176', 'Impending'],
    ])
    const d = diffReleases(old, fixed)
    classifiedOnce(d)
    expect(d.counts).toMatchObject({ unchanged: 3, moved: 1, added: 0, removed: 0 })
    expect(d.moved).toEqual([expect.objectContaining({ from: '702.175', to: '702.176', oldIndex: 2, newIndex: 3 })])
    expect(d.warnings).toEqual(['old has duplicate rule numbers: 702.175 (2×); they are matched by position and text'])
    expect(diffReleases(fixed, old).counts).toMatchObject({ unchanged: 3, moved: 1, added: 0, removed: 0 })
  })

  it('a section inserted before others: rules whose only change is a renumbered citation are moves, "references renumbered"', () => {
    const titles: [string, string][] = [['719', 'Case Cards'], ['720', 'Class Cards'], ['721', 'Attractions']]
    const old = make('old', [
      ['104.6', 'One card restarts the game. See rule 720, “Class Cards.”'],
      ['719.1', 'Case cards have a case.'],
      ['720.1', 'Each Class card has class levels. See rule 720.2.'],
      ['720.2', 'A Class levels up.'],
    ], titles.slice(0, 2))
    const shifted = make('new', [
      ['104.6', 'One card restarts the game. See rule 721, “Class Cards.”'],
      ['719.1', 'Case cards have a case.'],
      ['720.1', 'Omen cards are new, and unlike anything before them.'],
      ['721.1', 'Each Class card has class levels. See rule 721.2.'],
      ['721.2', 'A Class levels up.'],
    ], [['719', 'Case Cards'], ['720', 'Omen Cards'], ['721', 'Class Cards']])
    const d = diffReleases(old, shifted)
    classifiedOnce(d)
    expect(d.added.map((r) => r.number)).toEqual(['720.1'])
    expect(d.removed).toEqual([])
    expect(d.moved.map((m) => [m.from, m.to, m.referencesRenumbered])).toEqual([
      ['720.1', '721.1', true],
      ['720.2', '721.2', false],
    ])
    expect(d.edited.map((e) => [e.number, e.referencesRenumbered])).toEqual([['104.6', true]])
    const md = renderChangelog(d, shifted, old)
    expect(md).toContain('- **720.1 → 721.1**, references renumbered: Each Class card has class levels. See rule ~~720~~**721**.2.')
    expect(md).toContain('- **104.6** references renumbered: ')
  })

  it('a templated sentence never moves to another keyword: the parent rule must agree', () => {
    const old = make('old', [
      ['702.9', 'Flying'],
      ['702.9a', 'Flying is an evasion ability.'],
      ['702.19', 'Trample'],
      ['702.19a', 'Trample is a static ability that modifies the rules for assigning combat damage.'],
      ['702.19e', 'Multiple instances of trample on the same creature are redundant.'],
    ])
    const next = make('new', [
      ['702.9', 'Flying'],
      ['702.9a', 'Flying is an evasion ability.'],
      ['702.9b', 'Multiple instances of flying on the same creature are redundant.'],
      ['702.19', 'Trample'],
      ['702.19a', 'Trample is a static ability that modifies the rules for assigning combat damage.'],
    ])
    const d = diffReleases(old, next)
    classifiedOnce(d)
    expect(d.moved).toEqual([])
    expect(d.added.map((r) => r.number)).toEqual(['702.9b'])
    expect(d.removed.map((r) => r.number)).toEqual(['702.19e'])
  })

  it('quotes and dashes alone are typography, one group, apart from edits', () => {
    const old = make('old', [
      ['100.1', 'A “quoted” word — and a dash.'],
      ['100.2', 'It’s a rule.'],
      ['100.3', 'A real rule.'],
    ])
    const straight = make('new', [
      ['100.1', 'A "quoted" word - and a dash.'],
      ['100.2', "It's a rule."],
      ['100.3', 'A really different rule.'],
    ])
    const d = diffReleases(old, straight)
    classifiedOnce(d)
    expect(d.counts).toMatchObject({ typography: 2, edited: 1 })
    expect(d.typography.map((t) => t.number)).toEqual(['100.1', '100.2'])
    expect(renderChangelog(d, straight)).toContain('## Typography only: 2 rules\n\nQuotes, dashes or spaces changed, nothing else: 100.1–100.2.')
  })
})

describe('diff: every row classified once, on both sides, whatever the changes (property)', async () => {
  const fc = await import('fast-check')
  const b = release('2026-06-19')
  const base = (await diffSideOf(b.path, readBytes(b.path))).rows.filter((r) => /^(104|509|702\.1\d?)[.a-z0-9]*$/.test(r.number))
  const op = fc.oneof(
    fc.record({ kind: fc.constant('delete'), at: fc.nat() }),
    fc.record({ kind: fc.constant('duplicate'), at: fc.nat() }),
    fc.record({ kind: fc.constant('edit'), at: fc.nat() }),
    fc.record({ kind: fc.constant('renumber'), at: fc.nat() }),
    fc.record({ kind: fc.constant('insert'), at: fc.nat() }),
  )
  it('holds for 200 random releases', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 30 }), fc.boolean(), (ops, swap) => {
        let rows = base.map((r) => ({ ...r }))
        for (const o of ops) {
          const at = o.at % rows.length
          const r = rows[at]!
          if (o.kind === 'delete' && rows.length > 1) rows.splice(at, 1)
          else if (o.kind === 'duplicate') rows.splice(at, 0, { ...r })
          else if (o.kind === 'edit') rows[at] = { ...r, text: r.text + ' Changed.' }
          else if (o.kind === 'renumber') rows[at] = { ...r, number: r.number.replace(/\d+([a-z]*)$/, (m, l) => `${Number(m.replace(/[a-z]+$/, '')) + 1}${l}`) }
          else rows.splice(at, 0, { number: r.number, text: `A new rule ${at}.`, examples: [], index: 0 })
        }
        rows = rows.map((r, index) => ({ ...r, index }))
        const a = { label: 'a', rows: base, sectionTitles: new Map() }
        const c = { label: 'c', rows, sectionTitles: new Map() }
        const d = swap ? diffReleases(c, a) : diffReleases(a, c)
        const n = d.counts
        expect(n.unchanged + n.typography + n.edited + n.moved + n.added).toBe(n.new)
        expect(n.unchanged + n.typography + n.edited + n.moved + n.removed).toBe(n.old)
        const olds = d.lineage.filter((l) => l !== null).map((l) => l!.old)
        expect(new Set(olds).size).toBe(olds.length)
      }),
      { numRuns: 200, seed: 20261130 },
    )
  })
})

describe('diff of CR 2026-06-19 → 2026-08-07, checked by reading both texts', async () => {
  const oldSide = await diffSideOf(release('2026-06-19').path, readBytes(release('2026-06-19').path))
  const newSide = await diffSideOf(release('2026-08-07').path, readBytes(release('2026-08-07').path))
  const d = diffReleases(oldSide, newSide)

  it('nine rules added, five edited, seventeen renumbered, none removed', () => {
    expect(d.counts).toEqual({ old: 3153, new: 3162, unchanged: 3131, typography: 0, edited: 5, added: 9, removed: 0, moved: 17 })
    expect(d.added.map((r) => r.number)).toEqual(['122.1j', '310.8', '701.70', '701.70a', '702.195', '702.195a', '702.195b', '702.195c', '704.5w'])
    expect(d.edited.map((e) => e.number)).toEqual(['310.7', '506.4', '605.1a', '704.5v', '722.3a'])
    expect(d.moved.filter((m) => m.text === null).map((m) => `${m.from}→${m.to}`)).toContain('704.5z→704.5aa')
  })

  it('the changelog collapses the battle rules that moved together into ranges', () => {
    const md = renderChangelog(d, newSide, oldSide)
    expect(md).toContain('- **310.8b–310.9 → 310.9b–310.10**, same text')
    expect(md).toContain('- **704.5y–704.5z → 704.5z–704.5aa**, same text')
    expect(md).toContain('- **704.5w** If a non-Siege battle has defense 0, it’s put into its owner’s graveyard.')
  })
})

describe('mtg-rules diff --exit-code', () => {
  it('exits 0 for the same release and 1 when the releases differ, as git diff --exit-code', async () => {
    const a = release('2026-06-19').path
    const b = release('2026-08-07').path
    expect((await inProcess(['diff', a, a, '--exit-code', '--json'])).status).toBe(0)
    const changed = await inProcess(['diff', a, b, '--exit-code'])
    expect(changed.status).toBe(1)
    expect(changed.stdout).toMatch(/^# Comprehensive Rules: 2026-06-19 → 2026-08-07/)
    expect((await inProcess(['diff', a, b])).status).toBe(0)
  })

  it('the newer release given as OLD: diffed as asked, with a warning that it reads backwards', async () => {
    const a = release('2026-06-19').path
    const b = release('2026-08-07').path
    expect((await inProcess(['diff', a, b])).stderr).toBe('')
    const backwards = await inProcess(['diff', b, a])
    expect([backwards.status, backwards.stderr]).toEqual([0, 'diff: warning: OLD (2026-08-07) is newer than NEW (2026-06-19): the changes read from the newer release back to the older (rules added since read as removed)\n'])
    expect(backwards.stdout).toMatch(/^# Comprehensive Rules: 2026-08-07 → 2026-06-19\n/)
  })

  it('--out never replaces one of the two files it compares (exit 2, the file as it was)', async () => {
    const { copyFileSync, mkdtempSync, readFileSync } = await import('node:fs')
    const { tmpdir } = await import('node:os')
    const dir = mkdtempSync(join(tmpdir(), 'diff-out-'))
    const [a, b] = [join(dir, 'old.txt'), join(dir, 'new.txt')]
    copyFileSync(release('2026-06-19').path, a)
    copyFileSync(release('2026-08-07').path, b)
    const before = readFileSync(b)
    const run = await inProcess(['diff', a, b, '--out', b])
    expect([run.status, run.stderr]).toEqual([2, `write: ${b} is what this run reads; choose another output file\n`])
    expect(readFileSync(b).equals(before)).toBe(true)
    expect((await inProcess(['diff', a, b, '--out', join(dir, 'CHANGELOG.md')])).status).toBe(0)
  })
})

describe('diff of an export whose rows are not the rules table’s', () => {
  it('an example that is not a string (a number, or arrays nested 200,000 deep): exit 2, one line, never made a string', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs')
    const { tmpdir } = await import('node:os')
    const dir = mkdtempSync(join(tmpdir(), 'diff-rows-'))
    const file = (name: string, examples: string) => {
      writeFileSync(join(dir, name), `{"number":"100.1","text":"Rule one.","examples":${examples},"index":0}\n`)
      return join(dir, name)
    }
    const a = file('a.jsonl', '["x"]')
    for (const examples of ['[1]', `${'['.repeat(200_000)}${']'.repeat(200_000)}`]) {
      const run = await inProcess(['diff', a, file('b.jsonl', examples)])
      expect(run.status).toBe(2)
      expect(run.stderr).toBe(`diff: ${join(dir, 'b.jsonl')}: row 0 is not a rule row (run mtg-rules validate on it)\n`)
    }
  })
})

describe('diff of two exports in dataset folders', () => {
  it('of the folders themselves says what the diff of their CR texts says: section titles and the glossary too', async () => {
    for (const [from, to] of [['2026-06-19', '2026-08-07'], ['2024-03-08', '2025-02-07']] as const) {
      const texts = await inProcess(['diff', release(from).path, release(to).path])
      expect(texts.stdout).toContain('\n## Glossary: ')
      expect(await inProcess(['diff', builtDataset(from), builtDataset(to)]), `${from} → ${to}`).toEqual(texts)
    }
    const json = async (...paths: string[]) => (await inProcess(['diff', ...paths, '--json'])).stdout
    expect(await json(builtDataset('2026-06-19'), builtDataset('2026-08-07'))).toBe(await json(release('2026-06-19').path, release('2026-08-07').path))
    // Folders of gzip-compressed exports (another project's, without our manifest): the same changes.
    const packed = (date: string) => {
      const dir = mkdtempSync(join(tmpdir(), 'packed-'))
      for (const table of ['rules', 'rules_meta', 'glossary']) writeFileSync(join(dir, `${table}.jsonl.gz`), gzipSync(readFileSync(join(builtDataset(date), `${table}.jsonl`))))
      return dir
    }
    const changes = (run: { stdout: string }) => run.stdout.split('\n').slice(3)
    expect(changes(await inProcess(['diff', packed('2026-06-19'), packed('2026-08-07')]))).toEqual(changes(await inProcess(['diff', release('2026-06-19').path, release('2026-08-07').path])))
    // A rules export alone is the rules alone: no section title, no glossary.
    const file = (await inProcess(['diff', join(builtDataset('2026-06-19'), 'rules.jsonl'), join(builtDataset('2026-08-07'), 'rules.jsonl')])).stdout
    expect([file.includes('\n## Glossary: '), file.includes('\n## 122.\n')]).toEqual([false, true])
    // A folder whose glossary export is damaged: exit 2, naming it.
    const damaged = datasetCopy('2026-08-07')
    writeFileSync(join(damaged, 'glossary.jsonl'), '{"term": 1}\n')
    const run = await inProcess(['diff', builtDataset('2026-06-19'), damaged])
    expect([run.status, run.stderr]).toEqual([2, `diff: ${join(damaged, 'glossary.jsonl')}: row 0 is not a glossary row (run mtg-rules validate on it)\n`])
  })


  it('takes the releases’ dates for its title from the manifests beside the files', async () => {
    const [a, b] = [builtDataset('2026-06-19'), builtDataset('2026-08-07')]
    const run = await inProcess(['diff', join(a, 'rules.parquet'), join(b, 'rules.jsonl')])
    expect(run.status).toBe(0)
    expect(run.stdout.split('\n')[0]).toBe('# Comprehensive Rules: 2026-06-19 → 2026-08-07')
    const none = mkdtempSync(join(tmpdir(), 'no-rules-'))
    const refused = await inProcess(['diff', a, none])
    expect(refused.status).toBe(2)
    expect(refused.stderr.startsWith(`mtg-rules diff: ${none} is a folder that holds no rules export (rules ending in .jsonl, .ndjson, .csv, .parquet, .arrow or .feather): give a CR text, a rules export or a dataset folder (usage: `)).toBe(true)
  })
})

// Rules written from a dozen words, each new text a third reworded and two rows down: every row is
// a candidate for every other, so the work grows with the square of the rows.
const crafted = (rows: number) => {
  const words = 'the a player card spell target creature land mana ability cost turn step phase'.split(' ')
  let seed = 7
  const pick = () => words[(seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) % words.length]!
  const letters = ['', ...'abcdefghijkmnpqrstuvwxyz']
  const number = (i: number) => `${100 + Math.floor(i / 2500)}.${Math.floor((i % 2500) / 25) + 1}${letters[i % 25]}`
  const text = () => Array.from({ length: 20 }, pick).join(' ') + '.'
  const olds = Array.from({ length: rows }, (_, i) => ({ number: number(i), text: text(), examples: [], index: i }))
  const news = olds.map((r, i) => ({ ...r, number: number(i + 2), text: r.text.split(' ').map((w, k) => (k % 3 === 0 ? pick() : w)).join(' ') }))
  return [{ label: 'old', rows: olds, sectionTitles: new Map() }, { label: 'new', rows: news, sectionTitles: new Map() }] as const
}

describe('one matcher across sections and rewrites (diff and history share it)', () => {
  // Each release built once for these tests (the matcher never changes its sides).
  const built = new Map<string, DiffSide>()
  const real = (date: string): DiffSide => {
    if (!built.has(date)) built.set(date, { label: date, rows: buildDataset('x.txt', readBytes(release(date).path)).rows, sectionTitles: new Map() })
    return built.get(date)!
  }
  const movedTo = (d: ReturnType<typeof diffReleases>, from: string) => d.moved.find((m) => m.from === from)?.to ?? null
  // What an old number became (moved, edited or unchanged), from the lineage.
  const successor = (d: ReturnType<typeof diffReleases>, from: string) => movedTo(d, from) ?? (d.removed.some((r) => r.number === from) ? null : from)
  const parent = (n: string) => n.replace(/[a-z]+$/, '')
  /**
   * A move is nearly the same text (Dice ≥ 0.8; ≥ 0.75 for a long text, step 8), or a rule reworded
   * at the same place (≥ 0.6): a subrule under the rule its parent became (a sibling that took the
   * text its own number no longer holds, or step 7), a rule at its number in another section (its
   * section renumbered, step 7), or right after the row its predecessor moved to (step 7).
   */
  const expectMovesNearOrUnderTheirParent = (d: ReturnType<typeof diffReleases>) => {
    const rowAfter = new Map(d.moved.map((m) => [m.from, m.newIndex]))
    for (const m of d.moved.filter((x) => x.similarity < 0.75)) {
      // The row before the old one, and what it became (when it moved): the new one stands right after it.
      const before = d.moved.find((x) => x.oldIndex === m.oldIndex - 1)
      const afterItsPredecessor = before !== undefined && rowAfter.get(before.from) === m.newIndex - 1
      const samePlace = (parent(m.from) !== m.from && successor(d, parent(m.from)) === parent(m.to)) || m.from.slice(3) === m.to.slice(3) || afterItsPredecessor
      expect([samePlace, m.similarity >= 0.6], `${m.from} → ${m.to} (${m.similarity})`).toEqual([true, true])
    }
  }

  it('links a rule moved to another section, nearly word for word, at the 2001 and 2009 rewrites and in 2024', () => {
    // Each pair read in the two texts: the same sentence under a number of another section.
    const early = diffReleases(real('2001-07-23'), real('2009-05-01'), { wordChanges: false })
    expect([movedTo(early, '415.3'), movedTo(early, '406.2b'), movedTo(early, '409.3')]).toEqual(['213.5', '404.4a', '403.3'])
    // The meld rules moved from 713 into 712 (the same text and a period).
    const meld = diffReleases(real('2022-11-18'), real('2024-03-08'), { wordChanges: false })
    expect([movedTo(meld, '713.2a'), movedTo(meld, '713.2b')]).toEqual(['712.5a', '712.5b'])
    for (const d of [early, meld]) expectMovesNearOrUnderTheirParent(d)
  }, 60_000)

  it('follows subrules whose parent rule was rewritten or raised, long rules whose terms were renamed in 2009, and a text that went to a sibling number', () => {
    // Each pair read in the two texts.
    const [before, after] = [real('2009-05-01'), real('2009-07-11')]
    const m10 = diffReleases(before, after, { wordChanges: false })
    // The Equipment subrule 212.2g became rule 301.7; its siblings 212.2h–k went under it.
    expect(['212.2h', '212.2i', '212.2k'].map((n) => movedTo(m10, n))).toEqual(['301.7a', '301.7b', '301.7d'])
    // "play" → "activate"/"cast" throughout: the mana-ability rule, the loop rule, the cost rule.
    expect(['411.2', '421.6', '424.5'].map((n) => movedTo(m10, n))).toEqual(['115.1d', '713.6', '116.2'])
    // A templated sentence of another keyword is not the same rule: banding's is not intimidate's.
    expect(movedTo(m10, '502.10i')).not.toBe('702.11c')
    expect(m10.lineage.some((l, i) => l !== null && after.rows[i]!.number === '702.11c' && before.rows[l.old]!.number === '502.10i')).toBe(false)
    // 700.2 was rewritten in place (its old text continues as no rule); its subrule 700.2f, a
    // citation renumbered and a quote curled, is 700.2g under the new 700.2.
    const later = diffReleases(after, real('2016-07-22'), { wordChanges: false })
    expect(movedTo(later, '700.2f')).toBe('700.2g')
    // 303.4h (an Aura attached on the battlefield "doesn't move") is 303.4j, reworded; the new 303.4h
    // (a permanent that isn't an Aura enters unattached) is another rule, not its edit.
    expect(movedTo(later, '303.4h')).toBe('303.4j')
    expect(later.edited.map((e) => e.number)).not.toContain('303.4h')
    for (const d of [m10, later]) expectMovesNearOrUnderTheirParent(d)
  }, 60_000)

  it('follows rules reworded at the same place: subrules under a rule and its successor, a rule in its renumbered section (the 2009 rewrite)', () => {
    // Each pair read in the two texts: "A player with 0 or less life loses the game." became "If a
    // player has 0 or less life, he or she loses the game." under 420.5 → 704.5, and so on down the list.
    const m10 = diffReleases(real('2009-05-01'), real('2009-07-11'), { wordChanges: false })
    expect(['420.5a', '420.5h', '420.5p', '420.5f'].map((n) => movedTo(m10, n))).toEqual(['704.5a', '704.5c', '704.5i', '704.5d'])
    expect(movedTo(m10, '420.5')).toBe('704.5')
    // The mulligan rule, rewritten (players now declare in turn) as its section 101 became 103.
    expect(movedTo(m10, '101.4')).toBe('103.4')
    expect(['101.3', '101.5'].map((n) => movedTo(m10, n))).toEqual(['103.3', '103.5'])
    // The 2001 text's local enchantments are 2009's Auras, reworded under 214.8 → 212.4.
    const early = diffReleases(real('2001-07-23'), real('2009-05-01'), { wordChanges: false })
    expect(movedTo(early, '214.8e')).toBe('212.4f')
    expect(movedTo(early, '214.8')).toBe('212.4')
  }, 60_000)

  it('follows long rules rewritten in the 2009 terms to another section, and the mulligan rule across the 2003 rewrite and the 2022 pronouns', () => {
    // Each pair read in the two texts: "removed from the game" became "exiled", "comes into play"
    // "enters the battlefield", "played" "cast"; the words kept, rare ones too, are three quarters.
    const m10 = diffReleases(real('2009-05-01'), real('2009-07-11'), { wordChanges: false })
    expect(['217.7d', '212.4j', '217.1a', '415.1'].map((n) => movedTo(m10, n))).toEqual(['406.5', '303.4f', '400.3', '113.1a'])
    // 2001's mulligan rule 101.5 is 2009-05-01's 101.4 (six cards, then each other player in turn).
    const early = diffReleases(real('2001-07-23'), real('2009-05-01'), { wordChanges: false })
    expect(movedTo(early, '101.5')).toBe('101.4')
    // 2016's mulligan rule 103.4 is 2022's 103.5: "his or her" now "their", a rule inserted above it.
    const pronouns = diffReleases(real('2016-07-22'), real('2022-11-18'), { wordChanges: false })
    expect(['103.3', '103.4', '103.7'].map((n) => movedTo(pronouns, n))).toEqual(['103.4', '103.5', '103.8'])
    expectMovesNearOrUnderTheirParent(pronouns)
    // A short templated sentence is still not moved at this similarity: banding's is not intimidate's.
    expect(movedTo(m10, '502.10i')).not.toBe('702.11c')
  }, 60_000)

  it('two keywords, one removed and one added, never link their templated subrules, even with both parent rules unmatched', () => {
    // 2026-08-07 with defender (702.3) taken out and another keyword added at the end, written on the
    // same model: its "Multiple instances of … are redundant" is not defender's.
    const old = real('2026-08-07')
    const defender = old.rows.filter((r) => /^702\.3[a-z]*$/.test(r.number))
    expect(defender.map((r) => r.text).at(-1)).toBe('Multiple instances of defender on the same creature are redundant.')
    const zorbing = [
      ['702.999', 'Zorbing'],
      ['702.999a', 'Zorbing is a static ability that lets a creature leave the battlefield for a turn.'],
      ['702.999b', 'Multiple instances of zorbing on the same creature are redundant.'],
    ].map(([number, text]) => ({ number: number!, text: text!, examples: [], index: 0 }))
    const rows = [...old.rows.filter((r) => !defender.includes(r)), ...zorbing].map((r, index) => ({ ...r, index }))
    const d = diffReleases(old, { label: 'zorbing', rows, sectionTitles: new Map() }, { wordChanges: false })
    expect(d.added.map((r) => r.number)).toEqual(['702.999', '702.999a', '702.999b'])
    expect(d.removed.map((r) => r.number)).toEqual(defender.map((r) => r.number))
  }, 60_000)

  it('texts that differ only in the ASCII era’s `?` for quotes and dashes, `_italics_` or (TM) are typography, not edits', () => {
    const d = diffReleases(real('2009-07-11'), real('2016-07-22'), { wordChanges: false })
    // An independent reading: the letters, digits and the punctuation that is not typography.
    // (An apostrophe dropped, `opponent's` → `opponents`, is a correction: each mark stands as one character.)
    const plain = (s: string) => s.replace(/\((?:TM|R)\)|[™®_]/g, '').replace(/[?'"‘’“”—–-]/g, '·').replace(/\s+/g, ' ').trim()
    const oldRows = real('2009-07-11').rows
    const newRows = real('2016-07-22').rows
    const onlyTypography = d.edited.filter((e) => plain(oldRows[e.oldIndex]!.text) === plain(newRows[e.newIndex]!.text) && oldRows[e.oldIndex]!.examples.join() === newRows[e.newIndex]!.examples.join())
    expect(onlyTypography.map((e) => e.number)).toEqual([])
    expect(d.counts.typography).toBeGreaterThan(100)
  }, 60_000)

  it('the matcher stops at its bound (bounded work whatever the input) with a warning, the rows it did not reach left added and removed, the same on every run', () => {
    const [o, n] = crafted(1200)
    const free = diffReleases(o, n, { wordChanges: false })
    expect(free.warnings).toEqual([])
    const bounded = diffReleases(o, n, { wordChanges: false, matchWork: 5_000_000 })
    expect(bounded.warnings).toHaveLength(1)
    expect(bounded.warnings[0]).toMatch(/^the matcher stopped at its bound of 5,000,000 words compared, in step 5: of the (\d+) removed and \1 added rules, some were not compared with every candidate and may be moves or edits$/)
    expect(bounded.counts.added).toBeGreaterThan(free.counts.added + 100)
    const c = bounded.counts
    expect([c.unchanged + c.typography + c.edited + c.moved + c.added, c.unchanged + c.typography + c.edited + c.moved + c.removed]).toEqual([c.new, c.old])
    expect(diffReleases(o, n, { wordChanges: false, matchWork: 5_000_000 }).lineage).toEqual(bounded.lineage)
  }, 60_000)

  it('word-level changes are bounded too: a text changed past MAX_WORD_EDITS, or past the diff’s bound, is given whole, with a warning', () => {
    const [o] = crafted(3)
    // Texts of 1,200 words, every third word changed: about 1,600 edits each.
    const long = (text: string) => Array.from({ length: 60 }, () => text.slice(0, -1)).join(' ') + '.'
    const olds = Array.from({ length: 12 }, (_, i) => ({ number: `100.${i + 1}`, text: long(o.rows[i % 3]!.text), examples: [], index: i }))
    const news = olds.map((r) => ({ ...r, text: r.text.split(' ').map((w, k) => (k % 3 === 0 ? `${w}s` : w)).join(' ') }))
    const sides = [{ label: 'old', rows: olds, sectionTitles: new Map() }, { label: 'new', rows: news, sectionTitles: new Map() }] as const
    // Each pair costs about 10 million characters × edits: a bound of 50 million gives the first few their marks.
    const d = diffReleases(...sides, { wordWork: 50_000_000 })
    expect(d.counts.edited).toBe(12)
    const whole = d.edited.filter((e) => e.text!.length === 2 && e.text![0]!.op === 'delete' && e.text![1]!.op === 'insert')
    expect(d.warnings).toEqual([`the word-level changes stopped at their bound of 50,000,000 characters × edits: ${whole.length} changed texts are given whole, the old deleted and the new inserted`])
    expect(whole.length).toBeGreaterThan(0)
    expect(whole.length).toBeLessThan(12)
    // The first ones got their word-level marks: each word changed, once.
    expect(d.edited[0]!.text!.filter((c) => c.op === 'insert')).toHaveLength(400)
    // The default bound (WORD_DIFF_WORK) gives all twelve their marks.
    expect(diffReleases(...sides).warnings).toEqual([])
    // One pair past MAX_WORD_EDITS is given whole, whatever is left of the bound.
    const many = Array.from({ length: MAX_WORD_EDITS }, (_, k) => `w${k}`).join(' ')
    expect(boundedWordChanges().changes(many, many.replaceAll('w', 'v'))).toEqual([
      { op: 'delete', text: many },
      { op: 'insert', text: many.replaceAll('w', 'v') },
    ])
  }, 60_000)

  it('the costliest pair of the shared releases (2026-08-07 → 2009-05-01) needs less than a quarter of the bound', () => {
    // (Newest first: the warning that it reads backwards is the one other.)
    const d = diffReleases(real('2026-08-07'), real('2009-05-01'), { wordChanges: false, matchWork: MATCH_WORK / 4 })
    expect(d.warnings).toEqual([expect.stringMatching(/^OLD \(2026-08-07\) is newer than NEW \(2009-05-01\)/)])
    expect(diffReleases(real('2026-08-07'), real('2009-05-01'), { wordChanges: false, matchWork: MATCH_WORK / 8 }).warnings.filter(isBudgetWarning)).toHaveLength(1)
  }, 60_000)

  it('folds the ASCII era’s marks as the later texts write them', () => {
    // Shapes read in 2009-05-01 and 2009-07-11 (README of the archive), against today's typography.
    expect(typographyKey('a source matching that description?either a source')).toBe(typographyKey('a source matching that description—either a source'))
    expect(typographyKey('a source matching that description -- either a source')).toBe(typographyKey('a source matching that description—either a source'))
    expect(typographyKey('The _Magic_(TM) game')).toBe(typographyKey('The Magic™ game'))
    expect(typographyKey("the active player?s opponents")).toBe(typographyKey('the active player’s opponents'))
    // A real change of words or letters is not folded.
    expect(typographyKey("the active player's opponent's")).not.toBe(typographyKey('the active player’s opponents'))
  })
})

describe('a changelog to publish as it is (2025-02-07 → 2026-06-19)', async () => {
  const built = (date: string) => buildDataset('x.txt', readBytes(release(date).path))
  const run = await inProcess(['diff', release('2025-02-07').path, release('2026-06-19').path])
  const md = run.stdout
  const json = JSON.parse((await inProcess(['diff', release('2025-02-07').path, release('2026-06-19').path, '--json'])).stdout)

  it('lists the edits whose only change is a renumbered citation apart, so the headline counts real edits', () => {
    const refsOnly = json.edited.filter((e: { referencesRenumbered: boolean }) => e.referencesRenumbered).length
    expect(refsOnly).toBeGreaterThan(10)
    expect(md).toContain(`${json.counts.edited - refsOnly} edited, ${refsOnly} with only a citation renumbered,`)
    expect(md).toContain(`| references renumbered only | ${refsOnly} |`)
    expect(md.match(/^### References renumbered only \((\d+)\)$/gm)!.map((l) => Number(/\((\d+)\)/.exec(l)![1])).reduce((a, b) => a + b, 0)).toBe(refsOnly)
  })

  it('states a block of renumbered sections once, as the moves show it', () => {
    const line = /^Renumbered as a block: (.*)\.$/m.exec(md)?.[1]
    expect(line).toBeDefined()
    for (const m of /sections (\d+)–(\d+) are now (\d+)–(\d+)/g.exec(line!) ? [...line!.matchAll(/sections (\d+)–(\d+) are now (\d+)–(\d+)/g)] : []) {
      const [from, to, offset] = [Number(m[1]), Number(m[2]), Number(m[3]) - Number(m[1])]
      const leaving = json.moved.filter((x: { from: string }) => Number(x.from.slice(0, 3)) >= from && Number(x.from.slice(0, 3)) <= to)
      expect(leaving.length).toBeGreaterThan(0)
      for (const x of leaving) expect(Number(x.to.slice(0, 3)) - Number(x.from.slice(0, 3)), `${x.from} → ${x.to}`).toBe(offset)
    }
  })

  it('says when a number removed is given to a new rule in the same release', () => {
    const removed = new Set(json.removed.map((r: { number: string }) => r.number))
    const replaced = json.added.map((r: { number: string }) => r.number).filter((n: string) => removed.has(n))
    expect(replaced.length).toBeGreaterThan(0)
    for (const n of replaced) {
      expect(md).toContain(`- **${n}** (replaces the removed rule of this number) `)
      expect(md).toContain(`- **${n}** (replaced by a new rule of this number) `)
    }
  })

  it('holds the glossary: terms added, removed and definitions changed, as the two glossaries differ', () => {
    // The glossary table's rows: a term without its "(Obsolete)", which is a flag of the row.
    const terms = (date: string) => new Map(built(date).tables.find((t) => t.spec.name === 'glossary')!.rows.map((g) => [g.term as string, `${g.obsolete}:${g.definition}`]))
    const [before, after] = [terms('2025-02-07'), terms('2026-06-19')]
    const added = [...after.keys()].filter((t) => !before.has(t))
    const removed = [...before.keys()].filter((t) => !after.has(t))
    const changed = [...after].filter(([t, d]) => before.has(t) && before.get(t) !== d)
    expect(md).toContain(`## Glossary: ${added.length} added, ${removed.length} removed, ${changed.length} changed`)
    expect(added.length * removed.length * changed.length).toBeGreaterThan(0)
    // (Markdown's own characters in a term are escaped.)
    for (const t of added) expect(md).toContain(`- **${t.replace(/([\\`*_~[\]|<>])/g, '\\$1')}** `)
  })
})

describe('diff of two glossary exports', () => {
  it('gives the terms added, removed and changed, as the CR texts’ diff gives them', async () => {
    const dirs = ['2025-02-07', '2026-06-19'].map(builtDataset)
    const md = (await inProcess(['diff', join(dirs[0]!, 'glossary.jsonl'), join(dirs[1]!, 'glossary.parquet')])).stdout
    expect(md.split('\n')[0]).toBe('# Comprehensive Rules glossary: 2025-02-07 → 2026-06-19')
    const fromTexts = (await inProcess(['diff', release('2025-02-07').path, release('2026-06-19').path])).stdout
    expect(md.slice(md.indexOf('## Glossary'))).toBe(fromTexts.slice(fromTexts.indexOf('## Glossary')))
    const refused = await inProcess(['diff', join(dirs[0]!, 'glossary.jsonl'), join(dirs[1]!, 'rules.jsonl')])
    expect([refused.status, refused.stderr]).toEqual([2, `mtg-rules diff: ${join(dirs[0]!, 'glossary.jsonl')} holds a glossary and ${join(dirs[1]!, 'rules.jsonl')} rules: compare a glossary with a glossary, rules with rules (usage: mtg-rules diff OLD NEW [--json] [--out FILE] [--exit-code])\n`])
    // Either way round, and with a CR text as the rules side.
    expect((await inProcess(['diff', release('2025-02-07').path, join(dirs[1]!, 'glossary.parquet')])).stderr).toMatch(/^mtg-rules diff: .*glossary\.parquet holds a glossary and .*MagicCompRules 20250207\.txt rules: /)
  }, 60_000)
})

describe('the glossary’s word-level changes, bounded like the rules’', () => {
  it('2025-02-07 → 2026-06-19: every changed definition marked word by word; under a small bound, the rest given whole with a warning', async () => {
    const [oldSide, newSide] = await Promise.all(['2025-02-07', '2026-06-19'].map((d) => diffSideOf(release(d).path, readBytes(release(d).path))))
    const real = glossaryChanges(oldSide!, newSide!)!
    const wordByWord = real.changed.filter((c) => c.changes && c.changes.some((p) => p.op === 'equal'))
    expect(real.warnings).toEqual([])
    expect(wordByWord.length).toBeGreaterThan(0)
    const bounded = glossaryChanges(oldSide!, newSide!, 1)!
    const whole = bounded.changed.filter((c) => c.changes?.length === 2 && c.changes[0]!.op === 'delete' && c.changes[1]!.op === 'insert')
    expect(whole.length).toBeGreaterThanOrEqual(wordByWord.length)
    expect(bounded.warnings).toEqual([`the word-level changes stopped at their bound of 1 characters × edits: ${whole.length} changed texts are given whole, the old deleted and the new inserted`])
  })
})

describe('a changelog longer than a call takes arguments', () => {
  it('lists 150,000 added glossary terms (its lines were pushed as spread arguments, a stack overflow)', async () => {
    const [oldSide, newSide] = await Promise.all(['2025-02-07', '2026-06-19'].map((d) => diffSideOf(release(d).path, readBytes(release(d).path))))
    const real = newSide!.glossary!
    // 2026-06-19's glossary with each real term given again under 150,000 new headwords.
    const grown: DiffSide = { ...newSide!, glossary: [...real, ...Array.from({ length: 150_000 }, (_, i) => ({ ...real[i % real.length]!, term: `${real[i % real.length]!.term} ${i}` }))] }
    const md = renderChangelog(diffReleases(oldSide!, grown), grown, oldSide!)
    const heading = md.split('\n').find((l) => l.startsWith('## Glossary:'))!
    const fromReal = renderChangelog(diffReleases(oldSide!, newSide!), newSide!, oldSide!).split('\n').find((l) => l.startsWith('## Glossary:'))!
    const added = (l: string) => Number(/(\d+) added/.exec(l)![1])
    expect(added(heading)).toBe(added(fromReal) + 150_000)
    expect(md).toContain(`${real[0]!.term} 0`)
  }, 60_000)
})
