import { diagnostics } from '../diagnostics.js'
import type { Diagnostic } from '../types.js'
import { whereOf, type Check, type CheckRow } from './types.js'

/** `duplicate-number`: a number that names more than one row; reported at each repeat, listing all. */
export const duplicateNumberCheck: Check = {
  code: 'duplicate-number',
  run({ rows }) {
    const byNumber = new Map<string, CheckRow[]>()
    for (const row of rows) {
      if (row.number === null) continue
      const list = byNumber.get(row.number)
      if (list) list.push(row)
      else byNumber.set(row.number, [row])
    }
    const out: Diagnostic[] = []
    for (const [number, list] of byNumber) {
      if (list.length < 2) continue
      const occurrences = list.map((r) => {
        const { line, position } = whereOf(r)
        return line !== undefined ? { line } : { position }
      })
      for (const repeat of list.slice(1)) out.push(diagnostics.duplicateNumber(number, occurrences, whereOf(repeat)))
    }
    return out
  },
}
