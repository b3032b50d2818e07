import { toCheckRow } from '../../src/checks/run-checks.js'
import { runChecks } from '../../src/checks/index.js'
import type { Check, CheckInput, CheckRow } from '../../src/checks/types.js'

/** Check rows from `number: text` pairs, index in order, positions 0..n-1. */
export function rowsOf(...specs: (string | [string, string, string[]?])[]): CheckRow[] {
  return specs.map((spec, position) => {
    const [number, text, examples] = typeof spec === 'string' ? [spec, `Text of ${spec}.`, []] : spec
    return toCheckRow({ number, text, examples: examples ?? [], index: position }, { position })
  })
}

export const inputOf = (rows: CheckRow[]): CheckInput => ({ rows, glossary: [], sections: [] })

/** One check over rows in memory, through the same session a stream uses. */
export const run = (check: Check, input: CheckInput) => runChecks(input, [check])
