import fc from 'fast-check'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parquetMetadata } from 'hyparquet'
import { fileRef } from '../src/io/files.js'
import { describe, expect, it } from 'vitest'
import { buildDataset } from '../src/build/build.js'
import { bytesIn, checkedParquet, checkParquetFile, headerIn } from '../src/exports/parquet/parquet-frame.js'
import { offsetIndexMatches, type WalkedPage } from '../src/exports/parquet/offset-index.js'
import { readPageHeader } from '../src/exports/parquet/page-header.js'
import { writeParquet } from '../src/exports/parquet-write.js'
import { RULES_TABLE } from '../src/core/tables.js'
import { readBytes, release } from './helpers/shared.js'

const r = release('2025-02-07')
const parquet = buildDataset(r.file, readBytes(r.path).subarray(0, 120_000)).files.find((f) => f.name === 'rules.parquet')!.bytes
const dir = mkdtempSync(join(tmpdir(), 'parquet-check-'))

/** What a check says: its result, or the message it throws. */
function outcome(check: () => unknown): unknown {
  try {
    return check()
  } catch (e) {
    return `throws ${(e as Error).message}`
  }
}

// checkParquetFile reads only the page headers, each in a window grown while it does not parse;
// over the whole file in memory (headerIn) each header is read from a view of its whole chunk.
describe('page headers read in windows from a file say what the whole file in memory says', () => {
  const inMemory = (bytes: Uint8Array) => {
    const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer
    const footer = bytes.length >= 8 ? new DataView(file).getUint32(bytes.length - 8, true) : 0
    return outcome(() => checkedParquet('rules.parquet', footer, () => parquetMetadata(file), bytes.length, headerIn(file), bytesIn(file)))
  }
  let n = 0
  const fromFile = (bytes: Uint8Array, window: number) => {
    const path = join(dir, `case-${n++}.parquet`)
    writeFileSync(path, bytes)
    return outcome(() => checkParquetFile('rules.parquet', fileRef(path, bytes.length), window))
  }

  it('on the file as written, with first windows too short for any header', () => {
    const expected = inMemory(parquet)
    expect(expected).toMatchObject({ rowGroups: 1, types: new Map([['number', 'string'], ['text', 'string'], ['examples', 'list<string>'], ['index', 'int64']]) })
    for (const window of [1, 2, 5, 17, 1024]) expect(fromFile(parquet, window)).toEqual(expected)
  })

  it('on damaged bytes in and around the headers', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ at: fc.nat(), value: fc.integer({ min: 0, max: 255 }) }), { minLength: 1, maxLength: 3 }), fc.constantFrom(1, 3, 8, 64, 1024), (flips, window) => {
        const bytes = new Uint8Array(parquet)
        // Damage lands in the first 2 KB of a column chunk, where the first headers stand, or anywhere.
        const chunks = parquetMetadata(parquet.buffer.slice(parquet.byteOffset, parquet.byteOffset + parquet.byteLength) as ArrayBuffer).row_groups[0]!.columns.map((c) => Number(c.meta_data!.data_page_offset))
        for (const [k, { at, value }] of flips.entries()) bytes[k % 2 === 0 ? chunks[at % chunks.length]! + (at % 2048) : at % bytes.length] = value
        const ranged = fromFile(bytes, window)
        // A frame without a footer comes back whole, for the in-memory path to refuse.
        if (ranged instanceof Uint8Array) expect(Buffer.from(ranged).equals(bytes)).toBe(true)
        else expect(ranged).toEqual(inMemory(bytes))
      }),
      { numRuns: 400, seed: 20261201 },
    )
  })
})

