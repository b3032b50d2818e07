import type { ErrorObject, ValidateFunction } from 'ajv'
import { boundedDiagnostics } from '../core/bounded.js'
import { append, diagnostics } from '../core/diagnostics.js'
// Compiled from schemas/*.json by scripts/compile-schemas.mjs (make build): no ajv at run time.
import * as compiled from '../generated/validators.js'
import { shownColumn } from '../core/tables.js'
import type { Diagnostic } from '../core/types.js'
import { whereOf, type Check, type CheckRow } from './types.js'

const validators = compiled as unknown as Record<string, ValidateFunction>

/** The compiled validator of a table's rows (rules, glossary, rules_meta, references). */
export function rowValidator(table: string): ValidateFunction {
  const validate = validators[table]
  if (!validate) throw new Error(`schema: no row schema for table ${table}`)
  return validate
}

/** The column an ajv error is about (the first step of its path, or the property it names). */
function columnOf(e: ErrorObject): string {
  if (e.keyword === 'required') return String(e.params.missingProperty)
  if (e.keyword === 'additionalProperties') return String(e.params.additionalProperty)
  return e.instancePath.split('/')[1] ?? ''
}

/**
 * One `schema` diagnostic per ajv error of one record, but for the columns in `reported`: a column
 * the reader already reported missing, unknown or wrongly typed is one finding, not one per row.
 */
export function schemaDiagnostics(table: string, record: unknown, where: { number?: string; line?: number; position?: number }, reported?: ReadonlySet<string>): Diagnostic[] {
  const validate = rowValidator(table)
  if (validate(record)) return []
  const errors = (validate.errors ?? []).filter((e) => reported === undefined || !reported.has(columnOf(e)))
  return errors.map((e) => {
    // A key the schema does not know is named only when shaped like a name: a file that is not data is never echoed.
    const path = e.keyword === 'additionalProperties' ? `/${shownColumn(String(e.params.additionalProperty))}` : e.instancePath
    return diagnostics.schema(path, e.message ?? e.keyword, where)
  })
}

/**
 * What rule.schema.json asks, proved without ajv for the usual row: the number already parsed (by the
 * schema's own pattern), a non-empty text, non-empty example strings, a whole index ≥ 0, and nothing
 * else. Any other row goes to ajv, which says what is wrong.
 */
function plainRuleRow(row: CheckRow): boolean {
  return plainRuleFields(row) && keyCount(row.record) === 4
}

function plainRuleFields(row: CheckRow): boolean {
  const r = row.record
  if (row.parsed === null || typeof r.text !== 'string' || r.text.length === 0 || !Array.isArray(r.examples)) return false
  if (!Number.isInteger(r.index) || (r.index as number) < 0) return false
  for (const e of r.examples) if (typeof e !== 'string' || e.length === 0) return false
  return true
}

function keyCount(record: Record<string, unknown>): number {
  let keys = 0
  for (const _ in record) keys++
  return keys
}

// rules-history.schema.json's release pattern and change values (a test holds them to the schema).
const RELEASE = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/u
const CHANGES = new Set(['added', 'edited', 'moved', 'unchanged', 'typography'])

/**
 * What rules-history.schema.json asks, proved without ajv for the usual row, as plainRuleRow does
 * for the rules: the rules fields, a release date, a non-empty rule_id, a previous number or null,
 * a change of the five, and nothing else. Any other row goes to ajv.
 */
export function plainHistoryRow(row: CheckRow): boolean {
  const r = row.record
  if (!plainRuleFields(row)) return false
  if (typeof r.release !== 'string' || !RELEASE.test(r.release)) return false
  if (typeof r.rule_id !== 'string' || r.rule_id.length === 0) return false
  if (r.previous_number !== null && typeof r.previous_number !== 'string') return false
  if (typeof r.change !== 'string' || !CHANGES.has(r.change)) return false
  return keyCount(r) === 8
}

/** `schema`: every row must satisfy schemas/rule.schema.json; one diagnostic per ajv error. */
export const schemaCheck: Check = {
  code: 'schema',
  start({ reportedColumns }) {
    const out = boundedDiagnostics()
    return {
      visit(row) {
        if (!plainRuleRow(row)) append(out, schemaDiagnostics('rules', row.record, whereOf(row), reportedColumns))
      },
      finish: () => out,
    }
  },
}
