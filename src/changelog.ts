import type { DiffSide, ReleaseDiff, WordChange } from './diff.js'

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

/**
 * A Markdown changelog a maintainer can paste: counts, then every change grouped by section in
 * rule order.
 */
export function renderChangelog(diff: ReleaseDiff, newSide: DiffSide, oldSide?: DiffSide): string {
  const c = diff.counts
  const lines = [
    `# Comprehensive Rules: ${diff.old} → ${diff.new}`,
    '',
    `${c.new} rules in ${diff.new} (${c.old} in ${diff.old}): ${c.unchanged} unchanged, ${c.edited} edited, ${c.added} added, ${c.moved} moved (renumbered), ${c.removed} removed.`,
    '',
    '| change | rules |',
    '|---|---:|',
    `| unchanged | ${c.unchanged} |`,
    `| edited | ${c.edited} |`,
    `| added | ${c.added} |`,
    `| moved | ${c.moved} |`,
    `| removed | ${c.removed} |`,
  ]
  type Entry = { kind: 'Added' | 'Removed' | 'Edited' | 'Moved'; line: string }
  const bySection = new Map<string, Entry[]>()
  const add = (number: string, entry: Entry) => {
    const list = bySection.get(sectionOf(number)) ?? []
    list.push(entry)
    bySection.set(sectionOf(number), list)
  }
  for (const r of diff.added) add(r.number, { kind: 'Added', line: `- **${r.number}** ${escape(r.text)}` })
  for (const r of diff.removed) add(r.number, { kind: 'Removed', line: `- **${r.number}** ${escape(r.text)}` })
  for (const e of diff.edited) {
    const parts = [e.text ? renderWordChanges(e.text) : '(text unchanged)']
    if (e.examples) parts.push(`Examples: ${renderWordChanges(e.examples)}`)
    add(e.number, { kind: 'Edited', line: `- **${e.number}** ${parts.join(' — ')}` })
  }
  for (const m of diff.moved) {
    const change = m.text ? `: ${renderWordChanges(m.text)}` : ' (same text)'
    add(m.to, { kind: 'Moved', line: `- **${m.from} → ${m.to}**${change}` })
  }
  const titles = (section: string) => newSide.sectionTitles.get(section) ?? oldSide?.sectionTitles.get(section)
  for (const section of [...bySection.keys()].sort()) {
    const title = titles(section)
    lines.push('', `## ${section}.${title ? ' ' + title : ''}`)
    for (const kind of ['Added', 'Edited', 'Moved', 'Removed'] as const) {
      const entries = bySection.get(section)!.filter((e) => e.kind === kind)
      if (entries.length === 0) continue
      lines.push('', `### ${kind} (${entries.length})`, '', ...entries.map((e) => e.line))
    }
  }
  return lines.join('\n') + '\n'
}
