import { boundedDiagnostics } from '../core/bounded.js'
import { diagnostics } from '../core/diagnostics.js'
import { whereOf, type Check } from './types.js'

/**
 * `index`: the index column must be 0..n-1 in row order. A shifted run is reported once, where it
 * starts, not at every row of it.
 */
export const indexCheck: Check = {
  code: 'index',
  start() {
    const out = boundedDiagnostics()
    let previous: unknown = -1
    return {
      visit(row, i) {
        const got = row.index
        const continuesRun = typeof got === 'number' && typeof previous === 'number' && got === previous + 1
        if (got !== i && !continuesRun) out.push(diagnostics.index(i, got, whereOf(row)))
        previous = got
      },
      finish: () => out,
    }
  },
}
