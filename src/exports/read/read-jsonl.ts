import { diagnostics } from '../../core/diagnostics.js'
import { EtlError } from '../../core/errors.js'
import { MAX_JSON_NESTING, MAX_JSONL_LINE, MAX_KEYS } from '../../core/limits.js'
import { detectTable, isJsonNamed, shownColumn } from '../../core/tables.js'
import type { ExportRecord } from '../../core/types.js'
import type { ExportStream } from './export-stream.js'
import { columnMapping } from './read-columns.js'
import { plural } from '../../core/words.js'

// --- JSONL ---------------------------------------------------------------------------------

/**
 * How many keys a line of JSON writes, nested objects' included: each `"` that closes a key is
 * followed by `:` (white space aside, which our writer never puts there; a key written `"k" :` is
 * missed, the row then read as JSON.parse reads it). A quote inside a string is escaped (`\"`), so
 * `":` there has an odd run of backslashes before it.
 */
function keysWritten(line: string): number {
  let n = 0
  for (let at = line.indexOf('":'); at >= 0; at = line.indexOf('":', at + 2)) {
    let slashes = 0
    while (line.charCodeAt(at - 1 - slashes) === 92) slashes++
    if (slashes % 2 === 0) n++
  }
  return n
}

/** How deep a line's objects and arrays nest (brackets inside strings aside). */
function nesting(line: string): number {
  let depth = 0
  let deepest = 0
  let inString = false
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i)
    if (inString) {
      if (c === 92) i++
      else if (c === 34) inString = false
    } else if (c === 34) inString = true
    else if (c === 123 || c === 91) deepest = Math.max(deepest, ++depth)
    else if (c === 125 || c === 93) depth--
  }
  return deepest
}

// A file that is one JSON array (pretty-printed or not) rather than an object a line.
const NOT_JSON_LINES = `: the file is a JSON array, not JSON Lines (one object a line; pandas writes it with to_json(orient="records", lines=True))`

const JSON_NAMED = 'read as JSON Lines (one object a line), as Hugging Face datasets and pyarrow read a .json file'

// A file of pretty-printed objects (jq without -c writes them so): its first line is a lone `{`.
const ONE_OBJECT_ON_MANY_LINES = `: the first object is written over several lines (pretty-printed), and JSON Lines has one object a line (jq -c writes them so)`

/** The first top-level key a JSON object gives twice, or null (its syntax tree, by momoa). */
async function repeatedKey(line: string): Promise<string | null> {
  const { parse } = await import('@humanwhocodes/momoa')
  const body = parse(line).body
  if (body.type !== 'Object') return null
  const seen = new Set<string>()
  for (const member of body.members) {
    const key = member.name.type === 'String' ? member.name.value : member.name.name
    if (seen.has(key)) return key
    seen.add(key)
  }
  return null
}

