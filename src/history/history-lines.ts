import { RULES_HISTORY_TABLE, type TableRow, type TableSpec } from '../core/tables.js'
import type { RuleRow } from '../core/types.js'
import { csvField, writeCsv } from '../exports/csv-write.js'
import { writeJsonl } from '../exports/jsonl-write.js'

/**
 * A release's rules_history rows in JSONL and CSV, written up to the lineage columns (rule_id,
 * previous_number, change: the table's last three). The worker that built the release writes these,
 * the bulk of the bytes; the main thread, which alone knows the lineage, adds the ends of the lines
 * (historyLines). `ends[i]` is the byte offset where row i's prefix ends.
 */
export interface HistoryPrefixes {
  jsonl: Uint8Array
  jsonlEnds: Int32Array
  csv: Uint8Array
  csvEnds: Int32Array
}

const LINEAGE_COLUMNS = ['rule_id', 'previous_number', 'change']
const LEADING = RULES_HISTORY_TABLE.columns.slice(0, -LINEAGE_COLUMNS.length).map((c) => c.name)
if (RULES_HISTORY_TABLE.columns.slice(-LINEAGE_COLUMNS.length).some((c, i) => c.name !== LINEAGE_COLUMNS[i])) {
  throw new Error('history-lines: rules_history no longer ends with its lineage columns')
}
if (LEADING.join() !== 'release,number,text,examples,index') throw new Error('history-lines: rules_history columns changed')

/** rules_history's leading columns and its lineage columns, as tables of their own: a row's in-memory size is theirs added. */
export const HISTORY_LEADING_TABLE: TableSpec = { ...RULES_HISTORY_TABLE, columns: RULES_HISTORY_TABLE.columns.slice(0, -LINEAGE_COLUMNS.length) }
export const HISTORY_LINEAGE_TABLE: TableSpec = { ...RULES_HISTORY_TABLE, columns: RULES_HISTORY_TABLE.columns.slice(-LINEAGE_COLUMNS.length) }

/**
 * The leading columns of each row (release, number, text, examples, index), written by writeJsonl
 * and writeCsv a row at a time: the way when the release's own files cannot be cut (historyPrefixesOf).
 */
export function historyPrefixes(release: string, rows: RuleRow[]): HistoryPrefixes {
  const header = writeCsv(HISTORY_LEADING_TABLE, []).length
  const jsonl: Uint8Array[] = []
  const csv: Uint8Array[] = []
  rows.forEach((row, index) => {
    const leading = { release, number: row.number, text: row.text, examples: row.examples, index }
    // Each line without its end: `}` and `\n` in JSONL, `\r\n` in CSV (and the CSV header).
    jsonl.push(writeJsonl(HISTORY_LEADING_TABLE, [leading]).subarray(0, -2))
    csv.push(writeCsv(HISTORY_LEADING_TABLE, [leading]).subarray(header, -2))
  })
  const [jsonlBytes, jsonlEnds] = joined(jsonl)
  const [csvBytes, csvEnds] = joined(csv)
  return { jsonl: jsonlBytes, jsonlEnds, csv: csvBytes, csvEnds }
}

/**
 * The same prefixes cut from the release's own rules.jsonl and rules.csv (whose columns are the
 * number, text, examples and index that follow `release`): copies of bytes, not a second
 * serialisation. Null when the files do not hold exactly `rows` records as expected.
 */
export function historyPrefixesOf(release: string, rows: number, rulesJsonl: Uint8Array, rulesCsv: Uint8Array): HistoryPrefixes | null {
  const jsonl = cut(Buffer.from(rulesJsonl.buffer, rulesJsonl.byteOffset, rulesJsonl.byteLength), '\n', rows, 0, `{"release":${JSON.stringify(release)},`, 1, 1)
  const csvBytes = Buffer.from(rulesCsv.buffer, rulesCsv.byteOffset, rulesCsv.byteLength)
  const header = csvBytes.indexOf('\r\n')
  const csv = header < 0 ? null : cut(csvBytes, '\r\n', rows, header + 2, `${csvField(release)},`, 0, 0)
  if (!jsonl || !csv) return null
  return { jsonl: jsonl[0], jsonlEnds: jsonl[1], csv: csv[0], csvEnds: csv[1] }
}

