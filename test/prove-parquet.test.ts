import { isUtf8 } from 'node:buffer'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { asyncBufferFromFile, parquetMetadata } from 'hyparquet'
import { parquetHeader } from 'hyparquet/src/column.js'
import { describe, expect, it } from 'vitest'
import { buildDataset } from '../src/build/build.js'
import { leadingValuesAreUtf8, proveNumberValues, valuesAreUtf8 } from '../src/validate/proof/clean-parquet.js'
import { CleanProof } from '../src/validate/proof/clean-proof.js'
import { ByteView } from '../src/validate/proof/clean-view.js'
import { eachStringPage, int64sInto, stringPage, uint32At, stringPageRefs, type ByteArrayPage, type FlatColumn } from '../src/validate/proof/parquet-pages.js'
import { sparseChunkOf } from '../src/io/proof/prove-parquet.js'
import { RULES_TABLE, type TableRow } from '../src/core/tables.js'
import { decodeRowGroup, openParquetSource } from '../src/exports/parquet-groups.mjs'
import { syncBufferFromFile } from '../src/io/files.js'
import { writeParquet } from '../src/exports/parquet-write.js'
import { readBytes, release } from './helpers/shared.js'

// The real rules of a release, four times over: a text chunk of many pages.
const r = release('2026-08-07')
const rules = buildDataset(r.file, readBytes(r.path)).rows
const rows = Array.from({ length: 4 }, () => rules).flat().map((row, i) => ({ ...row, number: `${100 + Math.floor(i / 300)}.${(i % 300) + 1}`, index: i })) as unknown as TableRow[]
const file = writeParquet(RULES_TABLE, rows, 'test', { pageSize: 64 * 1024 })
const metadata = parquetMetadata(file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength) as ArrayBuffer)
const meta = metadata.row_groups[0]!.columns[1]!.meta_data!
const start = Number(meta.data_page_offset)
const chunk = file.subarray(start, start + Number(meta.total_compressed_size))
const column: FlatColumn = { meta: meta as unknown as FlatColumn['meta'], element: metadata.schema[2] as FlatColumn['element'] }

/** sparseChunkOf over `source`, with the byte ranges it read. */
function sparse(source: Uint8Array, own: (page: number, pages: number) => boolean, window?: number) {
  const bytes = new Uint8Array(source.length).fill(0xee)
  let read = 0
  const ok = sparseChunkOf(bytes, (from, to) => {
    bytes.set(source.subarray(from, to), from)
    read += to - from
    return true
  }, own, window)
  return { ok, bytes, read }
}

describe('a later slice reads only its own text pages (sparseChunkOf)', () => {
  const whole = stringPageRefs(chunk, column, rows.length)!
  it('finds the pages the whole chunk has, with the same headers and levels, and the bodies of its own pages', () => {
    expect(whole.length).toBeGreaterThan(20)
    const mine = (p: number, pages: number) => Math.floor((p * 4) / pages) === 1
    const { ok, bytes, read } = sparse(chunk, mine)
    expect(ok).toBe(true)
    // About a quarter of the chunk, not all of it.
    expect(read).toBeLessThan(chunk.length * 0.35)
    const refs = stringPageRefs(bytes, column, rows.length)!
    const shape = (pages: typeof whole, base: Uint8Array) => pages.map((p) => [p.header, p.values, p.size, p.body.byteOffset - base.byteOffset, p.body.length])
    expect(shape(refs, bytes)).toEqual(shape(whole, chunk))
    refs.forEach((p, i) => expect(Buffer.compare(p.body, whole[i]!.body) === 0).toBe(mine(i, refs.length)))
  })

  it('reads a header, and its levels, past a first window too short for them', () => {
    const mine = (p: number, pages: number) => p % 5 === 2 && pages > 0
    // The first page's header exactly: its levels then lie past the window.
    const first = { view: new DataView(chunk.buffer, chunk.byteOffset, chunk.byteLength), offset: 0 }
    parquetHeader(first)
    for (const window of [3, 8, first.offset]) {
      const { ok, bytes } = sparse(chunk, mine, window)
      expect(ok).toBe(true)
      const refs = stringPageRefs(bytes, column, rows.length)!
      expect(refs.map((p) => [p.header, Buffer.from(p.levels)])).toEqual(whole.map((p) => [p.header, Buffer.from(p.levels)]))
      refs.forEach((p, i) => expect(Buffer.compare(p.body, whole[i]!.body) === 0).toBe(mine(i, refs.length)))
    }
  })

  it('gives up (the chunk is then read whole) where a header does not parse or a page does not fit', () => {
    const cut = chunk.subarray(0, chunk.length - 1000)
    expect(sparse(cut, () => true).ok).toBe(false)
    const damaged = Uint8Array.from(chunk)
    damaged[whole[3]!.body.byteOffset - chunk.byteOffset + whole[3]!.body.length + 1] = 0xff
    const { ok, bytes } = sparse(damaged, () => false)
    // Either it gave up, or what it read walks as the damaged chunk walks.
    const walked = (b: Uint8Array) => stringPageRefs(b, column, rows.length)?.map((p) => [p.header, p.body.byteOffset - b.byteOffset, p.body.length]) ?? null
    if (ok) expect(walked(bytes)).toEqual(walked(damaged))
  })
})

