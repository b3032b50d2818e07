import fc from 'fast-check'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { buildDataset } from '../src/build/build.js'
import { parquetMetadata, parquetReadObjects } from 'hyparquet'
import { parquetWriteBuffer } from 'hyparquet-writer'
import { gunzipSync, gzipSync } from 'node:zlib'
import { parquetHeader } from 'hyparquet/src/column.js'
import { mergeProofs } from '../src/validate/proof/clean-proof.js'
import { proveCsvClean, proveCsvPart } from '../src/validate/proof/clean-csv.js'
import { proveJsonlClean, proveJsonlPart } from '../src/validate/proof/clean-jsonl.js'
import { csvField } from '../src/exports/csv-write.js'
import { EtlError } from '../src/core/errors.js'
import { fileRef, inputFileChunks, MAX_EXPORT_BYTES } from '../src/io/files.js'
import { nodeFileProof } from '../src/io/proof/file-proof.js'
import { proveFile } from '../src/io/proof/prove-file.js'
import { parquetProver, proveParquetFile } from '../src/io/proof/prove-parquet.js'
import { listPage, listPageRefs } from '../src/validate/proof/parquet-pages.js'
import { RULES_TABLE, type TableRow } from '../src/core/tables.js'
import { schemaOf, writeParquet } from '../src/exports/parquet-write.js'
import { writeJsonl } from '../src/exports/jsonl-write.js'
import { writeCsv } from '../src/exports/csv-write.js'
import { validateExportStream, validateSource } from '../src/validate/validate.js'
import { cli as runCli } from './helpers/cli.js'
import { readBytes, release, releases } from './helpers/shared.js'

const RUNS = Math.max(100, Math.round(Number(process.env.FUZZ_RUNS ?? 300)))
const SEED = process.env.FUZZ_RUNS === undefined ? { seed: 20261130 } : {}
const enc = new TextEncoder()

function exportOf(name: string, path: string, file = 'rules.jsonl'): Uint8Array {
  return buildDataset(name, readBytes(path)).files.find((f) => f.name === file)!.bytes
}
const jsonlOf = (name: string, path: string) => exportOf(name, path)

/** Bytes as a stream cut at the given sizes (a line may span chunks). */
async function* chunked(bytes: Uint8Array, sizes: number[]) {
  let at = 0
  for (let i = 0; at < bytes.length; i++) {
    const n = Math.max(1, sizes.length ? sizes[i % sizes.length]! : bytes.length)
    yield bytes.subarray(at, at + n)
    at += n
  }
}

/** The report, or the error line, of the exact path or the default one (proof first). */
async function outcome(name: string, bytes: Uint8Array, exact: boolean) {
  try {
    return { report: await validateSource(name, bytes, { exact }) }
  } catch (e) {
    return { error: e instanceof EtlError ? `${e.code}: ${e.message}` : `not an EtlError: ${String(e)}` }
  }
}

describe('the clean proof on real releases', () => {
  for (const r of releases()) {
    it(`${r.effective}: proves rules.jsonl clean exactly when the checks find nothing`, async () => {
      const bytes = jsonlOf(r.file, r.path)
      const exact = await validateSource('rules.jsonl', bytes, { exact: true })
      const proved = await proveJsonlClean(chunked(bytes, [65536]))
      expect(proved).toBe(exact.diagnostics.length === 0 ? exact.source.rows : null)
      expect(await validateSource('rules.jsonl', bytes)).toEqual(exact)
    })
  }

  for (const r of releases()) {
    it(`${r.effective}: proves rules.csv clean exactly when the checks find nothing`, async () => {
      const bytes = exportOf(r.file, r.path, 'rules.csv')
      const exact = await validateSource('rules.csv', bytes, { exact: true })
      const proved = await proveCsvClean(chunked(bytes, [65536]))
      expect(proved).toBe(exact.diagnostics.length === 0 ? exact.source.rows : null)
      expect(await validateSource('rules.csv', bytes)).toEqual(exact)
    })
  }

  it('proves the newest release clean in JSONL and CSV (the proof serves real data, not only synthetic)', async () => {
    const newest = releases().at(-1)!
    expect(await proveJsonlClean(chunked(exportOf(newest.file, newest.path), [4096, 100_000]))).toBe(newest.rules)
    expect(await proveCsvClean(chunked(exportOf(newest.file, newest.path, 'rules.csv'), [4096, 100_000]))).toBe(newest.rules)
  })
})

// --- Damaged in the ways that keep JSON well formed: what the proof must see through ---------------

const r = release('2025-02-07')
const rows = new TextDecoder()
  .decode(jsonlOf(r.file, r.path))
  .split('\n')
  .filter((l) => l !== '')
  .slice(0, 300)
  .map((l) => JSON.parse(l, (k, v: unknown) => (typeof v === 'string' && k !== 'number' ? citingWhatIsThere(v) : v)) as Record<string, unknown>)

// The first 300 rows cite rules past them: pointed at 100.1 and chapter 1, the rows are clean.
function citingWhatIsThere(text: string): string {
  return text.replace(/\b\d{3}(?:\.\d+[a-z]{0,2})?(?:\s?[–-]\s?[\d.]*[a-z]*)?\b/g, '100.1').replace(/\b(sections?\s+)\d\b/gi, '$11')
}

