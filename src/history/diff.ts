import { crossSectionPairs, parentsAgree, rewordedPairs, templatedPair } from './cross-section.js'
import { diceOfIds, prepare, push, sameContent, typographyKey, WORD_DIFF_WORK, type Prepared } from './row-keys.js'
import { KEPT_PAIR, spend, workBudget } from './work-budget.js'
import { assemble } from './diff-assemble.js'

export type * from './diff-types.js'
import type { DiffOptions, DiffSide, ReleaseDiff, RowChange } from './diff-types.js'

const CITED = /\b\d{3}(?:\.\d+[a-z]*)?\b/g
/** How much closer (Dice) a rule's text must be to another number than to its own for that to be its successor. */
const CLEARLY_CLOSER = 0.15
/**
 * How much a rule left at the same place (step 7) must keep of its words: Dice, and Dice weighted
 * by rarity (lower: renumbered citations are rare words that change).
 */
const REWORDED = { plain: 0.6, weighted: 0.5 }
/** How much a long rule left anywhere must keep of its words, plainly and weighted by rarity (step 8). */
const REWRITTEN = { plain: 0.75, weighted: 0.7 }
/** A rule of at most this many words is a title ("Trample", "Casting Spells"). */
const TITLE_WORDS = 4
/**
 * The words the pair tests of one diff may compare (work-budget.ts). The costliest pair of the
 * shared releases takes 0.3 billion (2026-08-07 → 2009-05-01, a far pair reversed; a consecutive
 * pair far less); a crafted pair of exports stops within about ten seconds on this project's machine.
 */
export const MATCH_WORK = 1_500_000_000

/**
 * Compare two releases row by row. Every OLD row is exactly one of unchanged, typography, edited,
 * moved (from) or removed; every NEW row one of unchanged, typography, edited, moved (to) or added —
 * duplicates of a number included, matched by position and text. In order:
 *
 * 1. the same number and content: unchanged (then: only quotes, dashes or spaces differ: typography);
 * 2. the same content under another number: moved;
 * 3. sections are mapped (old → new) by where those rules went, else by title;
 * 4. content that is the same once the numbers it cites are renumbered: moved (or, under the same
 *    number, edited with `referencesRenumbered`);
 * 5. near matches, best first: the same number (in a section that did not move) is an edit, unless the
 *    old text is clearly closer to another number of its section (under the same parent rule, for a
 *    subrule: its reworded successor, as the number now holds another rule); another
 *    number is a move only within the mapped section and, for a subrule, under the rule its parent
 *    rule became (or, when the parent continues as none, under a new rule that continues none: the
 *    parent rewritten, unless the two are titles of other words, as two keywords' rules are) — so
 *    templated sentences of two keywords never swap;
 * 6. nearly the same text in any other section (cross-section.ts): moved, when the rare words agree too;
 * 7. what is left at the same place, reworded (cross-section.ts): a subrule under a rule and that
 *    rule's successor, a rule at its number in its renumbered section, a row right after the row
 *    its predecessor became: moved or edited;
 * 8. a long text left anywhere that keeps most of its words, its rare ones too: moved (the 2009 rewrite
 *    renamed terms throughout a rule: "comes into play" → "enters the battlefield").
 */
