import { existsSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { append } from '../core/diagnostics.js'
import { EtlError } from '../core/errors.js'
import { isIsoDate } from '../core/calendar.js'
import { parseRuleNumber } from '../core/rule-number.js'
import { safeText } from '../core/report-format.js'
import type { ExportFormat } from '../exports/read/read-export.js'
import { lineageFinder, lineageHeader, versionLines, type LineageRow } from '../history/lineage.js'
import type { RuleLink } from '../history/rule-links.js'
import { rowsWhere, LINEAGE_INDEX_FILE, lineageIndexOf, splitAndMergePlaces, type LineageIndex } from '../history/lineage-index.js'
import { inputFileChunks, MAX_EXPORT_BYTES, readFileRanges } from '../io/files.js'
import { schemaCheckedRows } from '../validate/checked-rows.js'
import type { ExportChunks } from '../validate/options.js'
import { ok, type CommandResult } from './_shared.js'

const FORMATS: ExportFormat[] = ['jsonl', 'parquet', 'csv']
// The index of 133 releases is ~5 MB; one far larger is not ours, and parsing it would cost memory.
const MAX_INDEX_BYTES = 64 * 1024 * 1024

/** Where lineage reads rules_history from: the release, number and rule_id of every row, and the whole rows of some rules. */
interface HistorySource {
  /** Every row, or at least every release's first row and every row holding `number`. */
  keys(number: string): AsyncIterable<Pick<LineageRow, 'release' | 'number' | 'rule_id'>> | Iterable<Pick<LineageRow, 'release' | 'number' | 'rule_id'>>
  /** The rows of these rule_ids in table order; null when the source turns out not to hold what it said. */
  versions(ids: string[]): Promise<Map<string, LineageRow[]> | null>
  /** The split-from and merged-from rows of rule_links (none when it has none); null as above. */
  splitsAndMerges(): Promise<RuleLink[] | null>
}

/** The records of a table of a history folder, streamed (rules_history can hold 400,000 rows), each checked by its schema. */
const tableRecords = (file: string, format: ExportFormat, chunks: ExportChunks, table: string) => schemaCheckedRows('lineage', file, format, chunks, table)

const bytesOnce = (bytes: Uint8Array): ExportChunks =>
  (async function* () {
    yield bytes
  })()

/** The whole table, read once for the keys and once more for the versions. */
function wholeTable(dir: string): HistorySource {
  const format = FORMATS.find((f) => existsSync(join(dir, `rules_history.${f}`)))
  if (!format) throw new EtlError('INPUT_MISSING', `lineage: ${dir} holds no rules_history table (run mtg-rules history first)`)
  const file = join(dir, `rules_history.${format}`)
  const rows = async () => tableRecords(file, format, await inputFileChunks(file, MAX_EXPORT_BYTES), 'rules_history') as AsyncGenerator<LineageRow>
  return {
    keys: async function* () {
      yield* await rows()
    },
    async versions(ids) {
      const versions = new Map<string, LineageRow[]>(ids.map((id) => [id, []]))
      for await (const row of await rows()) versions.get(row.rule_id)?.push(row)
      return versions
    },
    async splitsAndMerges() {
      const format = FORMATS.find((f) => existsSync(join(dir, `rule_links.${f}`)))
      if (!format) return []
      const links = join(dir, `rule_links.${format}`)
      const out: RuleLink[] = []
      for await (const record of tableRecords(links, format, await inputFileChunks(links, MAX_EXPORT_BYTES), 'rule_links')) if (record.relation !== 'continues') out.push(record as unknown as RuleLink)
      return out
    },
  }
}

/**
 * The lines of rules_history.jsonl that lineage-index.json places, read by the JSONL reader; null
 * when there is no index for the file as it is now.
 */
function indexed(dir: string): HistorySource | null {
  const file = join(dir, 'rules_history.jsonl')
  const linksFile = join(dir, 'rule_links.jsonl')
  const indexFile = join(dir, LINEAGE_INDEX_FILE)
  // Regular files only (a FIFO or a device is left to the readers, which refuse it in time), of sizes
  // the readers take.
  if (![file, linksFile, indexFile].every((f) => existsSync(f) && statSync(f).isFile())) return null
  if (statSync(indexFile).size > MAX_INDEX_BYTES || statSync(file).size > MAX_EXPORT_BYTES || statSync(linksFile).size > MAX_EXPORT_BYTES) return null
  let index: LineageIndex | null
  try {
    index = lineageIndexOf(JSON.parse(readFileSync(indexFile, 'utf8')), statSync(file).size, statSync(linksFile).size)
  } catch {
    return null
  }
  // An empty table is read as such (the reader says so).
  if (index === null || index.lineBytes.length === 0) return null
  const all = index
  return {
    keys: (number) => rowsWhere(all, (n, _, first) => first || n === number),
    versions: (ids) => checked(async () => {
      const wanted = new Set(ids)
      const places = rowsWhere(all, (_, id) => wanted.has(id))
      const versions = new Map<string, LineageRow[]>(ids.map((id) => [id, []]))
      let i = 0
      for await (const row of tableRecords(file, 'jsonl', bytesOnce(readFileRanges(file, places)), 'rules_history') as AsyncGenerator<LineageRow>) {
        const place = places[i++]
        if (!place || row.release !== place.release || row.number !== place.number || row.rule_id !== place.rule_id) return null
        versions.get(row.rule_id)!.push(row)
      }
      return i === places.length ? versions : null
    }),
    splitsAndMerges: () => checked(async () => {
      const places = splitAndMergePlaces(all)
      if (places.length === 0) return []
      const out: RuleLink[] = []
      for await (const record of tableRecords(linksFile, 'jsonl', bytesOnce(readFileRanges(linksFile, places)), 'rule_links')) {
        if (record.relation === 'continues') return null
        out.push(record as unknown as RuleLink)
      }
      return out.length === places.length ? out : null
    }),
  }
}

/** The rules `number` names on `at` and their versions; null when the source does not hold what it said. */
async function lineageOf(source: HistorySource, dir: string, number: string, at: string | null) {
  const finder = lineageFinder(number, at)
  for await (const row of source.keys(number)) finder.add(row)
  const target = finder.finish()
  if (target === null) throw new EtlError('INPUT_MISSING', `lineage: ${dir} holds no release on or before ${at}`)
  // A number no rule holds on that date answers only without --at (with the last release that had it).
  const ids = target.ids.length > 0 ? target.ids : at === null && target.lastSeen ? target.lastSeen.ids : []
  if (ids.length === 0) {
    const last = target.lastSeen ? `; it was last in ${target.lastSeen.release}` : ''
    throw new EtlError('INPUT_MISSING', at === null && !target.lastSeen ? `lineage: no rule ${number} in ${dir}` : `lineage: no rule ${number} in the rules in force on ${at} (release ${target.release})${last}`)
  }
  const versions = await source.versions(ids)
  const parts = versions && (await source.splitsAndMerges())
  return versions === null || parts === null ? null : { target, ids, versions, parts }
}

/** What the index placed, or null when those bytes are not the rows it said (unreadable ones included). */
async function checked<T>(read: () => Promise<T | null>): Promise<T | null> {
  try {
    return await read()
  } catch (e) {
    if (e instanceof EtlError) return null
    throw e
  }
}

/**
 * mtg-rules lineage HISTORY_DIR NUMBER [--at DATE] [--json]: the rules NUMBER names in the release in
 * force on DATE (default the newest release), and what each said in every release. Only a rule that
 * holds the number in that release answers; a number given twice there answers with both rules.
 */
export async function run(args: string[]): Promise<CommandResult> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { at: { type: 'string' }, json: { type: 'boolean', default: false } } })
  if (positionals.length !== 2) throw new EtlError('USAGE', `mtg-rules lineage: expected HISTORY_DIR and NUMBER, got ${positionals.length} arguments`)
  const [dir, written] = positionals as [string, string]
  // Read by the rule-number grammar before any file: the table holds nothing else (a section, 100.1l,
  // 701.5A would cost a read of the whole table to answer "no rule"). "701.5." is how the CR writes it.
  const number = written.endsWith('.') ? written.slice(0, -1) : written
  if (!parseRuleNumber(number)) throw new EtlError('USAGE', `mtg-rules lineage: "${written}" is no rule number: a section, a period, the rule, then any subrule letters (702.19, 702.19b; never l or o)`)
  const at = values.at ?? null
  if (at !== null && !isIsoDate(at)) {
    const shaped = /^\d{4}-\d{2}-\d{2}$/.test(at)
    throw new EtlError('USAGE', `mtg-rules lineage: --at takes a date as YYYY-MM-DD, ${shaped ? `and "${at}" is no day of the calendar` : `not "${at}"`}`)
  }
  // The index when it is there and right; the whole table when not. A rule the index does not place
  // is looked for in the whole table too: every line it places is checked, but an absence cannot be.
  const fast = indexed(dir)
  const answer = fast ? await lineageOf(fast, dir, number, at).catch((e) => (e instanceof EtlError && e.code === 'INPUT_MISSING' ? null : Promise.reject(e))) : null
  const { target, ids, versions, parts } = answer ?? (await lineageOf(wholeTable(dir), dir, number, at))!
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
    append(lines, versionLines(l.rule_id, l.versions, safeText))
    // What one previous_number cannot say: the rules it was split from or merged with (rule_links).
    for (const k of l.links) lines.push(`${k.release}  ${k.number} ${k.relation} ${k.previous_number} (${k.previous_release}), similarity ${k.similarity}`)
    lines.push('')
  }
  return ok(lines.join('\n'))
}

