import { tableFromArrays, tableToIPC } from 'apache-arrow'
import { describe, expect, it } from 'vitest'
import { buildDataset } from '../src/build/build.js'
import { EtlError } from '../src/core/errors.js'
import { RULES_TABLE } from '../src/core/tables.js'
import { writeArrow } from '../src/exports/arrow-write.js'
import { writeCsv } from '../src/exports/csv-write.js'
import { writeJsonl } from '../src/exports/jsonl-write.js'
import { formatDiagnostics } from '../src/core/report-format.js'
import { validateSource } from '../src/validate/validate.js'
import { readBytes, release } from './helpers/shared.js'

// What other readers refuse or read otherwise is never "valid" here (#24 item 15): a JSONL key given
// twice, a CSV header or a Parquet or Arrow schema naming a column twice, the Arrow stream format, and texts outside the
// dataset's text contract (NFC, trimmed, visible, well-formed, no control characters).

const r = release('2026-08-07')
const rows = buildDataset(r.file, readBytes(r.path)).rows.slice(0, 40)
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes)
const bytesOf = (s: string) => new TextEncoder().encode(s)

async function failure(name: string, bytes: Uint8Array): Promise<string> {
  const e = await validateSource(name, bytes).then(
    () => null,
    (error: unknown) => error,
  )
  expect(e).toBeInstanceOf(EtlError)
  return `${(e as EtlError).code}: ${(e as EtlError).message}`
}

describe('what other readers refuse or read otherwise', () => {
  it('a JSONL line that gives a key twice is refused, naming the line and the key; a quote and colon inside a text are no key', async () => {
    const lines = text(writeJsonl(RULES_TABLE, rows)).trimEnd().split('\n')
    lines[7] = lines[7]!.replace(/}$/, ',"text":"another text"}')
    expect(await failure('rules.jsonl', bytesOf(lines.join('\n') + '\n'))).toBe('EXPORT_MALFORMED: read: rules.jsonl: line 8 gives the key "text" twice (readers differ on which value they keep)')
    const quoted = rows.map((row, i) => (i === 3 ? { ...row, text: `${row.text} He said "index": 5, "text": \\ ok.` } : row))
    expect((await validateSource('rules.jsonl', writeJsonl(RULES_TABLE, quoted))).valid).toBe(true)
  })

  it('a CSV header that names a column twice is an error, and its first column is the one read (as DuckDB reads it)', async () => {
    const csv = text(writeCsv(RULES_TABLE, rows)).split('\r\n')
    expect(csv[0]).toBe('number,text,examples,index')
    const twice = [csv[0] + ',text', ...csv.slice(1, -1).map((l) => `${l},"  not a text of the contract "`), ''].join('\r\n')
    const report = await validateSource('rules.csv', bytesOf(twice))
    expect(report.diagnostics.filter((d) => d.code === 'columns').map((d) => d.message)).toEqual(['column named twice in the header: text (readers differ on which one they read)'])
    expect(report.valid).toBe(false)
    // The texts checked are the first column's: the real ones, not the second's (which break the text contract).
    expect(report.diagnostics.filter((d) => d.code === 'text' || d.code === 'schema')).toEqual([])
  })

  it('a Parquet or Arrow schema that names a column twice is the same error, and the first column is the one read', async () => {
    const { parquetWriteBuffer } = await import('hyparquet-writer')
    const second = rows.map(() => '  not a text of the contract ')
    const parquet = new Uint8Array(parquetWriteBuffer({ columnData: [
      { name: 'number', data: rows.map((x) => x.number), type: 'STRING' },
      { name: 'text', data: rows.map((x) => x.text), type: 'STRING' },
      { name: 'text', data: second, type: 'STRING' },
      { name: 'index', data: rows.map((x) => BigInt(x.index)), type: 'INT64' },
    ] }))
    const { Field, Int64, Schema, Table, RecordBatch, Struct, Utf8, makeData, vectorFromArray } = await import('apache-arrow')
    const columns = [['number', rows.map((x) => x.number)], ['text', rows.map((x) => x.text)], ['text', second]] as const
    const fields = [...columns.map(([n]) => new Field(n, new Utf8())), new Field('index', new Int64())]
    const children = [...columns.map(([, values]) => vectorFromArray(values, new Utf8()).data[0]!), vectorFromArray(BigInt64Array.from(rows, (x) => BigInt(x.index)), new Int64()).data[0]!]
    const twice = tableToIPC(new Table([new RecordBatch(new Schema(fields), makeData({ type: new Struct(fields), length: rows.length, nullCount: 0, children }))]), 'file')
    for (const [name, bytes] of [['rules.parquet', parquet], ['rules.arrow', twice]] as const) {
      const report = await validateSource(name, bytes)
      expect(report.diagnostics.filter((d) => d.code === 'columns').map((d) => d.message), name).toEqual(['column named twice in the schema: text (readers differ on which one they read)', 'missing column: examples'])
      expect(report.diagnostics.filter((d) => d.code === 'text' || d.code === 'schema'), name).toEqual([])
    }
  })

  it('an .arrow file in the Arrow IPC stream format is refused; the file format is read', async () => {
    const table = tableFromArrays({ number: rows.map((x) => x.number), index: BigInt64Array.from(rows, (x) => BigInt(x.index)) })
    expect(await failure('rules.arrow', tableToIPC(table, 'stream'))).toMatch(/^EXPORT_MALFORMED: read: rules\.arrow is not an Arrow IPC file \(no ARROW1 magic at its start and end; it reads as the Arrow IPC stream format/)
    expect((await validateSource('rules.arrow', writeArrow(RULES_TABLE, rows))).valid).toBe(true)
  })
})

