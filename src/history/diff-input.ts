import type { DiffSide } from './diff.js'
import { EtlError } from '../core/errors.js'
import { glossaryRows } from '../build/companions.js'
import { normalizeGlossary, normalizeRules } from '../text/normalize.js'
import { parseDocument } from '../text/parse.js'
import { decode, splitLines } from '../text/decode.js'
import { readExportFile, sourceKindOf } from '../validate/validate.js'
import type { RuleRow } from '../core/types.js'

/**
 * One side of a diff from a file's bytes: CR text (labelled by its effective date) or a rules
 * export of ours (labelled `label`, such as the effective date its folder's manifest gives, else by
 * its file name).
 */
export async function diffSideOf(name: string, bytes: Uint8Array, label?: string): Promise<DiffSide> {
  if (sourceKindOf(name) === 'cr-text') {
    const doc = parseDocument(splitLines(decode(bytes, name).text), name)
    // As the glossary table gives them: a term without its "(Obsolete)", which is a flag.
    const glossary = glossaryRows(normalizeGlossary(doc.glossary)).map(({ term, definition, obsolete }) => ({ term: term as string, definition: definition as string, obsolete: obsolete === true }))
    return { label: doc.effectiveDate ?? name, rows: normalizeRules(doc.rules).map((r) => r.row), sectionTitles: new Map(doc.sections.map((s) => [s.number, s.title])), glossary }
  }
  const read = await readExportFile(name, bytes, 'diff')
  const shown = label ?? name.replace(/^.*[/\\]/, '')
  if (read.table.name === 'glossary') {
    const glossary = read.records.map(({ record, position }) => {
      const { term, definition, obsolete } = record
      if (typeof term !== 'string' || typeof definition !== 'string') throw new EtlError('EXPORT_MALFORMED', `diff: ${name}: row ${position} is not a glossary row (run mtg-rules validate on it)`)
      return { term, definition, obsolete: obsolete === true }
    })
    return { label: shown, rows: [], sectionTitles: new Map(), glossary, table: 'glossary' }
  }
  if (read.table.name !== 'rules') throw new EtlError('USAGE', `diff: ${name} holds the ${read.table.name} table, not the rules or the glossary`)
  const rows: RuleRow[] = read.records.map(({ record, position }) => {
    const { number, text, examples } = record
    // Every field as the rules table types it (an example that is not a string is not made one).
    if (typeof number !== 'string' || typeof text !== 'string' || !Array.isArray(examples) || !examples.every((e) => typeof e === 'string')) {
      throw new EtlError('EXPORT_MALFORMED', `diff: ${name}: row ${position} is not a rule row (run mtg-rules validate on it)`)
    }
    return { number, text, examples: examples as string[], index: position }
  })
  return { label: shown, rows, sectionTitles: new Map() }
}
