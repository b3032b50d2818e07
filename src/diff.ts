import { diffWords } from 'diff'
import { compareRuleNumbers, parseRuleNumber } from './rule-number.js'
import type { RuleRow } from './types.js'

/** One release's rules, as the diff sees them. */
export interface DiffSide {
  label: string
  rows: RuleRow[]
  /** Section titles by number ("100" → "General"), when the side is CR text. */
  sectionTitles: Map<string, string>
}

export interface WordChange {
  op: 'equal' | 'insert' | 'delete'
  text: string
}

export interface EditedRule {
  number: string
  text: WordChange[] | null
  examples: WordChange[] | null
}

export interface MovedRule {
  from: string
  to: string
  /** Word similarity of the texts, 0..1 (1: the same text). */
  similarity: number
  text: WordChange[] | null
  examples: WordChange[] | null
}

export interface ReleaseDiff {
  old: string
  new: string
  counts: { old: number; new: number; unchanged: number; edited: number; added: number; removed: number; moved: number }
  added: RuleRow[]
  removed: RuleRow[]
  edited: EditedRule[]
  moved: MovedRule[]
}

export interface DiffOptions {
  /** Below this similarity, a rule under the same number is a replacement, not an edit (default 0.5). */
  editThreshold?: number
  /** From this similarity up, a removed and an added rule are one moved rule (default 0.8). */
  moveThreshold?: number
}

const words = (s: string) => s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []

/** Dice similarity of two texts' word multisets: 1 for the same words, 0 for none in common. */
export function similarity(a: string, b: string): number {
  if (a === b) return 1
  const wa = words(a)
  const wb = words(b)
  if (wa.length + wb.length === 0) return 1
  const counts = new Map<string, number>()
  for (const w of wa) counts.set(w, (counts.get(w) ?? 0) + 1)
  let common = 0
  for (const w of wb) {
    const n = counts.get(w) ?? 0
    if (n > 0) {
      common++
      counts.set(w, n - 1)
    }
  }
  return (2 * common) / (wa.length + wb.length)
}

function wordChanges(a: string, b: string): WordChange[] | null {
  if (a === b) return null
  return diffWords(a, b).map((c) => ({ op: c.added ? 'insert' : c.removed ? 'delete' : 'equal', text: c.value }))
}

const sameExamples = (a: RuleRow, b: RuleRow) => a.examples.length === b.examples.length && a.examples.every((e, i) => e === b.examples[i])
const examplesChanges = (a: RuleRow, b: RuleRow) => (sameExamples(a, b) ? null : wordChanges(a.examples.join('\n'), b.examples.join('\n')))

/**
 * Compare two releases rule by rule: unchanged, edited (word-level diff), added, removed, and moved
 * (the same text under a new number anywhere, or nearly the same within its section: never a removal
 * plus an addition).
 * Every rule of NEW is exactly one of unchanged, edited, added or moved.
 */
export function diffReleases(oldSide: DiffSide, newSide: DiffSide, options: DiffOptions = {}): ReleaseDiff {
  const editThreshold = options.editThreshold ?? 0.5
  const moveThreshold = options.moveThreshold ?? 0.8
  const oldBy = new Map(oldSide.rows.map((r) => [r.number, r]))
  const same = (a: RuleRow, b: RuleRow) => a.text === b.text && sameExamples(a, b)

  // 1. The same number and content: unchanged.
  let unchanged = 0
  const oldLeft = new Map(oldSide.rows.map((r) => [r.number, r]))
  let newLeft: RuleRow[] = []
  for (const row of newSide.rows) {
    const old = oldBy.get(row.number)
    if (old && same(old, row)) {
      unchanged++
      oldLeft.delete(row.number)
    } else newLeft.push(row)
  }

  // 2. The same content under another number: moved as is.
  const moves: { from: RuleRow; to: RuleRow; sim: number }[] = []
  const byContent = new Map<string, RuleRow[]>()
  for (const old of oldLeft.values()) {
    const key = contentKey(old)
    byContent.set(key, [...(byContent.get(key) ?? []), old])
  }
  newLeft = newLeft.filter((row) => {
    const old = byContent.get(contentKey(row))?.shift()
    if (!old) return true
    oldLeft.delete(old.number)
    moves.push({ from: old, to: row, sim: 1 })
    return false
  })

  // 3. Near matches within a section, best first: the same number is an edit, another is a move.
  const edits: { from: RuleRow; to: RuleRow }[] = []
  const pairs: { from: RuleRow; to: RuleRow; sim: number; sameNumber: boolean }[] = []
  for (const to of newLeft) {
    for (const from of oldLeft.values()) {
      if (from.number.slice(0, 3) !== to.number.slice(0, 3)) continue
      const sameNumber = from.number === to.number
      const sim = similarity(from.text, to.text)
      if (sim >= (sameNumber ? editThreshold : moveThreshold)) pairs.push({ from, to, sim, sameNumber })
    }
  }
  pairs.sort((a, b) => b.sim - a.sim || Number(b.sameNumber) - Number(a.sameNumber) || a.to.index - b.to.index || a.from.index - b.from.index)
  const usedFrom = new Set<string>()
  const usedTo = new Set<string>()
  for (const p of pairs) {
    if (usedFrom.has(p.from.number) || usedTo.has(p.to.number)) continue
    usedFrom.add(p.from.number)
    usedTo.add(p.to.number)
    if (p.sameNumber) edits.push(p)
    else moves.push(p)
  }

  const byNumber = (a: RuleRow, b: RuleRow) => compareRuleNumbers(parseRuleNumber(a.number)!, parseRuleNumber(b.number)!)
  const added = newLeft.filter((r) => !usedTo.has(r.number)).sort(byNumber)
  const removed = [...oldLeft.values()].filter((r) => !usedFrom.has(r.number)).sort(byNumber)
  const edited = edits
    .sort((a, b) => a.to.index - b.to.index)
    .map(({ from, to }) => ({ number: to.number, text: wordChanges(from.text, to.text), examples: examplesChanges(from, to) }))
  const moved = moves
    .sort((a, b) => a.to.index - b.to.index)
    .map(({ from, to, sim }) => ({ from: from.number, to: to.number, similarity: Math.round(sim * 1000) / 1000, text: wordChanges(from.text, to.text), examples: examplesChanges(from, to) }))
  return {
    old: oldSide.label,
    new: newSide.label,
    counts: { old: oldSide.rows.length, new: newSide.rows.length, unchanged, edited: edited.length, added: added.length, removed: removed.length, moved: moved.length },
    added,
    removed,
    edited,
    moved,
  }
}

const contentKey = (r: RuleRow) => JSON.stringify([r.text, r.examples])
