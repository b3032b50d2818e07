import { parse as parseCsv } from 'csv-parse/sync'
import { parquetMetadata, parquetReadObjects } from 'hyparquet'
import { diagnostics } from './diagnostics.js'
import { EtlError } from './errors.js'
import type { Diagnostic } from './types.js'

export type ExportFormat = 'parquet' | 'jsonl' | 'csv'

export const COLUMNS = ['number', 'text', 'examples', 'index'] as const
/** The index column of exports written by pandas, as in the public Hugging Face dataset. */
export const PANDAS_INDEX = '__index_level_0__'

/** Records read from an export, each with its row position and, for text formats, its line. */
export interface ExportRecords {
  records: { record: Record<string, unknown>; position: number; line?: number }[]
  diagnostics: Diagnostic[]
  notes: string[]
}

/** Read an export's rows from its bytes. Throws EtlError EXPORT_MALFORMED when the file cannot be read at all. */
export async function readExport(name: string, bytes: Uint8Array, format: ExportFormat): Promise<ExportRecords> {
  const raw = format === 'parquet' ? await readParquetRecords(name, bytes) : format === 'jsonl' ? readJsonlRecords(name, bytes) : readCsvRecords(name, bytes)
  return normalizeColumns(raw)
}

interface RawRecords {
  columns: string[]
  records: { record: Record<string, unknown>; position: number; line?: number }[]
  diagnostics: Diagnostic[]
}

async function readParquetRecords(name: string, bytes: Uint8Array): Promise<RawRecords> {
  const magic = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4))
  if (bytes.length < 12 || magic(0) !== 'PAR1' || magic(bytes.length - 4) !== 'PAR1') {
    throw new EtlError('EXPORT_MALFORMED', `read: ${name} is not a Parquet file (no PAR1 magic bytes)`)
  }
  const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer
  try {
    const metadata = parquetMetadata(file)
    const columns = topLevelColumns(metadata.schema)
    const objects = await parquetReadObjects({ file, metadata })
    const records = objects.map((o, position) => ({ record: fromParquet(o), position }))
    return { columns: columns.map((c) => c.name), records, diagnostics: parquetTypeDiagnostics(columns) }
  } catch (e) {
    throw new EtlError('EXPORT_MALFORMED', `read: ${name} is not a readable Parquet file (${(e as Error).message})`)
  }
}

interface ParquetColumn {
  name: string
  type: string
}

type SchemaElementLike = {
  name: string
  type?: string
  num_children?: number
  repetition_type?: string
  converted_type?: string
  logical_type?: { type: string }
}

// Walk the flattened schema and name each top-level column's type: string, int64, list<string>, …
function topLevelColumns(schema: SchemaElementLike[]): ParquetColumn[] {
  let i = 1
  const leafType = (el: SchemaElementLike) =>
    el.converted_type === 'UTF8' || el.logical_type?.type === 'STRING' ? 'string' : (el.type ?? 'unknown').toLowerCase()
  const describe = (): string => {
    const el = schema[i++]!
    if (!el.num_children) return el.repetition_type === 'REPEATED' ? `legacy-list<${leafType(el)}>` : leafType(el)
    const children: string[] = []
    for (let c = 0; c < el.num_children; c++) children.push(describe())
    if (el.converted_type === 'LIST' || el.logical_type?.type === 'LIST') return `list<${children[0]!.replace(/^legacy-list<(.*)>$/, '$1')}>`
    if (el.repetition_type === 'REPEATED' && children.length === 1) return `legacy-list<${children[0]}>`
    return `struct<${children.join(',')}>`
  }
  const out: ParquetColumn[] = []
  while (i < schema.length) {
    const name = schema[i]!.name
    out.push({ name, type: describe() })
  }
  return out
}

const EXPECTED_PARQUET_TYPES: Record<string, string> = { number: 'string', text: 'string', examples: 'list<string>', index: 'int64', [PANDAS_INDEX]: 'int64' }

function parquetTypeDiagnostics(columns: ParquetColumn[]): Diagnostic[] {
  const out: Diagnostic[] = []
  for (const c of columns) {
    const expected = EXPECTED_PARQUET_TYPES[c.name]
    if (expected && c.type !== expected) {
      out.push(diagnostics.columns(`column ${c.name} has type ${c.type}, expected ${expected}`, { column: c.name, type: c.type, expected }))
    }
  }
  return out
}

