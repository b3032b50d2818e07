import type { ErrorObject, ValidateFunction } from 'ajv'
import { boundedDiagnostics } from '../core/bounded.js'
import { append, diagnostics } from '../core/diagnostics.js'
// Compiled from schemas/*.json by scripts/compile-schemas.mjs (make build): no ajv at run time. The
// schemas alone decide what a valid row is: every row goes through its table's compiled validator.
import * as compiled from '../generated/validators.js'
import { shownColumn } from '../core/tables.js'
import type { Diagnostic } from '../core/types.js'
import { whereOf, type Check } from './types.js'

const validators = compiled as unknown as Record<string, ValidateFunction>

/** The compiled validator of a table's rows (rules, glossary, rules_meta, references). */
export function rowValidator(table: string): ValidateFunction {
  const validate = validators[table]
  if (!validate) throw new Error(`schema: no row schema for table ${table}`)
  return validate
}

/** The compiled validator of a validation report (`report.json`, schemas/report.schema.json). */
export const reportValidator = (): ValidateFunction => rowValidator('report')

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
type Where = { number?: string; line?: number; position?: number }
const NONE: readonly Diagnostic[] = Object.freeze([])

export function schemaDiagnostics(table: string, record: unknown, where: Where | (() => Where), reported?: ReadonlySet<string>): readonly Diagnostic[] {
  const validate = rowValidator(table)
  // A valid row (nearly every row) makes nothing: no list, and its place only when there is a finding.
  if (validate(record)) return NONE
  const at = typeof where === 'function' ? where() : where
  const errors = (validate.errors ?? []).filter((e) => reported === undefined || !reported.has(columnOf(e)))
  return errors.map((e) => {
    // A key the schema does not know is named only when shaped like a name: a file that is not data is never echoed.
    const path = e.keyword === 'additionalProperties' ? `/${shownColumn(String(e.params.additionalProperty))}` : e.instancePath
    // A pattern (or what must not match one) is no explanation: the schema's description says what is wanted.
    const description = e.keyword === 'pattern' || e.keyword === 'not' ? (e.parentSchema as { description?: string } | undefined)?.description : undefined
    return diagnostics.schema(path, `${e.message ?? e.keyword}${description ? ` (${description})` : ''}`, at)
  })
}

/** `schema`: every row must satisfy schemas/rule.schema.json; one diagnostic per ajv error. */
export const schemaCheck: Check = {
  code: 'schema',
  start({ reportedColumns }) {
    const out = boundedDiagnostics()
    return {
      visit(row) {
        append(out, schemaDiagnostics('rules', row.record, whereOf(row), reportedColumns))
      },
      finish: () => out,
    }
  },
}
