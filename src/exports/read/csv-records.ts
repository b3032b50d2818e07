import { pipeline, Readable } from 'node:stream'
import { parse as csvParser } from 'csv-parse'
import { EtlError } from '../../core/errors.js'
import { MAX_CSV_RECORD } from '../../core/limits.js'

/** One CSV record: its fields, and the 1-based lines where it starts and ends. */
export interface CsvRecord {
  fields: string[]
  line: number
  endLine: number
}

export { MAX_CSV_RECORD }

const UNQUOTED = /[^,"\r\n]*/y

class OutsideSubset extends Error {}

/**
 * The records of RFC 4180 CSV text arriving in pieces, a batch at a time (every record a piece
 * completes: one await per piece, not per record). The shape our exports and common writers use —
 * unquoted fields, or quoted ones with `""` inside, records ended by CRLF or LF — is tokenised here,
 * about eight times faster than csv-parse. At the first thing outside it (a quote inside an unquoted
 * field, text after a closing quote, a quote never closed) the rest, from the start of that record,
 * goes to csv-parse, which reads it or says precisely what is wrong, with line numbers of the file.
 */
export async function* csvRecords(name: string, text: AsyncIterable<string>): AsyncGenerator<CsvRecord[]> {
  const pieces = text[Symbol.asyncIterator]()
  let buf = ''
  let pos = 0
  let line = 1
  let ended = false
  let first = true
  const more = async (): Promise<boolean> => {
    if (ended) return false
    const { value, done } = await pieces.next()
    if (done) {
      ended = true
      return false
    }
    buf = buf.slice(pos) + (first && value.startsWith('\uFEFF') ? value.slice(1) : value)
    first = false
    pos = 0
    return true
  }
  await more()
  let batch: CsvRecord[] = []
  for (;;) {
    if (pos >= buf.length) {
      if (batch.length > 0) yield batch
      batch = []
      if (!(await more())) return
    }
    const start = pos
    const startLine = line
    let record: { fields: string[]; end: number; lines: number } | null
    try {
      record = tokenise(buf, start, ended)
    } catch (e) {
      if (!(e instanceof OutsideSubset)) throw e
      if (batch.length > 0) yield batch
      yield* csvParseRest(name, buf.slice(start), pieces, startLine)
      return
    }
    if (record === null) {
      // The record goes on in the next piece: read it, then tokenise the record again from its start.
      pos = start
      // The records before it first: what is wrong with them is found before what is wrong with it.
      if (batch.length > 0) yield batch
      batch = []
      if (buf.length - start > MAX_CSV_RECORD) throw new EtlError('EXPORT_MALFORMED', `read: ${name}: the record at line ${startLine} is longer than ${MAX_CSV_RECORD} characters`)
      if (!(await more())) {
        // No more input, and still no record end: a quote never closed. csv-parse says so.
        yield* csvParseRest(name, buf.slice(pos), pieces, startLine)
        return
      }
      continue
    }
    pos = record.end
    line += record.lines
    batch.push({ fields: record.fields, line: startLine, endLine: line - 1 })
  }
}

/**
 * One record from `at`: its fields, where the next begins and how many line breaks it took (its own
 * line end included); null when the text ends inside it and more may come.
 */
function tokenise(s: string, at: number, final: boolean): { fields: string[]; end: number; lines: number } | null {
  const fields: string[] = []
  let i = at
  let lines = 0
  for (;;) {
    if (s.charCodeAt(i) === 34) {
      // A quoted field: up to the quote that is not doubled, its doubled quotes undone at once (a
      // piece per quote made a string of millions of pieces: 500 MB for a 10 MB field).
      let from = i + 1
      let doubled = false
      let q: number
      for (;;) {
        q = s.indexOf('"', from)
        if (q < 0) {
          if (final) throw new OutsideSubset()
          return null
        }
        if (s.charCodeAt(q + 1) !== 34) break
        doubled = true
        from = q + 2
      }
      if (q + 1 >= s.length && !final) return null
      const raw = s.slice(i + 1, q)
      fields.push(doubled ? raw.replaceAll('""', '"') : raw)
      lines += countBreaks(s, i + 1, q)
      i = q + 1
    } else {
      UNQUOTED.lastIndex = i
      UNQUOTED.exec(s)
      const end = UNQUOTED.lastIndex
      if (s.charCodeAt(end) === 34) throw new OutsideSubset()
      fields.push(s.slice(i, end))
      i = end
    }
    const c = s.charCodeAt(i)
    if (c === 44) {
      i++
      continue
    }
    if (c === 13) {
      if (i + 1 >= s.length && !final) return null
      return { fields, end: s.charCodeAt(i + 1) === 10 ? i + 2 : i + 1, lines: lines + 1 }
    }
    if (c === 10) return { fields, end: i + 1, lines: lines + 1 }
    if (i >= s.length) {
      if (!final) return null
      return { fields, end: i, lines: lines + 1 }
    }
    // Text right after a closing quote.
    throw new OutsideSubset()
  }
}

function countBreaks(s: string, from: number, to: number): number {
  let n = 0
  for (let i = s.indexOf('\n', from); i >= 0 && i < to; i = s.indexOf('\n', i + 1)) n++
  for (let i = s.indexOf('\r', from); i >= 0 && i < to; i = s.indexOf('\r', i + 1)) if (s.charCodeAt(i + 1) !== 10) n++
  return n
}

/** csv-parse from a record on: the rest of this piece, then the pieces still to come (a record a batch). */
async function* csvParseRest(name: string, rest: string, pieces: AsyncIterator<string>, firstLine: number): AsyncGenerator<CsvRecord[]> {
  const source = (async function* () {
    yield rest
    for (let p = await pieces.next(); !p.done; p = await pieces.next()) yield p.value
  })()
  const parser = csvParser({ relax_column_count: true, info: true, max_record_size: MAX_CSV_RECORD })
  // pipeline, not pipe: an error of the source (bad UTF-8) must reach the parser's reader.
  pipeline(Readable.from(source), parser, () => {})
  const offset = firstLine - 1
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      const endLine = info.lines + offset
      yield [{ fields: record, line: endLine - countLines(record), endLine }]
    }
  } catch (e) {
    if (e instanceof EtlError) throw e
    const message = (e as Error).message.replace(/\bline (\d+)\b/g, (_, n: string) => `line ${Number(n) + offset}`)
    throw new EtlError('EXPORT_MALFORMED', `read: ${name}: ${message}`)
  }
}

function countLines(fields: string[]): number {
  let n = 0
  for (const f of fields) if (f.includes('\n') || f.includes('\r')) n += countBreaks(f, 0, f.length)
  return n
}
