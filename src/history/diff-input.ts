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
  if (read.table.name === 'glossary') return { label: shown, rows: [], sectionTitles: new Map(), glossary: glossaryOf(name, read), table: 'glossary' }
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

/** A named file's bytes. */
export interface NamedBytes {
  name: string
  bytes: Uint8Array
}

/**
 * A dataset folder's side: its rules export's, with the section titles of its rules_meta export
 * and the terms of its glossary export where the folder has them, so that a diff of two folders
 * says what a diff of their CR texts says.
 */
export async function diffSideOfFolder(rules: NamedBytes, label: string | undefined, meta: NamedBytes | null, glossary: NamedBytes | null): Promise<DiffSide> {
  const side = await diffSideOf(rules.name, rules.bytes, label)
  if (side.table === 'glossary') throw new EtlError('USAGE', `diff: ${rules.name} holds the glossary table, not the rules`)
  const sectionTitles = new Map<string, string>()
  if (meta !== null) {
    const read = await readExportFile(meta.name, meta.bytes, 'diff')
    if (read.table.name !== 'rules_meta') throw new EtlError('USAGE', `diff: ${meta.name} holds the ${read.table.name} table, not rules_meta`)
    for (const { record } of read.records) if (typeof record.section === 'string' && typeof record.section_title === 'string') sectionTitles.set(record.section, record.section_title)
  }
  if (glossary === null) return { ...side, sectionTitles }
  const read = await readExportFile(glossary.name, glossary.bytes, 'diff')
  if (read.table.name !== 'glossary') throw new EtlError('USAGE', `diff: ${glossary.name} holds the ${read.table.name} table, not the glossary`)
  return { ...side, sectionTitles, glossary: glossaryOf(glossary.name, read) }
}

/** The terms of a glossary export, as the changelog compares them. */
function glossaryOf(name: string, read: Awaited<ReturnType<typeof readExportFile>>): NonNullable<DiffSide['glossary']> {
  return read.records.map(({ record, position }) => {
    const { term, definition, obsolete } = record
    if (typeof term !== 'string' || typeof definition !== 'string') throw new EtlError('EXPORT_MALFORMED', `diff: ${name}: row ${position} is not a glossary row (run mtg-rules validate on it)`)
    return { term, definition, obsolete: obsolete === true }
  })
}
