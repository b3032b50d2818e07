import type { CitationSink } from './byte-citations.js'
import { forEachReference, forEachReferenceAfter, type ReferenceKind } from '../../core/citations.js'
import { letterRank, lettersAt } from '../../core/rule-number.js'

/**
 * A proof, row by row, that the rules checks (schema, duplicate-number, order, index, gap,
 * dangling-reference, example-as-row) find nothing in a rules export, in a fraction of what running
 * them costs: no row objects, no diagnostics, only what "nothing to report" implies. Each row's
 * number must be the one right after the previous row's (100.1, 100.1a, 100.1b, 100.2, 101.1, …:
 * anything else is a finding of order, gap or duplicate-number), its index its position, its text
 * and examples non-empty, its text not an "Example", and every citation must resolve.
 *
 * The proof is one-sided: failing means only "not proved" — the exact checks then run and say what
 * is wrong (or that nothing is). It never says clean where the checks would report anything: the
 * property tests hold it to that on damaged exports.
 *
 * A file may be proved in parts, one per core: each part proves its own rows from wherever they
 * start, and mergeProofs joins the parts (see ProofPart).
 */
export class CleanProof implements CitationSink {
  private failed = false
  /** Rows proved so far. */
  rows = 0
  private firstIndex = 0
  private first: RuleKey | null = null
  private prevSection = 0
  private prevRule = 0
  private prevRank = 0
  /** Packed numbers (section, rule, letters rank; 10 bits each), strictly increasing. */
  private keys = new Int32Array(1 << 12)
  private readonly sections = new Uint8Array(1000)
  /**
   * Citation targets not resolved by the rows before them (forward or dangling), each once: rule
   * numbers as packed keys, any other target with its kind.
   */
  private readonly pendingKeys = new Set<number>()
  private readonly pending = new Map<string, string>()
  /** Targets found to resolve (they stay resolved: rows are only added), so as not to look again. */
  private readonly resolvedKeys = new Set<number>()
  private readonly resolved = new Set<string>()

  get proved(): boolean {
    return !this.failed
  }

  fail(): false {
    this.failed = true
    return false
  }

  /** One row, from its number's parts (`rank`: the subrule letters' letterRank) and its index. */
  number(section: number, rule: number, rank: number, index: number): boolean {
    if (this.failed) return false
    if (!(section >= 100 && section <= 999 && rule >= 1 && rule <= 1023 && rank >= 0 && rank <= 1023)) return this.fail()
    if (this.rows === 0) {
      this.first = { section, rule, rank }
      this.firstIndex = index
    } else if (index !== this.firstIndex + this.rows || !followsParts(this.prevSection, this.prevRule, this.prevRank, section, rule, rank)) return this.fail()
    // The previous number as its parts, not an object a row: 3M rows were as many objects.
    this.prevSection = section
    this.prevRule = rule
    this.prevRank = rank
    this.sections[section] = 1
    if (this.rows === this.keys.length) {
      const grown = new Int32Array(this.keys.length * 2)
      grown.set(this.keys)
      this.keys = grown
    }
    this.keys[this.rows++] = packKey(section, rule, rank)
    return true
  }

  /**
   * Rows whose numbers were proved elsewhere (numberValues, see page-kernels.ts) to follow one
   * another and this proof's last row, each index one more than the one before and the first
   * `nextIndex` (or, after no row, `firstIndex`): their packed keys, and a flag for each section
   * they are in (1000 of them).
   */
  keyRun(keys: Int32Array, firstIndex: number, sections: Uint8Array): void {
    if (this.failed || keys.length === 0) return
    if (this.rows === 0) {
      this.first = keyParts(keys[0]!)
      this.firstIndex = firstIndex
    }
    if (this.rows + keys.length > this.keys.length) {
      const grown = new Int32Array(Math.max(this.keys.length * 2, this.rows + keys.length))
      grown.set(this.keys.subarray(0, this.rows))
      this.keys = grown
    }
    this.keys.set(keys, this.rows)
    this.rows += keys.length
    const last = keyParts(keys[keys.length - 1]!)
    this.prevSection = last.section
    this.prevRule = last.rule
    this.prevRank = last.rank
    for (let s = 100; s < 1000; s++) if (sections[s] !== 0) this.sections[s] = 1
  }

  /** The last row's packed key, -1 before the first row. */
  get lastKey(): number {
    return this.rows === 0 ? -1 : packKey(this.prevSection, this.prevRule, this.prevRank)
  }

