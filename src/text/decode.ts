import { isUtf8 } from 'node:buffer'
import { EtlError } from '../core/errors.js'
import type { DecodedText, Encoding, LineEndingCounts } from '../core/types.js'

// Bytes that Windows-1252 leaves undefined: a file holding them is neither UTF-8 nor Windows-1252.
const CP1252_UNDEFINED = new Set([0x81, 0x8d, 0x8f, 0x90, 0x9d])

/**
 * Decode a published CR file: UTF-8 with or without BOM, UTF-16 LE/BE with BOM, or Windows-1252
 * when the bytes are not valid UTF-8. Throws EtlError when the bytes are no text at all.
 */
export function decode(bytes: Uint8Array, name = 'input'): DecodedText {
  if (bytes.length === 0) throw new EtlError('INPUT_EMPTY', `read: ${name} is empty (0 bytes)`)
  let encoding: Encoding
  let bom = true
  let body = bytes
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    encoding = 'utf-8'
    body = bytes.subarray(3)
  } else if (bytes[0] === 0xff && bytes[1] === 0xfe) {
    encoding = 'utf-16le'
    body = bytes.subarray(2)
  } else if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    encoding = 'utf-16be'
    body = bytes.subarray(2)
  } else {
    bom = false
    encoding = sniffEncoding(bytes, name)
  }
  const { located: invalid, count: invalidCount } = encoding === 'utf-8' ? invalidUtf8Bytes(body) : { located: [], count: 0 }
  const text = invalid.length > 0 ? new TextDecoder('utf-8', { ignoreBOM: true }).decode(body) : decodeAs(body, encoding, name)
  const controls = countControlCharacters(text)
  // A stray control character is the parser's to report; many of them mean binary data.
  if (controls > Math.max(8, text.length / 1000)) {
    throw new EtlError('INPUT_BINARY', `read: ${name} is not a text file (${controls} control characters in ${text.length})`)
  }
  const decoded: DecodedText = { text, encoding, bom, lineEndings: countLineEndings(text) }
  if (invalid.length > 0) decoded.invalidBytes = invalid
  if (invalidCount > invalid.length) decoded.invalidByteCount = invalidCount
  return decoded
}

// At most this many bad bytes are located one by one; the count is always exact.
const MAX_LOCATED = 1000

/**
 * The bytes of mostly-UTF-8 text that are not UTF-8, each with its 1-based line (the first
 * MAX_LOCATED of them), and how many there are: one pass over the bytes, however many are bad.
 */
function invalidUtf8Bytes(bytes: Uint8Array): { located: { offset: number; byte: number; line: number }[]; count: number } {
  const located: { offset: number; byte: number; line: number }[] = []
  let count = 0
  if (isUtf8(bytes)) return { located, count }
  let line = 1
  let checkedTo = 0
  eachUtf8Sequence(bytes, (at, length) => {
    if (length > 0) return
    count++
    if (located.length === MAX_LOCATED) return
    for (; checkedTo < at; checkedTo++) {
      const b = bytes[checkedTo]
      if (b === 0x0a || (b === 0x0d && bytes[checkedTo + 1] !== 0x0a)) line++
    }
    located.push({ offset: at, byte: bytes[at]!, line })
  })
  return { located, count }
}

function sniffEncoding(bytes: Uint8Array, name: string): Encoding {
  const sample = bytes.subarray(0, 4096)
  const kind = knownBinary(sample)
  if (kind) throw new EtlError('INPUT_BINARY', `read: ${name} is not a text file: it is ${kind}`)
  let evenZeros = 0
  let oddZeros = 0
  sample.forEach((b, i) => {
    if (b === 0) i % 2 === 0 ? evenZeros++ : oddZeros++
  })
  if (evenZeros + oddZeros > 0) {
    // UTF-16 text of Latin letters has a zero in every other byte, all on one side.
    const half = sample.length / 2
    const utf16 = Math.max(evenZeros, oddZeros) > 0.8 * half && Math.min(evenZeros, oddZeros) < 0.05 * half
    const hint = utf16 ? ' (looks like UTF-16 without a byte order mark)' : ''
    throw new EtlError('INPUT_BINARY', `read: ${name} is not a text file: it holds NUL bytes${hint}`)
  }
  const badUtf8 = firstInvalidUtf8(bytes)
  if (badUtf8 < 0) return 'utf-8'
  // Mostly UTF-8 with a few bad bytes is damaged UTF-8, not Windows-1252: decoding it as
  // Windows-1252 would garble every quote and dash of the text.
  const { valid, invalid } = utf8Census(bytes)
  if (valid > 0 && invalid <= valid) return 'utf-8'
  const at = bytes.findIndex((b) => CP1252_UNDEFINED.has(b))
  if (at >= 0) {
    const hex = (i: number) => `0x${bytes[i]!.toString(16)}`
    throw new EtlError(
      'INPUT_ENCODING',
      `read: ${name} is neither UTF-8 (invalid byte ${hex(badUtf8)} at offset ${badUtf8}) nor Windows-1252 (byte ${hex(at)} at offset ${at} is undefined there)`,
    )
  }
  return 'windows-1252'
}

