import { sortDiagnostics } from '../diagnostics.js'
import type { Diagnostic } from '../types.js'
import { danglingReferenceCheck } from './dangling-reference.js'
import { duplicateNumberCheck } from './duplicate-number.js'
import { exampleAsRowCheck } from './example-as-row.js'
import { gapCheck } from './gap.js'
import { indexCheck } from './index-sequence.js'
import { orderCheck } from './order.js'
import { schemaCheck } from './schema.js'
import type { Check, CheckInput } from './types.js'

export type { Check, CheckInput, CheckRow } from './types.js'
export { collectReferences } from './dangling-reference.js'

/** Every check, in the order their diagnostics are explained in the README. */
export const checks: Check[] = [
  schemaCheck,
  duplicateNumberCheck,
  orderCheck,
  indexCheck,
  gapCheck,
  danglingReferenceCheck,
  exampleAsRowCheck,
]

/** Run every check over the input; diagnostics come back sorted by place, then code. */
export function runChecks(input: CheckInput): Diagnostic[] {
  return sortDiagnostics(checks.flatMap((c) => c.run(input)))
}