  /** The index the next row must have (after a first row). */
  get nextIndex(): number {
    return this.firstIndex + this.rows
  }

  /** One row from its number as written: the schema's pattern, or the proof fails. */
  numberText(number: string, index: number): boolean {
    const m = RULE_NUMBER.exec(number)
    if (!m) return this.fail()
    return this.number(Number(m[1]), Number(m[2]), letterRank(m[3]!), index)
  }

  /** A rule's text (after number()): non-empty, not an example, its citations resolvable. */
  text(text: string): boolean {
    if (this.failed) return false
    if (text.length === 0 || text.startsWith('Example')) return this.fail()
    return this.cites(text)
  }

  example(example: string): boolean {
    if (this.failed) return false
    if (example.length === 0) return this.fail()
    return this.cites(example)
  }

  /**
   * The citations of a text or example whose other conditions are already proved. `hasDigit`: the
   * caller knows it holds a digit ('' is taken for a text that cannot cite); `found`: what the
   * caller found of its keywords (ByteView.citing's).
   */
  cites(text: string, hasDigit = false, found?: FoundKeywords): boolean {
    if (this.failed || text === '') return !this.failed
    if (found && found.keywordCount >= 0) forEachReferenceAfter(text, found.keywords, found.keywordCount, this.cite)
    else forEachReference(text, this.cite, hasDigit, found?.citeFrom ?? 0)
    return !this.failed
  }

  /** The citations of the text at from..to of `view` (as cites), read from its bytes where they can be. */
  citesIn(view: CitingView, from: number, to: number): boolean {
    if (this.failed) return false
    if (view.citeBytes(from, to, this)) return !this.failed
    return this.cites(view.citing(from, to), true, view)
  }

  private readonly cite = (target: string, kind: string) => this.citeTarget(target, kind as ReferenceKind)

  citeTarget(target: string, kind: ReferenceKind): void {
    if (kind === 'rule') {
      const m = RULE_NUMBER.exec(target)
      const rule = m ? Number(m[2]) : 0
      if (m && rule <= 1023) return this.citeRule(Number(m[1]), rule, letterRank(m[3]!))
    }
    // (A target's kind follows from it: a target is pending or resolved under one kind.) One seen
    // unresolved is left for the end, not looked for again: a part of a file cites what the parts
    // before it hold on almost every row.
    if (this.resolved.has(target) || this.pending.has(target)) return
    if (resolves(kind, target, this.keys, this.rows, this.sections)) {
      if (this.resolved.size < MAX_PENDING) this.resolved.add(target)
      return
    }
    this.pending.set(target, kind)
    this.pendingGrew()
  }

  /** A rule number cited, as the schema writes it (`rank`: its letters' letterRank; rule ≤ 1023). */
  citeRule(section: number, rule: number, rank: number): void {
    // Only what a key holds: a part out of range would alias another number's key.
    if (!(section >= 100 && section <= 999 && rule >= 1 && rule <= 1023 && rank >= 0 && rank <= 1023 && (rank | 0) === rank)) return void this.fail()
    const key = packKey(section, rule, rank)
    if (this.resolvedKeys.has(key) || this.pendingKeys.has(key)) return
    if (hasKey(this.keys, this.rows, key)) {
      if (this.resolvedKeys.size < MAX_PENDING) this.resolvedKeys.add(key)
      return
    }
    this.pendingKeys.add(key)
    this.pendingGrew()
  }

  private pendingGrew(): void {
    // A file citing endless distinct missing targets is not worth proving clean.
    if (this.pending.size + this.pendingKeys.size > MAX_PENDING) this.fail()
  }

  /** What this part proved, for mergeProofs (plain data: it crosses from a worker). */
  part(): ProofPart {
    return {
      failed: this.failed,
      rows: this.rows,
      firstIndex: this.firstIndex,
      first: this.first,
      last: this.rows === 0 ? null : { section: this.prevSection, rule: this.prevRule, rank: this.prevRank },
      keys: this.keys.slice(0, this.rows),
      sections: this.sections,
      pending: [...[...this.pendingKeys].map(ruleOfKey), ...[...this.pending].map(([target, kind]) => `${kind} ${target}`)],
    }
  }
}

/** A text source that reads citations from bytes where it can (ByteView). */
export interface CitingView extends FoundKeywords {
  citeBytes(from: number, to: number, sink: CitationSink): boolean
  citing(from: number, to: number): string
}

