import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { EtlError } from '../core/errors.js'
import { safeText } from '../core/report-format.js'
import { inputFileChunks, MAX_EXPORT_BYTES } from '../io/files.js'
import { openExport, type ExportFormat } from '../exports/read-export.js'
import { ok, type CommandResult } from './_shared.js'

interface Version {
  release: string
  number: string
  change: string
  previous_number: string | null
  text: string
  examples: string[]
  rule_id: string
}

const FORMATS: ExportFormat[] = ['jsonl', 'parquet', 'csv']

/** The rows of a history folder's rules_history table, streamed (the table can hold 300,000 rows). */
async function* historyRows(dir: string): AsyncGenerator<Version> {
  const format = FORMATS.find((f) => existsSync(join(dir, `rules_history.${f}`)))
  if (!format) throw new EtlError('INPUT_MISSING', `lineage: ${dir} holds no rules_history table (run mtg-rules history first)`)
  const file = join(dir, `rules_history.${format}`)
  const stream = await openExport(file, format, await inputFileChunks(file, MAX_EXPORT_BYTES))
  if (stream.table.name !== 'rules_history') throw new EtlError('EXPORT_MALFORMED', `lineage: ${file} is not a rules_history table`)
  for await (const batch of stream.batches) for (const { record } of batch) yield record as unknown as Version
}

/**
 * mtg-rules lineage HISTORY_DIR NUMBER [--at DATE] [--json]: what rule NUMBER (as numbered in the
 * release in force at DATE, default the newest) said in every release, and when it changed.
 */
export async function run(args: string[]): Promise<CommandResult> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { at: { type: 'string' }, json: { type: 'boolean', default: false } } })
  if (positionals.length !== 2) throw new EtlError('USAGE', `mtg-rules lineage: expected HISTORY_DIR and NUMBER, got ${positionals.length} arguments`)
  const [dir, number] = positionals as [string, string]
  const at = values.at
  if (at !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(at)) throw new EtlError('USAGE', `mtg-rules lineage: --at takes a date as YYYY-MM-DD, not "${at}"`)
  // First pass: the rule_id of NUMBER in the last release on or before DATE that has it.
  let found: Version | null = null
  for await (const v of historyRows(dir)) if (v.number === number && (at === undefined || v.release <= at) && (!found || v.release >= found.release)) found = v
  if (!found) throw new EtlError('INPUT_MISSING', `lineage: no rule ${number} in ${dir}${at ? ` on or before ${at}` : ''}`)
  const id = found.rule_id
  const versions: Version[] = []
  for await (const v of historyRows(dir)) if (v.rule_id === id) versions.push(v)
  if (values.json) return ok(JSON.stringify({ number, at: at ?? null, rule_id: id, versions }, null, 2) + '\n')
  const lines = [`rule ${number}${at ? ` as of ${at}` : ''}: lineage ${id}, ${versions.length} releases`, '']
  for (const v of versions) {
    const renumbered = v.previous_number !== null && v.previous_number !== v.number ? ` (was ${v.previous_number})` : ''
    lines.push(`${v.release}  ${v.number}${renumbered}  ${v.change}`)
    if (v.change !== 'unchanged') {
      lines.push(`    ${safeText(v.text)}`)
      for (const e of v.examples) lines.push(`    Example: ${safeText(e)}`)
    }
  }
  return ok(lines.join('\n') + '\n')
}
