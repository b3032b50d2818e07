import fc from 'fast-check'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parquetMetadata } from 'hyparquet'
import { fileRef } from '../src/io/files.js'
import { describe, expect, it } from 'vitest'
import { buildDataset } from '../src/build/build.js'
import { checkedParquet, checkParquetFile, headerIn } from '../src/exports/parquet/parquet-frame.js'
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
    return outcome(() => checkedParquet('rules.parquet', footer, () => parquetMetadata(file), bytes.length, headerIn(file)))
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
