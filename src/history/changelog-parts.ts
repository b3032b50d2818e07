import type { DiffSide, MovedRule } from './diff.js'
import { boundedWordChanges, WORD_DIFF_WORK, wordsWarning, type WordChange } from './row-keys.js'

// Parts of the changelog (changelog.ts) that read the diff as a whole: sections renumbered as a
// block, and the glossary's changes.

/**
 * Sections whose moved rules all went to one other section, as runs with one offset: "722–732 are
 * now 723–733". A section counts when at least two of its rules moved and none went elsewhere.
 */
export function renumberedSections(moved: MovedRule[]): string[] {
  const targets = new Map<string, Set<string>>()
  const counts = new Map<string, number>()
  for (const m of moved) {
    const from = m.from.slice(0, 3)
    const set = targets.get(from) ?? new Set<string>()
    set.add(m.to.slice(0, 3))
    targets.set(from, set)
    counts.set(from, (counts.get(from) ?? 0) + 1)
  }
  const shifts = [...targets]
    .filter(([from, to]) => to.size === 1 && !to.has(from) && (counts.get(from) ?? 0) >= 2)
    .map(([from, to]) => ({ from: Number(from), to: Number([...to][0]) }))
    .sort((a, b) => a.from - b.from)
  const runs: string[] = []
  for (let i = 0; i < shifts.length; ) {
    let j = i
    while (j + 1 < shifts.length && shifts[j + 1]!.from === shifts[j]!.from + 1 && shifts[j + 1]!.to - shifts[j + 1]!.from === shifts[i]!.to - shifts[i]!.from) j++
    const a = shifts[i]!
    const b = shifts[j]!
    runs.push(j === i ? `section ${a.from} is now ${a.to}` : `sections ${a.from}–${b.from} are now ${a.to}–${b.to}`)
    i = j + 1
  }
  return runs
}

export interface GlossaryChanges {
  added: { term: string; definition: string }[]
  removed: { term: string; definition: string }[]
  /** A definition changed (`changes`), or the term became obsolete or current again (`obsolete`). */
  changed: { term: string; changes: WordChange[] | null; obsolete?: boolean }[]
  /** When the definitions' word-level changes ran out of their bound (row-keys.ts). */
  warnings: string[]
}

/** Terms added, removed, and definitions changed between two sides' glossaries (null when a side has none); `wordWork` bounds the definitions' word-level changes together. */
export function glossaryChanges(oldSide: DiffSide | undefined, newSide: DiffSide, wordWork = WORD_DIFF_WORK): GlossaryChanges | null {
  if (!oldSide?.glossary || !newSide.glossary) return null
  const before = new Map(oldSide.glossary.map((g) => [g.term, g]))
  const after = new Map(newSide.glossary.map((g) => [g.term, g]))
  const changed: GlossaryChanges['changed'] = []
  // One bound on the word-level work of all the definitions (row-keys.ts).
  const words = boundedWordChanges(wordWork)
  for (const [term, entry] of after) {
    const old = before.get(term)
    if (old === undefined) continue
    const changes = words.changes(old.definition, entry.definition)
    const flag = (old.obsolete ?? false) !== (entry.obsolete ?? false)
    if (changes || flag) changed.push({ term, changes, ...(flag ? { obsolete: entry.obsolete ?? false } : {}) })
  }
  return {
    added: newSide.glossary.filter((g) => !before.has(g.term)),
    removed: oldSide.glossary.filter((g) => !after.has(g.term)),
    changed,
    warnings: [wordsWarning(wordWork, words.whole())].filter((w): w is string => w !== null),
  }
}
