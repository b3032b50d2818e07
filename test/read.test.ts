import { describe, expect, it } from 'vitest'
import { EtlError } from '../src/core/errors.js'
import { isUtf8 } from 'node:buffer'
import { countLineEndings, decode, firstInvalidUtf8, lineEndingLabel, splitLines } from '../src/text/decode.js'
import { readBytes, release, releases } from './helpers/shared.js'

const ENCODINGS: Record<string, { encoding: string; bom: boolean }> = {
  'Windows-1252, no BOM': { encoding: 'windows-1252', bom: false },
  'UTF-16BE with BOM': { encoding: 'utf-16be', bom: true },
  'UTF-8 with BOM': { encoding: 'utf-8', bom: true },
  'UTF-8, no BOM': { encoding: 'utf-8', bom: false },
}

describe('decode, on every published release', () => {
  it.each(releases().map((r) => [r.file, r] as const))('%s: encoding and line endings as the archive README says', (_, r) => {
    const d = decode(readBytes(r.path), r.file)
    expect({ encoding: d.encoding, bom: d.bom }).toEqual(ENCODINGS[r.encoding])
    // README cells read like "CRLF 6541" or "CR 8330, CRLF 12 (mixed)".
    const expected = { crlf: 0, cr: 0, lf: 0 }
    for (const [, kind, n] of r.lineEndings.matchAll(/\b(CRLF|CR|LF) (\d+)/g)) expected[kind!.toLowerCase() as keyof typeof expected] = Number(n)
    expect(d.lineEndings).toEqual(expected)
    // 2001 writes "Magic: The Gathering® Comprehensive Rules".
    expect(d.text).toMatch(/^Magic: The Gathering®? Comprehensive Rules/)
  })

  it('decodes Windows-1252 punctuation of the 2016 text to Unicode', () => {
    const d = decode(readBytes(release('2016-07-22').path))
    expect(d.text).toContain('’')
    expect(d.text).not.toContain('\uFFFD')
  })
})

describe('decode, re-encoded copies of a real text', () => {
  const text = decode(readBytes(release('2025-02-07').path)).text

  it('reads UTF-16LE with BOM', () => {
    const bytes = new Uint8Array([0xff, 0xfe, ...new Uint8Array(Buffer.from(text, 'utf16le'))])
    const d = decode(bytes)
    expect(d.encoding).toBe('utf-16le')
    expect(d.text).toBe(text)
  })

  it('reads UTF-8 without BOM and with CR-only line endings', () => {
    const d = decode(new TextEncoder().encode(text.replace(/\r\n/g, '\r')))
    expect({ encoding: d.encoding, bom: d.bom, label: lineEndingLabel(d.lineEndings) }).toEqual({ encoding: 'utf-8', bom: false, label: 'CR' })
    expect(splitLines(d.text)).toHaveLength(splitLines(text).length)
  })
})

describe('decode refuses what is not text', () => {
  const cases: [string, Uint8Array, string, RegExp][] = [
    ['an empty file', new Uint8Array(0), 'INPUT_EMPTY', /^read: x is empty \(0 bytes\)$/],
    ['UTF-16 without a BOM', new Uint8Array(Buffer.from('100.1. Some rule text here', 'utf16le')), 'INPUT_BINARY', /looks like UTF-16 without a byte order mark/],
    ['bytes undefined in Windows-1252', new Uint8Array([0x41, 0xe9, 0x81, 0x42]), 'INPUT_ENCODING', /^read: x is neither UTF-8 \(invalid byte 0xe9 at offset 1\) nor Windows-1252 \(byte 0x81 at offset 2 is undefined there\)$/],
    ['a ZIP header', new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00]), 'INPUT_BINARY', /^read: x is not a text file: it is a ZIP archive$/],
    ['an ELF executable', new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]), 'INPUT_BINARY', /^read: x is not a text file: it is an executable \(ELF\)$/],
    ['binary with scattered NUL bytes', new Uint8Array([0x41, 0x00, 0x00, 0x42, 0x43, 0x44, 0x00, 0x45, 0x00, 0x00, 0x46, 0x47]), 'INPUT_BINARY', /^read: x is not a text file: it holds NUL bytes$/],
  ]
  it.each(cases)('%s', (_, bytes, code, message) => {
    const err = (() => {
      try {
        decode(bytes, 'x')
      } catch (e) {
        return e
      }
    })()
    expect(err).toBeInstanceOf(EtlError)
    expect((err as EtlError).code).toBe(code)
    expect((err as EtlError).message).toMatch(message)
  })
})

describe('countLineEndings', () => {
  it.each([
    ['a\r\nb\nc\rd', { crlf: 1, cr: 1, lf: 1 }, 'mixed'],
    ['a\nb\n', { crlf: 0, cr: 0, lf: 2 }, 'LF'],
    ['one line', { crlf: 0, cr: 0, lf: 0 }, 'none'],
  ])('%j', (text, counts, label) => {
    expect(countLineEndings(text)).toEqual(counts)
    expect(lineEndingLabel(counts)).toBe(label)
  })
})

describe('firstInvalidUtf8', () => {
  it.each([
    ['ASCII', [0x41, 0x42], -1],
    ['a right quote ’ (E2 80 99)', [0x41, 0xe2, 0x80, 0x99], -1],
    ['an emoji (F0 9F 98 80)', [0xf0, 0x9f, 0x98, 0x80], -1],
    ['a lone continuation byte', [0x41, 0x80], 1],
    ['a lead byte cut short', [0x41, 0xe2, 0x80], 1],
    ['an overlong encoding (C0 AF)', [0xc0, 0xaf], 0],
    ['a UTF-16 surrogate (ED A0 80)', [0xed, 0xa0, 0x80], 0],
    ['Windows-1252 é', [0x63, 0x61, 0x66, 0xe9], 3],
  ])('%s', (_, bytes, expected) => {
    expect(firstInvalidUtf8(new Uint8Array(bytes))).toBe(expected)
    expect(expected === -1).toBe(isUtf8(new Uint8Array(bytes)))
  })
})
