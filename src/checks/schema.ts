import { Ajv2020 } from 'ajv/dist/2020.js'
import type { ValidateFunction } from 'ajv'
import glossarySchema from '../../schemas/glossary.schema.json' with { type: 'json' }
import referenceSchema from '../../schemas/reference.schema.json' with { type: 'json' }
import ruleSchema from '../../schemas/rule.schema.json' with { type: 'json' }
import rulesMetaSchema from '../../schemas/rules-meta.schema.json' with { type: 'json' }
import { diagnostics } from '../diagnostics.js'
import type { Diagnostic } from '../types.js'
import { whereOf, type Check } from './types.js'

/** The row schema of each exported table. */
export const ROW_SCHEMAS: Record<string, object> = {
  rules: ruleSchema,
  glossary: glossarySchema,
  rules_meta: rulesMetaSchema,
  references: referenceSchema,
}

let ajv: Ajv2020 | undefined
const compiled = new Map<string, ValidateFunction>()

/** The compiled validator of a table's rows, compiled once per process. */
export function rowValidator(table: string): ValidateFunction {
  let validate = compiled.get(table)
  if (!validate) {
    ajv ??= new Ajv2020({ allErrors: true })
    validate = ajv.compile(ROW_SCHEMAS[table]!)
    compiled.set(table, validate)
  }
  return validate
}

/** One `schema` diagnostic per ajv error of one record. */
export function schemaDiagnostics(table: string, record: unknown, where: { number?: string; line?: number; position?: number }): Diagnostic[] {
  const validate = rowValidator(table)
  if (validate(record)) return []
  return (validate.errors ?? []).map((e) => {
    const path = e.keyword === 'additionalProperties' ? `/${String(e.params.additionalProperty)}` : e.instancePath
    return diagnostics.schema(path, e.message ?? e.keyword, where)
  })
}

/** `schema`: every row must satisfy schemas/rule.schema.json; one diagnostic per ajv error. */
export const schemaCheck: Check = {
  code: 'schema',
  run({ rows }) {
    return rows.flatMap((row) => schemaDiagnostics('rules', row.record, whereOf(row)))
  },
}