type Row = Record<string, unknown>
const asciiEscaped = (s: string) => s.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
const edits: fc.Arbitrary<(rs: Row[]) => void>[] = [
  fc.tuple(fc.nat(), fc.nat()).map(([a, b]) => (rs: Row[]) => void ([rs[a % rs.length], rs[b % rs.length]] = [rs[b % rs.length]!, rs[a % rs.length]!])),
  fc.nat().map((a) => (rs: Row[]) => void rs.splice(a % rs.length, 1)),
  fc.nat().map((a) => (rs: Row[]) => void rs.splice(a % rs.length, 0, { ...rs[a % rs.length]! })),
  fc.tuple(fc.nat(), fc.oneof(fc.integer({ min: -2, max: 400 }), fc.constant('7'), fc.constant(1.5), fc.constant(null))).map(([a, v]) => (rs: Row[]) => void (rs[a % rs.length]!.index = v)),
  fc.tuple(fc.nat(), fc.constantFrom('100.1', '100.1l', '100.01', '099.1', '100.1a', '1000.1', '100.99999999999', 'x', 7, null)).map(([a, v]) => (rs: Row[]) => void (rs[a % rs.length]!.number = v)),
  fc
    .tuple(fc.nat(), fc.constantFrom('', 'Example: a game.', 'See rule 999.9z.', 'See rule 100.1.', 'See rules 100.1a–c.', 'See section 1.', 'see section 9.', 'rule\u00a0100.9', 'rules 419,8', 'x'.repeat(3), 5, null))
    .map(([a, v]) => (rs: Row[]) => void (rs[a % rs.length]!.text = v)),
  // (An escaped newline is whitespace once parsed: `rule\n999.1` cites what is not there.)
  fc.tuple(fc.nat(), fc.constantFrom([], [''], ['See rule 999.1.'], ['See rule 100.1.'], ['See rule\n999.1.'], ['a\tb', 'See rule 100.1.'], ['ok', 3], 'x', '"ab"', 5, {})).map(([a, v]) => (rs: Row[]) => void (rs[a % rs.length]!.examples = v)),
  // An index written otherwise than as digits (CSV reads `7` as 7, never `7.0`, ` 7` or ``).
  fc.tuple(fc.nat(), fc.constantFrom('.0', ' ', '+', '0', '', '-')).map(([a, how]) => (rs: Row[]) => {
    const row = rs[a % rs.length]!
    row.index = how === '' ? '' : how === '.0' ? `${String(row.index)}.0` : `${how}${String(row.index)}`
  }),
  fc.tuple(fc.nat(), fc.constantFrom('extra', '__index_level_0__')).map(([a, k]) => (rs: Row[]) => void (rs[a % rs.length]![k] = 1)),
  fc.nat().map((a) => (rs: Row[]) => void delete rs[a % rs.length]!.examples),
]
// How the lines are written: as our writers do, or in the other ways JSON allows.
const sometimes = fc.nat({ max: 4 }).map((n) => n === 0)
const layouts = fc.record({
  reorder: sometimes,
  spaced: sometimes,
  escaped: sometimes,
  crlf: sometimes,
  blank: sometimes,
  noFinalNewline: sometimes,
  bom: sometimes,
  tab: sometimes,
})

function write(rs: Row[], layout: fc.RecordValue<{ [k: string]: boolean }>, which: number): Uint8Array {
  const lines = rs.map((row, i) => {
    const own = i === which % rs.length
    const ordered = own && layout.reorder ? Object.fromEntries(Object.entries(row).reverse()) : row
    let line = own && layout.spaced ? JSON.stringify(ordered, null, 1).replace(/\n/g, '') : JSON.stringify(ordered)
    if (own && layout.escaped) line = asciiEscaped(line)
    if (own && layout.tab) line = line.replace(' ', '\t')
    return line
  })
  if (layout.blank) lines.splice(which % lines.length, 0, '  ')
  let text = lines.join(layout.crlf ? '\r\n' : '\n') + (layout.noFinalNewline ? '' : '\n')
  if (layout.bom) text = '\ufeff' + text
  return enc.encode(text)
}

// CSV as our writer writes it, or in the other ways RFC 4180 and the readers allow (or refuse).
function writeCsvRows(rs: Row[], layout: fc.RecordValue<{ [k: string]: boolean }>, which: number): Uint8Array {
  const cell = (v: unknown) => (v === undefined || v === null ? '' : csvField(Array.isArray(v) || (typeof v === 'object' && v !== null) ? JSON.stringify(v) : String(v)))
  const columns = ['number', 'text', 'examples', 'index']
  const lines = rs.map((row, i) => {
    const own = i === which % rs.length
    const keys = own && layout.reorder ? [...columns, ...Object.keys(row).filter((k) => !columns.includes(k))] : columns
    let cells = keys.map((k) => cell(row[k]))
    if (own && layout.spaced) cells = cells.map((c) => (c.startsWith('"') ? c : `"${c}"`))
    if (own && layout.escaped) cells[1] = `"${String(row.text).replace(/"/g, '""')}" `
    // A tab before the list, or raw inside its first string (JSON allows neither).
    if (own && layout.tab) cells[2] = cells[2]!.includes('[""') ? cells[2]!.replace('[""', '[""\t') : cells[2]!.replace('[', '[\t')
    return cells.join(',')
  })
  if (layout.blank) lines.splice(which % lines.length, 0, '')
  const end = layout.crlf ? '\r\n' : layout.noFinalNewline ? '\r' : '\n'
  let text = ['number,text,examples,index', ...lines].join(end) + (layout.noFinalNewline ? '' : end)
  if (layout.bom) text = '\ufeff' + text
  return enc.encode(text)
}

