import { diagnostics } from '../diagnostics.js'
import { extractReferences } from '../references.js'
import { perRow, whereOf, type Check } from './types.js'

/**
 * `example-as-row`: a row that is really an example: its text starts with "Example", or it cites
 * its own number (the public dataset's second 704.5a says "you'd lose the game due to rule 704.5a").
 */
export const exampleAsRowCheck: Check = perRow('example-as-row', (row) => {
  if (row.number === null || row.text === null) return []
  const where = { ...whereOf(row), number: row.number }
  if (/^Example/.test(row.text)) return [diagnostics.exampleAsRow('its text starts with “Example”', where)]
  // Most texts never mention their own number: look for the citation only when they do.
  if (row.text.includes(row.number) && extractReferences(row.text, row.number).some((r) => r.target === row.number)) {
    return [diagnostics.exampleAsRow(`its text cites rule ${row.number} itself`, where)]
  }
  return []
})
