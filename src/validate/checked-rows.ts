import { schemaDiagnostics } from '../checks/schema.js'
import { EtlError } from '../core/errors.js'
import type { Diagnostic } from '../core/types.js'
import { openExport, type ExportFormat, type ExportStream } from '../exports/read/read-export.js'
import type { ExportChunks } from './options.js'

/**
 * The rows of a table file that a command shows (site, lineage), streamed, each checked by its
 * table's row schema as it is read: the command takes every field as the schema types it (a text
 * that is a number, or examples nested 200,000 deep, would crash it). EtlError on the first error of
 * form or refused row, naming the file and the row; `validate` gives the whole report.
 */
export async function* schemaCheckedRows(command: string, file: string, format: ExportFormat, chunks: ExportChunks, table?: string): AsyncGenerator<Record<string, unknown>> {
  const stream = await openExport(file, format, chunks)
  try {
    yield* checkedRecords(command, file, stream, table)
  } finally {
    stream.close()
  }
}

async function* checkedRecords(command: string, file: string, stream: ExportStream, table?: string): AsyncGenerator<Record<string, unknown>> {
  if (table !== undefined && stream.table.name !== table) throw new EtlError('EXPORT_MALFORMED', `${command}: ${file} is not a ${table} table`)
  const refuse = (why: string) => new EtlError('EXPORT_MALFORMED', `${command}: ${file}: ${why} (validate it for the whole report)`)
  const formError = (list: Diagnostic[]) => list.find((d) => d.severity === 'error')
  const early = formError(stream.diagnostics)
  if (early) throw refuse(early.message)
  const rowTable = stream.table.name
  for await (const batch of stream.batches) {
    for (const { record, position } of batch) {
      // The schema check's own diagnostics (a key not echoed, a pattern explained by its schema).
      const found = schemaDiagnostics(rowTable, record, { position })
      if (found.length > 0) {
        // A wrong type (ajv: "must be string") says the most: a text that is a number also fails
        // the text's other rules.
        const first = found.find((d) => / must be (string|integer|array|boolean|number|null|object)\b/.test(d.message)) ?? found[0]!
        throw refuse(`row ${position}: ${first.message}`)
      }
      yield record
    }
  }
  const late = formError(stream.lateDiagnostics())
  if (late) throw refuse(late.message)
}