describe(`the clean proof never says clean where the checks report anything (${RUNS} damaged exports)`, () => {
  it('validate gives the same report (or error) with the proof as without, and the proof is taken when clean', async () => {
    const base = await validateSource('rules.jsonl', enc.encode(rows.map((row) => JSON.stringify(row) + '\n').join('')), { exact: true })
    expect(base.diagnostics).toEqual([])
    let proved = 0
    await fc.assert(
      fc.asyncProperty(fc.boolean(), fc.array(fc.oneof(...edits.map((arbitrary, i) => ({ arbitrary, weight: i === 5 ? 4 : 1 }))), { maxLength: 2 }), layouts, fc.nat(), fc.array(fc.integer({ min: 1, max: 5000 }), { maxLength: 3 }), async (csv, changes, layout, which, sizes) => {
        const rs = rows.map((row) => ({ ...row }))
        for (const change of changes) change(rs)
        const bytes = (csv ? writeCsvRows : write)(rs, layout, which)
        const name = csv ? 'rules.csv' : 'rules.jsonl'
        const exact = await outcome(name, bytes, true)
        expect(await outcome(name, bytes, false)).toEqual(exact)
        const proof = await (csv ? proveCsvClean : proveJsonlClean)(chunked(bytes, sizes))
        if (proof !== null) {
          proved++
          expect(exact.report?.diagnostics).toEqual([])
          expect(exact.report?.source.rows).toBe(proof)
        }
      }),
      { numRuns: 2 * RUNS, ...SEED },
    )
    // Clean inputs are common among the cases (no change, or only a layout change): they must be proved.
    expect(proved).toBeGreaterThan(RUNS / 10)
  }, 600_000)

  it('a file proved in two parts, cut at any line, proves what it proves whole', async () => {
    const bytes = write(rows, { reorder: false, spaced: false, escaped: false, crlf: false, blank: false, noFinalNewline: false, bom: false, tab: false }, 0)
    const starts = [0]
    for (let i = 0; i < bytes.length; i++) if (bytes[i] === 0x0a && i + 1 < bytes.length) starts.push(i + 1)
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat(), { minLength: 1, maxLength: 3 }), fc.nat({ max: 2 }), async (cuts, broken) => {
        const data = new Uint8Array(bytes)
        // Now and then a line is damaged, so that a part fails or the join must.
        if (broken === 1) data[starts[cuts[0]! % starts.length]! + 12] = 0x39
        const at = [...new Set(cuts.map((c) => starts[c % starts.length]!))].sort((a, b) => a - b)
        const bounds = [0, ...at.filter((a) => a > 0), data.length]
        const parts = []
        for (let i = 0; i + 1 < bounds.length; i++) parts.push(await proveJsonlPart(chunked(data.subarray(bounds[i], bounds[i + 1]), [777])))
        expect(mergeProofs(parts)).toBe(await proveJsonlClean(chunked(data, [])))
      }),
      { numRuns: 100, ...SEED },
    )
  })
})

describe('escapes by the hundred thousand', () => {
  it('keep the proof exact (lines past the odd bytes it keeps are parsed), and its memory small', async () => {
    const rs = rows.map((row, i) => (i === 3 ? { ...row, text: `Quotes ${'"'.repeat(150_000)}` } : row))
    const bytes = enc.encode(rs.map((row) => JSON.stringify(row) + '\n').join(''))
    const exact = await validateSource('rules.jsonl', bytes, { exact: true })
    expect(exact.diagnostics).toEqual([])
    expect(await proveJsonlClean(chunked(bytes, []))).toBe(rs.length)
    const broken = enc.encode(rs.map((row, i) => JSON.stringify(i === 200 ? { ...row, index: 7 } : row) + '\n').join(''))
    expect(await proveJsonlClean(chunked(broken, []))).toBeNull()
    expect(await validateSource('rules.jsonl', broken)).toEqual(await validateSource('rules.jsonl', broken, { exact: true }))
    // An escape in a later line, past the backslashes kept: `\u0045xample` is "Example", an example-as-row.
    const escaped = enc.encode(rs.map((row, i) => (i === 250 ? JSON.stringify({ ...row, text: 'Example: a game.' }).replace('"Example', '"\\u0045xample') : JSON.stringify(row)) + '\n').join(''))
    expect(new TextDecoder().decode(escaped)).toContain('"text":"\\u0045xample')
    expect(await proveJsonlClean(chunked(escaped, []))).toBeNull()
    expect((await validateSource('rules.jsonl', escaped)).counts.byCode['example-as-row']).toBe(1)
  })
})

