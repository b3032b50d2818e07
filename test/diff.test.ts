import { describe, expect, it } from 'vitest'
import { renderChangelog } from '../src/changelog.js'
import { diffReleases, similarity, type DiffSide } from '../src/diff.js'
import { diffSideOf } from '../src/diff-input.js'
import { buildDataset } from '../src/build.js'
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
    expect(d.counts).toEqual({ old: 5, new: 5, unchanged: 1, edited: 1, added: 1, removed: 1, moved: 2 })
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
        text: [
          { op: 'equal', text: 'Each player needs ' },
          { op: 'delete', text: 'a' },
          { op: 'insert', text: 'their own' },
          { op: 'equal', text: ' deck.' },
        ],
        examples: [
          { op: 'delete', text: 'Sixty' },
          { op: 'insert', text: 'Forty' },
          { op: 'equal', text: ' cards.' },
        ],
      },
    ])
    expect(renderChangelog(d, newSide)).toContain('- **100.2** Each player needs ~~a~~**their own** deck. — Examples: ~~Sixty~~**Forty** cards.')
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
    expect(c.unchanged + c.edited + c.added + c.moved).toBe(c.new)
    expect(c.unchanged + c.edited + c.removed + c.moved).toBe(c.old)
  })

  it('finds real changes, checked by reading both texts', () => {
    // 104.6 now cites rule 727 for "Restarting the Game" (724 before).
    const restart = d.edited.find((e) => e.number === '104.6')!
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
    expect(md).toContain('- **104.6** One card (Karn Liberated) restarts the game. All players still in the game when it restarts then immediately begin a new game. See rule ~~724~~**727**, “Restarting the Game.”')
  })
})

describe('diffReleases properties', async () => {
  const b = release('2026-06-19')
  const side = await diffSideOf(b.path, readBytes(b.path))

  it('a release against itself: every rule unchanged', () => {
    expect(diffReleases(side, side).counts).toEqual({ old: b.rules, new: b.rules, unchanged: b.rules, edited: 0, added: 0, removed: 0, moved: 0 })
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
