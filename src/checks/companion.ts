import { boundedDiagnostics } from '../core/bounded.js'
import { diagnostics } from '../core/diagnostics.js'
import type { ExportRecord } from '../core/types.js'
import type { TableSpec } from '../core/tables.js'
import type { Diagnostic } from '../core/types.js'
import { schemaDiagnostics } from './schema.js'

/** What exists in the rules table a companion file goes with. */
export interface KnownRules {
  rules: Set<string>
  sections: Set<string>
  chapters: Set<string>
}

export function knownRulesOf(numbers: Iterable<string>): KnownRules {
  const known: KnownRules = { rules: new Set(), sections: new Set(), chapters: new Set() }
  for (const n of numbers) {
    known.rules.add(n)
    known.sections.add(n.slice(0, 3))
    known.chapters.add(n.slice(0, 1))
  }
  return known
}

function exists(known: KnownRules, target: string): boolean {
  if (target.includes('.')) return known.rules.has(target)
  return target.length === 3 ? known.sections.has(target) : known.chapters.has(target)
}

const str = (v: unknown) => (typeof v === 'string' ? v : null)

/**
 * Check one row of a companion table (glossary, rules_meta, references) against its schema and,
 * when the rules are known, every number it names against them.
 */
export function checkCompanionRecord(table: TableSpec, { record, position, line }: ExportRecord, known: KnownRules | null, reportedColumns?: ReadonlySet<string>): Diagnostic[] {
  const name = str(record.number) ?? str(record.source) ?? (str(record.term) === null ? undefined : `glossary:${record.term}`)
  const where = { ...(name === undefined ? {} : { number: name }), position, ...(line === undefined ? {} : { line }) }
  // Most rows have no finding: the bounded list is made for the first.
  let found: Diagnostic[] | null = null
  const out = { push: (d: Diagnostic) => (found ??= boundedDiagnostics()).push(d) }
  for (const d of schemaDiagnostics(table.name, record, where, reportedColumns)) out.push(d)
  if (!known) return found ?? []
  const mustExist = (field: string, value: unknown) => {
    const v = str(value)
    if (v !== null && !known.rules.has(v)) out.push(diagnostics.unknownNumber(field, v, where))
  }
  if (table.name === 'rules_meta') {
    mustExist('number', record.number)
    mustExist('parent', record.parent)
  } else if (table.name === 'references') {
    const source = str(record.source)
    if (source !== null && !source.startsWith('glossary:')) mustExist('source', source)
    const target = str(record.target)
    if (target !== null && typeof record.resolved === 'boolean') {
      const found = exists(known, target)
      if (found !== record.resolved) out.push(diagnostics.resolvedMismatch(target, record.resolved, where))
      else if (!found) out.push(diagnostics.danglingReference(target, str(record.span) ?? target, { ...where, number: name ?? '?' }))
    }
  } else if (table.name === 'glossary' && Array.isArray(record.see)) {
    for (const target of record.see) {
      if (typeof target === 'string' && !exists(known, target)) out.push(diagnostics.danglingReference(target, target, { ...where, number: name ?? '?' }))
    }
  }
  return found ?? []
}
