import { parentNumber, parseRuleNumber } from '../core/rule-number.js'
import { diceOfIds, type Prepared } from './row-keys.js'
import { KEPT_PAIR } from './work-budget.js'

/**
 * Step 6 of the matcher (diff.ts): a removed and an added rule anywhere are one moved rule when
 * their texts are nearly the same: at least `threshold` (SAME_SECTION for a pair that could be a
 * templated sentence of two keywords: `templated`) by Dice of their words, and by Dice weighted
 * with each word's rarity in the two releases (inverse document frequency; LONG_SLACK less for long
 * texts that are not templated). The weighting is what tells a move from boilerplate: "Multiple
 * instances of bushido are redundant" shares all words but one with the same sentence of another
 * keyword, and that one word is the rare one. Best pairs first (weighted), each row once; the
 * similarity given is the plain Dice. `longOnly` (step 8): only texts of LONG_TEXT words or more
 * and no templated pair, the weighted Dice held to its own least.
 */
export function crossSectionPairs(olds: Prepared[], news: Prepared[], oldOf: Int32Array, newOf: Int32Array, templated: (o: Prepared, n: Prepared) => boolean, threshold: number, spend: (words: number) => boolean, longOnly?: { weighted: number }): { o: number; n: number; sim: number }[] {
  const freeOld = olds.filter((o) => newOf[o.pos]! < 0 && o.parsed !== null && o.ids.length > 0)
  const freeNew = news.filter((n) => oldOf[n.pos]! < 0 && n.parsed !== null && n.ids.length > 0)
  if (freeOld.length === 0 || freeNew.length === 0) return []
  // Dice first, only for pairs that can reach it: with Dice ≥ t a text misses at most (1 − t/(2 − t))
  // of its words from the other (a third at 0.8), so among its rarest words (fewest free old rows
  // holding them), one more than that are a sure sample: an old row sharing none is no candidate.
  // At an era jump (a thousand rows free on each side) this leaves a few candidates per row instead
  // of every free old row.
  const holders = new Map<number, Prepared[]>()
  for (const o of freeOld) {
    let last = -1
    for (const id of o.ids) {
      if (id === last) continue
      last = id
      const list = holders.get(id)
      if (list) list.push(o)
      else holders.set(id, [o])
    }
  }
  const missable = 1 - threshold / (2 - threshold)
  const near: NearPair[] = []
  for (const n of freeNew) {
    const distinct = [...new Set(n.ids)].sort((a, b) => (holders.get(a)?.length ?? 0) - (holders.get(b)?.length ?? 0) || a - b)
    const sample = distinct.slice(0, Math.floor(missable * n.ids.length + 1e-9) + 1)
    const candidates = new Set<Prepared>()
    let words = 0
    for (const id of sample) {
      for (const o of holders.get(id) ?? []) {
        candidates.add(o)
        words += o.ids.length + n.ids.length
      }
    }
    if (!spend(words)) break
    for (const o of [...candidates].sort((a, b) => a.pos - b.pos)) {
      // A pair step 5 refused by its parent rule: here only a text with hardly a word changed (a
      // subrule moved under another rule) is the same rule.
      // The cheap tests first: lengths, then Dice at the lower threshold, then the parent rules.
      const shorter = Math.min(o.ids.length, n.ids.length)
      if ((longOnly && shorter < LONG_TEXT) || (2 * shorter) / (o.ids.length + n.ids.length) < threshold) continue
      const dice = diceOfIds(o.ids, n.ids)
      if (dice < threshold) continue
      const isTemplated = templated(o, n)
      if (longOnly && isTemplated) continue
      const least = isTemplated ? SAME_SECTION : threshold
      if (dice >= least && spend(KEPT_PAIR)) near.push({ o, n, least, dice })
    }
  }
  // Ranked by the weighted similarity; a long text may lose more of its rare words (LONG_SLACK).
  return bestPairs(near, olds, news, 'weighted', ({ o, n, least, weighted }) => {
    const long = least === threshold && Math.min(o.ids.length, n.ids.length) >= LONG_TEXT
    return weighted >= (longOnly ? longOnly.weighted : long ? least - LONG_SLACK : least)
  })
}

/** A pair of free rows whose plain Dice (`dice`) reached the `least` it needed. */
interface NearPair {
  o: Prepared
  n: Prepared
  least: number
  dice: number
}