export function diffReleases(oldSide: DiffSide, newSide: DiffSide, options: DiffOptions = {}): ReleaseDiff {
  const editThreshold = options.editThreshold ?? 0.5
  const moveThreshold = options.moveThreshold ?? 0.8
  const work = workBudget(options.matchWork ?? MATCH_WORK)
  const interner = new Map<string, number>()
  const olds = prepare(oldSide.rows, interner)
  const news = prepare(newSide.rows, interner)
  const oldOf = new Int32Array(news.length).fill(-1)
  const newOf = new Int32Array(olds.length).fill(-1)
  const kind: (RowChange | null)[] = new Array(news.length).fill(null)
  const refsRenumbered = new Uint8Array(news.length)
  const sims = new Float64Array(news.length)
  const pair = (o: number, n: number, change: RowChange, sim = 1) => {
    oldOf[n] = o
    newOf[o] = n
    kind[n] = change
    sims[n] = sim
  }

  const oldFree = (p: number) => newOf[p]! < 0
  const newFree = (p: number) => oldOf[p]! < 0

  // 1. Same number: the same content, then the same content but for typography.
  const oldByNumber = new Map<string, number[]>()
  for (let p = olds.length - 1; p >= 0; p--) push(oldByNumber, olds[p]!.row.number, p)
  for (const change of ['unchanged', 'typography'] as const) {
    const same = change === 'unchanged' ? (o: Prepared, n: Prepared) => sameContent(o.row, n.row) : (o: Prepared, n: Prepared) => o.typo === n.typo
    for (const n of news) {
      if (oldOf[n.pos]! >= 0) continue
      // Past the bound no test is made: without this a row would still walk its number's list.
      if (!spend(work, 'step 1', 0)) break
      const o = firstFree(oldByNumber.get(n.row.number), oldFree, (p) => spend(work, 'step 1', 1 + (Math.min(olds[p]!.row.text.length, n.row.text.length) >> 3)) && same(olds[p]!, n))
      if (o !== undefined) pair(o, n.pos, change)
    }
  }

  // 2. The same content under another number (then: the same but for typography).
  for (const key of ['content', 'typo'] as const) {
    const oldByContent = new Map<string, number[]>()
    for (let p = olds.length - 1; p >= 0; p--) if (oldFree(p)) push(oldByContent, olds[p]![key], p)
    for (const n of news) {
      if (oldOf[n.pos]! >= 0) continue
      const o = firstFree(oldByContent.get(n[key]), oldFree)
      if (o !== undefined) pair(o, n.pos, 'moved')
    }
  }

  // 3. Sections: where most of an old section's matched rules went; else the section of the same title.
  const sectionMap = mapSections(olds, news, oldOf, oldSide.sectionTitles, newSide.sectionTitles)

  // 4. Content equal once cited numbers are renumbered (old → new numbers of the rows matched so far).
  const numberMap = new Map<string, string>()
  news.forEach((n) => {
    const o = oldOf[n.pos]!
    if (o >= 0 && !numberMap.has(olds[o]!.row.number)) numberMap.set(olds[o]!.row.number, n.row.number)
  })
  for (const [from, to] of sectionMap) if (from !== to) numberMap.set(from, to)
  const renumber = (s: string) => s.replace(CITED, (m) => numberMap.get(m) ?? m)
  const newByTypo = new Map<string, number[]>()
  for (let p = news.length - 1; p >= 0; p--) if (newFree(p)) push(newByTypo, news[p]!.typo, p)
  for (const o of olds) {
    if (newOf[o.pos]! >= 0 || !CITED.test(o.content)) continue
    CITED.lastIndex = 0
    const renumbered = typographyKey(renumber(o.content))
    if (renumbered === o.typo) continue
    const n = firstFree(newByTypo.get(renumbered), newFree)
    if (n === undefined) continue
    pair(o.pos, n, news[n]!.row.number === o.row.number ? 'edited' : 'moved')
    refsRenumbered[n] = 1
  }

  // 5. Near matches: rules first, so that subrules can follow the rules their parents became.
  const numberNow = () => {
    const map = new Map<string, string>()
    news.forEach((n) => {
      const o = oldOf[n.pos]!
      if (o >= 0 && !map.has(olds[o]!.row.number)) map.set(olds[o]!.row.number, n.row.number)
    })
    return map
  }
  // Each new number that continues an old rule, and that rule's number (for parentsAgree).
  const previousOf = () => {
    const map = new Map<string, string>()
    for (const n of news) if (oldOf[n.pos]! >= 0) map.set(n.row.number, olds[oldOf[n.pos]!]!.row.number)
    return map
  }
  // An old and a new rule (by number) that are titles with no word in common: "Trample" and
  // "Flanking" (a renamed keyword keeps some: "Totem armor" and "Umbra armor").
  const oldRule = new Map(olds.map((o) => [o.row.number, o]))
  const newRule = new Map(news.map((n) => [n.row.number, n]))
  const otherTitles = (from: string, to: string) => {
    const [o, n] = [oldRule.get(from), newRule.get(to)]
    return o !== undefined && n !== undefined && o.ids.length <= TITLE_WORDS && n.ids.length <= TITLE_WORDS && diceOfIds(o.ids, n.ids) === 0
  }
  for (const subrules of [false, true]) {
    const agree = parentsAgree(subrules ? numberNow() : new Map<string, string>(), subrules ? previousOf() : new Map<string, string>(), otherTitles)
    const isLevel = (p: Prepared) => p.parsed !== null && (p.parsed.letters !== '') === subrules
    const oldBySection = new Map<string, Prepared[]>()
    for (const o of olds) if (newOf[o.pos]! < 0 && isLevel(o)) push(oldBySection, sectionMap.get(o.section) ?? o.section, o)
    // The words of each section's free old rows, for what a new row's tests cost.
    const sectionWords = new Map<string, number>()
    for (const [section, list] of oldBySection) sectionWords.set(section, list.reduce((sum, o) => sum + o.ids.length, 0))
    const candidates: { o: number; n: number; sim: number; same: boolean }[] = []
    const nearMisses: typeof candidates = []
    for (const n of news) {
      if (oldOf[n.pos]! >= 0 || !isLevel(n)) continue
      const section = oldBySection.get(n.section) ?? []
      if (!spend(work, 'step 5', (sectionWords.get(n.section) ?? 0) + section.length * n.ids.length)) break
      for (const o of section) {
        const same = o.row.number === n.row.number && (sectionMap.get(o.section) ?? o.section) === n.section
        // Dice before the parent rules: it is the cheaper test, and most pairs fail it.
        const sim = diceOfIds(o.ids, n.ids)
        if (sim < Math.min(editThreshold, moveThreshold) || (!same && subrules && !agree(o, n))) continue
        if (sim >= (same ? editThreshold : moveThreshold)) {
          if (spend(work, 'step 5', KEPT_PAIR)) candidates.push({ o: o.pos, n: n.pos, sim, same })
        } else if (!same && sim >= editThreshold && spend(work, 'step 5', KEPT_PAIR)) nearMisses.push({ o: o.pos, n: n.pos, sim, same })
      }
    }
    // A rule whose number now holds another text, and whose own text (reworded) went to another
    // number of its parent rule: that number is its successor when clearly closer than its own.
    const sameSim = new Map(candidates.filter((c) => c.same).map((c) => [c.o, c.sim]))
    for (const c of nearMisses) if (c.sim >= (sameSim.get(c.o) ?? Infinity) + CLEARLY_CLOSER) candidates.push(c)
    candidates.sort((a, b) => b.sim - a.sim || Number(b.same) - Number(a.same) || a.n - b.n || a.o - b.o)
    for (const c of candidates) {
      if (oldOf[c.n]! >= 0 || newOf[c.o]! >= 0) continue
      pair(c.o, c.n, c.same ? 'edited' : 'moved', c.sim)
    }
  }

  // Steps 6–8 pair what the steps before left: an edit under the same number, else a move.
  const pairLeft = (pairs: { o: number; n: number; sim: number }[]) => {
    for (const c of pairs) pair(c.o, c.n, olds[c.o]!.row.number === news[c.n]!.row.number ? 'edited' : 'moved', c.sim)
  }
  const templated = () => templatedPair(sectionMap, parentsAgree(numberNow(), previousOf(), otherTitles))
  // 6. Nearly the same text anywhere else (across sections, at whole-chapter rewrites).
  pairLeft(crossSectionPairs(olds, news, oldOf, newOf, templated(), moveThreshold, (words) => spend(work, 'step 6', words)))
  // 7. What is left at the same place, reworded.
  pairLeft(rewordedPairs(olds, news, oldOf, newOf, numberNow(), sectionMap, REWORDED, (words) => spend(work, 'step 7', words)))
  // 8. Long texts left anywhere, rewritten in their terms.
  pairLeft(crossSectionPairs(olds, news, oldOf, newOf, templated(), REWRITTEN.plain, (words) => spend(work, 'step 8', words), { weighted: REWRITTEN.weighted }))

  return assemble(oldSide, newSide, olds, news, { oldOf, newOf, kind, refsRenumbered, sims }, { withWords: options.wordChanges ?? true, work, wordWork: options.wordWork ?? WORD_DIFF_WORK })
}

