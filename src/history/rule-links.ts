import type { TableRow } from '../core/tables.js'
import type { RuleRow } from '../core/types.js'
import { commonWeight, rarity } from './cross-section.js'
import type { ReleaseDiff } from './diff.js'
import { prepare, type Prepared } from './row-keys.js'
import { spend, type WorkBudget } from './work-budget.js'

// The rule_links table, a pair of consecutive releases at a time: every rule the diff continues from
// the release before (`continues`), and what one previous_number cannot say. A new rule whose words
// nearly all come from a longer previous rule of its section is `split-from` it (the previous rule
// lives on as another, or ended); a rule that ended whose words nearly all stand in a longer rule of
// its section is `merged-from` into that one. Words are weighted by rarity, as the matcher's step 6 does, so a
// templated sentence of another keyword is no part of a rule.

/** How much of the smaller text the larger must hold, weighted by rarity. */
const CONTAINED = 0.85
/** A text this short says too little to be a part of another. */
const MIN_WORDS = 5
/**
 * A part is at most this share of the whole, in words: a sibling of about the same length with a
 * few words changed (the cloak rules written on the manifest rules' model) is no part of it.
 */
const PART_OF_WHOLE = 0.75

/** A row of rule_links. */
export interface RuleLink {
  release: string
  number: string
  previous_release: string
  previous_number: string
  relation: 'continues' | 'split-from' | 'merged-from'
  similarity: number
}

export interface ReleaseRows {
  release: string
  rows: RuleRow[]
}

/**
 * The rule_links rows of `current` against `previous`, in the order of current's rules. The search
 * for parts compares rows with the rows of their section, and takes its words from `work` (the
 * matcher's bound, work-budget.ts): past it, the parts not yet searched get no split or merge link,
 * and `work.ranOutIn` says so.
 */
export function ruleLinks(previous: ReleaseRows, current: ReleaseRows, lineage: ReleaseDiff['lineage'], work: WorkBudget): TableRow[] {
  const interner = new Map<string, number>()
  const olds = prepare(previous.rows, interner)
  const news = prepare(current.rows, interner)
  const continued = new Set<number>()
  for (const l of lineage) if (l) continued.add(l.old)
  const link = (n: number, o: number, relation: string, similarity: number): TableRow => ({
    release: current.release,
    number: current.rows[n]!.number,
    previous_release: previous.release,
    previous_number: previous.rows[o]!.number,
    relation,
    similarity: Math.round(similarity * 1000) / 1000,
  })
  const out: { n: number; order: number; row: TableRow }[] = []
  lineage.forEach((l, n) => {
    if (l) out.push({ n, order: 0, row: link(n, l.old, 'continues', l.similarity) })
  })
  // Parts: added rules against every previous rule of their section; ended rules against every new rule of theirs.
  const added = news.filter((n) => lineage[n.pos] === null && n.ids.length >= MIN_WORDS)
  const ended = olds.filter((o) => !continued.has(o.pos) && o.ids.length >= MIN_WORDS)
  if (added.length + ended.length > 0) {
    const sections = new Set([...added, ...ended].map((r) => r.section))
    const weight = rarity([...olds, ...news].filter((r) => sections.has(r.section)))
    const bySection = (rows: Prepared[]) => {
      const map = new Map<string, Prepared[]>()
      for (const r of rows) {
        if (!sections.has(r.section)) continue
        const list = map.get(r.section)
        if (list) list.push(r)
        else map.set(r.section, [r])
      }
      return map
    }
    const oldIn = bySection(olds)
    const newIn = bySection(news)
    const test = (words: number) => spend(work, 'rule_links', words)
    for (const a of added) {
      const best = bestContainer(a, oldIn.get(a.section) ?? [], weight, test)
      if (best) out.push({ n: a.pos, order: 1, row: link(a.pos, best.row.pos, 'split-from', best.share) })
    }
    for (const e of ended) {
      const best = bestContainer(e, newIn.get(e.section) ?? [], weight, test)
      if (best) out.push({ n: best.row.pos, order: 2, row: link(best.row.pos, e.pos, 'merged-from', best.share) })
    }
  }
  return out.sort((a, b) => a.n - b.n || a.order - b.order).map((x) => x.row)
}

/** The row holding the most of `part`'s words (weighted), when it holds at least CONTAINED of them (`test`: false once the bound is reached). */
function bestContainer(part: Prepared, candidates: Prepared[], weight: Float64Array, test: (words: number) => boolean): { row: Prepared; share: number } | null {
  let total = 0
  for (const id of part.ids) total += weight[id] ?? 0
  if (total === 0) return null
  let best: { row: Prepared; share: number } | null = null
  for (const c of candidates) {
    if (part.ids.length > PART_OF_WHOLE * c.ids.length) continue
    if (!test(part.ids.length + c.ids.length)) return null
    const share = commonWeight(part.ids, c.ids, weight) / total
    if (share >= CONTAINED && (!best || share > best.share)) best = { row: c, share }
  }
  return best
}
