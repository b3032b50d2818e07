import { parquetMetadata } from 'hyparquet'
import { csvRecords } from './csv-records.js'
import { diagnostics } from '../core/diagnostics.js'
import { EtlError } from '../core/errors.js'
import { checkedParquet, checkParquetFile, headerIn, type CheckedParquet, type FileRef } from './parquet/parquet-frame.js'
import { MAX_JSONL_LINE, MAX_KEYS } from '../core/limits.js'
import { detectTable, RULES_TABLE, shownColumn, type ColumnSpec, type ColumnType, type TableSpec } from '../core/tables.js'

export { detectTable }
import type { Diagnostic, ExportRecord } from '../core/types.js'
import { valueAt, type PackedColumn } from './packed-columns.mjs'
import { binaryDecoder, type DecodedBinary, type DecodedBatch } from './binary-decoder.js'

export type ExportFormat = 'parquet' | 'jsonl' | 'csv' | 'arrow'

const BATCH = 4096

/** The index column of exports written by pandas, as in the public Hugging Face dataset. */
export const PANDAS_INDEX = '__index_level_0__'

export type { ExportRecord }

/** An export being read: which table it holds, what its columns say, and its records as they come. */
export interface ExportStream {
  table: TableSpec
  notes: string[]
  /** Column problems known from the header or schema. */
  diagnostics: Diagnostic[]
  /** The records in file order, a batch at a time (awaiting each record would cost more than reading it). */
  batches: AsyncIterable<ExportRecord[]>
  /** Column problems found while reading (JSONL keys first seen late): ask once the records are read. */
  lateDiagnostics(): Diagnostic[]
  /**
   * The columns reported missing, unknown or wrongly typed, by their names as the file gives them:
   * for the row checks to leave alone (one finding, not one per row). Never shown as they are.
   */
  reportedColumns: ReadonlySet<string>
}

/** Records read whole, for callers that want them all in memory (diff, tests). */
export interface ExportRecords {
  table: TableSpec
  records: ExportRecord[]
  diagnostics: Diagnostic[]
  notes: string[]
}

/**
 * Open an export from its bytes as they arrive: JSONL and CSV stream record by record; Parquet comes
 * a row group at a time, read by ranges when `chunks.file` names a regular file (never whole), else
 * from the bytes; Arrow is read whole. Tells which table the file holds (by its name, else by its columns).
 * Malformed input throws EtlError EXPORT_MALFORMED, now or while the records are read.
 */
export async function openExport(name: string, format: ExportFormat, chunks: AsyncIterable<Uint8Array> & { file?: FileRef }): Promise<ExportStream> {
  if (format === 'parquet' || format === 'arrow') {
    try {
      // A regular file of Parquet is read by ranges; anything else (a pipe, Arrow) whole.
      if (format === 'parquet' && chunks.file) return await openParquetFile(name, chunks.file)
      const bytes = await collect(chunks)
      return await (format === 'parquet' ? openParquet(name, bytes) : openArrow(name, bytes))
    } catch (e) {
      // Whatever a damaged file makes the decoders throw (even a stack overflow) is one error line.
      if (e instanceof EtlError) throw e
      throw new EtlError('EXPORT_MALFORMED', `read: ${name} is not a readable ${format === 'parquet' ? 'Parquet' : 'Arrow IPC'} file (${(e as Error).message})`)
    }
  }
  const text = utf8Text(name, chunks)
  return format === 'jsonl' ? openJsonl(name, text) : openCsv(name, text)
}

/** Read a whole export from its bytes. */
export async function readExport(name: string, bytes: Uint8Array, format: ExportFormat): Promise<ExportRecords> {
  const stream = await openExport(name, format, (async function* () {
    yield bytes
  })())
  const records: ExportRecord[] = []
  for await (const batch of stream.batches) records.push(...batch)
  return { table: stream.table, records, diagnostics: [...stream.diagnostics, ...stream.lateDiagnostics()], notes: stream.notes }
}


/** The whole file in a buffer of its own (it is moved to a worker later, so never the caller's). */
async function collect(chunks: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = []
  let size = 0
  for await (const c of chunks) {
    parts.push(c)
    size += c.length
  }
  const out = new Uint8Array(size)
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}

