import { diagnostics } from '../diagnostics.js'
import type { Diagnostic } from '../types.js'
import type { Check } from './types.js'

type Occurrence = { line?: number; position?: number }
// How many places a duplicate-number diagnostic names; the count is always exact.
const PLACES_LISTED = 5

/**
 * `duplicate-number`: a number that names more than one row. One diagnostic per duplicated number,
 * at its second occurrence, with the count and the first few places: output stays linear in the rows
 * however often one number repeats.
 */
export const duplicateNumberCheck: Check = {
  code: 'duplicate-number',
  start({ numbers: first }) {
    // Where each number first stood: the shared map of numbers (its ordinal), and these columns.
    const lines = new GrowingInt32()
    const positions = new GrowingInt32()
    const repeats = new Map<string, { count: number; places: Occurrence[] }>()
    return {
      visit(row, ordinal) {
        if (row.number === null) return
        const at = first.get(row.number, row.parsed)
        if (at === undefined) {
          lines.set(ordinal, row.line ?? -1)
          positions.set(ordinal, row.position ?? -1)
          return
        }
        let repeat = repeats.get(row.number)
        if (!repeat) {
          repeat = { count: 1, places: [occurrence(lines.get(at), positions.get(at))] }
          repeats.set(row.number, repeat)
        }
        repeat.count++
        if (repeat.places.length < PLACES_LISTED) repeat.places.push(occurrence(row.line ?? -1, row.position ?? -1))
      },
      finish() {
        const out: Diagnostic[] = []
        for (const [number, { count, places }] of repeats) {
          const listed = places.map((o) => (o.line !== undefined ? { line: o.line } : { position: o.position! }))
          out.push(diagnostics.duplicateNumber(number, count, listed, { number, ...places[1] }))
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

/** An Int32Array that grows as it is written: 4 bytes a row, where a JavaScript array of numbers takes 8 and more. */
class GrowingInt32 {
  private data = new Int32Array(1024)

  set(i: number, value: number) {
    if (i >= this.data.length) {
      const grown = new Int32Array(Math.max(i + 1, Math.ceil(this.data.length * 1.5)))
      grown.set(this.data)
      this.data = grown
    }
    this.data[i] = value
  }

  get(i: number): number {
    return i < this.data.length ? this.data[i]! : -1
  }
}
