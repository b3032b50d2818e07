import { diagnostics } from '../core/diagnostics.js'
import type { Diagnostic } from '../core/types.js'
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
    // Where each number first stood: the shared map of numbers (its ordinal), and these columns —
    // kept only once a row has a line, or a position other than its ordinal (Parquet rows need neither).
    const lines = new SparseColumn(() => -1)
    const positions = new SparseColumn((ordinal) => ordinal)
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

/**
 * A value per ordinal that is `usual(ordinal)` until told otherwise: no memory while every value is
 * the usual one, then an Int32Array that grows as it is written (4 bytes a row, where a JavaScript
 * array of numbers takes 8 and more).
 */
class SparseColumn {
  private data: Int32Array | null = null

  constructor(private readonly usual: (ordinal: number) => number) {}

  set(i: number, value: number) {
    if (this.data === null) {
      if (value === this.usual(i)) return
      this.data = new Int32Array(Math.max(1024, i + 1))
      for (let k = 0; k < i; k++) this.data[k] = this.usual(k)
    }
    if (i >= this.data.length) {
      const grown = new Int32Array(Math.max(i + 1, Math.ceil(this.data.length * 1.5)))
      grown.set(this.data)
      this.data = grown
    }
    this.data[i] = value
  }

  get(i: number): number {
    return this.data !== null && i < this.data.length ? this.data[i]! : this.usual(i)
  }
}
