import type { Reference } from '../core/citations.js'
import { extractReferences } from '../core/citations.js'
import { parentNumber, parseRuleNumber } from '../core/rule-number.js'
import type { CrDocument, GlossaryEntry, LocatedRow } from '../core/types.js'
import type { TableRow } from '../core/tables.js'

const OBSOLETE = /\s*\(Obsolete\)$/

/**
 * Glossary rows: the headword (without its "(Obsolete)" mark, which sets `obsolete`), the
 * definition, its position, and the rules, sections and chapters the definition cites.
 */
export function glossaryRows(entries: GlossaryEntry[]): TableRow[] {
  return entries.map((e, index) => {
    const see = [...new Set(extractReferences(e.definition, `glossary:${e.term}`).map((r) => r.target))]
    return { term: e.term.replace(OBSOLETE, ''), definition: e.definition, index, see, obsolete: OBSOLETE.test(e.term) }
  })
}

/**
 * Where each rule sits: chapter and section with their titles, the parent rule of a subrule (by
 * number structure: 702.10a belongs to 702.10, never to 702.1; null when that rule is missing from
 * the release), depth (1 rule, 2 subrule), source line.
 */
export function rulesMetaRows(doc: CrDocument, rows: LocatedRow[]): TableRow[] {
  const chapterTitles = new Map(doc.chapters.map((c) => [c.number, c.title]))
  const sectionTitles = new Map(doc.sections.map((s) => [s.number, s.title]))
  const numbers = new Set(rows.map((r) => r.row.number))
  return rows.map(({ row, line }) => {
    const parsed = parseRuleNumber(row.number)
    const parent = parsed ? parentNumber(parsed) : null
    const section = row.number.slice(0, 3)
    const chapter = section.slice(0, 1)
    return {
      number: row.number,
      chapter,
      chapter_title: chapterTitles.get(chapter) ?? null,
      section,
      section_title: sectionTitles.get(section) ?? null,
      // A subrule whose rule is missing from the release (a `gap`) has no parent.
      parent: parent !== null && numbers.has(parent) ? parent : null,
      depth: parsed && parsed.letters !== '' ? 2 : 1,
      line: line ?? 0,
    }
  })
}

/** One row per citation, as the dangling-reference check found them. */
export function referenceRows(refs: (Reference & { resolved: boolean })[]): TableRow[] {
  return refs.map((r) => ({ source: r.source, target: r.target, kind: r.kind, resolved: r.resolved, span: r.span, location: r.location ?? 'text' }))
}
