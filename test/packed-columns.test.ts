import { describe, expect, it } from 'vitest'
import { packColumn, transfers, valueAt } from '../src/exports/packed-columns.mjs'

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
})
