import { sortDiagnostics } from '../core/diagnostics.js'
import type { Diagnostic } from '../core/types.js'
import { danglingReferenceCheck } from './dangling-reference.js'
import { duplicateNumberCheck } from './duplicate-number.js'
import { exampleAsRowCheck } from './example-as-row.js'
import { gapCheck } from './gap.js'
import { indexCheck } from './index-sequence.js'
import { orderCheck } from './order.js'
import { schemaCheck } from './schema.js'
import { NumberIndex } from './number-index.js'
import type { Check, CheckContext, CheckInput, CheckRow } from './types.js'

export type { Check, CheckContext, CheckInput, CheckRow } from './types.js'
export { collectReferences } from './dangling-reference.js'

/** Every check, in the order their diagnostics are explained in the README. */
export const checks: Check[] = [schemaCheck, duplicateNumberCheck, orderCheck, indexCheck, gapCheck, danglingReferenceCheck, exampleAsRowCheck]

/** Every check at once over rows that arrive one at a time (a stream); finish() sorts the diagnostics. */
export function startChecks(context: CheckContext, only: Check[] = checks) {
  const numbers = new NumberIndex()
  const visitors = only.map((c) => c.start({ ...context, numbers }))
  let ordinal = 0
  return {
    visit(row: CheckRow) {
      for (const v of visitors) v.visit(row, ordinal)
      if (row.number !== null) numbers.add(row.number, row.parsed, ordinal)
      ordinal++
    },
    finish: (): Diagnostic[] => sortDiagnostics(visitors.flatMap((v) => v.finish())),
  }
}

/** Run every check over rows in memory; diagnostics come back sorted by place, then code. */
export function runChecks(input: CheckInput, only: Check[] = checks): Diagnostic[] {
  const session = startChecks(input, only)
  for (const row of input.rows) session.visit(row)
  return session.finish()
}
