import ruleSchema from '../../schemas/rule.schema.json' with { type: 'json' }

/** Subrule letters in CR order: the alphabet without `l` and `o`. */
export const SUBRULE_LETTERS = 'abcdefghijkmnpqrstuvwxyz'

// The syntax lives in the row schema only: section, rule, optional subrule letters (never l or o).
const RULE_NUMBER = new RegExp(ruleSchema.properties.number.pattern)

export interface RuleNumber {
  section: number
  rule: number
  /** Subrule letters, '' for a rule. */
  letters: string
}

/** Parse `704.5a` into its parts; null when the string is not a rule number. */
export function parseRuleNumber(value: string): RuleNumber | null {
  if (!RULE_NUMBER.test(value)) return null
  // As the pattern has it: three digits, a period, the rule's digits, then the letters.
  let end = 4
  while (end < value.length && value.charCodeAt(end) < 97) end++
  return { section: Number(value.slice(0, 3)), rule: Number(value.slice(4, end)), letters: value.slice(end) }
}

/**
 * Position of subrule letters in CR order, 1-based: a=1 … z=24, then aa=25, ab=26, …; 0 for none.
 * Returns NaN for letters that are not subrule letters.
 */
export function letterRank(letters: string): number {
  if (letters === '') return 0
  const n = SUBRULE_LETTERS.length
  let rank = 0
  for (const ch of letters) {
    const i = SUBRULE_LETTERS.indexOf(ch)
    if (i < 0) return NaN
    rank = rank * n + i + 1
  }
  return rank
}

/** Inverse of letterRank. */
export function lettersAt(rank: number): string {
  const n = SUBRULE_LETTERS.length
  let out = ''
  while (rank > 0) {
    const i = (rank - 1) % n
    out = SUBRULE_LETTERS[i] + out
    rank = Math.floor((rank - 1) / n)
  }
  return out
}

/** Compare two rule numbers in CR order: section, rule, then subrule letters. */
export function compareRuleNumbers(a: RuleNumber, b: RuleNumber): number {
  return a.section - b.section || a.rule - b.rule || letterRank(a.letters) - letterRank(b.letters)
}

/** The number a subrule belongs to (`702.10c` → `702.10`), or null for a rule. */
export function parentNumber(n: RuleNumber): string | null {
  return n.letters === '' ? null : `${n.section}.${n.rule}`
}