describe('a page of byte arrays is UTF-8 exactly when each value is (valuesAreUtf8)', () => {
  // Values of one, two, three and four bytes a character, cut anywhere (a character split between values).
  const value = fc.uint8Array({ maxLength: 12 }).chain((random) =>
    fc.constantFrom('', 'a', 'é', '—', '😀', 'rule 100.1').map((s) => Buffer.concat([Buffer.from(s), Buffer.from(random.map((b) => (b % 3 === 0 ? b : 0x41)))])),
  )
  const pageOf = (values: Buffer[], prefixed: boolean): ByteArrayPage => {
    const parts = values.flatMap((v) => (prefixed ? [Buffer.from(Uint32Array.of(v.length).buffer), v] : [v]))
    const bytes = Buffer.concat(parts)
    const starts = new Int32Array(values.length)
    const ends = new Int32Array(values.length)
    let at = 0
    values.forEach((v, i) => {
      starts[i] = at + (prefixed ? 4 : 0)
      at = ends[i] = starts[i]! + v.length
    })
    return { bytes, starts, ends }
  }

  it('in the Parquet layout (each value after its length, read as spaces and put back) and packed', () => {
    fc.assert(
      fc.property(fc.array(value, { maxLength: 8 }), fc.boolean(), (values, prefixed) => {
        const page = pageOf(values, prefixed)
        const before = Buffer.from(page.bytes)
        expect(valuesAreUtf8(page)).toBe(values.every((v) => isUtf8(v)))
        expect(page.bytes.equals(before)).toBe(true)
      }),
      { numRuns: 2000, seed: 20261201 },
    )
  })

  it('on a real text page, and finds one byte made invalid', () => {
    const ref = stringPageRefs(chunk, column, Number(metadata.row_groups[0]!.num_rows))![0]!
    const page = stringPage(ref, meta.codec)!
    expect(page.starts.length).toBeGreaterThan(100)
    expect(valuesAreUtf8(page)).toBe(true)
    const at = page.starts[50]! + 2
    const was = page.bytes[at]!
    page.bytes[at] = 0xff
    expect(valuesAreUtf8(page)).toBe(false)
    page.bytes[at] = was
    expect(valuesAreUtf8(page)).toBe(true)
  })
})

describe('the leading values of a list page are UTF-8 exactly when each is (leadingValuesAreUtf8)', () => {
  const value = fc.uint8Array({ maxLength: 12 }).chain((random) =>
    fc.constantFrom('', 'a', 'é', '—', '😀', 'See rule 100.1.').map((s) => Buffer.concat([Buffer.from(s), Buffer.from(random.map((b) => (b % 3 === 0 ? b : 0x41)))])),
  )
  it('with any count, values cut short, and bytes after them; the bytes left as they were', () => {
    fc.assert(
      fc.property(fc.array(value, { maxLength: 8 }), fc.nat({ max: 10 }), fc.uint8Array({ maxLength: 6 }), fc.nat({ max: 40 }), (values, count, tail, cut) => {
        const whole = Buffer.concat([...values.flatMap((v) => [Buffer.from(Uint32Array.of(v.length).buffer), v]), tail])
        const bytes = Buffer.from(whole.subarray(0, Math.max(0, whole.length - cut)))
        const before = Buffer.from(bytes)
        // What the per-value walk finds: each of the first `count` values there and UTF-8.
        let at = 0
        let expected = true
        for (let k = 0; k < count && expected; k++) {
          if (at + 4 > bytes.length || at + 4 + bytes.readUInt32LE(at) > bytes.length) expected = false
          else {
            expected = isUtf8(bytes.subarray(at + 4, at + 4 + bytes.readUInt32LE(at)))
            at += 4 + bytes.readUInt32LE(at)
          }
        }
        expect(leadingValuesAreUtf8(bytes, count)).toBe(expected)
        expect(bytes.equals(before)).toBe(true)
      }),
      { numRuns: 3000, seed: 20261201 },
    )
  })
})

