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
 * when the rules are known, every number it names against them. A row without findings (nearly
 * every row) makes no object: its place and its list are made for its first finding.
 */
export function checkCompanionRecord(table: TableSpec, { record, position, line }: ExportRecord, known: KnownRules | null, reportedColumns?: ReadonlySet<string>): readonly Diagnostic[] {
  let found: Diagnostic[] | null = null
  let place: Where | null = null
  const where = (): Where => (place ??= placeOf(record, position, line))
  const push = (d: Diagnostic) => void (found ??= boundedDiagnostics()).push(d)
  const schema = schemaDiagnostics(table.name, record, where, reportedColumns)
  for (let i = 0; i < schema.length; i++) push(schema[i]!)
  if (!known) return found ?? NONE
  if (table.name === 'rules_meta') {
    const number = str(record.number)
    if (number !== null && !known.rules.has(number)) push(diagnostics.unknownNumber('number', number, where()))
    const parent = str(record.parent)
    if (parent !== null && !known.rules.has(parent)) push(diagnostics.unknownNumber('parent', parent, where()))
  } else if (table.name === 'references') {
    const source = str(record.source)
    if (source !== null && !source.startsWith('glossary:') && !known.rules.has(source)) push(diagnostics.unknownNumber('source', source, where()))
    const target = str(record.target)
    if (target !== null && typeof record.resolved === 'boolean') {
      const exists_ = exists(known, target)
      if (exists_ !== record.resolved) push(diagnostics.resolvedMismatch(target, record.resolved, where()))
      else if (!exists_) push(diagnostics.danglingReference(target, str(record.span) ?? target, { ...where(), number: where().number ?? '?' }))
    }
  } else if (table.name === 'glossary' && Array.isArray(record.see)) {
    for (const target of record.see) {
      if (typeof target === 'string' && !exists(known, target)) push(diagnostics.danglingReference(target, target, { ...where(), number: where().number ?? '?' }))
    }
  }
  return found ?? NONE
}

const NONE: readonly Diagnostic[] = Object.freeze([])

type Where = { number?: string; position: number; line?: number }

/** A row's place: its number (a rule, a citation's source, or `glossary:<term>`), row and line. */
function placeOf(record: Record<string, unknown>, position: number, line: number | undefined): Where {
  const name = str(record.number) ?? str(record.source) ?? (str(record.term) === null ? undefined : `glossary:${record.term}`)
  return { ...(name === undefined ? {} : { number: name }), position, ...(line === undefined ? {} : { line }) }
}
