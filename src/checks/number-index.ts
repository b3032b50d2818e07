import { letterRank, parseRuleNumber, type RuleNumber } from '../core/rule-number.js'

/**
 * Rule numbers met so far, each with the ordinal of its first row. A number is packed into one small
 * integer (section, rule and subrule letters, 10 bits each), kept in typed arrays, so that 3,000,000
 * numbers cost ~50 MB rather than a Map's ~150; the odd number that does not fit is kept as its string.
 */
export class NumberIndex {
  private readonly packed = new IntMap()
  private readonly other = new Map<string, number>()

  get(number: string, parsed: RuleNumber | null = parseRuleNumber(number)): number | undefined {
    const key = pack(parsed)
    return key === null ? this.other.get(number) : this.packed.get(key)
  }

  has(number: string, parsed: RuleNumber | null = parseRuleNumber(number)): boolean {
    return this.get(number, parsed) !== undefined
  }

  /** Record the first ordinal of a number (a later one is ignored). */
  add(number: string, parsed: RuleNumber | null, ordinal: number) {
    const key = pack(parsed)
    if (key === null) {
      if (!this.other.has(number)) this.other.set(number, ordinal)
    } else if (!this.packed.has(key)) this.packed.set(key, ordinal)
  }
}

function pack(n: RuleNumber | null): number | null {
  if (n === null) return null
  const section = n.section - 100
  const rank = letterRank(n.letters)
  if (section < 0 || section > 1023 || n.rule > 1023 || !(rank <= 1023)) return null
  return (section << 20) | (n.rule << 10) | rank
}

/** Non-negative int32 keys to int32 values, open addressing in typed arrays (no boxed entries), at most 3/4 full. */
class IntMap {
  private keys = new Int32Array(1 << 12).fill(-1)
  private values = new Int32Array(1 << 12)
  private shift = 32 - 12
  private size = 0

  get(key: number): number | undefined {
    const at = this.slot(key)
    return this.keys[at] === key ? this.values[at] : undefined
  }

  has(key: number): boolean {
    return this.keys[this.slot(key)] === key
  }

  set(key: number, value: number) {
    const at = this.slot(key)
    if (this.keys[at] !== key) {
      this.keys[at] = key
      if (++this.size * 4 > this.keys.length * 3) {
        this.values[at] = value
        this.grow()
        return
      }
    }
    this.values[at] = value
  }

  /** Where `key` is, or the empty slot where it would go. */
  private slot(key: number): number {
    const mask = this.keys.length - 1
    // The high bits of a Fibonacci hash: packed numbers differ mostly in their low bits.
    let at = Math.imul(key, 0x9e3779b1) >>> this.shift
    while (this.keys[at] !== -1 && this.keys[at] !== key) at = (at + 1) & mask
    return at
  }

  private grow() {
    const { keys, values } = this
    this.keys = new Int32Array(keys.length * 2).fill(-1)
    this.values = new Int32Array(keys.length * 2)
    this.shift--
    for (let i = 0; i < keys.length; i++) {
      if (keys[i] === -1) continue
      const at = this.slot(keys[i]!)
      this.keys[at] = keys[i]!
      this.values[at] = values[i]!
    }
  }
}
