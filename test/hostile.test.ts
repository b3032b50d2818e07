import { execFileSync, spawnSync } from 'node:child_process'
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, writeFileSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parquetMetadata } from 'hyparquet'
import { describe, expect, it } from 'vitest'
import { MAX_TEXT_CITATIONS, MAX_TEXT_RULES } from '../src/core/limits.js'
import { decode } from '../src/text/decode.js'
import { builtDataset } from './helpers/built.js'
import { snapshot } from './helpers/cli.js'
import { CLI, readBytes, release, REPO } from './helpers/shared.js'

// Hostile inputs run the compiled CLI in a child whose heap is capped: growing past the cap would
// abort it (exit 134), so each test proves memory stays bounded, besides the exit code and message.
const tmp = mkdtempSync(join(tmpdir(), 'hostile-'))
const run = (args: string[], options: { heapMb?: number; env?: Record<string, string> } = {}) => {
  const started = Date.now()
  const r = spawnSync(process.execPath, [`--max-old-space-size=${options.heapMb ?? 256}`, CLI, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env: { ...process.env, ...options.env } })
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, seconds: (Date.now() - started) / 1000 }
}
const jsonlRow = (n: string, i: number) => JSON.stringify({ number: n, text: `Rule ${n}.`, examples: [], index: i })

describe('memory and output bounded by the input, not by its shape', () => {
  const repeats = join(tmp, 'repeats.jsonl')
  writeFileSync(repeats, Array.from({ length: 20_000 }, (_, i) => jsonlRow('704.5a', i)).join('\n') + '\n')

  it.each(['json', 'github', 'text'])('20,000 rows with one number: --format %s gives one duplicate diagnostic with the exact count', (format) => {
    const r = run(['validate', repeats, '--format', format])
    expect(r.status).toBe(1)
    expect(r.stdout.length).toBeLessThan(2_000_000)
    if (format === 'json') {
      const report = JSON.parse(r.stdout)
      expect(report.counts.byCode['duplicate-number']).toBe(1)
      expect(report.diagnostics.find((d: { code: string }) => d.code === 'duplicate-number').message).toBe('rule 704.5a occurs 20000 times (line 1, line 2, line 3, line 4, line 5, … 19995 more)')
    }
  })

  it('a reversed file of 30,000 rows: order errors counted exactly, 1,000 listed, a summary line in text and github', () => {
    const reversed = join(tmp, 'reversed.jsonl')
    writeFileSync(reversed, Array.from({ length: 30_000 }, (_, i) => jsonlRow(`100.${30_000 - i}`, i)).join('\n') + '\n')
    const json = JSON.parse(run(['validate', reversed, '--json']).stdout)
    expect(json.counts.byCode.order).toBe(29_999)
    expect(json.diagnostics.filter((d: { code: string }) => d.code === 'order')).toHaveLength(1000)
    expect(json.omitted).toEqual({ order: 28_999 })
    expect(run(['validate', reversed]).stdout).toMatch(/^… and 29,980 more \(--json lists up to 1,000 of each code, with exact counts\)$/m)
    expect(run(['validate', reversed, '--format', 'github']).stdout).toMatch(/^::notice file=.*,title=order%3A 28999 more::28999 more order diagnostics are counted but not listed/m)
  })

  it('a CR with 20,000 repeated rule lines and a rule citing 60,000 rules ends with a report', () => {
    const text = decode(readBytes(release('2025-02-07').path)).text
    const citations = Array.from({ length: 60_000 }, (_, i) => `${100 + (i % 800)}.${i}`).join(', ')
    const hostile = text.replace('100.2. ', `${'100.1a Repeated.\r\n\r\n'.repeat(20_000)}100.1b See rules ${citations}.\r\n\r\n100.2. `)
    const file = join(tmp, 'hostile-cr.txt')
    writeFileSync(file, hostile)
    const out = join(tmp, 'hostile-out')
    const r = run(['build', file, '--out', out])
    expect(r.status, r.stderr).toBe(1)
    expect(r.stderr).toMatch(/^hostile-cr\.txt: INVALID, 23023 rows, 3 errors, 59996 warnings \(59993 dangling-reference, 2 duplicate-number, 1 order, 3 source-format\)$/m)
    expect(r.stderr).toMatch(/^error duplicate-number 100\.1a line \d+: rule 100\.1a occurs 20001 times/m)
    expect(r.stderr).toMatch(/has 3 validation errors; nothing was written/)
    expect(r.stderr.length).toBeLessThan(20_000)
  }, 120_000)
})

