import { glossaryChanges, renumberedSections } from './changelog-parts.js'
import type { DiffSide, ExampleChange, MovedRule, ReleaseDiff, WordChange } from './diff.js'
import { compareRuleNumbers, parseRuleNumber } from '../core/rule-number.js'
import { append } from '../core/diagnostics.js'
import type { RuleRow } from '../core/types.js'
import { plural } from '../core/words.js'

const escape = (s: string) => s.replace(/([\\`*_~[\]|<>])/g, '\\$1').replace(/\n/g, ' ⏎ ')

/** Word changes as Markdown: deletions struck through, insertions in bold. */
export function renderWordChanges(changes: WordChange[]): string {
  return changes
    .map((c) => {
      const text = escape(c.text)
      if (c.op === 'equal' || text.trim() === '') return text
      const lead = text.match(/^\s*/)![0]
      const trail = text.match(/\s*$/)![0]
      const core = text.trim()
      return c.op === 'delete' ? `${lead}~~${core}~~${trail}` : `${lead}**${core}**${trail}`
    })
    .join('')
}

const sectionOf = (number: string) => number.slice(0, 3)
const byNumber = (a: string, b: string) => {
  const x = parseRuleNumber(a)
  const y = parseRuleNumber(b)
  return x && y ? compareRuleNumbers(x, y) : a < b ? -1 : a > b ? 1 : 0
}

/** Examples, one line each: added, removed, or diffed word by word. */
function exampleLines(examples: ExampleChange[] | null): string[] {
  if (!examples) return []
  return examples.flatMap((e, i) => {
    const label = `  - Example ${i + 1}: `
    if (e.old === null) return [`${label}added: ${escape(e.new!)}`]
    if (e.new === null) return [`${label}removed: ~~${escape(e.old)}~~`]
    return e.changes ? [`${label}${renderWordChanges(e.changes)}`] : []
  })
}

const quoted = (r: RuleRow, note = '') => [`- **${r.number}**${note} ${escape(r.text)}`, ...r.examples.map((e, i) => `  - Example ${i + 1}: ${escape(e)}`)]

/** Runs of numbers as ranges: 100.1, 100.2, 100.3, 100.5 → "100.1–100.3, 100.5" (consecutive in their release). */
function ranges(items: { number: string; index: number }[]): string {
  const out: string[] = []
  for (let i = 0; i < items.length; ) {
    let j = i
    while (j + 1 < items.length && items[j + 1]!.index === items[j]!.index + 1) j++
    out.push(j === i ? items[i]!.number : `${items[i]!.number}–${items[j]!.number}`)
    i = j + 1
  }
  return out.join(', ')
}

/**
 * Moves in NEW order, where a run of rules that moved together with the same text (consecutive in
 * both releases) is one entry: "509.5–509.7 → 509.3–509.5, same text".
 */
function movedEntries(moves: MovedRule[]): { number: string; from: string; lines: string[] }[] {
  const sorted = [...moves].sort((a, b) => a.newIndex - b.newIndex)
  const plain = (m: MovedRule) => m.text === null && m.examples === null
  const out: { number: string; from: string; lines: string[] }[] = []
  for (let i = 0; i < sorted.length; ) {
    const m = sorted[i]!
    let j = i
    if (plain(m)) while (j + 1 < sorted.length && plain(sorted[j + 1]!) && sorted[j + 1]!.oldIndex === sorted[j]!.oldIndex + 1 && sorted[j + 1]!.newIndex === sorted[j]!.newIndex + 1) j++
    if (j > i) {
      out.push({ number: m.to, from: m.from, lines: [`- **${m.from}–${sorted[j]!.from} → ${m.to}–${sorted[j]!.to}**, same text`] })
    } else if (plain(m)) {
      out.push({ number: m.to, from: m.from, lines: [`- **${m.from} → ${m.to}**, same text`] })
    } else {
      const why = m.referencesRenumbered ? ', references renumbered' : m.typographyOnly ? ', typography only' : ''
      const text = m.text ? `: ${renderWordChanges(m.text)}` : ''
      out.push({ number: m.to, from: m.from, lines: [`- **${m.from} → ${m.to}**${why}${text}`].concat(exampleLines(m.examples)) })
    }
    i = j + 1
  }
  return out
}

/**
 * A Markdown changelog a maintainer can paste: counts, warnings, the typography-only group, then every
 * change grouped by section in rule order — added and removed rules quoted in full, edits with
 * word-level marks and their examples one by one, renumbering collapsed into ranges.
 */
export function renderChangelog(diff: ReleaseDiff, newSide: DiffSide, oldSide?: DiffSide): string {
  const c = diff.counts
  // An edit whose only change is a renumbered citation is listed apart: the real edits are the headline.
  const refsOnly = diff.edited.filter((e) => e.referencesRenumbered).length
  const lines = [
    `# Comprehensive Rules: ${diff.old} → ${diff.new}`,
    '',
    `${c.new} rules in ${diff.new} (${c.old} in ${diff.old}): ${c.unchanged} unchanged, ${c.edited - refsOnly} edited, ${refsOnly} with only a citation renumbered, ${c.typography} typography only, ${c.added} added, ${c.moved} moved (renumbered), ${c.removed} removed.`,
    '',
    '| change | rules |',
    '|---|---:|',
    `| unchanged | ${c.unchanged} |`,
    `| edited | ${c.edited - refsOnly} |`,
    `| references renumbered only | ${refsOnly} |`,
    `| typography only | ${c.typography} |`,
    `| added | ${c.added} |`,
    `| moved | ${c.moved} |`,
    `| removed | ${c.removed} |`,
  ]
  for (const w of diff.warnings) lines.push('', `> Warning: ${escape(w)}`)
  const shifted = renumberedSections(diff.moved)
  if (shifted.length > 0) lines.push('', `Renumbered as a block: ${shifted.join('; ')}.`)
  if (diff.typography.length > 0) {
    lines.push('', `## Typography only: ${diff.typography.length} ${plural(diff.typography.length, 'rule')}`, '', `Quotes, dashes or spaces changed, nothing else: ${ranges(diff.typography.map((t) => ({ number: t.number, index: t.newIndex })))}.`)
  }
  type Kind = 'Added' | 'Edited' | 'References renumbered only' | 'Moved' | 'Removed'
  const bySection = new Map<string, Map<Kind, { number: string; lines: string[] }[]>>()
  const add = (kind: Kind, number: string, entryLines: string[]) => {
    const section = bySection.get(sectionOf(number)) ?? new Map()
    const list = section.get(kind) ?? []
    list.push({ number, lines: entryLines })
    section.set(kind, list)
    bySection.set(sectionOf(number), section)
  }
  // A number removed and given to a new rule in the same release is a replacement: said on both sides.
  const removedNumbers = new Set(diff.removed.map((r) => r.number))
  const replaced = new Set(diff.added.filter((r) => removedNumbers.has(r.number)).map((r) => r.number))
  for (const r of diff.added) add('Added', r.number, quoted(r, replaced.has(r.number) ? ' (replaces the removed rule of this number)' : ''))
  for (const r of diff.removed) add('Removed', r.number, quoted(r, replaced.has(r.number) ? ' (replaced by a new rule of this number)' : ''))
  for (const e of diff.edited) {
    const head = e.referencesRenumbered ? `- **${e.number}** references renumbered: ` : `- **${e.number}** `
    add(e.referencesRenumbered ? 'References renumbered only' : 'Edited', e.number, [head + (e.text ? renderWordChanges(e.text) : '(text unchanged)'), ...exampleLines(e.examples)])
  }
  // Moves are listed under the section they leave.
  for (const m of movedEntries(diff.moved)) add('Moved', m.from, m.lines)
  const titles = (section: string) => newSide.sectionTitles.get(section) ?? oldSide?.sectionTitles.get(section)
  for (const section of [...bySection.keys()].sort()) {
    const title = titles(section)
    lines.push('', `## ${section}.${title ? ' ' + title : ''}`)
    for (const kind of ['Added', 'Edited', 'References renumbered only', 'Moved', 'Removed'] as const) {
      const entries = bySection.get(section)!.get(kind)
      if (!entries) continue
      entries.sort((a, b) => byNumber(a.number, b.number))
      lines.push('', `### ${kind} (${entries.length})`, '')
      for (const e of entries) append(lines, e.lines)
    }
  }
  // append, not push(...): a list can hold more lines than a call takes arguments.
  append(lines, glossaryLines(oldSide, newSide))
  return lines.join('\n') + '\n'
}

/** The changelog of two glossaries alone (two glossary exports): their terms added, removed, changed. */
export function renderGlossaryChangelog(oldSide: DiffSide, newSide: DiffSide): string {
  const lines = glossaryLines(oldSide, newSide)
  return [`# Comprehensive Rules glossary: ${oldSide.label} → ${newSide.label}`, ...(lines.length ? lines : ['', 'No term added, removed or changed.'])].join('\n') + '\n'
}

function glossaryLines(oldSide: DiffSide | undefined, newSide: DiffSide): string[] {
  const lines: string[] = []
  const glossary = glossaryChanges(oldSide, newSide)
  if (glossary && glossary.added.length + glossary.removed.length + glossary.changed.length > 0) {
    lines.push('', `## Glossary: ${glossary.added.length} added, ${glossary.removed.length} removed, ${glossary.changed.length} changed`)
    for (const w of glossary.warnings) lines.push('', `> Warning: ${escape(w)}`)
    if (glossary.added.length) {
      lines.push('', `### Added (${glossary.added.length})`, '')
      append(lines, glossary.added.map((g) => `- **${escape(g.term)}** ${escape(g.definition)}`))
    }
    if (glossary.removed.length) {
      lines.push('', `### Removed (${glossary.removed.length})`, '')
      append(lines, glossary.removed.map((g) => `- **${escape(g.term)}** ${escape(g.definition)}`))
    }
    if (glossary.changed.length) {
      lines.push('', `### Changed (${glossary.changed.length})`, '')
      append(lines, glossary.changed.map((g) => `- **${escape(g.term)}**${g.obsolete === undefined ? '' : g.obsolete ? ' (now obsolete)' : ' (no longer obsolete)'} ${g.changes ? renderWordChanges(g.changes) : '(definition unchanged)'}`))
    }
  }
  return lines
}
