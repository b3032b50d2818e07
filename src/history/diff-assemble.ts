import type { RuleRow } from '../core/types.js'
import { isIsoDate } from '../core/calendar.js'
import type { DiffSide, EditedRule, MovedRule, ReleaseDiff, RowChange, TypographyChange } from './diff-types.js'
import { boundedWordChanges, duplicates, exampleChanges, wordsWarning, type Prepared } from './row-keys.js'
import { budgetWarning, type WorkBudget } from './work-budget.js'

/** What the matcher (diff.ts) settled, by position: each row's partner (-1: none), and for each new row how. */
export interface Pairing {
  oldOf: Int32Array
  newOf: Int32Array
  kind: (RowChange | null)[]
  /** 1 where the texts are the same once the numbers they cite are renumbered (step 4). */
  refsRenumbered: Uint8Array
  sims: Float64Array
}

export interface AssembleOptions {
  /** Word-level changes of edited and moved texts (off: null). */
  withWords: boolean
  /** The matcher's budget, for its warning when it ran out. */
  work: WorkBudget
  /** The bound of the word-level changes (row-keys.ts boundedWordChanges). */
  wordWork: number
}

/**
 * The ReleaseDiff of a pairing: every new row unchanged, typography, edited, moved or added, in new
 * order; every old row left unpaired removed; the lineage; the warnings of both bounds and duplicates.
 */
export function assemble(oldSide: DiffSide, newSide: DiffSide, olds: Prepared[], news: Prepared[], pairing: Pairing, options: AssembleOptions): ReleaseDiff {
  const { oldOf, newOf, kind, refsRenumbered, sims } = pairing
  const { withWords, work, wordWork } = options
  const words = boundedWordChanges(wordWork)
  const textChanges = withWords ? words.changes : () => null
  const examplesChanges = withWords ? (a: RuleRow, b: RuleRow) => exampleChanges(a, b, words.changes) : () => null
  const edited: EditedRule[] = []
  const moved: MovedRule[] = []
  const typography: TypographyChange[] = []
  let unchanged = 0
  const lineage: ReleaseDiff['lineage'] = []
  for (const n of news) {
    const o = oldOf[n.pos]!
    const change = kind[n.pos] ?? null
    if (o < 0 || change === null) {
      lineage.push(null)
      continue
    }
    lineage.push({ old: o, change, similarity: Math.round(sims[n.pos]! * 1000) / 1000 })
    const from = olds[o]!.row
    const to = n.row
    if (change === 'unchanged') unchanged++
    else if (change === 'typography') typography.push({ number: to.number, oldIndex: o, newIndex: n.pos })
    else if (change === 'edited') edited.push({ number: to.number, oldIndex: o, newIndex: n.pos, text: textChanges(from.text, to.text), examples: examplesChanges(from, to), referencesRenumbered: refsRenumbered[n.pos] === 1 })
    else {
      moved.push({
        from: from.number,
        to: to.number,
        oldIndex: o,
        newIndex: n.pos,
        similarity: Math.round(sims[n.pos]! * 1000) / 1000,
        text: textChanges(from.text, to.text),
        examples: examplesChanges(from, to),
        referencesRenumbered: refsRenumbered[n.pos] === 1,
        typographyOnly: olds[o]!.content !== n.content && olds[o]!.typo === n.typo,
      })
    }
  }
  const added = news.filter((n) => oldOf[n.pos]! < 0).map((n) => n.row)
  const removed = olds.filter((o) => newOf[o.pos]! < 0).map((o) => o.row)
  const warnings = [backwards(oldSide.label, newSide.label), duplicates(oldSide.label, oldSide.rows), duplicates(newSide.label, newSide.rows), budgetWarning(work, added.length, removed.length), wordsWarning(wordWork, words.whole())].filter((w): w is string => w !== null)
  return {
    old: oldSide.label,
    new: newSide.label,
    counts: { old: olds.length, new: news.length, unchanged, typography: typography.length, edited: edited.length, added: added.length, removed: removed.length, moved: moved.length },
    warnings,
    added,
    removed,
    edited,
    typography,
    moved,
    lineage,
  }
}

/** Two releases given newest first (both labels are dates): still diffed as given, but said. */
function backwards(oldLabel: string, newLabel: string): string | null {
  if (!isIsoDate(oldLabel) || !isIsoDate(newLabel) || oldLabel <= newLabel) return null
  return `OLD (${oldLabel}) is newer than NEW (${newLabel}): the changes read from the newer release back to the older (rules added since read as removed)`
}