async function* utf8Text(name: string, chunks: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true })
  try {
    for await (const chunk of chunks) yield decoder.decode(chunk, { stream: true })
    yield decoder.decode()
  } catch (e) {
    if (e instanceof EtlError) throw e
    throw new EtlError('EXPORT_MALFORMED', `read: ${name} is not valid UTF-8`)
  }
}

// --- Binary formats, decoded in a worker ---------------------------------------------------


async function* columnBatches(
  decoded: { takeFirst(): DecodedBatch; rest: AsyncGenerator<DecodedBatch> },
  map: (raw: Record<string, unknown>) => Record<string, unknown>,
  convert: (v: unknown) => unknown,
) {
  let offset = 0
  const groups = (async function* () {
    yield decoded.takeFirst()
    yield* decoded.rest
  })()
  for await (const group of groups) {
    for (let start = 0; start < group.rowCount; start += BATCH) {
      const end = Math.min(group.rowCount, start + BATCH)
      const batch: ExportRecord[] = []
      for (let at = start; at < end; at++) {
        const raw: Record<string, unknown> = {}
        group.names.forEach((n, i) => (raw[n] = convert(valueAt(group.columns[i]!, at))))
        batch.push({ record: map(raw), position: offset + at })
      }
      yield batch
    }
    offset += group.rowCount
  }
}

/** The bytes' own ArrayBuffer when they fill it (no copy of a file of hundreds of megabytes), else a copy. */
export function wholeBuffer(bytes: Uint8Array): ArrayBuffer {
  if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer) return bytes.buffer
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer
}

// --- Parquet -------------------------------------------------------------------------------

async function openParquet(name: string, bytes: Uint8Array): Promise<ExportStream> {
  const magic = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4))
  if (bytes.length < 12 || magic(0) !== 'PAR1' || magic(bytes.length - 4) !== 'PAR1') {
    throw new EtlError('EXPORT_MALFORMED', `read: ${name} is not a Parquet file (no PAR1 magic bytes)`)
  }
  const file = wholeBuffer(bytes)
  const checked = checkedParquet(name, () => parquetMetadata(file), bytes.length, headerIn(file))
  return parquetStream(name, checked, await binaryDecoder()(name, 'parquet', bytes, 'a readable Parquet file', checked.heapMb))
}

/**
 * A Parquet file on disk, read by ranges: the footer, then each column chunk once to check its page
 * headers, then row groups in the worker. Never the whole file in memory (3M rows: 250 MB less). A
 * footer that does not fit the file goes the in-memory way, for the same error.
 */
async function openParquetFile(name: string, ref: FileRef): Promise<ExportStream> {
  const checked = checkParquetFile(name, ref)
  if (checked instanceof Uint8Array) return openParquet(name, checked)
  return parquetStream(name, checked, await binaryDecoder()(name, 'parquet', ref, 'a readable Parquet file', checked.heapMb))
}

function parquetStream(name: string, { types }: CheckedParquet, decoded: DecodedBinary): ExportStream {
  const mapping = columnMapping(detectTable(name, [...types.keys()]), [...types.keys()], types)
  return { ...mapping.info, batches: columnBatches(decoded, mapping.map, fromParquet), lateDiagnostics: () => [] }
}

function fromParquet(v: unknown): unknown {
  return typeof v === 'bigint' && Number.isSafeInteger(Number(v)) ? Number(v) : v
}

// --- Arrow IPC -----------------------------------------------------------------------------

// apache-arrow is loaded only for .arrow files: it costs ~150 ms to load.
async function openArrow(name: string, bytes: Uint8Array): Promise<ExportStream> {
  const decoded = await binaryDecoder()(name, 'arrow', bytes, 'an Arrow IPC file')
  const { names } = decoded.first
  const types = new Map(names.map((n, i) => [n, arrowTypeName(decoded.first.types![i]!)]))
  const mapping = columnMapping(detectTable(name, names), names, types)
  return { ...mapping.info, batches: columnBatches(decoded, mapping.map, fromArrow), lateDiagnostics: () => [] }
}