describe('the examples of a CSV file read straight from their bytes', () => {
  const layout = { reorder: false, spaced: false, escaped: false, crlf: false, blank: false, noFinalNewline: false, bom: false, tab: false }
  const withExamples = rows.findIndex((row) => Array.isArray(row.examples) && row.examples.length > 0)

  it('are proved only when each string is its bytes: a control byte or an escape in one sends the field to the parser', async () => {
    expect(withExamples).toBeGreaterThanOrEqual(0)
    const csv = new TextDecoder().decode(writeCsvRows(rows, layout, 0))
    expect(await proveCsvClean(chunked(enc.encode(csv), []))).toBe(rows.length)
    const line = csv.split('\n')[withExamples + 1]!
    expect(line).toContain(',"[""')
    // A raw tab in the first example (JSON has no such string), and an escaped newline before a
    // rule that is not there (a citation once parsed).
    for (const changed of [line.replace(',"[""', ',"[""\t'), line.replace(',"[""', ',"[""See rule\\n999.1. ')]) {
      const bytes = enc.encode(csv.replace(line, changed))
      const exact = await outcome('rules.csv', bytes, true)
      expect(exact.report?.diagnostics.length ?? 1).toBeGreaterThan(0)
      expect(await proveCsvClean(chunked(bytes, []))).toBeNull()
      expect(await outcome('rules.csv', bytes, false)).toEqual(exact)
    }
  })
})

describe('a CSV file proved in two parts', () => {
  // A text that holds a line looking like a record: a cut there falls inside a quoted field.
  const rs = rows.map((row, i) => (i === 150 ? { ...row, text: `${String(row.text)}\n100.2,"x",[],3` } : row))
  const bytes = writeCsvRows(rs, { reorder: false, spaced: false, escaped: false, crlf: false, blank: false, noFinalNewline: false, bom: false, tab: false }, 0)
  const starts: number[] = []
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === 0x0a && i + 1 < bytes.length) starts.push(i + 1)

  it('proves what the whole proves when cut between records, and nothing when cut inside a quoted field', async () => {
    const whole = await proveCsvClean(chunked(bytes, []))
    expect(whole).toBe(rs.length)
    let inside = 0
    for (const cut of starts) {
      const merged = mergeProofs([await proveCsvPart(chunked(bytes.subarray(0, cut), [1000]), true), await proveCsvPart(chunked(bytes.subarray(cut), [1000]), false)])
      const quoted = new TextDecoder().decode(bytes.subarray(0, cut)).split('"').length % 2 === 0
      if (quoted) inside++
      expect(merged).toBe(quoted ? null : whole)
    }
    expect(inside).toBe(1)
  })
})

describe('a large JSONL file is proved on two cores', () => {
  // Past the 8 MiB where a file is split: real texts that cite nothing, repeated under new numbers.
  const dir = mkdtempSync(join(tmpdir(), 'clean-proof-'))
  const texts = rows.filter((row) => !/\d/.test(JSON.stringify([row.text, row.examples]))).map((row) => ({ text: row.text, examples: row.examples }))
  const numbers: string[] = []
  for (let section = 100; numbers.length < 40_000; section++) for (let rule = 1; rule <= 400; rule++) numbers.push(`${section}.${rule}`)
  const lineOf = (i: number, text?: string) => JSON.stringify({ number: numbers[i], ...texts[i % texts.length], ...(text ? { text } : {}), index: i }) + '\n'
  // Citations across the cut: the first row cites the last (forward), the last the first (back).
  const lines = numbers.map((_, i) => lineOf(i, i === 0 ? `See rule ${numbers.at(-1)}.` : i === numbers.length - 1 ? 'See rule 100.1.' : undefined))

  it('gives the row count when clean, and null when a row in the second half is out of place or cites what is not there', async () => {
    expect(lines.join('').length).toBeGreaterThan(9 * 1024 * 1024)
    const file = (name: string, ls: string[]) => {
      writeFileSync(join(dir, name), ls.join(''))
      return { path: join(dir, name), size: Buffer.byteLength(ls.join('')) }
    }
    const good = file('rules.jsonl', lines)
    expect(await proveFile("jsonl", good.path, good.size)).toBe(lines.length)
    const swapped = [...lines]
    const i = Math.floor(lines.length * 0.75)
    ;[swapped[i], swapped[i + 1]] = [swapped[i + 1]!, swapped[i]!]
    const bad = file('swapped.jsonl', swapped)
    expect(await proveFile("jsonl", bad.path, bad.size)).toBeNull()
    const report = await validateExportStream(bad.path, await inputFileChunks(bad.path, MAX_EXPORT_BYTES), { fileProof: nodeFileProof })
    expect(report.counts.byCode.order).toBeGreaterThan(0)
    const dangling = file('dangling.jsonl', [...lines.slice(0, -1), lineOf(lines.length - 1, 'See rule 100.401.')])
    expect(await proveFile("jsonl", dangling.path, dangling.size)).toBeNull()
    expect((await validateExportStream(dangling.path, await inputFileChunks(dangling.path, MAX_EXPORT_BYTES), { fileProof: nodeFileProof })).counts.byCode['dangling-reference']).toBe(1)
  })
})