/** Where a text's citations start (see ByteView.citing): all its keywords (`keywordCount` ≥ 0), or where the first may be. */
export interface FoundKeywords {
  citeFrom: number
  keywords: Int32Array
  keywordCount: number
}

export interface RuleKey {
  section: number
  rule: number
  rank: number
}

/** What one part of a file proved: its rows from wherever they start, and what they leave to resolve. */
export interface ProofPart {
  failed: boolean
  rows: number
  /** The index of its first row, and the first and last numbers (null without rows). */
  firstIndex: number
  first: RuleKey | null
  last: RuleKey | null
  keys: Int32Array
  sections: Uint8Array
  /** Citations (`kind target`) its own rows did not resolve. */
  pending: string[]
}

/**
 * Join the parts of a file, in file order: the row count when together they are clean (the file
 * starts at index 0 with a rule 1, each part starts right after the one before, every citation
 * resolves), else null.
 */
export function mergeProofs(parts: ProofPart[]): number | null {
  let rows = 0
  let last: RuleKey | null = null
  const sections = new Uint8Array(1000)
  for (const p of parts) {
    if (p.failed) return null
    if (p.rows === 0) continue
    const first = p.first!
    if (p.firstIndex !== rows) return null
    if (last === null ? first.rule !== 1 || first.rank !== 0 : !follows(last, first)) return null
    rows += p.rows
    last = p.last
    for (let s = 0; s < 1000; s++) sections[s]! |= p.sections[s]!
  }
  if (rows === 0) return null
  const keys = new Int32Array(rows)
  let at = 0
  for (const p of parts) {
    keys.set(p.keys, at)
    at += p.keys.length
  }
  for (const p of parts) {
    for (const item of p.pending) {
      const space = item.indexOf(' ')
      if (!resolves(item.slice(0, space), item.slice(space + 1), keys, rows, sections)) return null
    }
  }
  return rows
}

/**
 * Whether `cur` is the number right after `prev` with nothing to report: the next subrule of the
 * same rule, the next rule of the same section, or rule 1 of a later section.
 */
function follows(prev: RuleKey, cur: RuleKey): boolean {
  return followsParts(prev.section, prev.rule, prev.rank, cur.section, cur.rule, cur.rank)
}

function followsParts(section: number, rule: number, rank: number, nextSection: number, nextRule: number, nextRank: number): boolean {
  if (nextSection !== section) return nextSection > section && nextRule === 1 && nextRank === 0
  return nextRule === rule ? nextRank === rank + 1 : nextRule === rule + 1 && nextRank === 0
}

function packKey(section: number, rule: number, rank: number): number {
  return ((section - 100) << 20) | (rule << 10) | rank
}

/** Whether a citation's target exists among the rows proved (as KnownTargets decides it). */
function resolves(kind: string, target: string, keys: Int32Array, rows: number, sections: Uint8Array): boolean {
  if (kind === 'chapter') {
    const c = target.charCodeAt(0) - 48
    if (target.length !== 1 || c < 1 || c > 9) return false
    for (let s = c * 100; s < c * 100 + 100; s++) if (sections[s]) return true
    return false
  }
  if (kind === 'section') return /^[1-9]\d\d$/.test(target) && sections[Number(target)] === 1
  const m = RULE_NUMBER.exec(target)
  if (!m) return false
  const rule = Number(m[2])
  return rule <= 1023 && hasKey(keys, rows, packKey(Number(m[1]), rule, letterRank(m[3]!)))
}

/** Whether the sorted keys[0..rows) hold `key`: a binary search, no index to build. */
function hasKey(keys: Int32Array, rows: number, key: number): boolean {
  let lo = 0
  let hi = rows - 1
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1
    const k = keys[mid]!
    if (k === key) return true
    if (k < key) lo = mid + 1
    else hi = mid - 1
  }
  return false
}

/** A packed key's parts. */
function keyParts(key: number): RuleKey {
  return { section: (key >>> 20) + 100, rule: (key >>> 10) & 1023, rank: key & 1023 }
}

/** A pending packed key as mergeProofs reads it. */
function ruleOfKey(key: number): string {
  const { section, rule, rank } = keyParts(key)
  return `rule ${section}.${rule}${lettersAt(rank)}`
}

// The row schema's pattern, with its parts captured (a rule of more than nine digits cannot be proved).
const RULE_NUMBER = /^([1-9][0-9]{2})\.([1-9][0-9]{0,8})([a-km-np-z]{0,2})$/
const MAX_PENDING = 100_000
