import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parse as parseCsv } from 'csv-parse/sync'
import { parquetReadObjects } from 'hyparquet'
import { compressors } from 'hyparquet-compressors'
import { beforeAll, describe, expect, it } from 'vitest'
import { buildDataset, type BuildResult } from '../src/build/build.js'
import { duck, lit } from './helpers/duckdb.js'
import { readBytes, release } from './helpers/shared.js'

// 2025-02-07 has continuation paragraphs (newlines in text) and rules with several examples.
const r = release('2025-02-07')
let built: BuildResult
let dir: string
const file = (name: string) => join(dir, name)
const bytesOf = (name: string) => built.files.find((f) => f.name === name)!.bytes

beforeAll(() => {
  built = buildDataset(r.file, readBytes(r.path))
  dir = mkdtempSync(join(tmpdir(), 'emit-'))
  for (const f of built.files) writeFileSync(file(f.name), f.bytes)
})

const expectedRows = () => built.rows.map((row) => ({ ...row }))

describe('exports read back with independent readers', () => {
  it('Parquet: DuckDB sees VARCHAR, VARCHAR, VARCHAR[], BIGINT and the same rows', async () => {
    const types = await duck<{ column_name: string; column_type: string }>(`DESCRIBE SELECT * FROM ${lit(file('rules.parquet'))}`)
    expect(types.map((t) => [t.column_name, t.column_type])).toEqual([
      ['number', 'VARCHAR'],
      ['text', 'VARCHAR'],
      ['examples', 'VARCHAR[]'],
      ['index', 'BIGINT'],
    ])
    const rows = await duck<{ number: string; text: string; examples: string[]; index: string }>(`SELECT * FROM ${lit(file('rules.parquet'))} ORDER BY index`)
    expect(rows.map((x) => ({ ...x, index: Number(x.index) }))).toEqual(expectedRows())
  })

  it('Parquet: the 3-level LIST with child element, one row group, GZIP', async () => {
    const schema = await duck<{ name: string; repetition_type: string | null; converted_type: string | null }>(`SELECT name, repetition_type, converted_type FROM parquet_schema(${lit(file('rules.parquet'))})`)
    expect(schema.map((s) => [s.name, s.repetition_type, s.converted_type])).toEqual([
      ['schema', null, null],
      ['number', 'OPTIONAL', 'UTF8'],
      ['text', 'OPTIONAL', 'UTF8'],
      ['examples', 'OPTIONAL', 'LIST'],
      ['list', 'REPEATED', null],
      ['element', 'OPTIONAL', 'UTF8'],
      ['index', 'OPTIONAL', null],
    ])
    const meta = await duck<{ row_group_id: string; compression: string }>(`SELECT DISTINCT row_group_id, compression FROM parquet_metadata(${lit(file('rules.parquet'))})`)
    expect(meta).toEqual([{ row_group_id: '0', compression: 'GZIP' }])
  })

  it('Parquet: a build table (one row group) stores its strings plainly, without statistics; a table in several groups keeps them', async () => {
    const columns = async (path: string) =>
      duck<{ path_in_schema: string; encodings: string; has_min: boolean }>(`SELECT DISTINCT path_in_schema, encodings, stats_min_value IS NOT NULL AS has_min FROM parquet_metadata(${lit(path)}) ORDER BY 1`)
    for (const table of ['rules', 'rules_meta', 'references', 'glossary']) {
      const strings = (await columns(file(`${table}.parquet`))).filter((c) => !['index', 'depth', 'line', 'resolved', 'obsolete'].includes(c.path_in_schema))
      expect(strings.length).toBeGreaterThan(1)
      for (const c of strings) expect([c.path_in_schema, c.encodings, c.has_min]).toEqual([c.path_in_schema, 'PLAIN', false])
    }
    // rules_meta's chapter repeats on every row: in groups of 1,000 rows, it is dictionary-encoded with min/max.
    const { RULES_META_TABLE } = await import('../src/core/tables.js')
    const { writeParquet } = await import('../src/exports/parquet-write.js')
    const meta = built.tables.find((t) => t.spec.name === 'rules_meta')!.rows
    writeFileSync(file('grouped.parquet'), writeParquet(RULES_META_TABLE, meta, 'test', { rowGroupSize: 1000 }))
    const chapter = (await columns(file('grouped.parquet'))).filter((c) => c.path_in_schema === 'chapter')
    expect(chapter.every((c) => c.has_min && c.encodings.includes('DICTIONARY'))).toBe(true)
  })

  it('Parquet: hyparquet reads the same rows (index as BigInt)', async () => {
    const b = bytesOf('rules.parquet')
    const objects = await parquetReadObjects({ file: b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer, compressors })
    expect(objects.map((o) => ({ ...o, index: Number(o.index) }))).toEqual(expectedRows())
    expect(typeof objects[0]!.index).toBe('bigint')
  })

  it('JSONL: DuckDB read_json gives the same rows and types', async () => {
    const rows = await duck<{ number: string; text: string; examples: string[]; index: string }>(`SELECT * FROM read_json(${lit(file('rules.jsonl'))}) ORDER BY index`)
    expect(rows.map((x) => ({ ...x, index: Number(x.index) }))).toEqual(expectedRows())
    const text = new TextDecoder().decode(bytesOf('rules.jsonl'))
    expect(text.split('\n')[0]).toBe('{"number":"100.1","text":"These Magic rules apply to any Magic game with two or more players, including two-player games and multiplayer games.","examples":[],"index":0}')
  })

  it('CSV: csv-parse and DuckDB read_csv give the same rows', async () => {
    const text = new TextDecoder().decode(bytesOf('rules.csv'))
    const records = parseCsv(text, { columns: true }) as Record<string, string>[]
    expect(records.map((x) => ({ number: x.number, text: x.text, examples: JSON.parse(x.examples!), index: Number(x.index) }))).toEqual(expectedRows())
    expect(text.startsWith('number,text,examples,index\r\n')).toBe(true)
    const rows = await duck<{ number: string; text: string; examples: string; index: string }>(`SELECT * FROM read_csv(${lit(file('rules.csv'))}, nullstr='\\N') ORDER BY index`)
    expect(rows.map((x) => ({ ...x, examples: JSON.parse(x.examples), index: Number(x.index) }))).toEqual(expectedRows())
  })

  it('the rows hold what the text has: continuation paragraphs and several examples', () => {
    expect(built.rows.find((x) => x.number === '205.4c')!.text).toContain('\n')
    expect(Math.max(...built.rows.map((x) => x.examples.length))).toBeGreaterThanOrEqual(3)
  })
})

