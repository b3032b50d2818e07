import type { ReleaseDiff, RowChange } from './diff.js'
import type { TableRow } from './tables.js'
import type { RuleRow } from './types.js'

export type HistoryChange = 'added' | RowChange

/** One release in the history: its effective date and its rows in order. */
export interface HistoryRelease {
  release: string
  rows: RuleRow[]
}

/**
 * The rules_history table: one row per rule per release, oldest release first. `lineages[i]` is the
 * diff's lineage from release i-1 to release i (ignored for the first). A rule keeps its `rule_id`
 * (`<first release>:<first number>`) while the diff matches it, edited or moved included.
 */
export function rulesHistoryRows(releases: HistoryRelease[], lineages: (ReleaseDiff['lineage'] | null)[]): TableRow[] {
  const out: TableRow[] = []
  let previousIds: string[] = []
  releases.forEach(({ release, rows }, r) => {
    const lineage = r === 0 ? null : lineages[r]
    const previous = r === 0 ? null : releases[r - 1]!.rows
    const taken = new Set<string>()
    const ids = rows.map((row, i) => {
      const from = lineage?.[i] ?? null
      let id = from && previous ? previousIds[from.old]! : `${release}:${row.number}`
      // Two rows of one release never share an id (a release with a duplicated number).
      if (taken.has(id)) id = `${release}:${row.number}~${i}`
      taken.add(id)
      out.push({
        release,
        number: row.number,
        text: row.text,
        examples: row.examples,
        index: i,
        rule_id: id,
        previous_number: from && previous ? previous[from.old]!.number : null,
        change: from ? from.change : 'added',
      })
      return id
    })
    previousIds = ids
  })
  return out
}