describe('INT64 values read as numbers (int64sInto)', () => {
  const int64 = fc.oneof(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), fc.constantFrom(0n, 1n, -1n, 2n ** 53n - 1n, 2n ** 53n, -(2n ** 53n) + 1n, -(2n ** 53n), 2n ** 32n - 1n, 2n ** 32n, 2n ** 31n))
  it('aligned (as 32-bit words) and not, exactly where safe, NaN elsewhere', () => {
    fc.assert(
      fc.property(fc.array(int64, { maxLength: 20 }), fc.nat({ max: 7 }), (values, shift) => {
        const backing = Buffer.alloc(values.length * 8 + 8)
        const bytes = backing.subarray(shift, shift + values.length * 8)
        values.forEach((v, i) => bytes.writeBigInt64LE(v, i * 8))
        const out = new Float64Array(values.length + 1)
        expect(int64sInto(out, 1, bytes, values.length)).toBe(values.length + 1)
        expect([...out.subarray(1)]).toEqual(values.map((v) => (Number.isSafeInteger(Number(v)) && BigInt(Number(v)) === v ? Number(v) : NaN)))
      }),
      { numRuns: 2000, seed: 20261201 },
    )
  })
})

describe('a number page proved from its values (proveNumberValues)', () => {
  const numberMeta = metadata.row_groups[0]!.columns[0]!.meta_data!
  const numberStart = Number(numberMeta.data_page_offset)
  const numberChunk = file.subarray(numberStart, numberStart + Number(numberMeta.total_compressed_size))
  const numberColumn: FlatColumn = { meta: numberMeta as unknown as FlatColumn['meta'], element: metadata.schema[1] as FlatColumn['element'] }
  const pages: { bytes: Buffer; count: number }[] = []
  eachStringPage(numberChunk, numberColumn, rows.length, (bytes, count) => pages.push({ bytes: Buffer.from(bytes), count }) > 0)
  const index = Float64Array.from(rows, (_, i) => i)

  it('proves the rows of each page in turn, as the row objects say', () => {
    expect(pages.length).toBeGreaterThan(0)
    const proof = new CleanProof()
    let row = 0
    for (const page of pages) row = proveNumberValues(proof, new ByteView(), page.bytes, page.count, index, row)
    expect(row).toBe(rows.length)
    expect(proof.proved).toBe(true)
    expect(proof.part().keys.length).toBe(rows.length)
  })

  it('proves nothing of a page whose values do not fit it, and fails on a number out of order', () => {
    const page = pages[0]!
    const proof = new CleanProof()
    expect(proveNumberValues(proof, new ByteView(), page.bytes.subarray(0, page.bytes.length - 1), page.count, index, 0)).toBe(-1)
    expect(proof.part().rows).toBe(0)
    const swapped = Buffer.from(page.bytes)
    // The first value's last digit changed: 100.1 becomes 100.2, which does not start a file.
    swapped[4 + swapped.readUInt32LE(0) - 1] = 0x32
    const failed = new CleanProof()
    proveNumberValues(failed, new ByteView(), swapped, page.count, index, 0)
    expect(failed.proved).toBe(false)
  })
})

describe('uint32At', () => {
  it('reads what readUInt32LE reads, at any offset', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 4, maxLength: 16 }), fc.nat(), (bytes, at) => {
        const i = at % (bytes.length - 3)
        expect(uint32At(bytes, i)).toBe(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).readUInt32LE(i))
      }),
      { numRuns: 2000, seed: 20261201 },
    )
  })
})

describe('a Parquet file read by synchronous ranges (syncBufferFromFile)', () => {
  it('gives the metadata and row groups the asynchronous reads give', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'sync-source-')), 'rules.parquet')
    writeFileSync(path, file)
    const [sync, async] = await Promise.all([openParquetSource({ file: syncBufferFromFile(path) }), openParquetSource({ file: await asyncBufferFromFile(path) })])
    expect(sync.metadata).toEqual(async.metadata)
    expect(sync.rowStarts).toEqual([0, rows.length])
    const [a, b] = await Promise.all([decodeRowGroup(sync, 0, ['number', 'index']), decodeRowGroup(async, 0, ['number', 'index'])])
    expect(a).toEqual(b)
    expect(a.columns[1]!.length).toBe(rows.length)
    // A range past the file's end gives what the file holds, as a read stream does.
    expect((await sync.file.slice(file.length - 4, file.length + 1000)).byteLength).toBe(4)
  })
})