/**
 * Records of `bytes` from `from` on, each ended by `separator` (which nothing inside a record holds:
 * JSON escapes line breaks, and our rows' text has no CR), with `head` put before each, `skipStart`
 * bytes dropped from its start and `skipEnd` from its end (before the separator).
 */
function cut(bytes: Buffer, separator: string, count: number, from: number, head: string, skipStart: number, skipEnd: number): [Uint8Array, Int32Array] | null {
  const headBytes = Buffer.from(head, 'utf8')
  const starts = new Int32Array(count)
  const stops = new Int32Array(count)
  let size = 0
  let at = from
  for (let i = 0; i < count; i++) {
    const end = bytes.indexOf(separator, at)
    if (end < 0 || end - at < skipStart + skipEnd) return null
    starts[i] = at + skipStart
    stops[i] = end - skipEnd
    size += headBytes.length + stops[i]! - starts[i]!
    at = end + separator.length
  }
  if (at !== bytes.length) return null
  const out = Buffer.allocUnsafe(size)
  const ends = new Int32Array(count)
  let o = 0
  for (let i = 0; i < count; i++) {
    o += headBytes.copy(out, o)
    o += bytes.copy(out, o, starts[i]!, stops[i]!)
    ends[i] = o
  }
  return [out, ends]
}

function joined(parts: Uint8Array[]): [Uint8Array, Int32Array] {
  const ends = new Int32Array(parts.length)
  let at = 0
  parts.forEach((p, i) => (ends[i] = at += p.length))
  return [Buffer.concat(parts), ends]
}

/**
 * The finished lines of a release's rules_history rows: the prefixes with the lineage columns of
 * `chunk` (the rows startRulesHistory gave, same order) added. The same bytes as writeJsonl and
 * writeCsv of the chunk, without the CSV header.
 */
export function historyLines(prefixes: HistoryPrefixes, chunk: TableRow[]): { jsonl: Uint8Array; csv: Uint8Array } {
  const jsonlEnds: string[] = []
  const csvEnds: string[] = []
  for (const row of chunk) {
    const previous = row.previous_number as string | null
    jsonlEnds.push(`,"rule_id":${JSON.stringify(row.rule_id)},"previous_number":${JSON.stringify(previous)},"change":${JSON.stringify(row.change)}}\n`)
    csvEnds.push(`,${csvField(row.rule_id as string)},${previous === null ? '' : csvField(previous)},${csvField(row.change as string)}\r\n`)
  }
  return { jsonl: interleave(prefixes.jsonl, prefixes.jsonlEnds, jsonlEnds), csv: interleave(prefixes.csv, prefixes.csvEnds, csvEnds) }
}

function interleave(prefixes: Uint8Array, ends: Int32Array, suffixes: string[]): Uint8Array {
  if (ends.length !== suffixes.length) throw new Error(`history-lines: ${ends.length} prefixes for ${suffixes.length} rows`)
  const source = Buffer.from(prefixes.buffer, prefixes.byteOffset, prefixes.byteLength)
  // The lineage columns are ASCII (numbers, dates, change names), one character a byte: encoded
  // all at once and cut by length. Anything else is encoded a suffix at a time.
  const joined = suffixes.join('')
  const ascii = !NON_ASCII.test(joined)
  const suffixBytes = ascii ? Buffer.from(joined, 'latin1') : null
  let size = prefixes.byteLength
  if (suffixBytes) size += suffixBytes.length
  else for (const s of suffixes) size += Buffer.byteLength(s, 'utf8')
  const out = Buffer.allocUnsafe(size)
  let at = 0
  let start = 0
  let from = 0
  suffixes.forEach((s, i) => {
    at += source.copy(out, at, start, ends[i]!)
    start = ends[i]!
    if (suffixBytes) at += suffixBytes.copy(out, at, from, (from += s.length))
    else at += out.write(s, at, 'utf8')
  })
  return out
}

const NON_ASCII = /[^\x00-\x7f]/