/** A JSONL export as its text arrives: one JSON object per line, a batch of lines at a time. */
export async function openJsonl(name: string, text: AsyncIterable<string>): Promise<ExportStream> {
  const pieces = text[Symbol.asyncIterator]()
  // The unfinished last line, in pieces: joined once, when its end arrives (never re-joined per chunk).
  let partial: string[] = []
  let partialLength = 0
  let lineNo = 0
  // The line of the first record (blank lines before it aside): where a JSON array shows itself.
  let firstLine = 0
  let ended = false
  const tooLong = () => new EtlError('EXPORT_MALFORMED', `read: ${name}: line ${lineNo + 1} is longer than ${MAX_JSONL_LINE} characters (a row is a few kilobytes)`)
  // The records of the next piece of text that holds any, parsed in one synchronous run.
  const nextBatch = async (): Promise<ExportRecord[] | null> => {
    while (!ended) {
      const { value, done } = await pieces.next()
      let lines: string[]
      if (done) {
        ended = true
        lines = partialLength === 0 ? [] : [partial.join('')]
      } else {
        const cut = value.lastIndexOf('\n')
        if (cut < 0) {
          partial.push(value)
          partialLength += value.length
          if (partialLength > MAX_JSONL_LINE) throw tooLong()
          continue
        }
        lines = (partial.join('') + value.slice(0, cut)).split('\n')
        const tail = value.slice(cut + 1)
        partial = tail === '' ? [] : [tail]
        partialLength = tail.length
      }
      const batch: ExportRecord[] = []
      for (const raw of lines) {
        lineNo++
        const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw
        if (line.trim() === '') continue
        firstLine ||= lineNo
        if (line.length > MAX_JSONL_LINE) {
          lineNo--
          throw tooLong()
        }
        let parsed: unknown
        try {
          parsed = JSON.parse(line)
        } catch (e) {
          const first = lineNo === firstLine ? line.trim() : ''
          const why = first.startsWith('[') ? NOT_JSON_LINES : first === '{' ? ONE_OBJECT_ON_MANY_LINES : ''
          throw new EtlError('EXPORT_MALFORMED', `read: ${name}: bad JSON on line ${lineNo} (${(e as Error).message})${why}`)
        }
        if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
          throw new EtlError('EXPORT_MALFORMED', `read: ${name}: line ${lineNo} is not a JSON object${lineNo === firstLine && Array.isArray(parsed) ? NOT_JSON_LINES : ''}`)
        }
        let keys = 0
        for (const _ in parsed) if (++keys > MAX_KEYS) throw new EtlError('EXPORT_MALFORMED', `read: ${name}: line ${lineNo} has more than ${MAX_KEYS} keys (a row of these tables has at most eight)`)
        // JSON.parse keeps the last of a key given twice; other readers keep the first or refuse.
        // More keys written than the object has means a key repeats (or an object nests): read the
        // line's syntax tree to know.
        if (keysWritten(line) > keys) {
          if (nesting(line) > MAX_JSON_NESTING) throw new EtlError('EXPORT_MALFORMED', `read: ${name}: line ${lineNo} nests more than ${MAX_JSON_NESTING} levels deep (a row of these tables nests two)`)
          const twice = await repeatedKey(line)
          if (twice !== null) throw new EtlError('EXPORT_MALFORMED', `read: ${name}: line ${lineNo} gives the key ${JSON.stringify(shownColumn(twice))} twice (readers differ on which value they keep)`)
        }
        // Its position is given when the batch is handed out.
        batch.push({ record: parsed as Record<string, unknown>, position: 0, line: lineNo })
      }
      if (batch.length > 0) return batch
    }
    return null
  }
  const first = await nextBatch()
  // No row, no column to miss: the table is told by the file's name, and the rows check says it is empty.
  const columns = first ? Object.keys(first[0]!.record) : detectTable(name, []).columns.map((c) => c.name)
  const mapping = columnMapping(name, columns)
  const inHeader = new Set(columns)
  const late = new Set<string>()
  // A record that map() keeps as it is has only the table's columns: when the file knows them all,
  // it has no key to look up.
  const tableKnown = mapping.info.table.columns.every((c) => mapping.known.has(c.name) || inHeader.has(c.name))
  async function* batches() {
    let position = 0
    for (let batch = first; batch; batch = await nextBatch()) {
      for (const item of batch) {
        const record = mapping.map(item.record)
        if (record !== item.record || !tableKnown) for (const k in item.record) if (!mapping.known.has(k) && !inHeader.has(k) && late.size < MAX_KEYS) late.add(k)
        item.record = record
        item.position = position++
      }
      yield batch
    }
  }
  const lateDiagnostics = () => {
    if (late.size === 0) return []
    const shown = [...late].map(shownColumn)
    return [diagnostics.columns(`unknown ${plural(late.size, 'column')} on later rows: ${shown.join(', ')}`, { unknown: shown })]
  }
  // A `.json` file is read as JSON Lines, as Hugging Face datasets and pyarrow read one: said so.
  const notes = isJsonNamed(name) ? [JSON_NAMED, ...mapping.info.notes] : mapping.info.notes
  return { ...mapping.info, notes, batches: batches(), lateDiagnostics, close: () => {} }
}