describe('the clean proof of Parquet', () => {
  const dir = mkdtempSync(join(tmpdir(), 'clean-parquet-'))
  let n = 0
  /** validate of a Parquet file on disk (the proof needs a file), with the proof first or not. */
  const onDisk = async (bytes: Uint8Array, exact: boolean) => {
    const path = join(dir, `rules-${n++}.parquet`)
    writeFileSync(path, bytes)
    try {
      return { report: await validateExportStream(path.replace(/-\d+\.parquet$/, '.parquet'), Object.assign(await inputFileChunks(path, MAX_EXPORT_BYTES)), { exact, fileProof: nodeFileProof }) }
    } catch (e) {
      return { error: e instanceof EtlError ? `${e.code}: ${e.message}` : `not an EtlError: ${String(e)}` }
    }
  }
  const proved = async (bytes: Uint8Array) => {
    const path = join(dir, `proof-${n++}.parquet`)
    writeFileSync(path, bytes)
    return proveParquetFile(path, fileRef(path, bytes.length))
  }

  for (const r of releases()) {
    it(`${r.effective}: proves rules.parquet clean exactly when the checks find nothing`, async () => {
      const bytes = exportOf(r.file, r.path, 'rules.parquet')
      const exact = await onDisk(bytes, true)
      expect(await proved(bytes)).toBe(exact.report!.diagnostics.length === 0 ? exact.report!.source.rows : null)
      expect(await onDisk(bytes, false)).toEqual(exact)
    })
  }

  it(`gives the report the checks give, on rows changed in ${Math.round(RUNS / 3)} ways, in row groups of any size`, async () => {
    let clean = 0
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(...edits.slice(0, 7).map((arbitrary, i) => ({ arbitrary, weight: i === 5 ? 6 : 1 }))), { maxLength: 2 }), fc.integer({ min: 1, max: 400 }), async (changes, groupRows) => {
        const rs = rows.map((row) => ({ ...row }))
        for (const change of changes) change(rs)
        // The writer takes only what its columns can hold: other values are the JSONL and CSV tests' share.
        const typed = rs.filter((row) => [row.number, row.text].every((v) => typeof v === 'string' || v === null) && Array.isArray(row.examples) && (row.examples as unknown[]).every((e) => typeof e === 'string') && (Number.isInteger(row.index) || row.index === null))
        const bytes = writeParquet(RULES_TABLE, typed as TableRow[], 'test', { rowGroupSize: groupRows })
        const exact = await onDisk(bytes, true)
        expect(await onDisk(bytes, false)).toEqual(exact)
        const proof = await proved(bytes)
        if (proof !== null) {
          clean++
          expect(exact.report?.diagnostics).toEqual([])
        }
      }),
      { numRuns: Math.round(RUNS / 3), ...SEED },
    )
    expect(clean).toBeGreaterThan(RUNS / 50)
  }, 600_000)

  it('does not trust a page that says it holds no nulls when its levels say otherwise', async () => {
    const bytes = writeParquet(RULES_TABLE, rows as TableRow[], 'test', { rowGroupSize: 100 })
    const text = parquetMetadata(bytes.buffer as ArrayBuffer).row_groups[1]!.columns.find((c) => c.meta_data?.path_in_schema[0] === 'text')!.meta_data!
    const reader = { view: new DataView(bytes.buffer), offset: Number(text.data_page_offset) }
    expect(parquetHeader(reader).data_page_header_v2?.num_nulls).toBe(0)
    // The levels: one RLE run (a varint, then the value 1 for "present"); set it to 0, "absent".
    let at = reader.offset
    while (bytes[at]! & 0x80) at++
    expect(bytes[at + 1]).toBe(1)
    bytes[at + 1] = 0
    const exact = await onDisk(bytes, true)
    expect(exact.report?.counts.byCode.schema).toBeGreaterThan(0)
    expect(await proved(bytes)).toBeNull()
    expect(await onDisk(bytes, false)).toEqual(exact)
  })

  it('leaves to hyparquet a row group whose chunk metadata gives another type than the schema (found by FUZZ_RUNS=1200)', async () => {
    const bytes = writeParquet(RULES_TABLE, rows as TableRow[], 'test', { rowGroupSize: 100 })
    // The one byte of the footer that makes the third group's index chunk BOOLEAN (thrift: INT64 is 4, BOOLEAN 0).
    const typeOfIndex = (b: Uint8Array) => {
      try {
        return parquetMetadata(b.buffer as ArrayBuffer).row_groups[2]?.columns[3]?.meta_data?.type
      } catch {
        return undefined
      }
    }
    let damaged: Uint8Array | undefined
    for (let at = bytes.length - 8; at > 0 && !damaged; at--) {
      const b = new Uint8Array(bytes)
      b[at] = 0
      if (typeOfIndex(b) === 'BOOLEAN' && parquetMetadata(b.buffer as ArrayBuffer).schema.find((e) => e.name === 'index')?.type === 'INT64') damaged = b
    }
    expect(damaged).toBeDefined()
    const exact = await onDisk(damaged!, true)
    // hyparquet reads that group's index as `false`: 100 index and 100 schema errors.
    expect(exact.report?.counts.byCode).toEqual({ index: 100, schema: 100 })
    expect(await proved(damaged!)).toBeNull()
    expect(await onDisk(damaged!, false)).toEqual(exact)
  })

  it('gives the report (or error) the checks give on damaged files', async () => {
    const bytes = writeParquet(RULES_TABLE, rows as TableRow[], 'test', { rowGroupSize: 100 })
    await fc.assert(
      fc.asyncProperty(fc.nat(), fc.integer({ min: 0, max: 255 }), async (at, value) => {
        const damaged = new Uint8Array(bytes)
        damaged[at % damaged.length] = value
        expect(await onDisk(damaged, false)).toEqual(await onDisk(damaged, true))
      }),
      { numRuns: Math.round(RUNS / 5), ...SEED },
    )
  }, 600_000)
})

