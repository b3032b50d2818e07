import type { ReleaseDiff } from './diff.js'
import type { TableRow } from '../core/tables.js'
import type { RuleRow } from '../core/types.js'

/**
 * The rules_history table a release at a time, oldest first: `add` takes a release's rows and the
 * diff's lineage from the release added before it (null for the first) and gives that release's
 * history rows. A rule keeps its `rule_id` (`<first release>:<first number>`) while the diff matches
 * it, edited or moved included. Only the previous release is kept.
 */
export function startRulesHistory() {
  let previous: { rows: RuleRow[]; ids: string[] } | null = null
  return {
    add(release: string, rows: RuleRow[], lineage: ReleaseDiff['lineage'] | null): TableRow[] {
      const out: TableRow[] = []
      const taken = new Set<string>()
      const ids = rows.map((row, i) => {
        const from = previous && lineage ? (lineage[i] ?? null) : null
        let id = from ? previous!.ids[from.old]! : `${release}:${row.number}`
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
          previous_number: from ? previous!.rows[from.old]!.number : null,
          change: from ? from.change : 'added',
        })
        return id
      })
      previous = { rows, ids }
      return out
    },
  }
}
