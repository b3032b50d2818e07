import { readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { parquetWriteBuffer } from 'hyparquet-writer'
import { configureIo, ioSettings } from '../src/io/settings.js'
import { beforeAll, describe, expect, it } from 'vitest'
import { buildDataset } from '../src/build/build.js'
import { EtlError } from '../src/core/errors.js'
import { writeArrow } from '../src/exports/arrow-write.js'
import { validateExportStream, validateSource } from '../src/validate/validate.js'
import { readBytes, release } from './helpers/shared.js'

const r = release('2026-06-19')
// A decoding worker left idle is stopped after 300 ms here (2 s unless set): the test of it waits that out.
beforeAll(() => configureIo({ decoderIdleMs: 300 }))
const built = buildDataset(r.file, readBytes(r.path))
const fileOf = (name: string) => built.files.find((f) => f.name === name)!.bytes
const jsonlLines = new TextDecoder().decode(fileOf('rules.jsonl')).split('\n')
const csvText = new TextDecoder().decode(fileOf('rules.csv'))
const enc = (s: string) => new TextEncoder().encode(s)

async function failure(name: string, bytes: Uint8Array): Promise<EtlError> {
  try {
    await validateSource(name, bytes)
  } catch (e) {
    if (e instanceof EtlError) return e
    throw e
  }
  throw new Error(`${name} was read without error`)
}

describe('malformed exports are a clear error (exit 2 in the CLI)', () => {
  it('JSONL with a broken line 57', async () => {
    const lines = [...jsonlLines]
    lines[56] = lines[56]!.slice(0, 40)
    const e = await failure('broken.jsonl', enc(lines.join('\n')))
    expect(e.message).toMatch(/^read: broken.jsonl: bad JSON on line 57 \(/)
  })

  it('CSV with a wrong column count on one row', async () => {
    const lines = csvText.split('\r\n')
    lines[5] = lines[5] + ',extra'
    const e = await failure('count.csv', enc(lines.join('\r\n')))
    expect(e.message).toMatch(/^read: count.csv: Invalid Record Length: expect 4, got 5 on line 6$/)
  })

  it('CSV with an unterminated quote', async () => {
    const e = await failure('quote.csv', enc(csvText + '999.1,"never closed,[],3153\r\n'))
    expect(e.message).toMatch(/^read: quote.csv: Quote Not Closed/)
  })

  it('Parquet that is not Parquet', async () => {
    const e = await failure('fake.parquet', fileOf('rules.jsonl'))
    expect(e.message).toBe('read: fake.parquet is not a Parquet file (no PAR1 magic bytes)')
  })

  it('a truncated Parquet file', async () => {
    const p = fileOf('rules.parquet')
    const cut = new Uint8Array([...p.subarray(0, 1000), ...p.subarray(p.length - 4)])
    const e = await failure('cut.parquet', cut)
    expect(e.message).toMatch(/^read: cut.parquet is not a readable Parquet file \(/)
  })
})

describe('column problems are diagnostics', () => {
  it('an export with an extra column and a missing one', async () => {
    const rows = jsonlLines.filter((l) => l !== '').map((l) => {
      const { number, text, index } = JSON.parse(l)
      return JSON.stringify({ number, text, index, source: 'x' })
    })
    const report = await validateSource('extra.jsonl', enc(rows.join('\n') + '\n'))
    expect(report.valid).toBe(false)
    expect(report.diagnostics.filter((d) => d.code === 'columns').map((d) => d.message)).toEqual(['missing column: examples', 'unknown column: source'])
  })

  it('Parquet with the wrong column types', async () => {
    const rows = built.rows.slice(0, 50)
    const parquet = parquetWriteBuffer({
      columnData: [
        { name: 'number', data: rows.map((x) => x.number) },
        { name: 'text', data: rows.map((x) => x.text) },
        { name: 'examples', data: rows.map((x) => JSON.stringify(x.examples)), type: 'STRING' },
        { name: 'index', data: rows.map((x) => x.index), type: 'INT32' },
      ],
    })
    const report = await validateSource('types.parquet', new Uint8Array(parquet))
    expect(report.diagnostics.filter((d) => d.code === 'columns').map((d) => d.message)).toEqual([
      'column examples has type string, expected list<string>',
      'column index has type int32, expected int64',
    ])
    // A wrongly typed column is one finding: no schema error per row repeats it (#26).
    expect(report.diagnostics.filter((d) => d.code === 'schema')).toEqual([])
    expect(report.valid).toBe(false)
  })

  it('a CSV written by us reads back valid, line numbers included', async () => {
    const report = await validateSource('rules.csv', fileOf('rules.csv'))
    expect(report).toMatchObject({ valid: true, source: { rows: r.rules }, diagnostics: [] })
    // Header, 3153 records, two of them (205.4c, 509.1b) two lines long: the copy starts on line 3157.
    const doubled = csvText + csvText.split('\r\n').slice(1, 2).join('') + '\r\n'
    const dup = await validateSource('dup.csv', enc(doubled))
    expect(dup.diagnostics.find((d) => d.code === 'duplicate-number')).toMatchObject({ number: '100.1', line: r.rules + 4, position: r.rules })
  })
})

describe('streaming: chunks cut anywhere give the same report', () => {
  async function* chunksOf(bytes: Uint8Array, size: number) {
    for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size)
  }
  it.each([
    ['jsonl', 7],
    ['csv', 5],
    ['jsonl', 65536],
  ] as const)('%s in %i-byte chunks', async (format, size) => {
    const lines = new TextDecoder().decode(fileOf('rules.jsonl')).split('\n')
    const bytes = format === 'jsonl' ? enc([...lines.slice(0, 300), lines[5], ...lines.slice(300)].join('\n')) : fileOf('rules.csv')
    const whole = await validateSource(`x.${format}`, bytes)
    const streamed = await validateExportStream(`x.${format}`, chunksOf(bytes, size))
    expect(streamed).toEqual(whole)
    expect(streamed.source.rows).toBe(format === 'jsonl' ? r.rules + 1 : r.rules)
  })
})

describe('damaged binary exports end in a clear error, never a hang', () => {
  // Cases found by fuzzing: each made the decoder loop without end.
  it.each([
    ['rules.parquet', 17, 255, /^read: rules\.parquet is not a readable Parquet file \(page at byte 4 of column number has a damaged header\)$/],
    ['rules.parquet', 25, 70, /^read: rules\.parquet: decoding row group 0 did not finish within 0\.5 s: too large for the time limit \(MTG_RULES_DECODE_TIMEOUT_MS, in ms, sets it\), or damaged$/],
    ['rules.arrow', 18, 157, /^read: rules\.arrow: decoding the file did not finish within 0\.5 s: too large for the time limit \(MTG_RULES_DECODE_TIMEOUT_MS, in ms, sets it\), or damaged$/],
  ] as const)('%s with byte %i set to %i', async (name, at, value, message) => {
    // (The limit starts once the worker has started: a small file's decoding takes milliseconds.
    // Under a second, the line gives it to a tenth.)
    configureIo({ decodeTimeoutMs: 500 })
    try {
      const small = buildDataset(r.file, readBytes(r.path).subarray(0, 120_000), { arrow: writeArrow })
      const bytes = new Uint8Array(small.files.find((f) => f.name === name)!.bytes)
      bytes[at] = value
      const e = await failure(name, bytes)
      expect(e.message).toMatch(message)
    } finally {
      configureIo({ decodeTimeoutMs: null })
    }
  })
})

it('a decoding worker is used again only after a file it read to the end: the files after a damaged one read as before', async () => {
  try {
    const small = buildDataset(r.file, readBytes(r.path).subarray(0, 120_000), { arrow: writeArrow })
    const copy = (name: string) => new Uint8Array(small.files.find((f) => f.name === name)!.bytes)
    const parquet = await validateSource('rules.parquet', copy('rules.parquet'))
    const arrow = await validateSource('rules.arrow', copy('rules.arrow'))
    expect([parquet.source.rows, arrow.source.rows]).toEqual([small.rows.length, small.rows.length])
    // A worker left looping (stopped at the time limit: short only for it, so that a loaded host
    // never stops a good file's first, cold decoding), then one whose decoder threw.
    const hung = copy('rules.parquet')
    hung[25] = 70
    configureIo({ decodeTimeoutMs: 1000 })
    expect((await failure('rules.parquet', hung)).message).toMatch(/did not finish within 1 s/)
    configureIo({ decodeTimeoutMs: null })
    const broken = copy('rules.parquet')
    broken[17] = 255
    expect((await failure('rules.parquet', broken)).message).toMatch(/has a damaged header/)
    // Each format twice in a row, Parquet and Arrow by turns: the same reports.
    for (let i = 0; i < 2; i++) {
      expect(await validateSource('rules.parquet', copy('rules.parquet'))).toEqual(parquet)
      expect(await validateSource('rules.arrow', copy('rules.arrow'))).toEqual(arrow)
    }
    // An idle worker (and the heap of its last file) is stopped after decoderIdleMs: this process is
    // back to the threads it had before any was started.
    const threads = () => Number(/^Threads:\s+(\d+)/m.exec(readFileSync('/proc/self/status', 'utf8'))![1])
    // (libuv's thread pool started first, whole: it starts on its first use.)
    await readFile('/proc/self/status')
    // (Every idle worker stopped: the count has held for a second.)
    for (let held = 0, last = threads(), i = 0; held < 10 && i < 200; i++) {
      await new Promise((r) => setTimeout(r, 100))
      held = threads() === last ? held + 1 : 0
      last = threads()
    }
    const before = threads()
    await validateSource('rules.parquet', copy('rules.parquet'))
    expect(threads()).toBeGreaterThan(before)
    // Stopped after 300 ms; a loaded host may take a little longer to end the thread.
    for (let i = 0; i < 100 && threads() > before; i++) await new Promise((r) => setTimeout(r, 100))
    expect(threads()).toBe(before)
  } finally {
    configureIo({ decodeTimeoutMs: null })
  }
})

it('a damaged Arrow file whose list offsets point past its items is refused in one line, never read', async () => {
  // Found by fuzzing, each a real rules.arrow with bytes cut out. 55 bytes at offset 309: one row's
  // examples list claimed millions of items (its diagnostics, spread into push(), overflowed the call
  // stack). 10 bytes at 106,214: two rows' lists claimed 11.8 and 17.1 million of the column's 30
  // items, and reading them took the process past 4 GiB until it was killed.
  const cut = (date: string, at: number, length: number) => {
    const { file, path } = release(date)
    const arrow = buildDataset(file, readBytes(path).subarray(0, 120_000), { arrow: writeArrow }).files.find((f) => f.name === 'rules.arrow')!.bytes
    return new Uint8Array([...arrow.subarray(0, at), ...arrow.subarray(at + length)])
  }
  const refusals = []
  for (const damaged of [cut('2026-06-19', 309, 55), cut('2025-02-07', 106_214, 10)]) {
    const e = await failure('rules.arrow', damaged)
    refusals.push([e.code, e.message])
  }
  // (The first cut damages the number column's offsets too, and they come first.)
  expect(refusals).toEqual([
    ['EXPORT_MALFORMED', 'read: rules.arrow is not an Arrow IPC file (column number, row 1: its offsets point outside the values they index)'],
    ['EXPORT_MALFORMED', 'read: rules.arrow is not an Arrow IPC file (column examples, row 18: its offsets point outside the values they index)'],
  ])
})

describe('what a Parquet file unpacks to is bounded, outside the worker heap too', () => {
  it('one dictionary value repeated on every row is refused once its text passes the row group limit', async () => {
    // 300 rows that all name one 1 MiB text: a 1 MiB file that would unpack to 300 MiB of text.
    const big = 'x'.repeat(1024 * 1024)
    const rows = 300
    const bytes = new Uint8Array(
      parquetWriteBuffer({
        columnData: [
          { name: 'number', data: Array.from({ length: rows }, (_, i) => `100.${i + 1}`) },
          { name: 'text', data: Array.from({ length: rows }, () => big), encoding: 'RLE_DICTIONARY' },
          { name: 'index', data: BigInt64Array.from({ length: rows }, (_, i) => BigInt(i)) },
        ],
      }),
    )
    expect(bytes.length).toBeLessThan(2 * 1024 * 1024)
    const e = await failure('rules.parquet', bytes)
    expect(e.message).toBe('read: rules.parquet is not a readable Parquet file (a column holds more than 256 MiB of text in one row group)')
  })
})

describe('a Parquet row group that fails while the one before is still being checked', () => {
  it('is reported as what it is, not lost (waiting out the time limit) nor a crash', async () => {
    const { parquetMetadata } = await import('hyparquet')
    const { readPageHeader } = await import('../src/exports/parquet/page-header.js')
    const { openExport } = await import('../src/exports/read/read-export.js')
    const { RULES_TABLE } = await import('../src/core/tables.js')
    const { writeParquet } = await import('../src/exports/parquet-write.js')
    const bytes = writeParquet(RULES_TABLE, built.tables[0]!.rows, 'test', { rowGroupSize: 1500 })
    // Damage the compressed text of the second row group: its page headers stay sound.
    const text = parquetMetadata(bytes.buffer as ArrayBuffer).row_groups[1]!.columns.find((c) => c.meta_data?.path_in_schema[0] === 'text')!.meta_data!
    const reader = { view: new DataView(bytes.buffer), offset: Number(text.data_page_offset) }
    const header = readPageHeader(reader)
    bytes[reader.offset + Math.floor(header.compressed_page_size / 2)]! ^= 0xff
    const previous = ioSettings.decodeTimeoutMs
    configureIo({ decodeTimeoutMs: 10_000 })
    try {
      const stream = await openExport('rules.parquet', 'parquet', (async function* () {
        yield bytes
      })())
      const batches = stream.batches[Symbol.asyncIterator]()
      await batches.next()
      // Checking the first row group takes a while: the worker has long failed on the second by now.
      await new Promise((resolve) => setTimeout(resolve, 500))
      const started = performance.now()
      let error: unknown
      try {
        for (let b = await batches.next(); !b.done; b = await batches.next());
      } catch (e) {
        error = e
      }
      expect(error).toBeInstanceOf(EtlError)
      expect((error as EtlError).message).toMatch(/is not a readable Parquet file \((?!.*did not finish)/)
      expect(performance.now() - started).toBeLessThan(5000)
    } finally {
      configureIo({ decodeTimeoutMs: previous })
    }
  })
})

describe('a GZIP page that unpacks to far more than its header says', () => {
  it('is refused at the size its header gives, never unpacked whole', async () => {
    const { gzipSync } = await import('node:zlib')
    const { mkdtempSync, writeFileSync } = await import('node:fs')
    const { tmpdir } = await import('node:os')
    const { join } = await import('node:path')
    const { RULES_TABLE } = await import('../src/core/tables.js')
    const { writeParquet } = await import('../src/exports/parquet-write.js')
    const { inputFileChunks, MAX_EXPORT_BYTES } = await import('../src/io/files.js')
    // Each page's bytes followed by 64 MiB of zeros: the header keeps the true size, the body unpacks to 64 MiB more.
    const bomb = { GZIP: (bytes: Uint8Array) => gzipSync(Buffer.concat([bytes, Buffer.alloc(64 * 1024 * 1024)]), { level: 1 }) }
    const bytes = writeParquet(RULES_TABLE, built.tables[0]!.rows.slice(0, 50), 'test', { compressors: bomb })
    const path = join(mkdtempSync(join(tmpdir(), 'bomb-')), 'rules.parquet')
    writeFileSync(path, bytes)
    let error: unknown
    try {
      await validateExportStream(path, await inputFileChunks(path, MAX_EXPORT_BYTES))
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(EtlError)
    expect((error as EtlError).message).toMatch(/is not a readable Parquet file \(.*(larger than|more than).*\)/)
  })
})

/** Rules as an Arrow file whose text column is dictionary-encoded. */
async function dictionaryArrow(rows: { number: string; text: string; index: number }[]): Promise<Uint8Array> {
  const { Dictionary, Int32, Int64, Table, Utf8, tableToIPC, vectorFromArray } = await import('apache-arrow')
  return tableToIPC(
    new Table({
      number: vectorFromArray(rows.map((r) => r.number), new Utf8()),
      text: vectorFromArray(rows.map((r) => r.text), new Dictionary(new Utf8(), new Int32())),
      index: vectorFromArray(rows.map((r) => BigInt(r.index)), new Int64()),
    }),
    'file',
  )
}

/** Rows as an Arrow file whose text is held as views (Utf8View, lists of Utf8View), as Polars writes text. */
async function viewArrow(rows: { number: string; text: string; examples: string[]; index: number }[]): Promise<Uint8Array> {
  const { Field, Int64, List, Table, Utf8View, tableToIPC, vectorFromArray } = await import('apache-arrow')
  const text = () => new Utf8View()
  return tableToIPC(
    new Table({
      number: vectorFromArray(rows.map((r) => r.number), text()),
      text: vectorFromArray(rows.map((r) => r.text), text()),
      examples: vectorFromArray(rows.map((r) => r.examples), new List(new Field('item', text(), true))),
      index: vectorFromArray(rows.map((r) => BigInt(r.index)), new Int64()),
    }),
    'file',
  )
}

describe('Arrow text held as views (Utf8View), as Polars writes it', () => {
  it('reads as text: the same report as the same rows written as Utf8', async () => {
    const rows = built.tables[0]!.rows
    const views = await validateSource('rules.arrow', await viewArrow(rows))
    expect(views.source.rows).toBe(r.rules)
    expect(views).toEqual(await validateSource('rules.arrow', writeArrow((await import('../src/core/tables.js')).RULES_TABLE, rows)))
  })

  it('a view that points past its data buffer is refused in one line, never read cut short', async () => {
    const { Table, Utf8View, makeData, makeVector, tableToIPC, tableFromIPC } = await import('apache-arrow')
    // The 2nd row's text (longer than 12 bytes: kept in the data buffer) made to end 5 bytes past it.
    const good = tableFromIPC(await viewArrow(built.tables[0]!.rows.slice(0, 3))).getChild('text')!.data[0]!
    const views = new Uint8Array(good.values)
    const buffer = good.variadicBuffers[0]!
    new DataView(views.buffer).setInt32(16 + 12, buffer.length - new DataView(views.buffer).getInt32(16, true) + 5, true)
    const text = makeVector(makeData({ type: new Utf8View(), length: 3, nullCount: 0, views, variadicBuffers: [buffer] }))
    const e = await failure('rules.arrow', tableToIPC(new Table({ text }), 'file'))
    expect(e.message).toBe('read: rules.arrow is not an Arrow IPC file (column text, row 2: its offsets point outside the values they index)')
  })
})

describe('text that is not valid UTF-8', () => {
  it('is refused alike in Parquet (in a file or in memory), Arrow, JSONL and CSV, never read as U+FFFD', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs')
    const { tmpdir } = await import('node:os')
    const { join } = await import('node:path')
    const { RULES_TABLE } = await import('../src/core/tables.js')
    const { writeJsonl } = await import('../src/exports/jsonl-write.js')
    const { writeCsv } = await import('../src/exports/csv-write.js')
    const { inputFileChunks, MAX_EXPORT_BYTES } = await import('../src/io/files.js')
    // Real rows; the 3rd row's "é" (C3 A9) made C3 FF, a byte UTF-8 never has, in each format.
    const rows = built.tables[0]!.rows.slice(0, 3).map((row, i) => (i === 2 ? { ...row, text: `${row.text} é` } : row))
    // The same in an example (a list item) of the 2nd row, for Arrow's lists.
    const inExample = built.tables[0]!.rows.slice(0, 3).map((row, i) => (i === 1 ? { ...row, examples: [...row.examples, 'An example é'] } : row))
    const damage = (bytes: Uint8Array) => {
      const b = Buffer.from(bytes)
      const at = b.indexOf(Buffer.from(' é'))
      expect(at).toBeGreaterThan(0)
      b[at + 2] = 0xff
      return new Uint8Array(b)
    }
    const dir = mkdtempSync(join(tmpdir(), 'utf8-'))
    const failures: Record<string, string> = {}
    for (const [name, bytes] of [
      // (Uncompressed: the text's bytes stand in the file as they are.)
      [
        'rules.parquet',
        damage(
          new Uint8Array(
            parquetWriteBuffer({
              codec: 'UNCOMPRESSED',
              columnData: [
                { name: 'number', data: rows.map((r) => r.number) },
                { name: 'text', data: rows.map((r) => r.text) },
                { name: 'index', data: BigInt64Array.from(rows, (r) => BigInt(r.index)) },
              ],
            }),
          ),
        ),
      ],
      // (apache-arrow writes uncompressed buffers.)
      ['rules.arrow', damage(writeArrow(RULES_TABLE, rows))],
      ['examples.arrow', damage(writeArrow(RULES_TABLE, inExample))],
      // The text column dictionary-encoded (pandas' categoricals are written so).
      ['dictionary.arrow', damage(await dictionaryArrow(rows))],
      // Held as views: in the data buffer (longer than 12 bytes), and inline in the view (' é').
      ['views.arrow', damage(await viewArrow(rows))],
      ['inline.arrow', damage(await viewArrow(inExample.map((row, i) => (i === 1 ? { ...row, examples: [' é'] } : row))))],
      ['rules.jsonl', damage(writeJsonl(RULES_TABLE, rows))],
      ['rules.csv', damage(writeCsv(RULES_TABLE, rows))],
    ] as const) {
      const path = join(dir, name)
      writeFileSync(path, bytes)
      for (const [how, run] of [
        ['memory', () => validateSource(name, bytes)],
        ['file', async () => validateExportStream(path, await inputFileChunks(path, MAX_EXPORT_BYTES))],
      ] as const) {
        const e = await run().then(
          () => null,
          (error: unknown) => error,
        )
        expect(e, `${name} from ${how}`).toBeInstanceOf(EtlError)
        expect((e as EtlError).code).toBe('EXPORT_MALFORMED')
        failures[`${name} ${how}`] = (e as EtlError).message.replace(dir + '/', '')
      }
    }
    expect(failures).toEqual({
      'rules.parquet memory': 'read: rules.parquet is not valid UTF-8 (column text, row 3)',
      'rules.parquet file': 'read: rules.parquet is not valid UTF-8 (column text, row 3)',
      'rules.arrow memory': 'read: rules.arrow is not valid UTF-8 (column text, row 3)',
      'rules.arrow file': 'read: rules.arrow is not valid UTF-8 (column text, row 3)',
      'examples.arrow memory': 'read: examples.arrow is not valid UTF-8 (column examples, row 2)',
      'examples.arrow file': 'read: examples.arrow is not valid UTF-8 (column examples, row 2)',
      'dictionary.arrow memory': 'read: dictionary.arrow is not valid UTF-8 (column text, row 3)',
      'dictionary.arrow file': 'read: dictionary.arrow is not valid UTF-8 (column text, row 3)',
      'views.arrow memory': 'read: views.arrow is not valid UTF-8 (column text, row 3)',
      'views.arrow file': 'read: views.arrow is not valid UTF-8 (column text, row 3)',
      'inline.arrow memory': 'read: inline.arrow is not valid UTF-8 (column examples, row 2)',
      'inline.arrow file': 'read: inline.arrow is not valid UTF-8 (column examples, row 2)',
      'rules.jsonl memory': 'read: rules.jsonl is not valid UTF-8',
      'rules.jsonl file': 'read: rules.jsonl is not valid UTF-8',
      'rules.csv memory': 'read: rules.csv is not valid UTF-8',
      'rules.csv file': 'read: rules.csv is not valid UTF-8',
    })
  })
})

describe('an index past 2^53 (a 64-bit integer in Parquet and Arrow, digits in JSONL and CSV)', () => {
  it('gets the same report in every format: one index error, never also a schema error', async () => {
    const { Field, Int64, List, Table, Utf8, tableToIPC, vectorFromArray } = await import('apache-arrow')
    const { RULES_TABLE } = await import('../src/core/tables.js')
    const { writeJsonl } = await import('../src/exports/jsonl-write.js')
    const { writeCsv } = await import('../src/exports/csv-write.js')
    const { writeParquet } = await import('../src/exports/parquet-write.js')
    // Real rows; the 3rd row's index 2^53 + 1, which a double cannot hold (JSON readers make it 2^53).
    const rows = built.tables[0]!.rows.slice(0, 3)
    const indexes = [0n, 1n, 2n ** 53n + 1n]
    const digits = (bytes: Uint8Array, at: number) => enc(new TextDecoder().decode(bytes).replace(new RegExp(`(?<=[,:])${at}(?=[}\\r\\n])`), String(indexes[at])))
    const files: [string, Uint8Array][] = [
      // (The toolkit's own writer takes an int64 as it comes: BigInt(v).)
      ['rules.parquet', writeParquet(RULES_TABLE, rows.map((r, i) => ({ ...r, index: indexes[i] as unknown as number })), 'test')],
      ['rules.arrow', tableToIPC(new Table({
        number: vectorFromArray(rows.map((r) => r.number), new Utf8()),
        text: vectorFromArray(rows.map((r) => r.text), new Utf8()),
        examples: vectorFromArray(rows.map((r) => r.examples), new List(new Field('item', new Utf8(), true))),
        index: vectorFromArray(indexes, new Int64()),
      }), 'file')],
      ['rules.jsonl', digits(writeJsonl(RULES_TABLE, rows), 2)],
      ['rules.csv', digits(writeCsv(RULES_TABLE, rows), 2)],
    ]
    const found: Record<string, string[]> = {}
    for (const [name, bytes] of files) {
      const report = await validateSource(name, bytes)
      // (The rows are the first three of a release: their citations of later rules dangle.)
      found[name] = report.diagnostics.filter((d) => d.code !== 'dangling-reference').map((d) => `${d.code} ${d.number} row ${d.position}: ${d.message}`)
    }
    const expected = [`index ${rows[2]!.number} row 2: index is 9007199254740992, expected 2 (row position)`]
    expect(found).toEqual({ 'rules.parquet': expected, 'rules.arrow': expected, 'rules.jsonl': expected, 'rules.csv': expected })
  })
})

describe('running out of memory while decoding', () => {
  it('is said as such, never as a damaged file (the messages Node gives, in the worker and when starting it)', async () => {
    const { decodeFailure } = await import('../src/exports/binary-decoder.js')
    const { Worker } = await import('node:worker_threads')
    // A real worker that runs out of its heap: the error Node gives for it.
    const worker = new Worker('const a = []; for (;;) a.push(new Array(1e5).fill(1))', { eval: true, resourceLimits: { maxOldGenerationSizeMb: 16 } })
    const real = await new Promise<Error & { code?: string }>((resolve) => worker.on('error', resolve))
    expect(real.code).toBe('ERR_WORKER_OUT_OF_MEMORY')
    const what = 'a readable Parquet file'
    for (const [why, code] of [
      [real.message, real.code],
      ['Array buffer allocation failed', undefined],
      ['Cannot allocate memory', 'ERR_WORKER_INIT_FAILED'],
    ] as const) {
      const e = decodeFailure('rules.parquet', what, why, code)
      expect([e.code, e.message]).toEqual(['INPUT_TOO_LARGE', `read: rules.parquet: out of memory while decoding it (${why}); the file is not shown to be damaged: give the process more memory, or write smaller row groups`])
    }
    expect(decodeFailure('rules.parquet', what, 'invalid page header').message).toBe('read: rules.parquet is not a readable Parquet file (invalid page header)')
    expect(decodeFailure('rules.parquet', what, 'not valid UTF-8: column text, row 3').message).toBe('read: rules.parquet is not valid UTF-8 (column text, row 3)')
  })
})

describe('Arrow IPC files with compressed buffers (pyarrow’s write_feather writes LZ4 by default)', () => {
  /** A ZSTD frame of raw blocks: valid ZSTD that any decoder reads (the test's own writer). */
  function zstdRaw(data: Uint8Array): Uint8Array {
    const parts: number[] = [0x28, 0xb5, 0x2f, 0xfd, 0xa0, data.length & 0xff, (data.length >> 8) & 0xff, (data.length >> 16) & 0xff, data.length >>> 24]
    const out = [Uint8Array.from(parts)]
    const BLOCK = 128 * 1024
    for (let at = 0; at === 0 || at < data.length; at += BLOCK) {
      const size = Math.min(BLOCK, data.length - at)
      const last = at + BLOCK >= data.length ? 1 : 0
      const header = (size << 3) | last
      out.push(Uint8Array.from([header & 0xff, (header >> 8) & 0xff, (header >> 16) & 0xff]), data.subarray(at, at + size))
    }
    return Buffer.concat(out)
  }

  it('reads LZ4 and ZSTD buffers and reports what the uncompressed file reports', async () => {
    const arrow = await import('apache-arrow')
    const lz4 = (await import('lz4js')).default as { compress(d: Uint8Array): Uint8Array }
    const { RULES_TABLE } = await import('../src/core/tables.js')
    const plain = writeArrow(RULES_TABLE, built.tables[0]!.rows)
    const expected = await validateSource('rules.arrow', plain)
    expect(expected.source.rows).toBe(built.tables[0]!.rows.length)
    const table = arrow.tableFromIPC(plain)
    for (const [type, encode] of [
      [arrow.CompressionType.LZ4_FRAME, (d: Uint8Array) => lz4.compress(d)],
      [arrow.CompressionType.ZSTD, zstdRaw],
    ] as const) {
      // The test registers encoders in its own thread; validate decodes in a worker with the toolkit's decoders.
      arrow.compressionRegistry.set(type, { encode })
      const bytes = arrow.RecordBatchFileWriter.writeAll(table, { compressionType: type }).toUint8Array(true)
      expect(bytes.length).not.toBe(plain.length)
      expect(await validateSource('rules.arrow', bytes), `compression ${type}`).toEqual(expected)
    }
  })
})

it('reads a whole JSONL export given as one piece, whatever its number of rows (the site reads history so)', async () => {
  const { readExport } = await import('../src/exports/read/read-export.js')
  const { writeJsonl } = await import('../src/exports/jsonl-write.js')
  const { RULES_TABLE } = await import('../src/core/tables.js')
  const real = buildDataset(r.file, readBytes(r.path)).rows
  // 2026-06-19's rules repeated to 200,000 rows: one batch of them overflowed the call stack (push(...batch)).
  const rows = Array.from({ length: 200_000 }, (_, i) => ({ ...real[i % real.length]!, index: i }))
  const read = await readExport('rules.jsonl', writeJsonl(RULES_TABLE, rows as never), 'jsonl')
  expect(read.records.length).toBe(200_000)
  expect(read.records[199_999]!.record.text).toBe(real[199_999 % real.length]!.text)
})

describe('a gzip-compressed JSONL or CSV export', () => {
  it('unpacks as it is read, and is refused at the cap, never unpacked whole', async () => {
    const { gunzipBytes, gunzipChunks } = await import('../src/exports/read/gzip.js')
    const { gzipSync } = await import('node:zlib')
    const bomb = gzipSync(new Uint8Array(8 * 1024 * 1024))
    expect(bomb.length).toBeLessThan(64 * 1024)
    expect(() => gunzipBytes('bomb.jsonl.gz', bomb, 1024 * 1024)).toThrow('read: bomb.jsonl.gz unpacks to more than the 1048576 bytes this input may have')
    let seen = 0
    const chunks = gunzipChunks('bomb.jsonl.gz', (async function* () {
      for (let at = 0; at < bomb.length; at += 1000) yield bomb.subarray(at, at + 1000)
    })(), 1024 * 1024)
    await expect((async () => {
      for await (const c of chunks) seen += c.length
    })()).rejects.toThrow('read: bomb.jsonl.gz unpacks to more than the 1048576 bytes this input may have')
    expect(seen).toBeLessThanOrEqual(1024 * 1024)
    // Not gzip at all, or cut short: one line naming the file.
    expect(() => gunzipBytes('plain.jsonl.gz', fileOf('rules.jsonl'), 1 << 30)).toThrow(/^read: plain\.jsonl\.gz is not a readable gzip file \(incorrect header check\)$/)
    const cut = gzipSync(fileOf('rules.jsonl')).subarray(0, 5000)
    await expect((async () => {
      for await (const _ of gunzipChunks('cut.jsonl.gz', (async function* () { yield cut })(), 1 << 30)) void _
    })()).rejects.toThrow(/^read: cut\.jsonl\.gz is not a readable gzip file \(unexpected end of file\)$/)
  })
})
