import fc from 'fast-check'
import zlib, { gunzipSync, gzipSync } from 'node:zlib'
import { describe, expect, it, vi } from 'vitest'
import { PageScratch } from '../src/validate/proof/page-scratch.js'
import { readBytes, releases } from './helpers/shared.js'

const RUNS = Math.max(100, Math.round(Number(process.env.FUZZ_RUNS ?? 2000) / 10))
// make test replays the same cases (a red CI must mean a real change); make fuzz draws new ones.
const SEED = process.env.FUZZ_RUNS === undefined ? { seed: 20261201 } : {}

// A page of real CR text, as a Parquet page of our writer holds it (GZIP level 1).
const text = readBytes(releases().at(-1)!.path).subarray(0, 300_000)
const page = gzipSync(text, { level: 1 })

describe('PageScratch.unpack (GZIP pages into one reused buffer)', () => {
  it('unpacks a page to exactly what gunzipSync gives, page after page, into the same buffer', () => {
    const scratch = new PageScratch()
    const first = scratch.unpack(page, text.length)
    expect(first).not.toBeNull()
    expect(Buffer.compare(first!, text)).toBe(0)
    const small = gzipSync(Buffer.from('rule 704.5a'))
    const second = scratch.unpack(small, 11)
    expect(second!.toString()).toBe('rule 704.5a')
    // The same memory: a page is valid only until the next one.
    expect(second!.buffer).toBe(first!.buffer)
    // Zeros after the last member: gunzipSync leaves them unread, and so does this.
    const padded = Buffer.concat([page, Buffer.alloc(5)])
    expect(Buffer.compare(gunzipSync(padded), text)).toBe(0)
    expect(Buffer.compare(scratch.unpack(padded, text.length)!, text)).toBe(0)
  })

  it('answers null for a page that is not exactly its size of whole GZIP, and unpacks the next page again', () => {
    const scratch = new PageScratch()
    const damaged = Buffer.from(page)
    damaged[page.length >> 1] ^= 0xff
    damaged[(page.length >> 1) + 7] ^= 0x55
    const cases: [Uint8Array, number][] = [
      [damaged, text.length],
      [page.subarray(0, page.length - 100), text.length],
      [page, text.length - 1],
      [page, text.length + 1],
      [Buffer.concat([page, Buffer.from([1, 2, 3])]), text.length],
      [Buffer.from('not gzip at all'), 15],
      [new Uint8Array(0), 0],
    ]
    for (const [input, size] of cases) {
      expect(scratch.unpack(input, size)).toBeNull()
      expect(Buffer.compare(scratch.unpack(page, text.length)!, text)).toBe(0)
    }
  })

  it('agrees with gunzipSync on random pages, whole or damaged (null only where it is not the plain case)', () => {
    const scratch = new PageScratch()
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 4000 }), fc.integer({ min: 0, max: 3 }), fc.nat(), (raw, damage, where) => {
        const packed = Buffer.from(gzipSync(raw, { level: 1 }))
        if (damage > 0) packed[where % packed.length] ^= 1 << damage
        let plain: Buffer | null
        try {
          plain = gunzipSync(packed)
        } catch {
          plain = null
        }
        const ours = scratch.unpack(packed, raw.length)
        // Whenever it answers, it is what gunzipSync unpacks, at the size asked for.
        if (ours !== null) expect(plain !== null && Buffer.compare(ours, plain) === 0 && ours.length === raw.length).toBe(true)
        // Undamaged pages are always answered.
        if (damage === 0) expect(ours).not.toBeNull()
      }),
      { numRuns: RUNS, ...SEED },
    )
  })

  it('answers null, once and for all, where the stream lacks the internals it uses (gunzipSync then unpacks every page)', () => {
    const spy = vi.spyOn(zlib, 'createGunzip').mockImplementation(() => ({ reset() {} }) as unknown as zlib.Gunzip)
    try {
      const scratch = new PageScratch()
      expect(scratch.unpack(page, text.length)).toBeNull()
      expect(scratch.unpack(page, text.length)).toBeNull()
      expect(spy).toHaveBeenCalledTimes(1)
    } finally {
      spy.mockRestore()
    }
    expect(Buffer.compare(new PageScratch().unpack(page, text.length)!, text)).toBe(0)
  })

  it('keeps no buffer for a page over 16 MiB (gunzipSync unpacks those)', () => {
    const scratch = new PageScratch()
    expect(scratch.unpack(page, 16 * 1024 * 1024)).toBeNull()
    const [starts, ends] = scratch.offsets(2_000_000)
    expect(starts.length).toBe(2_000_000)
    expect(ends.length).toBe(2_000_000)
    // Smaller arrays are kept and reused; the huge ones were not kept.
    const kept = scratch.offsets(20)[1].buffer
    expect(scratch.offsets(10)[1].buffer).toBe(kept)
    expect(kept).not.toBe(ends.buffer)
  })
})
