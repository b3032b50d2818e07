import { boundedDiagnostics } from '../core/bounded.js'
import { diagnostics } from '../core/diagnostics.js'
import { compareRuleNumbers, type RuleNumber } from '../core/rule-number.js'
import { whereOf, type Check } from './types.js'

/**
 * `order`: each row's number must come after the previous row's in CR order (section, rule as an
 * integer, subrule letters). A subrule whose rule is missing is a `gap`, wherever it stands.
 */
export const orderCheck: Check = {
  code: 'order',
  start() {
    const out = boundedDiagnostics()
    let previous: { text: string; parsed: RuleNumber } | null = null
    return {
      visit(row) {
        const parsed = row.parsed
        if (!parsed) return
        const number = row.number!
        // An equal number is a duplicate, which duplicate-number reports.
        if (previous && compareRuleNumbers(previous.parsed, parsed) > 0) out.push(diagnostics.order(previous.text, { ...whereOf(row), number }))
        previous = { text: number, parsed }
      },
      finish: () => out,
    }
  },
}
