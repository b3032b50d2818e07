// lineage-index.json: where each rules_history row is in rules_history.jsonl, and which release,
// number and rule_id it holds, and where rule_links.jsonl's split-from and merged-from rows are, so
// that `lineage` reads the lines of one rule and not 150 MB.
// The index only says where to look: every line read is parsed by the JSONL reader and checked
// against what the index says it holds (lineage falls back to reading the whole table when not).

import type { TableRow } from '../core/tables.js'
import type { LineageRow } from './lineage.js'

export const LINEAGE_INDEX_FILE = 'lineage-index.json'
const TABLE_FILE = 'rules_history.jsonl'
const LINKS_FILE = 'rule_links.jsonl'

export interface LineageIndex {
  table: typeof TABLE_FILE
  /** Size of rules_history.jsonl: the index is for that file only. */
  bytes: number
  /** Releases in the table's order, and how many rows each has (its rows follow one another). */
  releases: string[]
  releaseRows: number[]
  /** Distinct numbers and rule_ids; each row's are indexes into these. */
  numbers: string[]
  ruleIds: string[]
  number: number[]
  rule: number[]
  /** Each row's line in bytes, its `\n` included. */
  lineBytes: number[]
  links: typeof LINKS_FILE
  /** Size of rule_links.jsonl, and where its rows other than `continues` are: [offset, length]. */
  linksBytes: number
  splitsAndMerges: [number, number][]
}

/** A range of bytes of a file. */
export interface Place {
  offset: number
  length: number
}

/** One row as the index places it: what it holds and where its line is. */
export interface IndexedRow extends Pick<LineageRow, 'release' | 'number' | 'rule_id'>, Place {}

/** Collects the index a release at a time, as history writes rules_history.jsonl. */
export function lineageIndexBuilder() {
  const index: LineageIndex = { table: TABLE_FILE, bytes: 0, releases: [], releaseRows: [], numbers: [], ruleIds: [], number: [], rule: [], lineBytes: [], links: LINKS_FILE, linksBytes: 0, splitsAndMerges: [] }
  const numberAt = new Map<string, number>()
  const ruleAt = new Map<string, number>()
  const place = (map: Map<string, number>, list: string[], value: string) => {
    let at = map.get(value)
    if (at === undefined) map.set(value, (at = list.push(value) - 1))
    return at
  }
  /** The length of each of `count` lines of `jsonl` (an error when it holds another count). */
  const lineLengths = (what: string, jsonl: Uint8Array, count: number) => {
    const lengths: number[] = []
    let start = 0
    for (let i = 0; i < count; i++) {
      const end = jsonl.indexOf(0x0a, start)
      if (end < 0) throw new Error(`lineage-index: ${what} has fewer JSONL lines than rows`)
      lengths.push(end + 1 - start)
      start = end + 1
    }
    if (start !== jsonl.length) throw new Error(`lineage-index: ${what} has more JSONL lines than rows`)
    return lengths
  }
  return {
    /** A release's rows, and the JSONL lines written for them (one per row, in order). */
    add(release: string, chunk: TableRow[], jsonl: Uint8Array): void {
      const lengths = lineLengths(release, jsonl, chunk.length)
      chunk.forEach((row, i) => {
        index.lineBytes.push(lengths[i]!)
        index.number.push(place(numberAt, index.numbers, row.number as string))
        index.rule.push(place(ruleAt, index.ruleIds, row.rule_id as string))
      })
      index.releases.push(release)
      index.releaseRows.push(chunk.length)
      index.bytes += jsonl.length
    },
    /** A release's rule_links rows, and the JSONL lines written for them. */
    addLinks(release: string, links: TableRow[], jsonl: Uint8Array): void {
      let offset = index.linksBytes
      lineLengths(`${release}'s rule_links`, jsonl, links.length).forEach((length, i) => {
        if (links[i]!.relation !== 'continues') index.splitsAndMerges.push([offset, length])
        offset += length
      })
      index.linksBytes += jsonl.length
    },
    finish: (): LineageIndex => index,
  }
}

/**
 * The index as read back, or null when it is not one for a rules_history.jsonl of `bytes` bytes and
 * a rule_links.jsonl of `linksBytes` (any flaw at all).
 */
export function lineageIndexOf(value: unknown, bytes: number, linksBytes: number): LineageIndex | null {
  const v = value as Partial<LineageIndex> | null
  if (typeof v !== 'object' || v === null || v.table !== TABLE_FILE || v.bytes !== bytes || v.links !== LINKS_FILE || v.linksBytes !== linksBytes) return null
  // In file order, none overlapping: what they place is at most the file.
  let end = 0
  const inOrder = (p: unknown) => Array.isArray(p) && p.length === 2 && p.every(Number.isInteger) && p[0]! >= end && p[1]! > 0 && (end = p[0]! + p[1]!) <= linksBytes
  if (!Array.isArray(v.splitsAndMerges) || !v.splitsAndMerges.every(inOrder)) return null
  const lists = [v.releases, v.releaseRows, v.numbers, v.ruleIds, v.number, v.rule, v.lineBytes]
  if (!lists.every(Array.isArray)) return null
  const index = v as LineageIndex
  const rows = index.lineBytes.length
  if (index.number.length !== rows || index.rule.length !== rows || index.releaseRows.length !== index.releases.length) return null
  if (!index.releases.every((r) => typeof r === 'string') || !index.numbers.every((n) => typeof n === 'string') || !index.ruleIds.every((n) => typeof n === 'string')) return null
  const inRange = (list: number[], size: number) => list.every((n) => Number.isInteger(n) && n >= 0 && n < size)
  if (!inRange(index.number, index.numbers.length) || !inRange(index.rule, index.ruleIds.length) || !inRange(index.lineBytes, bytes + 1)) return null
  if (index.releaseRows.reduce((a, n) => a + (Number.isInteger(n) && n >= 0 ? n : NaN), 0) !== rows) return null
  if (index.lineBytes.reduce((a, n) => a + n, 0) !== bytes) return null
  return index
}

/** Where rule_links.jsonl's split-from and merged-from rows are. */
export function splitAndMergePlaces(index: LineageIndex): Place[] {
  return index.splitsAndMerges.map(([offset, length]) => ({ offset, length }))
}

/**
 * The rows of the index that `pick` keeps, in the table's order; it is told each row's number and
 * rule_id, and whether the row is its release's first.
 */
export function rowsWhere(index: LineageIndex, pick: (number: string, ruleId: string, first: boolean) => boolean): IndexedRow[] {
  const out: IndexedRow[] = []
  let row = 0
  let offset = 0
  for (const [r, release] of index.releases.entries()) {
    for (let first = row, end = row + index.releaseRows[r]!; row < end; row++) {
      const length = index.lineBytes[row]!
      const number = index.numbers[index.number[row]!]!
      const rule_id = index.ruleIds[index.rule[row]!]!
      if (pick(number, rule_id, row === first)) out.push({ release, number, rule_id, offset, length })
      offset += length
    }
  }
  return out
}
