import { diagnostics } from '../diagnostics.js'
import type { Diagnostic } from '../types.js'
import { whereOf, type Check } from './types.js'

type Occurrence = { line?: number; position?: number }

/** `duplicate-number`: a number that names more than one row; reported at each repeat, listing all. */
export const duplicateNumberCheck: Check = {
  code: 'duplicate-number',
  start() {
    // Where each number first stood, kept as plain numbers: this map is as large as the rules are many.
    const first = new Map<string, number>()
    const lines: number[] = []
    const positions: number[] = []
    const repeats = new Map<string, Occurrence[]>()
    return {
      visit(row, ordinal) {
        if (row.number === null) return
        const at = first.get(row.number)
        if (at === undefined) {
          first.set(row.number, ordinal)
          lines[ordinal] = row.line ?? -1
          positions[ordinal] = row.position ?? -1
          return
        }
        const list = repeats.get(row.number) ?? [occurrence(lines[at]!, positions[at]!)]
        list.push(occurrence(row.line ?? -1, row.position ?? -1))
        repeats.set(row.number, list)
      },
      finish() {
        const out: Diagnostic[] = []
        for (const [number, list] of repeats) {
          const listed = list.map((o) => (o.line !== undefined ? { line: o.line } : { position: o.position }))
          for (const repeat of list.slice(1)) out.push(diagnostics.duplicateNumber(number, listed, whereOf({ number, parsed: null, text: null, examples: [], index: null, record: {}, ...repeat })))
        }
        return out
      },
    }
  },
}

function occurrence(line: number, position: number): Occurrence {
  const o: Occurrence = {}
  if (line >= 0) o.line = line
  if (position >= 0) o.position = position
  return o
}
