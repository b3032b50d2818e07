/**
 * A bound on the work of the matcher's pair tests in one diff (a row against a candidate: a content
 * or a similarity test), counted in the words the two rows hold, as a test's time grows with them;
 * rule_links' search for splits and merges has one too. The steps that compare free rows with each
 * other are quadratic in what is left free: real releases stay far below the bound (MATCH_WORK in
 * diff.ts), but a crafted export of rows built from a dozen words took minutes at 16,000 rows, and
 * would take hours at more. When the budget runs out, the rows still free stay added and removed,
 * and the diff says so in a warning. Same input, same pairs: the tests run in row order.
 */
export interface WorkBudget {
  readonly limit: number
  /** Words left to compare. */
  left: number
  /** Where the budget ran out (`step 5`), or null. */
  ranOutIn: string | null
}

/**
 * What a pair kept for ranking costs, in words: it is held until its step ends, so that the budget
 * bounds memory too (a real diff keeps about a thousand pairs a step; a crafted one, millions).
 */
export const KEPT_PAIR = 1000

export function workBudget(limit: number): WorkBudget {
  return { limit, left: limit, ranOutIn: null }
}

/** Take `words` words of pair tests (one test, or a row's tests at once): false once the budget has run out (the first place to find it so is kept). */
export function spend(work: WorkBudget, where: string, words: number): boolean {
  if (work.left > 0) {
    work.left -= words
    return true
  }
  work.ranOutIn ??= where
  return false
}

const STOPPED = 'the matcher stopped at its bound'

/** The diff's warning when the budget ran out, or null. */
export function budgetWarning(work: WorkBudget, added: number, removed: number): string | null {
  if (work.ranOutIn === null) return null
  return `${STOPPED} of ${work.limit.toLocaleString('en-US')} words compared, in ${work.ranOutIn}: of the ${removed} removed and ${added} added rules, some were not compared with every candidate and may be moves or edits`
}

/** Whether a diff's warning is the one budgetWarning gives. */
export const isBudgetWarning = (warning: string) => warning.startsWith(STOPPED)