describe('the examples column read straight from its pages', () => {
  const dir = mkdtempSync(join(tmpdir(), 'clean-lists-'))
  let n = 0
  // Lists as our writer writes them and as it never does: null lists, null and empty examples.
  const example = fc.oneof(fc.constantFrom('Example: a game.', 'See rule 100.1.', 'See rule 999.9.', '', 'é — ü'), fc.constant(null))
  const examples = fc.oneof({ arbitrary: fc.array(example, { maxLength: 4 }), weight: 5 }, { arbitrary: fc.constant(null), weight: 1 })
  /** Rows in our layout (v2 pages, PLAIN, GZIP), their examples as drawn, in pages of `pageSize` bytes. */
  const parquetOf = (lists: (string | null)[][] | null[], groupRows: number, pageSize: number) =>
    new Uint8Array(
      parquetWriteBuffer({
        columnData: [
          { name: 'number', data: lists.map((_, i) => `100.${i + 1}`), encoding: 'PLAIN', statistics: false },
          { name: 'text', data: lists.map(() => 'A rule.'), encoding: 'PLAIN', statistics: false },
          { name: 'examples', data: lists, encoding: 'PLAIN', statistics: false, pageSize },
          { name: 'index', data: lists.map((_, i) => BigInt(i)) },
        ],
        schema: [{ name: 'schema', num_children: 4 }, ...RULES_TABLE.columns.flatMap(schemaOf)],
        codec: 'GZIP',
        compressors: { GZIP: (b: Uint8Array) => gzipSync(b, { level: 1 }) },
        rowGroupSize: groupRows,
      }),
    )
  const onDisk = async (bytes: Uint8Array, exact: boolean) => {
    const path = join(dir, `rules-${n++}.parquet`)
    writeFileSync(path, bytes)
    try {
      return { report: await validateExportStream(path.replace(/-\d+\.parquet$/, '.parquet'), await inputFileChunks(path, MAX_EXPORT_BYTES), { exact, fileProof: nodeFileProof }) }
    } catch (e) {
      return { error: e instanceof EtlError ? `${e.code}: ${e.message}` : `not an EtlError: ${String(e)}` }
    }
  }
  /** The examples of each row as listPage's levels and values say (Dremel, for this one shape). */
  const listsOf = (bytes: Uint8Array) => {
    const metadata = parquetMetadata(bytes.buffer as ArrayBuffer)
    const lists: (string | null)[][] | null[] = []
    for (const group of metadata.row_groups) {
      const meta = group.columns.find((c) => c.meta_data?.path_in_schema[0] === 'examples')!.meta_data!
      const start = Number(meta.data_page_offset)
      const refs = listPageRefs(bytes.subarray(start, start + Number(meta.total_compressed_size)), { meta: meta as never, elements: metadata.schema.slice(3, 6) as never })
      expect(refs).not.toBeNull()
      for (const ref of refs!) {
        const page = listPage(ref, meta.codec)!
        let at = 0
        const value = () => {
          const length = page.values.readUInt32LE(at)
          at += 4 + length
          return page.values.toString('utf8', at - length, at)
        }
        page.repetition.forEach((r, i) => {
          const d = page.definition[i]!
          const item = d === 3 ? value() : null
          if (r === 0) (lists as unknown[]).push(d === 0 ? null : d === 1 ? [] : [item])
          else (lists.at(-1) as (string | null)[]).push(item)
        })
      }
    }
    return lists
  }

  it('decodes them as hyparquet does, proves nothing where one is null, and validate gives the report the checks give', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(examples, { minLength: 1, maxLength: 60 }), fc.integer({ min: 1, max: 40 }), fc.constantFrom(0, 16, 200), async (lists, groupRows, pageSize) => {
        const bytes = parquetOf(lists, groupRows, pageSize)
        const read = await parquetReadObjects({ file: bytes.buffer as ArrayBuffer, columns: ['examples'], compressors: { GZIP: (b: Uint8Array) => new Uint8Array(gunzipSync(b)) } })
        // Where a list or an example is null the proof fails, and the checks say what hyparquet made
        // of it (a row of [null] comes out as undefined): elsewhere the two read the same lists.
        if (!lists.some((l) => l === null || l.includes(null))) expect(listsOf(bytes)).toEqual(read.map((r) => r.examples))
        else expect(await proveParquetFile('rules.parquet', await (async () => {
          const path = join(dir, `nulls-${n++}.parquet`)
          writeFileSync(path, bytes)
          return fileRef(path, bytes.length)
        })())).toBeNull()
        const exact = await onDisk(bytes, true)
        expect(await onDisk(bytes, false)).toEqual(exact)
      }),
      { numRuns: Math.round(RUNS / 5), ...SEED },
    )
  }, 600_000)

  it('does not trust a page whose header miscounts its nulls (hyparquet reads as many values as it says)', async () => {
    const lists = rows.slice(0, 50).map((row, i) => (i % 3 === 0 ? [] : (row.examples as string[]).length ? (row.examples as string[]) : ['An example.']))
    const bytes = parquetOf(lists, 50, 0)
    const meta = parquetMetadata(bytes.buffer as ArrayBuffer).row_groups[0]!.columns.find((c) => c.meta_data?.path_in_schema[0] === 'examples')!.meta_data!
    const start = Number(meta.data_page_offset)
    const headerOf = (b: Uint8Array) => {
      const reader = { view: new DataView(b.buffer), offset: start }
      return { header: parquetHeader(reader), end: reader.offset }
    }
    const { header, end } = headerOf(bytes)
    const nulls = header.data_page_header_v2!.num_nulls
    expect(nulls).toBe(17)
    for (const delta of [1, -1]) {
      // The byte of the header that holds num_nulls (a zigzag varint): the one that, changed, changes only it.
      const changed = Array.from({ length: end - start }, (_, k) => {
        const b = new Uint8Array(bytes)
        b[start + k] = b[start + k]! + 2 * delta
        try {
          const h = headerOf(b).header
          return h.data_page_header_v2?.num_nulls === nulls + delta && h.data_page_header_v2.num_values === header.data_page_header_v2!.num_values ? b : null
        } catch {
          return null
        }
      }).find((b) => b !== null)!
      expect(changed).toBeDefined()
      const exact = await onDisk(changed, true)
      expect(await onDisk(changed, false)).toEqual(exact)
      expect(exact.report?.valid ?? false).toBe(false)
    }
  })

  it('reads a large index as the checks do (not as the row position its low half is)', async () => {
    // 2^32 + 19 in row 19; 2^53, which a double holds but is not a safe integer; a negative one.
    for (const big of [2 ** 32 + 19, 2 ** 53, -(2 ** 53)]) {
      const rs = Array.from({ length: 20 }, (_, i) => ({ number: `100.${i + 1}`, text: 'A rule.', examples: [], index: i === 19 ? big : i }))
      const bytes = writeParquet(RULES_TABLE, rs as TableRow[], 'test')
      const exact = await onDisk(bytes, true)
      expect(exact.report?.counts.byCode.index).toBe(1)
      expect(await onDisk(bytes, false)).toEqual(exact)
    }
  })

  it('needs hyparquet only in a worker: a unit proved in the main thread from a column it cannot read from its pages is not proved', async () => {
    // The text dictionary-encoded (hyparquet-writer's default): not our layout, so hyparquet decodes it,
    // which a damaged page can keep busy without end; the main thread has no time limit to stop it.
    const n = 30
    const bytes = new Uint8Array(
      parquetWriteBuffer({
        columnData: [
          { name: 'number', data: Array.from({ length: n }, (_, i) => `100.${i + 1}`), encoding: 'PLAIN', statistics: false },
          { name: 'text', data: Array.from({ length: n }, () => 'A rule.') },
          { name: 'examples', data: Array.from({ length: n }, () => []), encoding: 'PLAIN', statistics: false },
          { name: 'index', data: Array.from({ length: n }, (_, i) => BigInt(i)), encoding: 'PLAIN', statistics: false },
        ],
        schema: [{ name: 'schema', num_children: 4 }, ...RULES_TABLE.columns.flatMap(schemaOf)],
        codec: 'GZIP',
        compressors: { GZIP: (b: Uint8Array) => gzipSync(b, { level: 1 }) },
      }),
    )
    const path = join(dir, 'dictionary.parquet')
    writeFileSync(path, bytes)
    expect(parquetMetadata(bytes.buffer as ArrayBuffer).row_groups[0]!.columns[1]!.meta_data!.encodings).toContain('RLE_DICTIONARY')
    const job = { kind: 'parquet' as const, path, units: [{ group: 0, slice: 0, slices: 1 }], maxTextBytes: 1 << 26 }
    expect((await (await parquetProver(job, undefined, false))(0)).failed).toBe(true)
    const inWorker = await (await parquetProver(job))(0)
    expect(inWorker.failed).toBe(false)
    expect(inWorker.rows).toBe(n)
  })

  it('refuses a list page whose levels claim billions of values, before allocating them (no heap limit stops that here)', () => {
    // An RLE run of 2^30 repetition levels in five bytes, and a header that agrees.
    const run = [0x80, 0x80, 0x80, 0x80, 0x08, 0x00]
    const header = { num_values: 2 ** 30, num_nulls: 2 ** 30, num_rows: 1, encoding: 'PLAIN', repetition_levels_byte_length: run.length, definition_levels_byte_length: run.length, is_compressed: false }
    const ref = { body: new Uint8Array(0), levels: Uint8Array.from([...run, ...run]), header, values: header.num_values, size: 0, compressed: false } as unknown as Parameters<typeof listPage>[0]
    expect(listPage(ref, 'UNCOMPRESSED')).toBeNull()
    // A run longer than the header says (the array would grow past it) is refused too.
    const small = { ...header, num_values: 4, num_nulls: 4 }
    expect(listPage({ ...ref, header: small, values: 4 } as typeof ref, 'UNCOMPRESSED')).toBeNull()
  })

  it('gives the report (or error) the checks give when the examples column is damaged', async () => {
    const lists = rows.map((row) => row.examples as string[])
    lists[3] = []
    const bytes = parquetOf(lists, 100, 400)
    const metadata = parquetMetadata(bytes.buffer as ArrayBuffer)
    const chunks = metadata.row_groups.map((g) => g.columns.find((c) => c.meta_data?.path_in_schema[0] === 'examples')!.meta_data!)
    expect(await proveParquetFile('rules.parquet', await (async () => {
      const path = join(dir, 'whole.parquet')
      writeFileSync(path, bytes)
      return fileRef(path, bytes.length)
    })())).toBe(rows.length)
    await fc.assert(
      fc.asyncProperty(fc.nat(), fc.nat(), fc.integer({ min: 0, max: 255 }), async (which, offset, value) => {
        const chunk = chunks[which % chunks.length]!
        const damaged = new Uint8Array(bytes)
        damaged[Number(chunk.data_page_offset) + (offset % Number(chunk.total_compressed_size))] = value
        expect(await onDisk(damaged, false)).toEqual(await onDisk(damaged, true))
      }),
      { numRuns: Math.round(RUNS / 3), ...SEED },
    )
  }, 600_000)
})