/**
 * Of `near`, the pairs `keep` accepts once weighed by rarity, best first by `rank`, each row once;
 * the similarity given is the plain Dice, as other steps give it. Rarity is counted over the rows of
 * the sections these pairs stand in, on both sides: where a templated sentence repeats, it repeats
 * within its section (the keyword abilities of 702).
 */
function bestPairs(near: NearPair[], olds: Prepared[], news: Prepared[], rank: 'weighted' | 'dice', keep: (pair: NearPair & { weighted: number }) => boolean): { o: number; n: number; sim: number }[] {
  if (near.length === 0) return []
  const sections = new Set(near.flatMap(({ o, n }) => [o.section, n.section]))
  const weight = rarity([...olds, ...news].filter((r) => sections.has(r.section)))
  const total = (ids: Int32Array) => {
    let sum = 0
    for (const id of ids) sum += weight[id] ?? 0
    return sum
  }
  const candidates = near
    .map((p) => ({ ...p, weighted: weightedDice(p.o.ids, p.n.ids, weight, total(p.o.ids) + total(p.n.ids)) }))
    .filter(keep)
    .sort((a, b) => b[rank] - a[rank] || a.n.pos - b.n.pos || a.o.pos - b.o.pos)
  const pairs: { o: number; n: number; sim: number }[] = []
  const usedOld = new Set<number>()
  const usedNew = new Set<number>()
  for (const c of candidates) {
    if (usedOld.has(c.o.pos) || usedNew.has(c.n.pos)) continue
    usedOld.add(c.o.pos)
    usedNew.add(c.n.pos)
    pairs.push({ o: c.o.pos, n: c.n.pos, sim: c.dice })
  }
  return pairs
}

/**
 * Step 7 of the matcher (diff.ts): what is left on both sides at the same place is one reworded rule
 * when enough of their words agree (Dice, `least.plain`), and enough of their rare ones (Dice
 * weighted by rarity, `least.weighted`), best pairs first. The same place: two subrules under a rule
 * and its successor (the 2009 rewrite reworded whole lists so: "A player with 0 or less life loses
 * the game." became "If a player has 0 or less life, he or she loses the game."), two numbers
 * equal once the old section is renumbered as its rules were (the 2009 mulligan rule, 101.4 → 103.4,
 * rewritten with its section), or two rows of one level where the new one stands right after the
 * row the old one's predecessor became ("The starting player takes his or her first turn." 103.7 →
 * "… takes their first turn." 103.8, a rule inserted above). The place is what makes the lower
 * similarity safe; the rare words keep two sentences of one template apart (a planeswalker's "put
 * into its owner's graveyard" is not an Aura's).
 */
export function rewordedPairs(olds: Prepared[], news: Prepared[], oldOf: Int32Array, newOf: Int32Array, ruleMap: Map<string, string>, sectionMap: Map<string, string>, least: { plain: number; weighted: number }, spend: (words: number) => boolean): { o: number; n: number; sim: number }[] {
  // Each free old row under the places it may be found at: `p:` its parent's successor, `n:` its
  // number in the renumbered section, `a:` the position right after what its predecessor became.
  const freeOld = new Map<string, Prepared[]>()
  const place = (key: string, o: Prepared) => {
    const list = freeOld.get(key)
    if (list) list.push(o)
    else freeOld.set(key, [o])
  }
  for (const o of olds) {
    if (newOf[o.pos]! >= 0 || o.parsed === null || o.ids.length === 0) continue
    const parent = o.parent
    const successor = parent === null ? undefined : ruleMap.get(parent)
    if (successor !== undefined) place(`p:${successor}`, o)
    const section = sectionMap.get(o.section)
    if (section !== undefined && section !== o.section) place(`n:${section}${o.row.number.slice(o.section.length)}`, o)
    // Right after the row its predecessor became. Not right before its follower's: that anchor gave
    // 2016's 711.8a, merged into 2022's 712.10a, the new 712.10b below it.
    const after = o.pos > 0 ? newOf[o.pos - 1]! : -1
    if (after >= 0) place(`a:${after + 1}`, o)
  }
  const near: NearPair[] = []
  for (const n of news) {
    if (oldOf[n.pos]! >= 0 || n.parsed === null || n.ids.length === 0) continue
    const parent = n.parent
    const neighboured = (freeOld.get(`a:${n.pos}`) ?? []).filter((o) => (o.parsed!.letters === '') === (n.parsed!.letters === ''))
    const there = new Set([...(parent === null ? [] : (freeOld.get(`p:${parent}`) ?? [])), ...(freeOld.get(`n:${n.row.number}`) ?? []), ...neighboured])
    let words = 0
    for (const o of there) words += o.ids.length + n.ids.length
    if (!spend(words)) break
    for (const o of there) {
      const dice = diceOfIds(o.ids, n.ids)
      if (dice >= least.plain && spend(KEPT_PAIR)) near.push({ o, n, least: least.plain, dice })
    }
  }
  return bestPairs(near, olds, news, 'dice', ({ weighted }) => weighted >= least.weighted)
}