const MAGIC: [string, number[]][] = [
  ['an executable (ELF)', [0x7f, 0x45, 0x4c, 0x46]],
  ['a PDF document', [0x25, 0x50, 0x44, 0x46, 0x2d]],
  ['a ZIP archive', [0x50, 0x4b, 0x03, 0x04]],
  ['a gzip file', [0x1f, 0x8b]],
  ['a PNG image', [0x89, 0x50, 0x4e, 0x47]],
  ['a Parquet file', [0x50, 0x41, 0x52, 0x31]],
]

/** What well-known binary format the bytes begin with, if any. */
function knownBinary(bytes: Uint8Array): string | null {
  for (const [kind, magic] of MAGIC) if (magic.every((b, i) => bytes[i] === b)) return kind
  return null
}

/** Well-formed multi-byte UTF-8 sequences, and bytes that fit no sequence. */
function utf8Census(bytes: Uint8Array): { valid: number; invalid: number } {
  let valid = 0
  let invalid = 0
  eachUtf8Sequence(bytes, (_, length) => {
    if (length === 0) invalid++
    else if (length > 1) valid++
  })
  return { valid, invalid }
}

/** Offset of the first byte that does not start or continue a well-formed UTF-8 sequence; -1 if none. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  if (isUtf8(bytes)) return -1 // native, ~50× faster than the walk below, which finds where
  let first = -1
  eachUtf8Sequence(bytes, (at, length) => {
    if (length > 0) return true
    first = at
    return false
  })
  return first
}

/**
 * Walk the bytes once as UTF-8: `visit` is told of each well-formed sequence (its offset and length
 * in bytes) and of each byte that fits no sequence (length 0); it returns false to stop. Linear
 * however many bytes are bad (a text that is neither UTF-8 nor Windows-1252 is all bad bytes).
 */
function eachUtf8Sequence(bytes: Uint8Array, visit: (at: number, length: number) => boolean | void): void {
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i]!
    let length = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0
    // Second-byte ranges that exclude overlong forms, surrogates and code points past U+10FFFF.
    const lo = b === 0xe0 ? 0xa0 : b === 0xf0 ? 0x90 : 0x80
    const hi = b === 0xed ? 0x9f : b === 0xf4 ? 0x8f : 0xbf
    for (let k = 1; k < length; k++) {
      const c = bytes[i + k]
      if (c === undefined || c < (k === 1 ? lo : 0x80) || c > (k === 1 ? hi : 0xbf)) {
        length = 0
        break
      }
    }
    if (visit(i, length) === false) return
    i += length === 0 ? 1 : length
  }
}

// Node 20's TextDecoder('windows-1252') decodes as ISO-8859-1 (0x92 becomes U+0092, not ’), so the
// 0x80–0x9F block, the only place the two differ, is mapped here. Undefined bytes stay U+FFFD.
const CP1252_HIGH = '€\uFFFD‚ƒ„…†‡ˆ‰Š‹Œ\uFFFDŽ\uFFFD\uFFFD‘’“”•–—˜™š›œ\uFFFDžŸ'

function decodeWindows1252(body: Uint8Array): string {
  let out = ''
  for (let i = 0; i < body.length; i += 8192) {
    const chunk = body.subarray(i, i + 8192)
    out += String.fromCharCode(...chunk)
  }
  return out.replace(/[\u0080-\u009f]/g, (c) => CP1252_HIGH[c.charCodeAt(0) - 0x80]!)
}

function decodeAs(body: Uint8Array, encoding: Encoding, name: string): string {
  if (encoding === 'windows-1252') return decodeWindows1252(body)
  try {
    return new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(body)
  } catch {
    throw new EtlError('INPUT_ENCODING', `read: ${name} is not valid ${encoding} after its byte order mark`)
  }
}

/** Control characters other than tab, LF, CR and form feed: they do not occur in real text. */
export const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000e-\u001f\u007f]/g

function countControlCharacters(text: string): number {
  return text.match(CONTROL_CHARACTERS)?.length ?? 0
}

/** Count each kind of line ending; a CRLF pair counts once, as CRLF. */
export function countLineEndings(text: string): LineEndingCounts {
  const counts: LineEndingCounts = { crlf: 0, cr: 0, lf: 0 }
  for (let i = text.indexOf('\r'); i >= 0; i = text.indexOf('\r', i + 1)) {
    if (text.charCodeAt(i + 1) === 10) counts.crlf++
    else counts.cr++
  }
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) counts.lf++
  counts.lf -= counts.crlf
  return counts
}

/** A one-word summary of the line endings: CRLF, LF, CR, mixed or none. */
export function lineEndingLabel(counts: LineEndingCounts): string {
  const kinds = (['crlf', 'cr', 'lf'] as const).filter((k) => counts[k] > 0)
  if (kinds.length === 0) return 'none'
  if (kinds.length > 1) return 'mixed'
  return kinds[0]!.toUpperCase()
}

/** Split text into lines on CRLF, CR or LF. */
export function splitLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/)
}