/**
 * The first free position of `list` (positions in descending order) that passes `test`. The taken
 * positions at its end are dropped as they are met: many rows of one key cost a pass, not a square.
 */
function firstFree(list: number[] | undefined, free: (p: number) => boolean, test?: (p: number) => boolean): number | undefined {
  if (list === undefined) return undefined
  while (list.length > 0 && !free(list[list.length - 1]!)) list.pop()
  for (let i = list.length - 1; i >= 0; i--) {
    const p = list[i]!
    if (free(p) && (test === undefined || test(p))) return p
  }
  return undefined
}

/**
 * Map each old section to a new one: the new section where most of its matched rows went (a section
 * inserted before it shifts 720 → 721), else the new section of the same title, else itself.
 */
function mapSections(olds: Prepared[], news: Prepared[], oldOf: Int32Array, oldTitles: Map<string, string>, newTitles: Map<string, string>): Map<string, string> {
  const votes = new Map<string, Map<string, number>>()
  news.forEach((n) => {
    const o = oldOf[n.pos]!
    if (o < 0) return
    const from = olds[o]!.section
    const tally = votes.get(from) ?? new Map<string, number>()
    tally.set(n.section, (tally.get(n.section) ?? 0) + 1)
    votes.set(from, tally)
  })
  const byTitle = new Map<string, string>()
  for (const [number, title] of newTitles) if (!byTitle.has(title)) byTitle.set(title, number)
  const map = new Map<string, string>()
  for (const section of new Set(olds.map((o) => o.section))) {
    const tally = votes.get(section)
    if (tally) {
      const best = [...tally].sort((a, b) => b[1] - a[1] || Number(b[0] === section) - Number(a[0] === section))[0]!
      map.set(section, best[0])
      continue
    }
    const title = oldTitles.get(section)
    map.set(section, (title !== undefined ? byTitle.get(title) : undefined) ?? section)
  }
  return map
}

export { similarity, typographyKey } from './row-keys.js'