// A long text that keeps most of its words (plain Dice at the threshold) may lose more of its
// rare ones: the 2009 rewrite renamed terms throughout ("play" → "cast", "in play" → "on the
// battlefield"). Boilerplate is short or templated, and a templated pair gets no slack.
const LONG_TEXT = 20
const LONG_SLACK = 0.1

// The similarity (plain and weighted) a possibly templated pair needs: a templated sentence of ten
// words with another keyword has 0.9.
const SAME_SECTION = 0.95

/** Each word id's weight: log(rows / rows holding it), so a word in every row weighs nothing. */
export function rarity(rows: Prepared[]): Float64Array {
  let max = 0
  for (const r of rows) for (const id of r.ids) if (id > max) max = id
  const df = new Int32Array(max + 1)
  for (const r of rows) {
    let last = -1
    for (const id of r.ids) if (id !== last) df[(last = id)]!++
  }
  const weight = new Float64Array(max + 1)
  for (let id = 0; id <= max; id++) weight[id] = df[id]! === 0 ? 0 : Math.log((rows.length + 1) / df[id]!)
  return weight
}

/** Dice of two sorted word-id lists, each word counted by its weight (`total`: both lists' weights). */
function weightedDice(a: Int32Array, b: Int32Array, weight: Float64Array, total: number): number {
  return total === 0 ? 0 : (2 * commonWeight(a, b, weight)) / total
}

/** The weight of the words two sorted word-id lists share (each occurrence once). */
export function commonWeight(a: Int32Array, b: Int32Array, weight: Float64Array): number {
  let i = 0
  let j = 0
  let common = 0
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      common += weight[a[i]!] ?? 0
      i++
      j++
    } else if (a[i]! < b[j]!) i++
    else j++
  }
  return common
}

/**
 * Whether a subrule's parent rule became the other's: its successor; or, when the old parent
 * continues as no rule and the new one continues none, the old one rewritten (`otherTitles` says
 * when they are two titles with no word in common, such as two keywords' rules: those never agree, so
 * their templated subrules are never linked); or a new rule that continues a sibling of the subrule
 * (a subrule raised to a rule, its siblings under it).
 * `previousOf`: each new number that continues an old rule, and that rule's number.
 */
export function parentsAgree(ruleMap: Map<string, string>, previousOf: Map<string, string>, otherTitles: (from: string, to: string) => boolean) {
  // The parent of each new rule's predecessor, parsed once (a pair test runs for many pairs).
  const previousParent = new Map<string, string | null>()
  return (o: Prepared, n: Prepared) => {
    const from = o.parent!
    const to = n.parent!
    if (ruleMap.get(from) === to) return true
    const previous = previousOf.get(to)
    if (previous === undefined) return !ruleMap.has(from) && !otherTitles(from, to)
    if (!previousParent.has(to)) {
      const sibling = parseRuleNumber(previous)
      previousParent.set(to, sibling === null ? null : parentNumber(sibling))
    }
    return previousParent.get(to) === from
  }
}

/**
 * Whether step 5 would have refused a pair by its parent rule: two subrules in the same (mapped)
 * section whose parent rules did not become each other — as templated sentences of two keywords are.
 */
export function templatedPair(sectionMap: Map<string, string>, agree: (o: Prepared, n: Prepared) => boolean) {
  return (o: Prepared, n: Prepared) => {
    if ((sectionMap.get(o.section) ?? o.section) !== n.section || o.parsed?.letters === '' || n.parsed?.letters === '') return false
    return !agree(o, n)
  }
}
