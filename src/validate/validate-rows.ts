import { toCheckRow } from '../checks/run-checks.js'
import { checkCompanionRecord, knownRulesOf } from '../checks/companion.js'
import { checks, startChecks } from '../checks/index.js'
import { textContractCheck } from '../checks/text-contract.js'
import { startHistoryChecks } from '../checks/rules-history.js'
import { append, diagnostics, sortDiagnostics } from '../core/diagnostics.js'
import { openExport, type ExportFormat, type ExportStream } from '../exports/read/read-export.js'
import { makeReport, type Report } from '../core/report.js'
import { RULES_HISTORY_TABLE, RULES_TABLE, TABLES } from '../core/tables.js'
import type { Diagnostic } from '../core/types.js'
import type { ExportChunks, ValidateOptions } from './options.js'

/** Every check on every row of an export, as its bytes stream in (validateExportStream without the proof). */
export async function validateExportRows(name: string, format: ExportFormat, chunks: ExportChunks, options: ValidateOptions): Promise<Report> {
  const stream = await openExport(name, format, chunks)
  try {
    return await reportOf(name, format, stream, options)
  } finally {
    // Read to the end unless something failed (the companion's rules among them).
    stream.close()
  }
}

async function reportOf(name: string, format: ExportFormat, stream: ExportStream, options: ValidateOptions): Promise<Report> {
  const reportedColumns = stream.reportedColumns
  const found: Diagnostic[] = []
  let rows = 0
  const notes = [...stream.notes]
  if (stream.table === RULES_HISTORY_TABLE) {
    const history = startHistoryChecks(reportedColumns)
    for await (const batch of stream.batches) {
      for (const r of batch) history.visit(r)
      rows += batch.length
    }
    append(found, history.finish())
  } else if (stream.table === RULES_TABLE) {
    const session = startChecks({ glossary: [], sections: [], reportedColumns }, [...checks, textContractCheck])
    const { onKnownRules } = options
    const numbers: string[] | null = onKnownRules ? [] : null
    for await (const batch of stream.batches) {
      for (const r of batch) {
        session.visit(toCheckRow(r.record, r.line === undefined ? { position: r.position } : { position: r.position, line: r.line }))
        if (numbers && typeof r.record.number === 'string') numbers.push(r.record.number)
      }
      rows += batch.length
    }
    append(found, session.finish())
    if (onKnownRules && numbers) onKnownRules(knownRulesOf(numbers))
  } else {
    const known = (await options.knownRules) ?? null
    // A build's companion names rules of one release; rule_links names rules of two, which no rules table holds.
    if (!known && TABLES.includes(stream.table)) notes.push('no rules table given: the numbers it names were not checked against the rules')
    for await (const batch of stream.batches) {
      for (const r of batch) append(found, checkCompanionRecord(stream.table, r, known, reportedColumns))
      rows += batch.length
    }
  }
  // An export without rows is no dataset, whatever its header says, unless its table may have none
  // (tables.ts); then a note, since an empty JSONL file is also what a file cut to nothing looks like.
  if (rows === 0 && !stream.table.mayBeEmpty) found.push(diagnostics.structure(`the export holds no rows`, 'error'))
  else if (rows === 0) notes.push(`no rows, which the ${stream.table.name} table may have; a file cut to nothing reads the same (a dataset folder's manifest tells them apart)`)
  const all = sortDiagnostics([...stream.diagnostics, ...stream.lateDiagnostics(), ...found])
  return makeReport({ file: name, kind: format, table: stream.table.name, rows }, all, options.strict ?? false, notes)
}