function fromParquet(o: Record<string, unknown>): Record<string, unknown> {
  const r: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(o)) r[k] = typeof v === 'bigint' && Number.isSafeInteger(Number(v)) ? Number(v) : v
  return r
}

function readJsonlRecords(name: string, bytes: Uint8Array): RawRecords {
  const text = decodeUtf8(name, bytes)
  const records: RawRecords['records'] = []
  const columns = new Set<string>()
  const lines = text.split('\n')
  if (lines[lines.length - 1] === '') lines.pop()
  lines.forEach((raw, i) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw
    if (line.trim() === '') return
    let value: unknown
    try {
      value = JSON.parse(line)
    } catch (e) {
      throw new EtlError('EXPORT_MALFORMED', `read: ${name}: bad JSON on line ${i + 1} (${(e as Error).message})`)
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new EtlError('EXPORT_MALFORMED', `read: ${name}: line ${i + 1} is not a JSON object`)
    }
    for (const k of Object.keys(value)) columns.add(k)
    records.push({ record: value as Record<string, unknown>, position: records.length, line: i + 1 })
  })
  return { columns: [...columns], records, diagnostics: [] }
}

function readCsvRecords(name: string, bytes: Uint8Array): RawRecords {
  const text = decodeUtf8(name, bytes)
  let rows: { record: string[]; info: { lines: number } }[]
  try {
    rows = parseCsv(text, { info: true, bom: true, relax_column_count: false }) as unknown as typeof rows
  } catch (e) {
    throw new EtlError('EXPORT_MALFORMED', `read: ${name}: ${(e as Error).message}`)
  }
  const [header, ...body] = rows
  if (!header) throw new EtlError('EXPORT_MALFORMED', `read: ${name}: no header row`)
  const columns = header.record
  // info.lines is where a record ends; a record starts on the line after the previous one ends.
  let previousEnd = header.info.lines
  const records = body.map(({ record, info }, position) => {
    const r: Record<string, unknown> = {}
    columns.forEach((c, i) => (r[c] = fromCsvField(c, record[i]!)))
    const line = previousEnd + 1
    previousEnd = info.lines
    return { record: r, position, line }
  })
  return { columns, records, diagnostics: [] }
}

// CSV holds only text: examples is a JSON array and index an integer, as write-csv writes them.
function fromCsvField(column: string, value: string): unknown {
  if (column === 'examples') {
    try {
      return JSON.parse(value)
    } catch {
      return value
    }
  }
  if ((column === 'index' || column === PANDAS_INDEX) && /^\d+$/.test(value)) return Number(value)
  return value
}

function decodeUtf8(name: string, bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw new EtlError('EXPORT_MALFORMED', `read: ${name} is not valid UTF-8`)
  }
}

/** Map `__index_level_0__` to `index`, and report missing and unknown columns once each. */
function normalizeColumns(raw: RawRecords): ExportRecords {
  const notes: string[] = []
  const diags = [...raw.diagnostics]
  const columns = new Set(raw.columns)
  const renameIndex = !columns.has('index') && columns.has(PANDAS_INDEX)
  if (renameIndex) notes.push(`column ${PANDAS_INDEX} was read as index (pandas layout)`)
  const known = new Set<string>([...COLUMNS, ...(renameIndex ? [PANDAS_INDEX] : [])])
  const unknown = raw.columns.filter((c) => !known.has(c))
  const missing = COLUMNS.filter((c) => !columns.has(c) && !(c === 'index' && renameIndex))
  if (missing.length > 0) diags.push(diagnostics.columns(`missing column${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}`, { missing }))
  if (unknown.length > 0) diags.push(diagnostics.columns(`unknown column${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`, { unknown }))
  const records = raw.records.map((r) => {
    const record: Record<string, unknown> = {}
    for (const c of COLUMNS) {
      const from = c === 'index' && renameIndex ? PANDAS_INDEX : c
      if (from in r.record) record[c] = r.record[from]
    }
    return { ...r, record }
  })
  return { records, diagnostics: diags, notes }
}
