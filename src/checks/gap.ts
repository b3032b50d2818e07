import { boundedDiagnostics } from '../core/bounded.js'
import { diagnostics } from '../core/diagnostics.js'
import { compareRuleNumbers, lettersAt, letterRank, parentNumber, type RuleNumber } from '../core/rule-number.js'
import { whereOf, type Check } from './types.js'

/**
 * `gap`: a skipped rule number within a section (100.1 then 100.3) or a skipped subrule letter
 * (100.1a then 100.1c; l and o are never expected), or a rule missing above its subrules, once per
 * rule, wherever the subrules stand (724.2, then 724.3a; or 505.54, a typo for 505.5, then 505.5a:
 * their rule never came). Rows out of order are left to `order`.
 */
export const gapCheck: Check = {
  code: 'gap',
  start({ numbers }) {
    const out = boundedDiagnostics()
    let prev: RuleNumber | null = null
    let prevText: string | null = null
    // Rules reported missing (few), so that each one's other subrules are not reported again.
    const reported = new Set<string>()
    return {
      visit(row) {
        const cur = row.parsed
        if (!cur) return
        const where = { ...whereOf(row), number: row.number! }
        const parent = parentNumber(cur)
        const orphan = parent !== null && !reported.has(parent) && !numbers.has(parent, { ...cur, letters: '' })
        const missing = firstMissing(prev, cur)
        if (missing !== null) out.push(diagnostics.gap(prev && prev.section === cur.section ? prevText : null, missing, where))
        else if (orphan) out.push(prevText === null ? diagnostics.gap(null, parent!, where) : diagnostics.missingRule(prevText, where))
        if (parent !== null && orphan) reported.add(parent)
        if (!prev || compareRuleNumbers(prev, cur) < 0) {
          prev = cur
          prevText = row.number
        }
      },
      finish: () => out,
    }
  },
}

function firstMissing(prev: RuleNumber | null, cur: RuleNumber): string | null {
  // Out of order (or repeated): that is for the order and duplicate-number checks to say.
  if (prev !== null && compareRuleNumbers(prev, cur) >= 0) return null
  const sameSection = prev !== null && prev.section === cur.section
  const prevRule = sameSection ? prev.rule : 0
  if (cur.rule > prevRule + 1) return `${cur.section}.${prevRule + 1}`
  if (cur.letters === '') return null
  const prevRank = sameSection && prev.rule === cur.rule ? letterRank(prev.letters) : 0
  const rank = letterRank(cur.letters)
  return rank > prevRank + 1 ? `${cur.section}.${cur.rule}${lettersAt(prevRank + 1)}` : null
}
