import { parse as parseCsv } from 'csv-parse/sync'
import { parquetMetadata, parquetReadObjects } from 'hyparquet'
import { diagnostics } from './diagnostics.js'
import { EtlError } from './errors.js'
import { RULES_TABLE, TABLES, type ColumnSpec, type ColumnType, type TableSpec } from './tables.js'
import type { Diagnostic } from './types.js'

export type ExportFormat = 'parquet' | 'jsonl' | 'csv'

/** The index column of exports written by pandas, as in the public Hugging Face dataset. */
export const PANDAS_INDEX = '__index_level_0__'

export interface ExportRecord {
  record: Record<string, unknown>
  /** 0-based row position. */
  position: number
  /** 1-based line where the row starts (JSONL and CSV). */
  line?: number
}

/** Records read from an export, mapped onto the columns of the table it holds. */
export interface ExportRecords {
  table: TableSpec
  records: ExportRecord[]
  diagnostics: Diagnostic[]
  notes: string[]
}

interface RawRecords {
  columns: string[]
  records: ExportRecord[]
  /** Physical Parquet types by column name. */
  parquetTypes?: Map<string, string>
}

/**
 * Read an export's rows from its bytes, and tell which table it holds (by file name, else by its
 * columns). Throws EtlError EXPORT_MALFORMED when the file cannot be read at all.
 */
export async function readExport(name: string, bytes: Uint8Array, format: ExportFormat): Promise<ExportRecords> {
  const raw = format === 'parquet' ? await readParquetRecords(name, bytes) : format === 'jsonl' ? readJsonlRecords(name, bytes) : readCsvRecords(name, bytes)
  const table = detectTable(name, raw.columns)
  if (format === 'csv') raw.records = raw.records.map((r) => ({ ...r, record: typeCsvRecord(table, r.record) }))
  return mapColumns(table, raw)
}

/** The table a file holds: `glossary.jsonl` → glossary; otherwise the table whose columns it has. */
export function detectTable(name: string, columns: string[]): TableSpec {
  const stem = /([^/\\]+?)(\.[^./\\]+)?$/.exec(name)?.[1] ?? ''
  const byName = TABLES.find((t) => t.name === stem)
  if (byName) return byName
  const has = new Set(columns)
  const scored = TABLES.map((t) => ({ t, hits: t.columns.filter((c) => has.has(c.name)).length }))
  const best = scored.reduce((a, b) => (b.hits > a.hits ? b : a))
  return best.hits > 2 ? best.t : RULES_TABLE
}

async function readParquetRecords(name: string, bytes: Uint8Array): Promise<RawRecords> {
  const magic = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4))
  if (bytes.length < 12 || magic(0) !== 'PAR1' || magic(bytes.length - 4) !== 'PAR1') {
    throw new EtlError('EXPORT_MALFORMED', `read: ${name} is not a Parquet file (no PAR1 magic bytes)`)
  }
  const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer
  try {
    const metadata = parquetMetadata(file)
    const parquetTypes = topLevelTypes(metadata.schema)
    const objects = await parquetReadObjects({ file, metadata })
    const records = objects.map((o, position) => ({ record: fromParquet(o), position }))
    return { columns: [...parquetTypes.keys()], records, parquetTypes }
  } catch (e) {
    throw new EtlError('EXPORT_MALFORMED', `read: ${name} is not a readable Parquet file (${(e as Error).message})`)
  }
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
function topLevelTypes(schema: SchemaElementLike[]): Map<string, string> {
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
  const out = new Map<string, string>()
  while (i < schema.length) {
    const name = schema[i]!.name
    out.set(name, describe())
  }
  return out
}

const PARQUET_TYPE: Record<ColumnType, string> = { string: 'string', int64: 'int64', bool: 'boolean', 'list<string>': 'list<string>' }

function fromParquet(o: Record<string, unknown>): Record<string, unknown> {
  const r: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(o)) r[k] = typeof v === 'bigint' && Number.isSafeInteger(Number(v)) ? Number(v) : v
  return r
}

function readJsonlRecords(name: string, bytes: Uint8Array): RawRecords {
  const text = decodeUtf8(name, bytes)
  const records: ExportRecord[] = []
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
  return { columns: [...columns], records }
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
    columns.forEach((c, i) => (r[c] = record[i]!))
    const line = previousEnd + 1
    previousEnd = info.lines
    return { record: r, position, line }
  })
  return { columns, records }
}

// CSV holds only text: give each field the type its column declares, as write-csv wrote it.
function typeCsvRecord(table: TableSpec, record: Record<string, unknown>): Record<string, unknown> {
  const types = new Map<string, ColumnSpec>(table.columns.map((c) => [c.name, c]))
  types.set(PANDAS_INDEX, { name: PANDAS_INDEX, type: 'int64' })
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(record)) out[k] = typeCsvField(types.get(k), v as string)
  return out
}

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

function decodeUtf8(name: string, bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw new EtlError('EXPORT_MALFORMED', `read: ${name} is not valid UTF-8`)
  }
}

/**
 * Keep the table's columns (rules: `__index_level_0__` read as `index`), and report missing,
 * unknown and wrongly typed columns once each.
 */
function mapColumns(table: TableSpec, raw: RawRecords): ExportRecords {
  const notes: string[] = []
  const diags: Diagnostic[] = []
  const names = table.columns.map((c) => c.name)
  const present = new Set(raw.columns)
  const renameIndex = table === RULES_TABLE && !present.has('index') && present.has(PANDAS_INDEX)
  if (renameIndex) notes.push(`column ${PANDAS_INDEX} was read as index (pandas layout)`)
  if (table !== RULES_TABLE) notes.push(`read as the ${table.name} table`)
  const sourceOf = (c: string) => (c === 'index' && renameIndex ? PANDAS_INDEX : c)
  const missing = names.filter((c) => !present.has(sourceOf(c)))
  const unknown = raw.columns.filter((c) => !names.includes(c) && !(renameIndex && c === PANDAS_INDEX))
  if (missing.length > 0) diags.push(diagnostics.columns(`missing column${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}`, { missing }))
  if (unknown.length > 0) diags.push(diagnostics.columns(`unknown column${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`, { unknown }))
  for (const c of table.columns) {
    const got = raw.parquetTypes?.get(sourceOf(c.name))
    const expected = PARQUET_TYPE[c.type]
    if (got !== undefined && got !== expected) {
      diags.push(diagnostics.columns(`column ${sourceOf(c.name)} has type ${got}, expected ${expected}`, { column: sourceOf(c.name), type: got, expected }))
    }
  }
  const records = raw.records.map((r) => {
    const record: Record<string, unknown> = {}
    for (const c of names) if (sourceOf(c) in r.record) record[c] = r.record[sourceOf(c)]
    return { ...r, record }
  })
  return { table, records, diagnostics: diags, notes }
}