// Arrow type names as the Parquet check names them: Utf8 → string, Int64 → int64, List<Utf8> → list<string>.
function arrowTypeName(type: string): string {
  const names: Record<string, string> = { Utf8: 'string', LargeUtf8: 'string', Int64: 'int64', Bool: 'boolean' }
  const list = /^(?:Large)?List<(.*)>$/.exec(type)
  if (list) return `list<${arrowTypeName(list[1]!)}>`
  return names[type] ?? type.toLowerCase()
}

function fromArrow(v: unknown): unknown {
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : v
  return v
}

// --- JSONL ---------------------------------------------------------------------------------

export { MAX_JSONL_LINE, MAX_KEYS }

async function openJsonl(name: string, text: AsyncIterable<string>): Promise<ExportStream> {
  const pieces = text[Symbol.asyncIterator]()
  // The unfinished last line, in pieces: joined once, when its end arrives (never re-joined per chunk).
  let partial: string[] = []
  let partialLength = 0
  let lineNo = 0
  let ended = false
  const tooLong = () => new EtlError('EXPORT_MALFORMED', `read: ${name}: line ${lineNo + 1} is longer than ${MAX_JSONL_LINE} characters (a row is a few kilobytes)`)
  // The records of the next piece of text that holds any, parsed in one synchronous run.
  const nextBatch = async (): Promise<{ record: Record<string, unknown>; line: number }[] | null> => {
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
      const batch: { record: Record<string, unknown>; line: number }[] = []
      for (const raw of lines) {
        lineNo++
        const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw
        if (line.trim() === '') continue
        if (line.length > MAX_JSONL_LINE) {
          lineNo--
          throw tooLong()
        }
        let parsed: unknown
        try {
          parsed = JSON.parse(line)
        } catch (e) {
          throw new EtlError('EXPORT_MALFORMED', `read: ${name}: bad JSON on line ${lineNo} (${(e as Error).message})`)
        }
        if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
          throw new EtlError('EXPORT_MALFORMED', `read: ${name}: line ${lineNo} is not a JSON object`)
        }
        let keys = 0
        for (const _ in parsed) if (++keys > MAX_KEYS) throw new EtlError('EXPORT_MALFORMED', `read: ${name}: line ${lineNo} has more than ${MAX_KEYS} keys (a row of these tables has at most eight)`)
        batch.push({ record: parsed as Record<string, unknown>, line: lineNo })
      }
      if (batch.length > 0) return batch
    }
    return null
  }
  const first = await nextBatch()
  const columns = first ? Object.keys(first[0]!.record) : []
  const mapping = columnMapping(detectTable(name, columns), columns)
  const inHeader = new Set(columns)
  const late = new Set<string>()
  async function* batches() {
    let position = 0
    for (let batch = first; batch; batch = await nextBatch()) {
      yield batch.map((item) => {
        for (const k in item.record) if (!mapping.known.has(k) && !inHeader.has(k) && late.size < MAX_KEYS) late.add(k)
        return { record: mapping.map(item.record), position: position++, line: item.line }
      })
    }
  }
  const lateDiagnostics = () => {
    if (late.size === 0) return []
    const shown = [...late].map(shownColumn)
    return [diagnostics.columns(`unknown column${late.size > 1 ? 's' : ''} on later rows: ${shown.join(', ')}`, { unknown: shown })]
  }
  return { ...mapping.info, batches: batches(), lateDiagnostics }
}

// --- CSV -----------------------------------------------------------------------------------

async function openCsv(name: string, text: AsyncIterable<string>): Promise<ExportStream> {
  const records = csvRecords(name, text)
  const first = await records.next()
  if (first.done) throw new EtlError('EXPORT_MALFORMED', `read: ${name}: no header row`)
  const columns = first.value.fields
  const table = detectTable(name, columns)
  const mapping = columnMapping(table, columns)
  const types = csvTypes(table)
  async function* batches() {
    let position = 0
    let batch: ExportRecord[] = []
    for await (const { fields, line, endLine } of records) {
      if (fields.length !== columns.length) throw new EtlError('EXPORT_MALFORMED', `read: ${name}: Invalid Record Length: expect ${columns.length}, got ${fields.length} on line ${endLine}`)
      const raw: Record<string, unknown> = {}
      for (let i = 0; i < columns.length; i++) raw[columns[i]!] = typeCsvField(types.get(columns[i]!), fields[i]!)
      batch.push({ record: mapping.map(raw), position: position++, line })
      if (batch.length === BATCH) {
        yield batch
        batch = []
      }
    }
    if (batch.length > 0) yield batch
  }
  return { ...mapping.info, batches: batches(), lateDiagnostics: () => [] }
}

