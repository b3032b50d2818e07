import { describe, expect, it } from 'vitest'
import { packColumn, sliceColumn, transfers, valueAt } from '../src/exports/packed-columns.mjs'

const utf8 = (s: string) => new TextEncoder().encode(s)
const unpack = (values: unknown[]) => {
  const packed = packColumn(values)
  return { kind: packed.kind, values: values.map((_, i) => valueAt(packed, i)), moved: transfers(packed).length }
}

describe('columns packed by the decoding worker come back as they went', () => {
  it('strings, their UTF-8 bytes, nulls and unset values', () => {
    const got = unpack(['100.1', utf8('Æther — “quoted” ✓'), null, undefined, '', 'plain'])
    expect(got).toEqual({ kind: 'strings', values: ['100.1', 'Æther — “quoted” ✓', null, undefined, '', 'plain'], moved: 3 })
  })

  it('lists of strings, with null items, empty lists and null lists', () => {
    const got = unpack([['a', utf8('ü'), null], [], null, ['Example: x']])
    expect(got).toEqual({ kind: 'lists', values: [['a', 'ü', null], [], null, ['Example: x']], moved: 5 })
  })

  it('anything else as it is: numbers, bigints, booleans, nested lists, mixed columns', () => {
    for (const values of [[1, 2, null], [1n, null], [true, false], [[['nested']]], ['a', 1]]) {
      expect(unpack(values)).toEqual({ kind: 'plain', values, moved: 0 })
    }
  })

  it('bad UTF-8 bytes become U+FFFD, as TextDecoder makes them', () => {
    const bad = new Uint8Array([0x61, 0xff, 0xed, 0xa0, 0x80, 0xf0, 0x9f, 0x98])
    expect(unpack([bad]).values).toEqual([new TextDecoder().decode(bad)])
  })

  it('a slice of a packed column is the slice of its values, with buffers of its own', () => {
    const columns = [
      ['100.1', utf8('ü'), null, undefined, '', 'last'],
      [['a', utf8('ü'), null], [], null, ['Example: x'], undefined, ['y', 'z']],
      [1n, 2n, null, 4n, 5n, 6n],
    ]
    for (const values of columns) {
      const packed = packColumn(values)
      for (const [from, to] of [[0, 6], [0, 2], [2, 5], [5, 6], [3, 3]] as const) {
        const slice = sliceColumn(packed, from, to)
        expect([slice.kind, Array.from({ length: to - from }, (_, i) => valueAt(slice, i))]).toEqual([packed.kind, values.slice(from, to).map((_, i) => valueAt(packed, from + i))])
        for (const buffer of transfers(slice)) expect(transfers(packed)).not.toContain(buffer)
      }
    }
  })
})