describe('a text past the limits on rules and citations (core/limits.ts)', () => {
  const text = () => decode(readBytes(release('2026-08-07').path)).text
  // The references table is a row per citation, written in every format in memory (~1.6 KB a row):
  // a million took 1.6 GB. Refused while they are counted, in a heap of 256 MB; validate reads it.
  it('citing rules more than MAX_TEXT_CITATIONS times: build exits 2 at once, one line, nothing written; validate checks the text', () => {
    const file = join(tmp, 'many-citations.txt')
    // In four rules: one rule's line holds at most MAX_ROW_CHARS characters.
    const citing = ['w', 'x', 'y', 'z'].map((l) => `100.1${l} See rules ${Array.from({ length: MAX_TEXT_CITATIONS / 2 }, () => '100.1').join(', ')}.`).join('\n\n')
    writeFileSync(file, text().replace('\n100.2. ', `\n${citing}\n\n100.2. `))
    const out = join(tmp, 'many-citations-out')
    const r = run(['build', file, '--out', out])
    expect(r.status).toBe(2)
    expect(r.stderr).toBe('references: the text cites rules more than 100,000 times (a published release has about 2,100): its references table is refused (validate checks the text)\n')
    expect(snapshot(out)).toEqual({})
    expect(run(['validate', file]).status).toBe(0)
  }, 60_000)

  // Just under both limits at once, every format written (Arrow too): the build fits the same heap.
  it('just under both: built whole, --arrow included, in a heap of 256 MB', () => {
    const file = join(tmp, 'at-the-limits.txt')
    const published = text()
    const rules = Array.from({ length: MAX_TEXT_RULES - 3_500 }, (_, i) => `100.${i + 10}. Rule ${i}.`).join('\n')
    const citations = Array.from({ length: MAX_TEXT_CITATIONS - 3_000 }, () => '100.1').join(', ')
    const body = published.lastIndexOf('\n101. ')
    writeFileSync(file, `${published.slice(0, body)}\n${rules}\n${published.slice(body)}`.replace('\n100.2. ', `\n100.1z. See rules ${citations}.\n\n100.2. `))
    const r = run(['build', file, '--out', join(tmp, 'at-the-limits-out'), '--arrow', '--allow-errors'])
    expect(r.status, r.stderr).toBe(0)
    const built = Number(/^build: wrote 19 files to .*at-the-limits-out \((\d+) rules, /m.exec(r.stderr)?.[1])
    expect(built).toBeGreaterThan(MAX_TEXT_RULES - 3_500)
    expect(built).toBeLessThan(MAX_TEXT_RULES)
  }, 60_000)
})

describe('the parser’s own warnings are bounded too', () => {
  it('a CR with 50,000 stray paragraphs: every line kept, 1,000 warnings listed and the exact count', () => {
    const text = decode(readBytes(release('2025-02-07').path)).text
    const file = join(tmp, 'stray.txt')
    writeFileSync(file, text.replace('100.2. ', `${'A stray paragraph.\r\n\r\n'.repeat(50_000)}100.2. `))
    const r = run(['validate', file, '--json'], { heapMb: 256 })
    expect(r.status).toBe(0)
    const report = JSON.parse(r.stdout)
    expect(report.counts.byCode['source-format']).toBe(50_003)
    expect(report.diagnostics.filter((d: { code: string }) => d.code === 'source-format')).toHaveLength(1000)
    expect(report.counts.byCode['text-lost']).toBeUndefined()
  })
})

describe('every reader limits a file’s columns as JSONL limits a row’s keys', () => {
  // The Parquet and Arrow libraries look each column up by name among all of them: 20,000 columns
  // took 7 s, 200,000 CSV columns ~1 minute (our header check then). The limit is 1,000 columns.
  it('1,001 columns in a CSV header, a Parquet or an Arrow schema: exit 2, one line; 1,000 are read', async () => {
    const { parquetWriteBuffer } = await import('hyparquet-writer')
    const { tableFromArrays, tableToIPC } = await import('apache-arrow')
    const names = (n: number) => Array.from({ length: n }, (_, i) => `c${i}`)
    const write = (n: number) => {
      const csv = join(tmp, `wide-${n}.csv`)
      writeFileSync(csv, `${names(n).join(',')}\n${names(n).map(() => 'x').join(',')}\n`)
      const parquet = join(tmp, `wide-${n}.parquet`)
      writeFileSync(parquet, new Uint8Array(parquetWriteBuffer({ columnData: names(n).map((name) => ({ name, data: ['x'], type: 'STRING' as const })) })))
      const arrow = join(tmp, `wide-${n}.arrow`)
      writeFileSync(arrow, tableToIPC(tableFromArrays(Object.fromEntries(names(n).map((c) => [c, ['x']]))), 'file'))
      return [csv, parquet, arrow]
    }
    const [csv, parquet, arrow] = write(1001).map((f) => run(['validate', f]))
    expect([csv!.status, parquet!.status, arrow!.status]).toEqual([2, 2, 2])
    expect(csv!.stderr).toMatch(/^read: .*wide-1001\.csv: its header has 1001 columns, more than 1000 \(a row of these tables has at most eight\)\n$/)
    expect(parquet!.stderr).toMatch(/^read: .*wide-1001\.parquet is not a readable Parquet file \(its schema has 1001 columns and fields, more than 1000\)\n$/)
    expect(arrow!.stderr).toMatch(/^read: .*wide-1001\.arrow is not an Arrow IPC file \(its schema has 1001 columns, more than 1000\)\n$/)
    // At the limit, each is read and checked: none of the table's columns (exit 1).
    for (const f of write(1000)) expect(run(['validate', f]).status, f).toBe(1)
  }, 60_000)
})

describe('an Arrow file of many record batches', () => {
  // apache-arrow's iterator slices a whole column for each batch, and every batch shares one
  // dictionary: 40,000 one-row batches took 20 s. They are read a batch at a time, the dictionary
  // checked once (the cost is measured by hand; here, that every batch is read, in order).
  it('5,000 one-row batches sharing a dictionary: every row read, in order, each finding at its row', async () => {
    const { tableFromArrays, tableToIPC, Table } = await import('apache-arrow')
    const n = 5_000
    const numbers = Array.from({ length: n }, (_, i) => `${100 + Math.floor(i / 100)}.${(i % 100) + 1}`)
    numbers[3_500] = numbers[3_499]!
    const whole = tableFromArrays({ number: numbers, text: numbers.map((x) => `Rule ${x}.`), examples: numbers.map(() => []), index: BigInt64Array.from(numbers, (_, i) => BigInt(i)) })
    const file = join(tmp, 'batches.arrow')
    writeFileSync(file, tableToIPC(new Table(Array.from({ length: n }, (_, i) => whole.slice(i, i + 1).batches).flat()), 'file'))
    const r = run(['validate', file, '--json'])
    const report = JSON.parse(r.stdout)
    expect(report.source.rows).toBe(n)
    expect(report.diagnostics.filter((d: { code: string }) => d.code === 'duplicate-number').map((d: { message: string }) => d.message)).toEqual([`rule ${numbers[3_500]} occurs 2 times (row 3499, row 3500)`])
  }, 60_000)
})

describe('a Parquet footer is limited before it is read', () => {
  // Its objects take ~40 times its bytes in each thread: 80,000 one-row groups (a 22 MB footer)
  // ran the decoding worker out of memory at a ~1 GB peak.
  it('a footer over 8 MiB: exit 2 at once, one line; one of 1 MiB is read', async () => {
    const { parquetWriteBuffer } = await import('hyparquet-writer')
    const write = (name: string, metadata: number) => {
      const file = join(tmp, name)
      const columnData = [
        { name: 'number', data: ['100.1'], type: 'STRING' as const },
        { name: 'text', data: ['Rule.'], type: 'STRING' as const },
        { name: 'index', data: [0n], type: 'INT64' as const },
      ]
      writeFileSync(file, new Uint8Array(parquetWriteBuffer({ columnData, kvMetadata: [{ key: 'padding', value: 'x'.repeat(metadata) }] })))
      return file
    }
    const big = run(['validate', write('big-footer.parquet', 9 * 1024 * 1024)])
    expect(big.status).toBe(2)
    expect(big.stderr).toMatch(/^read: .*big-footer\.parquet is not a readable Parquet file \(its footer is \d+ bytes, more than 8388608: row groups by the ten thousand\)\n$/)
    // Read and checked: the examples column is missing (exit 1).
    const small = run(['validate', write('small-footer.parquet', 1024 * 1024), '--json'])
    expect(small.status).toBe(1)
    expect(JSON.parse(small.stdout).diagnostics.map((d: { code: string }) => d.code)).toContain('columns')
  }, 60_000)
})

describe('the JSONL reader is linear and limited', () => {
  it('a first row with 100,000 keys: one error line, at once', () => {
    const file = join(tmp, 'keys.jsonl')
    writeFileSync(file, JSON.stringify(Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`k${i}`, i]))) + '\n')
    const r = run(['validate', file])
    expect(r.status).toBe(2)
    expect(r.stderr).toMatch(/^read: .*keys\.jsonl: line 1 has more than 1000 keys \(a row of these tables has at most eight\)\n$/)
    expect(r.seconds).toBeLessThan(20)
  })

  it('a line nesting 200,000 objects deep, whose keys the syntax tree must read: exit 2, one line (the tree\u2019s recursion overflowed: exit 3); 50 levels are read', () => {
    const nested = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`
    const deep = join(tmp, 'deep.jsonl')
    writeFileSync(deep, `{"number":"100.1","text":"Rule.","examples":[],"index":0,"extra":${nested(200_000)}}\n`)
    const r = run(['validate', deep])
    expect(r.status).toBe(2)
    expect(r.stderr).toBe(`read: ${deep}: line 1 nests more than 100 levels deep (a row of these tables nests two)\n`)
    const shallow = join(tmp, 'shallow.jsonl')
    writeFileSync(shallow, `{"number":"100.1","text":"Rule.","examples":[],"index":0,"extra":${nested(50)}}\n`)
    const read = run(['validate', shallow, '--json'])
    expect(read.status).toBe(1)
    expect(JSON.parse(read.stdout).diagnostics.map((d: { message: string }) => d.message)).toContain('unknown column: extra')
  })

  it('a 20 MB line: refused with its line number, in bounded memory', () => {
    const file = join(tmp, 'long.jsonl')
    const fd = openSync(file, 'w')
    writeSync(fd, jsonlRow('100.1', 0) + '\n' + '{"number":"100.2","text":"')
    const block = 'x'.repeat(1 << 20)
    for (let i = 0; i < 20; i++) writeSync(fd, block)
    writeSync(fd, '","examples":[],"index":1}\n')
    closeSync(fd)
    const r = run(['validate', file], { heapMb: 192 })
    expect(r.status).toBe(2)
    expect(r.stderr).toBe(`read: ${file}: line 2 is longer than 16777216 characters (a row is a few kilobytes)\n`)
  })
})

describe('the size cap holds while reading, for what stat cannot measure', () => {
  it('/dev/zero and /dev/urandom: refused past the cap, not read without end', () => {
    for (const device of ['/dev/zero', '/dev/urandom']) {
      const r = run(['build', device, '--out', join(tmp, 'dev-out')])
      expect(r.status).toBe(2)
      expect(r.stderr).toBe(`read: ${device} (a character device) gave more than the 67108864 bytes this input may have\n`)
    }
  })

  it('a FIFO with no writer: one line after the time-out, never a hang', () => {
    const fifo = join(tmp, 'pipe.txt')
    execFileSync('mkfifo', [fifo])
    const r = run(['validate', fifo], { env: { MTG_RULES_FIFO_TIMEOUT_MS: '500' } })
    expect(r.status).toBe(2)
    expect(r.stderr).toBe(`read: ${fifo} is a FIFO: no writer opened it, or it sent nothing within 0.5 s\n`)
  })

  it('a FIFO with a writer is read like a file', () => {
    const fifo = join(tmp, 'fed.txt')
    execFileSync('mkfifo', [fifo])
    const r = spawnSync('bash', ['-c', `cat "${release('2026-08-07').path}" > "${fifo}" & node "${CLI}" validate "${fifo}"`], { encoding: 'utf8' })
    expect(r.status).toBe(0)
    expect(r.stdout).toMatch(/fed\.txt: valid, 3162 rows/)
  })

  it('a 900 MB file of zeros named .parquet: refused after reading its first and last bytes', () => {
    const file = join(tmp, 'zeros.parquet')
    const fd = openSync(file, 'w')
    writeSync(fd, Buffer.alloc(1), 0, 1, 900 * 1024 * 1024 - 1)
    closeSync(fd)
    const r = run(['validate', file], { heapMb: 64 })
    expect(r.status).toBe(2)
    expect(r.stderr).toBe(`read: ${file} is not a Parquet file (no PAR1 magic bytes)\n`)
  })
})

describe('one exit-code contract', () => {
  it('an internal error exits 3 with one line, the stack only with --debug', () => {
    const env = { MTG_RULES_TEST_INTERNAL_ERROR: 'boom' }
    const r = run(['validate', 'x.jsonl'], { env })
    expect([r.status, r.stdout]).toEqual([3, ''])
    expect(r.stderr).toBe('mtg-rules: internal error, please report it: TypeError: boom (--debug shows the stack)\n')
    const debug = run(['validate', 'x.jsonl', '--debug'], { env })
    expect(debug.status).toBe(3)
    expect(debug.stderr.split('\n').length).toBeGreaterThan(3)
    expect(debug.stderr).toContain('at runCommand')
  })

  it('a read-only output folder is named as such', () => {
    const r = spawnSync('bash', ['-c', `mount | grep -q ' /proc ' && node "${CLI}" build "${release('2026-08-07').path}" --out /proc/mtg-rules-out`], { encoding: 'utf8' })
    expect(r.status).toBe(2)
    expect(r.stderr).toMatch(/^write: cannot write to \/proc\/mtg-rules-out: /)
    expect(r.stderr.trim().split('\n')).toHaveLength(1)
  })

  it('leaves the output folder as it was on every failure above', () => {
    expect(readdirSync(tmp).filter((n) => n.startsWith('.'))).toEqual([])
    expect(snapshot(join(tmp, 'dev-out'))).toEqual({})
  })
})

describe('Parquet from other writers and of many row groups', () => {
  const jsonl = () => join(builtDataset('2026-08-07'), 'rules.jsonl')

  it.each(['zstd', 'gzip', 'brotli', 'lz4_raw', 'snappy'])('a %s-compressed file written by DuckDB validates', async (codec) => {
    const { duck, lit } = await import('./helpers/duckdb.js')
    const file = join(tmp, `duck-${codec}.parquet`)
    // DuckDB's brotli takes ~1.3 s to write the 3,162 rules (the others ~0.05 s): its first 400 test the codec as well.
    const rows = codec === 'brotli' ? 400 : 3162
    await duck(`COPY (SELECT * FROM read_json(${lit(jsonl())}, columns = {number: 'VARCHAR', text: 'VARCHAR', examples: 'VARCHAR[]', index: 'BIGINT'}) LIMIT ${rows}) TO ${lit(file)} (FORMAT parquet, COMPRESSION ${codec})`)
    const r = run(['validate', file, '--json'])
    expect(r.status, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout).source).toMatchObject({ kind: 'parquet', table: 'rules', rows })
  })

  it('a 130,000-row file is read row group by row group, positions running on across groups', async () => {
    const { writeParquet } = await import('../src/exports/parquet-write.js')
    const { RULES_TABLE } = await import('../src/core/tables.js')
    const rows = Array.from({ length: 130_000 }, (_, i) => ({ number: `${100 + Math.floor(i / 1000)}.${(i % 1000) + 1}`, text: `Rule ${i}.`, examples: i % 7 === 0 ? [`Example ${i}.`] : [], index: i }))
    rows[110_000] = { ...rows[109_999]!, index: 110_000 }
    const file = join(tmp, 'big.parquet')
    writeFileSync(file, writeParquet(RULES_TABLE, rows, 'test'))
    const r = run(['validate', file, '--json'], { heapMb: 512 })
    expect(r.status).toBe(1)
    const report = JSON.parse(r.stdout)
    expect(report.source.rows).toBe(130_000)
    expect(report.diagnostics.find((d: { code: string }) => d.code === 'duplicate-number')).toMatchObject({ number: rows[109_999]!.number, position: 110_000 })
    // The same rows as one row group (as pyarrow writes a file of up to 1Mi rows, 64Mi before version 13): read
    // in slices of it, the same report; and text that is not UTF-8 in a later slice is named at its row.
    const oneGroup = join(tmp, 'one-group.parquet')
    // (In pages of 64 KiB: its list column is a page or two in pages of 1 MiB, and a reader reads those whole.)
    writeFileSync(oneGroup, writeParquet(RULES_TABLE, rows, 'test', { rowGroupSize: rows.length, pageSize: 64 * 1024 }))
    expect(parquetMetadata(readFileSync(oneGroup).buffer).row_groups).toHaveLength(1)
    const whole = run(['validate', oneGroup, '--json'], { heapMb: 512 })
    expect(JSON.parse(whole.stdout)).toEqual({ ...report, source: { ...report.source, file: oneGroup } })
    // Its columns are read a slice at a time by their offset indexes (the pages that hold the slice),
    // each index being the pages the frame check walked. One that is not (here the list column's,
    // zeroed) is not used: that column is then decoded once for the group, and the report is the same.
    const { checkParquetFile } = await import('../src/exports/read/read-export.js')
    const { fileRef } = await import('../src/io/files.js')
    const indexed = (path: string) => (checkParquetFile(path, fileRef(path)) as { pageIndexed: string[][] }).pageIndexed
    expect(indexed(oneGroup)).toEqual([['number', 'text', 'examples', 'index']])
    expect(indexed(file)).toEqual([[], []])
    const unindexed = join(tmp, 'one-group-unindexed.parquet')
    const oneGroupBytes = readFileSync(oneGroup)
    const examples = parquetMetadata(oneGroupBytes.buffer.slice(oneGroupBytes.byteOffset, oneGroupBytes.byteOffset + oneGroupBytes.length)).row_groups[0]!.columns.find((c) => c.meta_data!.path_in_schema[0] === 'examples')!
    oneGroupBytes.fill(0, Number(examples.offset_index_offset), Number(examples.offset_index_offset) + examples.offset_index_length!)
    writeFileSync(unindexed, oneGroupBytes)
    expect(indexed(unindexed)).toEqual([['number', 'text', 'index']])
    const { validateFile } = await import('../src/io/validate-folder.js')
    expect(await validateFile(unindexed, { strict: false, exact: false })).toEqual({ ...report, source: { ...report.source, file: unindexed } })
    const damaged = join(tmp, 'one-group-utf8.parquet')
    const marked = rows.map((row, i) => (i === 120_000 ? { ...row, text: 'Rule é.' } : row))
    const bytes = Buffer.from(writeParquet(RULES_TABLE, marked, 'test', { rowGroupSize: rows.length, codec: 'UNCOMPRESSED', compressors: {} }))
    bytes[bytes.indexOf(Buffer.from('Rule é.')) + 6] = 0xff
    writeFileSync(damaged, bytes)
    expect(run(['validate', damaged]).stderr).toBe(`read: ${damaged} is not valid UTF-8 (column text, row 120001)\n`)
    // The list column is decoded once for the whole group and handed out by slice: a bad byte in an
    // example of the last slice is named at its row too.
    const inExample = rows.map((row, i) => (i === 125_002 ? { ...row, examples: ['Example é.'] } : row))
    const listBytes = Buffer.from(writeParquet(RULES_TABLE, inExample, 'test', { rowGroupSize: rows.length, codec: 'UNCOMPRESSED', compressors: {} }))
    listBytes[listBytes.indexOf(Buffer.from('Example é.')) + 9] = 0xff
    const damagedList = join(tmp, 'one-group-utf8-example.parquet')
    writeFileSync(damagedList, listBytes)
    expect(run(['validate', damagedList]).stderr).toBe(`read: ${damagedList} is not valid UTF-8 (column examples, row 125003)\n`)
    // What bounds memory: the decoding worker sends that group in slices of 100,000 rows, not whole
    // (one 3,000,000-row group took 4.2 GB whole; docs/performance.md).
    const { decodeInWorker } = await import('../src/io/decode-worker.js')
    // Read by their offset indexes, or the list column decoded whole and handed out by slice, each
    // slice's values are its own rows' values.
    const { valueAt } = await import('../src/exports/packed-columns.mjs')
    const slices = async (path: string) => {
      const decoded = await decodeInWorker(path, 'parquet', new Uint8Array(readFileSync(path)), 'a Parquet file', 2048, indexed(path))
      const sizes: number[] = []
      let misplaced = 0
      const batches = [decoded.takeFirst()]
      for await (const batch of decoded.rest) batches.push(batch)
      for (const batch of batches) {
        const first = sizes.reduce((a, b) => a + b, 0)
        for (const name of ['number', 'text', 'examples'] as const) {
          const column = batch.columns[batch.names.indexOf(name)]!
          for (let at = 0; at < batch.rowCount; at++) if (JSON.stringify(valueAt(column, at)) !== JSON.stringify(rows[first + at]![name])) misplaced++
        }
        sizes.push(batch.rowCount)
      }
      return [sizes, misplaced]
    }
    expect(await slices(oneGroup)).toEqual([[100_000, 30_000], 0])
    expect(await slices(unindexed)).toEqual([[100_000, 30_000], 0])
    // Its list column, decoded once for the whole group, in a heap too small for it: one clear error.
    await expect(decodeInWorker(oneGroup, 'parquet', new Uint8Array(readFileSync(oneGroup)), 'a Parquet file', 16)).rejects.toMatchObject({ code: 'INPUT_TOO_LARGE', message: expect.stringMatching(/^read: .*one-group\.parquet: out of memory while decoding it \(.*\); the file is not shown to be damaged: give the process more memory, or write smaller row groups$/) })
  }, 120_000)
})