function csvTypes(table: TableSpec): Map<string, ColumnSpec> {
  const types = new Map<string, ColumnSpec>(table.columns.map((c) => [c.name, c]))
  types.set(PANDAS_INDEX, { name: PANDAS_INDEX, type: 'int64' })
  return types
}

// CSV holds only text: give each field the type its column declares, as write-csv writes it.
function typeCsvField(column: ColumnSpec | undefined, value: string): unknown {
  if (!column) return value
  if (value === '' && column.nullable) return null
  switch (column.type) {
    case 'list<string>':
      try {
        return JSON.parse(value)
      } catch {
        return value
      }
    case 'int64':
      return /^-?\d+$/.test(value) ? Number(value) : value
    case 'bool':
      return value === 'true' ? true : value === 'false' ? false : value
    default:
      return value
  }
}

// --- Columns -------------------------------------------------------------------------------

const PARQUET_TYPE: Record<ColumnType, string> = { string: 'string', int64: 'int64', bool: 'boolean', 'list<string>': 'list<string>' }

/**
 * How a file's columns map onto its table (rules: `__index_level_0__` read as `index`), with the
 * missing, unknown and wrongly typed columns reported once each.
 */
function columnMapping(table: TableSpec, columns: string[], parquetTypes?: Map<string, string>) {
  const notes: string[] = []
  const diags: Diagnostic[] = []
  const names = table.columns.map((c) => c.name)
  const present = new Set(columns)
  const renameIndex = table === RULES_TABLE && !present.has('index') && present.has(PANDAS_INDEX)
  if (renameIndex) notes.push(`column ${PANDAS_INDEX} was read as index (pandas layout)`)
  if (table !== RULES_TABLE) notes.push(`read as the ${table.name} table`)
  const sourceOf = (c: string) => (c === 'index' && renameIndex ? PANDAS_INDEX : c)
  const known = new Set(names.map(sourceOf))
  const missing = names.filter((c) => !present.has(sourceOf(c)))
  const unknown = columns.filter((c) => !known.has(c))
  if (missing.length > 0) diags.push(diagnostics.columns(`missing column${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}`, { missing }))
  if (unknown.length > 0) {
    if (unknown.length === columns.length) {
      // No column of the table at all: perhaps not data (a link to a secrets file, a stray text
      // file). Its first line is not echoed, only counted.
      diags.push(diagnostics.columns(`none of the file's ${columns.length} column${columns.length > 1 ? 's are' : ' is'} a column of the ${table.name} table (their names are not shown: the file may not be data)`, { unknownCount: columns.length }))
    } else {
      const shown = unknown.map(shownColumn)
      diags.push(diagnostics.columns(`unknown column${unknown.length > 1 ? 's' : ''}: ${shown.join(', ')}`, { unknown: shown }))
    }
  }
  for (const c of table.columns) {
    const got = parquetTypes?.get(sourceOf(c.name))
    const expected = PARQUET_TYPE[c.type]
    if (got !== undefined && got !== expected) {
      diags.push(diagnostics.columns(`column ${sourceOf(c.name)} has type ${got}, expected ${expected}`, { column: sourceOf(c.name), type: got, expected }))
    }
  }
  const map = (raw: Record<string, unknown>) => {
    const record: Record<string, unknown> = {}
    for (const c of names) {
      const from = sourceOf(c)
      if (from in raw) record[c] = raw[from]
    }
    return record
  }
  const reported = new Set([...missing.map(sourceOf), ...unknown, ...[...(parquetTypes ?? new Map()).keys()].filter((c) => diags.some((d) => d.params?.column === c))])
  return { info: { table, notes, diagnostics: diags, reportedColumns: reported }, known, map }
}

export { checkParquetFile, type CheckedParquet, type FileRef }
