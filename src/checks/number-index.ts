import { letterRank, parseRuleNumber, type RuleNumber } from '../rule-number.js'

/**
 * Rule numbers met so far, each with the ordinal of its first row. A number is packed into one small
 * integer (section, rule and subrule letters, 10 bits each), so that 3,000,000 numbers cost a map of
 * integers rather than of strings; the odd number that does not fit is kept as its string.
 */
export class NumberIndex {
  private readonly packed = new Map<number, number>()
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
