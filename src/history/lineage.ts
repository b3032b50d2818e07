// `lineage`: which rules a number names in the release in force on a date, and each one's versions.
// Pure functions over rules_history rows; the CLI streams the table into them (twice: once for the
// numbers, once for the versions of the rules found).
import { plural } from '../core/words.js'
import { typographyKey } from './row-keys.js'

/** The columns of a rules_history row that lineage reads. */
export interface LineageRow {
  release: string
  number: string
  rule_id: string
  change: string
  previous_number: string | null
  text: string
  examples: string[]
}

/** Which rules hold a number in the release in force on a date. */
export interface LineageTarget {
  number: string
  /** The date asked for (`--at`), or null for the newest release. */
  at: string | null
  /** The release whose numbering is read: the newest on or before `at`, else the newest of all. */
  release: string
  /** The rule_ids holding the number in that release (several when the release gives it twice). */
  ids: string[]
  /** When no rule holds it there: the last release that has the number, and its rule_ids. */
  lastSeen: { release: string; ids: string[] } | null
}

/** Collects, in one pass over the rows, which rules hold `number` in which release. */
export function lineageFinder(number: string, at: string | null) {
  const releases = new Set<string>()
  const holders = new Map<string, string[]>()
  return {
    add(row: Pick<LineageRow, 'release' | 'number' | 'rule_id'>) {
      releases.add(row.release)
      if (row.number !== number) return
      const ids = holders.get(row.release)
      if (ids) ids.push(row.rule_id)
      else holders.set(row.release, [row.rule_id])
    },
    /** The target; null when the history holds no release on or before `at`. */
    finish(): LineageTarget | null {
      const sorted = [...releases].sort()
      const release = at === null ? sorted.at(-1) : sorted.filter((r) => r <= at).at(-1)
      if (release === undefined) return null
      const last = [...holders.keys()].filter((r) => r <= release).sort().at(-1)
      const ids = holders.get(release) ?? []
      return { number, at, release, ids, lastSeen: ids.length === 0 && last !== undefined ? { release: last, ids: holders.get(last)! } : null }
    },
  }
}

/** The first line of the answer, and the lines of one rule's versions (the text of each change). */
export function lineageHeader(t: LineageTarget, shown: string[]): string {
  const when = t.at === null ? `in ${t.release}, the newest release` : `as of ${t.at} (release ${t.release})`
  if (t.ids.length === 0 && t.lastSeen) return `rule ${t.number} is not in the rules ${when}: it was last in ${t.lastSeen.release}, shown below`
  if (shown.length > 1) return `rule ${t.number} ${when}: ${shown.length} rules hold this number (${shown.join(', ')})`
  return `rule ${t.number} ${when}`
}

export function versionLines(id: string, versions: LineageRow[], safe: (s: string) => string): string[] {
  const lines = [`lineage ${id}, ${versions.length} ${plural(versions.length, 'release')}`, '']
  let before: LineageRow | undefined
  for (const v of versions) {
    const renumbered = v.previous_number !== null && v.previous_number !== v.number ? ` (was ${v.previous_number})` : ''
    // `moved` says nothing of the text (a rule renumbered may be reworded too): said here, against the version before.
    const moved = v.change === 'moved' && before !== undefined ? movedText(before, v) : null
    lines.push(`${v.release}  ${v.number}${renumbered}  ${v.change}${moved ? `, ${moved}` : ''}`)
    if (v.change !== 'unchanged' && moved !== 'same text') {
      lines.push(`    ${safe(v.text)}`)
      for (const e of v.examples) lines.push(`    Example: ${safe(e)}`)
    }
    before = v
  }
  return lines
}

/** How a moved rule's text and examples compare with its previous version's. */
function movedText(from: LineageRow, to: LineageRow): 'same text' | 'typography only' | 'edited' {
  const same = (key: (s: string) => string) => key(from.text) === key(to.text) && from.examples.length === to.examples.length && from.examples.every((e, i) => key(e) === key(to.examples[i]!))
  if (same((s) => s)) return 'same text'
  return same(typographyKey) ? 'typography only' : 'edited'
}
