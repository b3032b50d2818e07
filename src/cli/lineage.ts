import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { EtlError } from '../core/errors.js'
import { safeText } from '../core/report-format.js'
import { openExport, type ExportFormat } from '../exports/read/read-export.js'
import { lineageFinder, lineageHeader, versionLines, type LineageRow } from '../history/lineage.js'
import type { RuleLink } from '../history/rule-links.js'
import { inputFileChunks, MAX_EXPORT_BYTES } from '../io/files.js'
import { ok, type CommandResult } from './_shared.js'

const FORMATS: ExportFormat[] = ['jsonl', 'parquet', 'csv']

/** The rows of a history folder's rules_history table, streamed (the table can hold 400,000 rows). */
async function* historyRows(dir: string): AsyncGenerator<LineageRow> {
  const format = FORMATS.find((f) => existsSync(join(dir, `rules_history.${f}`)))
  if (!format) throw new EtlError('INPUT_MISSING', `lineage: ${dir} holds no rules_history table (run mtg-rules history first)`)
  const file = join(dir, `rules_history.${format}`)
  const stream = await openExport(file, format, await inputFileChunks(file, MAX_EXPORT_BYTES))
  if (stream.table.name !== 'rules_history') throw new EtlError('EXPORT_MALFORMED', `lineage: ${file} is not a rules_history table`)
  for await (const batch of stream.batches) for (const { record } of batch) yield record as unknown as LineageRow
}

/** The split-from and merged-from rows of the history's rule_links table (none when it has none). */
async function splitsAndMerges(dir: string): Promise<RuleLink[]> {
  const format = FORMATS.find((f) => existsSync(join(dir, `rule_links.${f}`)))
  if (!format) return []
  const file = join(dir, `rule_links.${format}`)
  const stream = await openExport(file, format, await inputFileChunks(file, MAX_EXPORT_BYTES))
  const out: RuleLink[] = []
  for await (const batch of stream.batches) for (const { record } of batch) if (record.relation !== 'continues') out.push(record as unknown as RuleLink)
  return out
}

/**
 * mtg-rules lineage HISTORY_DIR NUMBER [--at DATE] [--json]: the rules NUMBER names in the release in
 * force on DATE (default the newest release), and what each said in every release. Only a rule that
 * holds the number in that release answers; a number given twice there answers with both rules.
 */
export async function run(args: string[]): Promise<CommandResult> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { at: { type: 'string' }, json: { type: 'boolean', default: false } } })
  if (positionals.length !== 2) throw new EtlError('USAGE', `mtg-rules lineage: expected HISTORY_DIR and NUMBER, got ${positionals.length} arguments`)
  const [dir, number] = positionals as [string, string]
  const at = values.at ?? null
  if (at !== null && !/^\d{4}-\d{2}-\d{2}$/.test(at)) throw new EtlError('USAGE', `mtg-rules lineage: --at takes a date as YYYY-MM-DD, not "${at}"`)
  const finder = lineageFinder(number, at)
  for await (const row of historyRows(dir)) finder.add(row)
  const target = finder.finish()
  if (target === null) throw new EtlError('INPUT_MISSING', `lineage: ${dir} holds no release on or before ${at}`)
  // A number no rule holds on that date answers only without --at (with the last release that had it).
  const ids = target.ids.length > 0 ? target.ids : at === null && target.lastSeen ? target.lastSeen.ids : []
  if (ids.length === 0) {
    const last = target.lastSeen ? `; it was last in ${target.lastSeen.release}` : ''
    throw new EtlError('INPUT_MISSING', at === null && !target.lastSeen ? `lineage: no rule ${number} in ${dir}` : `lineage: no rule ${number} in the rules in force on ${at} (release ${target.release})${last}`)
  }
  const versions = new Map<string, LineageRow[]>(ids.map((id) => [id, []]))
  for await (const row of historyRows(dir)) versions.get(row.rule_id)?.push(row)
  const parts = await splitsAndMerges(dir)
  const lineages = ids.map((id) => {
    const held = new Set(versions.get(id)!.map((v) => `${v.release} ${v.number}`))
    const links = parts.filter((l) => held.has(`${l.release} ${l.number}`) || held.has(`${l.previous_release} ${l.previous_number}`))
    return { rule_id: id, versions: versions.get(id)!, links }
  })
  if (values.json) {
    // One rule: its rule_id and versions at the top, as before; several: each in `lineages`.
    const one = lineages.length === 1 ? lineages[0]! : null
    return ok(JSON.stringify({ number, at, release: target.release, ...(one ? one : {}), lineages }, null, 2) + '\n')
  }
  const lines = [lineageHeader(target, ids), '']
  for (const l of lineages) {
    lines.push(...versionLines(l.rule_id, l.versions, safeText))
    // What one previous_number cannot say: the rules it was split from or merged with (rule_links).
    for (const k of l.links) lines.push(`${k.release}  ${k.number} ${k.relation} ${k.previous_number} (${k.previous_release}), similarity ${k.similarity}`)
    lines.push('')
  }
  return ok(lines.join('\n'))
}