describe('an offset index is used only where it is the pages of its column chunk', () => {
  // 2025-02-07's rules as one row group in pages of 4 KiB: every column has several pages, and an offset index.
  const rows = buildDataset(r.file, readBytes(r.path)).rows
  const bytes = writeParquet(RULES_TABLE, rows, 'test', { rowGroupSize: rows.length, pageSize: 4096 })
  const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer
  const chunks = parquetMetadata(file).row_groups[0]!.columns
  // The data pages of a chunk, walked here by their headers.
  const pagesOf = (chunk: (typeof chunks)[number]): WalkedPage[] => {
    const meta = chunk.meta_data!
    const end = Number(meta.dictionary_page_offset ?? meta.data_page_offset) + Number(meta.total_compressed_size)
    const pages: WalkedPage[] = []
    for (let at = Number(meta.data_page_offset); at < end; ) {
      const reader = { view: new DataView(file, at, end - at), offset: 0 }
      const header = readPageHeader(reader)
      const length = reader.offset + header.compressed_page_size
      pages.push({ start: at, length, ...(header.data_page_header_v2 ? { rows: header.data_page_header_v2.num_rows } : {}) })
      at += length
    }
    return pages
  }

  it.each(['number', 'text', 'examples', 'index'])('%s: its own pages match; moved, resized, miscounted, one left out, or unreadable, not', (name) => {
    const chunk = chunks.find((c) => c.meta_data!.path_in_schema[0] === name)!
    const pages = pagesOf(chunk)
    expect(pages.length).toBeGreaterThan(1)
    const matches = (p: WalkedPage[], bytesAt = bytesIn(file)) => offsetIndexMatches(chunk, p, rows.length, bytesAt)
    expect(matches(pages)).toBe(true)
    const [first, second] = pages as [WalkedPage, WalkedPage]
    expect(matches([{ ...first, start: first.start + 1 }, ...pages.slice(1)])).toBe(false)
    expect(matches([first, { ...second, length: second.length - 1 }, ...pages.slice(2)])).toBe(false)
    expect(matches([{ ...first, rows: (first.rows ?? 0) + 1 }, ...pages.slice(1)])).toBe(false)
    expect(matches(pages.slice(0, -1))).toBe(false)
    expect(matches(pages, () => null)).toBe(false)
    expect(offsetIndexMatches(chunk, pages, rows.length - 1, bytesIn(file))).toBe(false)
  })
})

describe('the decoding worker reads a file as its frame was checked', () => {
  it('as long as it was then: bytes appended since are not read, and a file cut shorter fails where its bytes are missing', async () => {
    const { groupRanges } = await import('../src/io/workers/group-ranges.mjs')
    const path = join(dir, 'changing.parquet')
    writeFileSync(path, parquet)
    const ranges = await groupRanges(path, parquet.length)
    try {
      writeFileSync(path, Buffer.concat([parquet, Buffer.from('appended')]))
      expect(ranges.file.byteLength).toBe(parquet.length)
      const tail = new Uint8Array(await ranges.file.slice(parquet.length - 8))
      expect(Buffer.from(tail).equals(Buffer.from(parquet.subarray(-8)))).toBe(true)
      writeFileSync(path, parquet.subarray(0, 1000))
      await expect(ranges.file.slice(500, 2000)).rejects.toThrow(/^the file ended before the bytes its footer points to/)
      expect(new Uint8Array(await ranges.file.slice(0, 4))).toEqual(parquet.subarray(0, 4))
    } finally {
      await ranges.close()
    }
    // Cut shorter between its check and its decoding: one line, as a damaged file (exit 2), never a crash.
    const { decodeInWorker } = await import('../src/io/decode-worker.js')
    writeFileSync(path, parquet)
    const ref = fileRef(path)
    const checked = checkParquetFile(path, ref) as { heapMb: number; pageIndexed: string[][] }
    writeFileSync(path, parquet.subarray(0, parquet.length >> 1))
    await expect(decodeInWorker(path, 'parquet', ref, 'a readable Parquet file', checked.heapMb, checked.pageIndexed)).rejects.toMatchObject({
      code: 'EXPORT_MALFORMED',
      message: `read: ${path} is not a readable Parquet file (the file ended before the bytes its footer points to: was it changed while read?)`,
    })
  })
})
