import { boundedDiagnostics } from '../core/bounded.js'
import { diagnostics } from '../core/diagnostics.js'
import { compareRuleNumbers, parentNumber, type RuleNumber } from '../core/rule-number.js'
import type { Diagnostic } from '../core/types.js'
import { whereOf, type Check } from './types.js'

/**
 * `order`: each row's number must come after the previous row's in CR order (section, rule as an
 * integer, subrule letters), and a subrule needs its rule before it (unless that rule is simply
 * missing from its place, a `gap`).
 */
export const orderCheck: Check = {
  code: 'order',
  start({ numbers }) {
    const out = boundedDiagnostics()
    // Rules seen: the rows before (the shared index of numbers), and rules taken as missing from
    // their place (few) — not a set of every rule's number, which grows with the rows.
    const assumed = new Set<string>()
    let previous: { text: string; parsed: RuleNumber } | null = null
    return {
      visit(row) {
        const parsed = row.parsed
        if (!parsed) return
        const number = row.number!
        const where = { ...whereOf(row), number }
        // An equal number is a duplicate, which duplicate-number reports.
        if (previous && compareRuleNumbers(previous.parsed, parsed) > 0) out.push(diagnostics.order(previous.text, where))
        const parent = parentNumber(parsed)
        if (parent !== null && !assumed.has(parent) && !numbers.has(parent, { ...parsed, letters: '' })) {
          // The rule's place lies between the previous row and this one: the rule is missing, which
          // `gap` reports; its other subrules are then not orphans either.
          if (previous && compareRuleNumbers(previous.parsed, { ...parsed, letters: '' }) < 0) assumed.add(parent)
          else out.push(diagnostics.orphanSubrule(parent, where))
        }
        previous = { text: number, parsed }
      },
      finish: () => out,
    }
  },
}