describe('the CLI', () => {
  it('gives the same report with --exact (every check on every row) as with the proof, clean or not, in every format', () => {
    const dir = mkdtempSync(join(tmpdir(), 'clean-cli-'))
    const newest = releases().at(-1)!
    const built = buildDataset(newest.file, readBytes(newest.path))
    for (const name of ['rules.jsonl', 'rules.csv', 'rules.parquet']) {
      const bytes = built.files.find((f) => f.name === name)!.bytes
      writeFileSync(join(dir, name), bytes)
      // The same rows with the third and fourth swapped: an order finding, and the gaps it makes.
      const swapped = name === 'rules.parquet' ? writeParquet(RULES_TABLE, [built.rows[0], built.rows[1], built.rows[3], built.rows[2], ...built.rows.slice(4)] as unknown as TableRow[], 'test') : null
      const flawed = join(dir, `flawed-${name}`)
      if (swapped) writeFileSync(flawed, swapped)
      else {
        const lines = new TextDecoder().decode(bytes).split(/(?<=\n)/)
        const at = name === 'rules.csv' ? 3 : 2
        ;[lines[at], lines[at + 1]] = [lines[at + 1]!, lines[at]!]
        writeFileSync(flawed, lines.join(''))
      }
      for (const path of [join(dir, name), flawed]) {
        const proof = runCli(['validate', path, '--json'])
        const exact = runCli(['validate', path, '--json', '--exact'])
        expect(proof.stdout).toBe(exact.stdout)
        expect(proof.status).toBe(exact.status)
        expect(proof.status).toBe(path === flawed ? 1 : 0)
      }
    }
  })

  it('gives the same report both ways for exports proved in many units on two threads', async () => {
    // 45,000 rows of real texts (their citations pointed at 100.1): JSONL and CSV of 11+ MiB are
    // cut into units; the Parquet file's first row group (30,000 rows) has its text in slices.
    const dir = mkdtempSync(join(tmpdir(), 'clean-units-'))
    const real = rows.filter((row) => typeof row.text === 'string')
    const numbers: string[] = []
    for (let section = 100; numbers.length < 45_000; section++) for (let rule = 1; rule <= 300; rule++) numbers.push(`${section}.${rule}`)
    const make = (change?: (rs: Row[]) => void) => {
      const rs: Row[] = numbers.map((number, i) => ({ number, text: real[i % real.length]!.text, examples: real[i % real.length]!.examples, index: i }))
      change?.(rs)
      return rs as unknown as TableRow[]
    }
    const cases = {
      clean: make(),
      // Out of order near the end (an error); a citation of a rule that is not there (a warning), in
    // the first row group's last slice.
      swapped: make((rs) => ([rs[44_000], rs[44_001]] = [rs[44_001]!, rs[44_000]!])),
      dangling: make((rs) => (rs[29_000]!.text = 'See rule 999.999.')),
    }
    for (const [name, rs] of Object.entries(cases)) {
      const files = {
        jsonl: writeJsonl(RULES_TABLE, rs),
        csv: writeCsv(RULES_TABLE, rs),
        parquet: writeParquet(RULES_TABLE, rs, 'test', { rowGroupSize: 30_000 }),
      }
      expect(files.jsonl.length).toBeGreaterThan(9 * 1024 * 1024)
      for (const [format, bytes] of Object.entries(files)) {
        const path = join(dir, `${name}.${format}`)
        writeFileSync(path, bytes)
        const proof = runCli(['validate', path, '--json'])
        const exact = runCli(['validate', path, '--json', '--exact'])
        expect(proof.stdout, `${name}.${format}`).toBe(exact.stdout)
        expect(proof.status, `${name}.${format}: ${proof.stdout.slice(0, 300)}`).toBe(name === "swapped" ? 1 : 0)
        const byCode = JSON.parse(proof.stdout).counts.byCode as Record<string, number>
        if (name === 'swapped') expect(byCode.order).toBeGreaterThan(0)
        if (name === 'dangling') expect(byCode).toEqual({ 'dangling-reference': 1 })
        // The clean file is proved, its text slices each read only their own pages.
        if (name === 'clean' && format === 'parquet') expect(await proveParquetFile(path, fileRef(path, bytes.length))).toBe(45_000)
      }
    }
    // Several files in one command: the same workers prove one file after another (see
    // worker-pool.ts), each report as the exact path's.
    const all = ['clean', 'dangling', 'swapped'].flatMap((name) => ['jsonl', 'csv', 'parquet'].map((format) => join(dir, `${name}.${format}`)))
    const together = runCli(['validate', ...all, '--json'])
    expect(together.stdout).toBe(runCli(['validate', ...all, '--json', '--exact']).stdout)
    expect(JSON.parse(together.stdout).map((r: { valid: boolean }) => r.valid)).toEqual([true, true, true, true, true, true, false, false, false])
  }, 300_000)
})