describe('determinism and the manifest', () => {
  it('a second build gives identical bytes in every file', () => {
    const again = buildDataset(r.file, readBytes(r.path))
    expect(again.files.map((f) => f.name)).toEqual(built.files.map((f) => f.name))
    for (const f of again.files) expect(Buffer.compare(f.bytes, bytesOf(f.name)), f.name).toBe(0)
  })

  it('records the source, counts and every export', () => {
    const m = built.manifest
    expect(m.source).toMatchObject({ file: r.file, bytes: 939765, encoding: 'utf-8', bom: true, lineEndings: 'CRLF', effectiveDate: '2025-02-07' })
    expect(m.counts).toMatchObject({ rules: r.rules, examples: r.examples, glossary: r.glossary, unresolvedReferences: 1 })
    // The card says it in words that agree with the counts (one citation points, errors and warnings counted).
    const report = built.report
    expect(new TextDecoder().decode(bytesOf('README.md'))).toContain(`Valid: 0 errors, ${report.counts.warnings} warnings (1 dangling-reference, 3 source-format). 1 citation points to a rule that does not exist in this release.`)
    const rulesExports = m.exports.filter((e) => e.table === 'rules')
    expect(rulesExports.map((e) => [e.path, e.rows, e.bytes])).toEqual(['rules.parquet', 'rules.jsonl', 'rules.csv'].map((p) => [p, r.rules, bytesOf(p).length]))
    expect(m.exports.map((e) => e.path)).toEqual(
      ['rules', 'glossary', 'rules_meta', 'references'].flatMap((t) => ['parquet', 'jsonl', 'csv'].map((f) => `${t}.${f}`)),
    )
  })
})
