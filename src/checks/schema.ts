import { Ajv2020 } from 'ajv/dist/2020.js'
import type { ValidateFunction } from 'ajv'
import ruleSchema from '../../schemas/rule.schema.json' with { type: 'json' }
import { diagnostics } from '../diagnostics.js'
import type { Diagnostic } from '../types.js'
import { whereOf, type Check } from './types.js'

let compiled: ValidateFunction | undefined
function validator(): ValidateFunction {
  compiled ??= new Ajv2020({ allErrors: true }).compile(ruleSchema)
  return compiled
}

/** `schema`: every row must satisfy schemas/rule.schema.json; one diagnostic per ajv error. */
export const schemaCheck: Check = {
  code: 'schema',
  run({ rows }) {
    const validate = validator()
    const out: Diagnostic[] = []
    for (const row of rows) {
      if (validate(row.record)) continue
      for (const e of validate.errors ?? []) {
        const path = e.keyword === 'additionalProperties' ? `/${String(e.params.additionalProperty)}` : e.instancePath
        out.push(diagnostics.schema(path, e.message ?? e.keyword, whereOf(row)))
      }
    }
    return out
  },
}
