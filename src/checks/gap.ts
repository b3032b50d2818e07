import { boundedDiagnostics } from '../core/bounded.js'
import { diagnostics } from '../core/diagnostics.js'
import { compareRuleNumbers, lettersAt, letterRank, type RuleNumber } from '../core/rule-number.js'
import type { Diagnostic } from '../core/types.js'
import { whereOf, type Check } from './types.js'

/**
 * `gap`: a skipped rule number within a section (100.1 then 100.3) or a skipped subrule letter
 * (100.1a then 100.1c; l and o are never expected), or a rule missing above its subrules (724.2,
 * then 724.3a). Rows out of order are left to `order`.
 */
export const gapCheck: Check = {
  code: 'gap',
  start() {
    const out = boundedDiagnostics()
    let prev: RuleNumber | null = null
    let prevText: string | null = null
    return {
      visit(row) {
        const cur = row.parsed
        if (!cur) return
        const where = { ...whereOf(row), number: row.number! }
        const missing = firstMissing(prev, cur)
        if (missing !== null) out.push(diagnostics.gap(prev && prev.section === cur.section ? prevText : null, missing, where))
        else if (missingRule(prev, cur)) out.push(diagnostics.missingRule(prevText!, where))
        if (!prev || compareRuleNumbers(prev, cur) < 0) {
          prev = cur
          prevText = row.number
        }
      },
      finish: () => out,
    }
  },
}

/** A subrule right after another rule than its own (724.2, then 724.3a): its rule is missing. */
function missingRule(prev: RuleNumber | null, cur: RuleNumber): boolean {
  if (prev === null || cur.letters === '' || compareRuleNumbers(prev, cur) >= 0) return false
  return prev.section !== cur.section || prev.rule !== cur.rule
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
