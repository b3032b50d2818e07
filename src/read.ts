import { EtlError } from './errors.js'
import type { DecodedText, Encoding, LineEndingCounts } from './types.js'

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
  const text = decodeAs(body, encoding, name)
  const controls = countControlCharacters(text)
  // A stray control character is the parser's to report; many of them mean binary data.
  if (controls > Math.max(8, text.length / 1000)) {
    throw new EtlError('INPUT_BINARY', `read: ${name} is not a text file (${controls} control characters in ${text.length})`)
  }
  return { text, encoding, bom, lineEndings: countLineEndings(text) }
}

function sniffEncoding(bytes: Uint8Array, name: string): Encoding {
  const sample = bytes.subarray(0, 4096)
  let zeros = 0
  for (const b of sample) if (b === 0) zeros++
  if (zeros > 0) {
    const hint = zeros * 4 > sample.length ? ' (looks like UTF-16 without a byte order mark)' : ''
    throw new EtlError('INPUT_BINARY', `read: ${name} is not a text file: it holds NUL bytes${hint}`)
  }
  const badUtf8 = firstInvalidUtf8(bytes)
  if (badUtf8 < 0) return 'utf-8'
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

/** Offset of the first byte that does not start or continue a well-formed UTF-8 sequence; -1 if none. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i]!
    const length = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0
    if (length === 0) return i
    // Second-byte ranges that exclude overlong forms, surrogates and code points past U+10FFFF.
    const lo = b === 0xe0 ? 0xa0 : b === 0xf0 ? 0x90 : 0x80
    const hi = b === 0xed ? 0x9f : b === 0xf4 ? 0x8f : 0xbf
    for (let k = 1; k < length; k++) {
      const c = bytes[i + k]
      if (c === undefined || c < (k === 1 ? lo : 0x80) || c > (k === 1 ? hi : 0xbf)) return i
    }
    i += length
  }
  return -1
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
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 13) {
      if (text.charCodeAt(i + 1) === 10) {
        counts.crlf++
        i++
      } else counts.cr++
    } else if (c === 10) counts.lf++
  }
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