describe('the text contract of an export', () => {
  it('reports texts that are not NFC, not trimmed, invisible or not well-formed as errors, control characters as warnings', async () => {
    const at = (n: number) => rows[n]!
    const damaged = rows.map((row, i) => {
      if (i === 2) return { ...row, text: row.text.replace('a', 'a\u0301') } // a + combining acute: NFC composes it
      if (i === 3) return { ...row, text: ` ${row.text}` }
      if (i === 4) return { ...row, examples: ['\u200b\u00a0'] }
      if (i === 5) return { ...row, text: `${row.text} \ud800` }
      if (i === 6) return { ...row, text: `${row.text} \u001b[31m` }
      return row
    })
    const jsonl = writeJsonl(RULES_TABLE, damaged)
    const report = await validateSource('rules.jsonl', jsonl)
    expect(report.diagnostics.filter((d) => d.code === 'text').map((d) => [d.severity, d.number, d.message])).toEqual([
      ['error', at(2).number, '/text is not in Unicode normalization form NFC'],
      ['error', at(3).number, '/text starts or ends with white space'],
      ['error', at(4).number, '/examples/0 holds only invisible characters'],
      ['error', at(5).number, `/text holds a lone surrogate U+D800 at character ${at(5).text.length + 2}: it has no UTF-8 form`],
      ['warning', at(6).number, `/text holds the control character U+001B at character ${at(6).text.length + 2}`],
    ])
    // A build's own exports keep the contract: the real rows give no `text` finding (the first 40
    // rows cite rules beyond them: dangling references, nothing else).
    expect((await validateSource('rules.jsonl', writeJsonl(RULES_TABLE, rows))).diagnostics.filter((d) => d.code !== 'dangling-reference')).toEqual([])
  })
})

describe('a field of the wrong type', () => {
  it('is said once, as its type: a null text is "must be string", not also a broken rule of what a text holds', async () => {
    const lines = [
      { ...rows[0]!, text: null },
      { ...rows[1]!, text: 42 },
      { ...rows[2]!, text: `${rows[2]!.text}\nExample: a paragraph that is an example.` },
    ].map((row) => JSON.stringify(row))
    const report = await validateSource('rules.jsonl', bytesOf(lines.join('\n') + '\n'))
    expect(report.diagnostics.filter((d) => d.code === 'schema').map((d) => [d.position, d.message])).toEqual([
      [0, '/text must be string'],
      [1, '/text must be string'],
      [2, '/text must NOT be valid (Rule text as published, NFC, trimmed; continuation paragraphs joined with \\n; no rule number before it and no Example: paragraph in it (those are the examples).)'],
    ])
  })

  it('a CSV cell left empty is shown as empty: `index is ""`, and no empty rule number in the line', async () => {
    const csv = text(writeCsv(RULES_TABLE, rows.slice(0, 3))).split('\r\n')
    // The last row's number and index left empty: `,text,examples,`.
    csv[3] = csv[3]!.slice(csv[3]!.indexOf(','), csv[3]!.lastIndexOf(',') + 1)
    const report = await validateSource('rules.csv', bytesOf(csv.join('\r\n')))
    const index = report.diagnostics.filter((d) => d.code === 'index')
    expect(index.map((d) => d.message)).toEqual(['index is "", expected 2 (row position)'])
    expect(formatDiagnostics(index)).toBe('error index line 4 row 2: index is "", expected 2 (row position)')
  })
})
