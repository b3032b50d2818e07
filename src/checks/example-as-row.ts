import { boundedDiagnostics } from '../core/bounded.js'
import { diagnostics } from '../core/diagnostics.js'
import { extractReferences } from '../core/citations.js'
import { whereOf, type Check } from './types.js'

/**
 * `example-as-row`: a row that is really an example: its text starts with "Example", or it repeats
 * an earlier row's number and cites that number itself (the public dataset's second 704.5a says
 * "you'd lose the game due to rule 704.5a"). A rule may cite itself ("This applies to all parts of
 * rule 409.1." closes 409.1 in 2001): alone, that is no sign of an example.
 */
export const exampleAsRowCheck: Check = {
  code: 'example-as-row',
  start({ numbers }) {
    const out = boundedDiagnostics()
    return {
      visit(row) {
        if (row.number === null || row.text === null) return
        const repeated = numbers.has(row.number, row.parsed)
        const where = { ...whereOf(row), number: row.number }
        if (/^Example/.test(row.text)) out.push(diagnostics.exampleAsRow('its text starts with “Example”', where))
        // Most texts never mention their own number: look for the citation only when they do.
        else if (repeated && row.text.includes(row.number) && extractReferences(row.text, row.number).some((r) => r.target === row.number)) {
          out.push(diagnostics.exampleAsRow(`it repeats rule ${row.number} and its text cites rule ${row.number} itself`, where))
        }
      },
      finish: () => out,
    }
  },
}
