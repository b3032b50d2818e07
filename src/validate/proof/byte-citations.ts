import { expand, kindOf, MAX_RANGE, type ReferenceKind } from '../../core/citations.js'
import { SUBRULE_LETTERS } from '../../core/rule-number.js'

/** Where the citations read from bytes go: a rule number as the row schema writes it, packed, or any other target. */
export interface CitationSink {
  citeRule(section: number, rule: number, rank: number): void
  citeTarget(target: string, kind: ReferenceKind): void
}

/** No citation here: the list ends (the patterns match nothing more). */
const END = -1
/** A shape only the patterns decide (a comma typo, backtracking). */
const UNSURE = -2

/**
 * The citations after one keyword of a UTF-8 text, from the digit at `at` to `end` (exclusive),
 * given to `sink` exactly as citationsAfter (src/references.ts) finds them in the decoded text:
 * true when it read them all, false when one is UNSURE (the caller then decodes the text; a
 * target given twice counts once).
 */
export function citationsInBytes(buf: Uint8Array, at: number, end: number, section: boolean, sink: CitationSink): boolean {
  for (;;) {
    const e = section ? sectionTarget(buf, at, end) : ruleTarget(buf, at, end)
    if (e === END) return true
    if (e === UNSURE) return false
    const to = section ? sectionRangeEnd(buf, e, end) : ruleRangeEnd(buf, e, end)
    if (to === UNSURE) return false
    if (to === END) visit(buf, at, e, sink)
    else if (!letterRange(buf, to, sink)) for (const target of expand(textOf(buf, at, e), textOf(buf, rangeFrom, to))) sink.citeTarget(target, kindOf(target))
    const next = afterSeparator(buf, to === END ? e : to, end)
    if (next === END) return true
    if (next === UNSURE) return false
    at = next
  }
}

/**
 * What the last target read was: a rule number in the schema's form that a packed key holds
 * (`keyed`, its parts in parsedSection, parsedRule, parsedRank), or a target of parsedKind.
 */
let keyed = false
let parsedKind: ReferenceKind = 'rule'
let parsedSection = 0
let parsedRule = 0
let parsedRank = 0

/**
 * RULE_REF's first group, `\d{3}(?:\.\d+[a-z]*|,\d{1,2}[a-z]*(?!\d))?` and its lookahead
 * `(?![\d.]?\d)`, at `at`: where it ends, END when it does not match, UNSURE where the pattern
 * would backtrack (`100.1a.5`, `100.1a5`) or read a comma typo (`419,8`).
 */
function ruleTarget(buf: Uint8Array, at: number, end: number): number {
  if (!(at + 2 < end && isDigit(buf[at]!) && isDigit(buf[at + 1]!) && isDigit(buf[at + 2]!))) return END
  const c = byteAt(buf, at + 3, end)
  // Three digits and a fourth: the lookahead refuses, and there is nothing to give back.
  if (isDigit(c)) return END
  if (c === 0x2c && isDigit(byteAt(buf, at + 4, end))) return UNSURE
  if (c !== 0x2e || !isDigit(byteAt(buf, at + 4, end))) {
    keyed = false
    parsedKind = 'section'
    return at + 3
  }
  let i = at + 4
  let rule = 0
  for (; i < end && isDigit(buf[i]!); i++) rule = rule * 10 + buf[i]! - 48
  let rank = 0
  let letters = 0
  for (; i < end && buf[i]! >= 0x61 && buf[i]! <= 0x7a; i++, letters++) rank = rank * SUBRULE_LETTERS.length + LETTER_RANK[buf[i]!]!
  const after = byteAt(buf, i, end)
  if (isDigit(after) || (after === 0x2e && isDigit(byteAt(buf, i + 1, end)))) return UNSURE
  // As the schema writes a number (RULE_NUMBER in clean-proof.ts), within what a packed key holds.
  keyed = buf[at] !== 0x30 && buf[at + 4] !== 0x30 && rule <= 1023 && letters <= 2 && !Number.isNaN(rank)
  parsedKind = 'rule'
  parsedSection = (buf[at]! - 48) * 100 + (buf[at + 1]! - 48) * 10 + (buf[at + 2]! - 48)
  parsedRule = rule
  parsedRank = rank
  return i
}

/** CHAPTER_OR_SECTION_REF's first group, `(\d{3}|\d)(?!\d)`, at `at`: where it ends, or END. */
function sectionTarget(buf: Uint8Array, at: number, end: number): number {
  let i = at
  while (i < end && i - at < 4 && isDigit(buf[i]!)) i++
  if (i - at !== 3 && i - at !== 1) return END
  keyed = false
  parsedKind = i - at === 3 ? 'section' : 'chapter'
  return i
}

/**
 * A range of subrule letters (`601.2f–h`) after a rule number in the schema's form, its end at
 * rangeFrom..to one or two subrule letters: its targets given as packed keys, as expand gives them
 * (from the first letters to the last; only the two ends when the range runs backwards or spans
 * more than MAX_RANGE). False, with nothing given, for any other range.
 */
function letterRange(buf: Uint8Array, to: number, sink: CitationSink): boolean {
  const letters = to - rangeFrom
  if (!keyed || letters < 1 || letters > 2 || !(buf[rangeFrom]! >= 0x61 && buf[rangeFrom]! <= 0x7a)) return false
  let last = 0
  for (let i = rangeFrom; i < to; i++) last = last * SUBRULE_LETTERS.length + LETTER_RANK[buf[i]!]!
  if (Number.isNaN(last)) return false
  const first = parsedRank
  if (!(last > first) || last - first > MAX_RANGE) {
    sink.citeRule(parsedSection, parsedRule, first)
    sink.citeRule(parsedSection, parsedRule, last)
  } else for (let r = first; r <= last; r++) sink.citeRule(parsedSection, parsedRule, r)
  return true
}

/** Where the end of the last range read (ruleRangeEnd, sectionRangeEnd) starts. */
let rangeFrom = 0

/**
 * Past a range's `\s?[–-]\s?` at `e` (a hyphen or an en dash, one whitespace character either side
 * or none): where its end starts, or END. (Giving back the first whitespace leaves a dash to find
 * where that whitespace is: none.)
 */
function afterDash(buf: Uint8Array, e: number, end: number): number {
  let i = e + spaceLength(buf, e, end)
  const dash = dashLength(buf, i, end)
  if (dash === 0) return END
  i += dash
  return i + spaceLength(buf, i, end)
}

/**
 * RULE_REF's range, `(?:\s?[–-]\s?(\d{3}\.\d+[a-z]*|\d+[a-z]*|[a-z]+)\b)?`, after the citation at
 * `e`: where it ends (its end starts at rangeFrom), or END when there is none. Each alternative is
 * greedy and only a word boundary ends it, so the first that ends before a non-word character is
 * the one the pattern takes. (A whitespace character after the dash that the pattern could give
 * back would leave the end to start at that whitespace, where no alternative matches.)
 */
function ruleRangeEnd(buf: Uint8Array, e: number, end: number): number {
  const j = afterDash(buf, e, end)
  if (j === END) return END
  rangeFrom = j
  if (isDigit(byteAt(buf, j, end)) && isDigit(byteAt(buf, j + 1, end)) && isDigit(byteAt(buf, j + 2, end)) && byteAt(buf, j + 3, end) === 0x2e && isDigit(byteAt(buf, j + 4, end))) {
    const a = lowercase(buf, digits(buf, j + 4, end), end)
    if (!isWord(byteAt(buf, a, end))) return a
  }
  if (isDigit(byteAt(buf, j, end))) {
    const b = lowercase(buf, digits(buf, j, end), end)
    if (!isWord(byteAt(buf, b, end))) return b
  }
  const c = lowercase(buf, j, end)
  return c > j && !isWord(byteAt(buf, c, end)) ? c : END
}

/** CHAPTER_OR_SECTION_REF's range, `(?:\s?[–-]\s?(\d{3}|\d)(?!\d))?`, after the citation at `e`: where it ends, or END. */
function sectionRangeEnd(buf: Uint8Array, e: number, end: number): number {
  const j = afterDash(buf, e, end)
  if (j === END) return END
  rangeFrom = j
  const n = digits(buf, j, end) - j
  if (n === 3 || n === 1) return j + n
  return END
}

const digits = (buf: Uint8Array, i: number, end: number) => {
  while (isDigit(byteAt(buf, i, end))) i++
  return i
}
const lowercase = (buf: Uint8Array, i: number, end: number) => {
  for (let c = byteAt(buf, i, end); c >= 0x61 && c <= 0x7a; c = byteAt(buf, ++i, end));
  return i
}
/** A word character as `\b` has it without the u flag: ASCII letters, digits, underscore. */
const isWord = (c: number) => isDigit(c) || c === 0x5f || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a)
/** ASCII bytes as a string. */
const textOf = (buf: Uint8Array, from: number, to: number) => String.fromCharCode.apply(null, buf.subarray(from, to) as unknown as number[])

function visit(buf: Uint8Array, from: number, to: number, sink: CitationSink): void {
  if (keyed) sink.citeRule(parsedSection, parsedRule, parsedRank)
  else sink.citeTarget(textOf(buf, from, to), parsedKind)
}

/**
 * SEPARATOR, `(?:,\s*(?:and\s+|or\s+)?|\s+(?:and|or|through)\s+)(?=\d)`, at `e`: where the next
 * citation starts, or END when it does not match.
 */
function afterSeparator(buf: Uint8Array, e: number, end: number): number {
  let i: number
  if (byteAt(buf, e, end) === 0x2c) {
    i = skipSpaces(buf, e + 1, end)
    if (isDigit(byteAt(buf, i, end))) return i
    i = wordAt(buf, i, end, AND) || wordAt(buf, i, end, OR)
  } else if (spaceLength(buf, e, end) > 0) {
    i = skipSpaces(buf, e, end)
    i = wordAt(buf, i, end, AND) || wordAt(buf, i, end, OR) || wordAt(buf, i, end, THROUGH)
  } else return END
  if (i === 0 || spaceLength(buf, i, end) === 0) return END
  i = skipSpaces(buf, i, end)
  return isDigit(byteAt(buf, i, end)) ? i : END
}

/** Past the whitespace (`\s*`) from `i`. */
function skipSpaces(buf: Uint8Array, i: number, end: number): number {
  for (let n = spaceLength(buf, i, end); n > 0; n = spaceLength(buf, i, end)) i += n
  return i
}

/**
 * The length in bytes of the whitespace character at `i` as JavaScript's `\s` has it (ASCII tab to
 * carriage return and space, U+00A0, U+1680, U+2000–U+200A, U+2028, U+2029, U+202F, U+205F, U+3000,
 * U+FEFF), or 0.
 */
export function spaceLength(buf: Uint8Array, i: number, end: number): number {
  const b = byteAt(buf, i, end)
  if (b === 0x20 || (b >= 0x09 && b <= 0x0d)) return 1
  if (b < 0x80) return 0
  const b1 = byteAt(buf, i + 1, end)
  if (b === 0xc2) return b1 === 0xa0 ? 2 : 0
  const b2 = byteAt(buf, i + 2, end)
  if (b === 0xe1) return b1 === 0x9a && b2 === 0x80 ? 3 : 0
  if (b === 0xe2) return (b1 === 0x80 && ((b2 >= 0x80 && b2 <= 0x8a) || b2 === 0xa8 || b2 === 0xa9 || b2 === 0xaf)) || (b1 === 0x81 && b2 === 0x9f) ? 3 : 0
  if (b === 0xe3) return b1 === 0x80 && b2 === 0x80 ? 3 : 0
  if (b === 0xef) return b1 === 0xbb && b2 === 0xbf ? 3 : 0
  return 0
}

/** The length in bytes of a hyphen or an en dash (U+2013) at `i`, or 0. */
function dashLength(buf: Uint8Array, i: number, end: number): number {
  const b = byteAt(buf, i, end)
  if (b === 0x2d) return 1
  return b === 0xe2 && byteAt(buf, i + 1, end) === 0x80 && byteAt(buf, i + 2, end) === 0x93 ? 3 : 0
}

/** Where `word` (lowercase ASCII bytes) ends when it stands at `i`, else 0. */
function wordAt(buf: Uint8Array, i: number, end: number, word: Uint8Array): number {
  if (i + word.length > end) return 0
  for (let k = 0; k < word.length; k++) if (buf[i + k] !== word[k]) return 0
  return i + word.length
}

const AND = Uint8Array.of(0x61, 0x6e, 0x64)
const OR = Uint8Array.of(0x6f, 0x72)
const THROUGH = Uint8Array.of(0x74, 0x68, 0x72, 0x6f, 0x75, 0x67, 0x68)

// Rank of each subrule letter by its character code (NaN: a letter that is not one, l and o).
const LETTER_RANK = new Float64Array(128).fill(NaN)
for (let i = 0; i < SUBRULE_LETTERS.length; i++) LETTER_RANK[SUBRULE_LETTERS.charCodeAt(i)] = i + 1

const byteAt = (buf: Uint8Array, i: number, end: number) => (i < end ? buf[i]! : -1)
const isDigit = (c: number) => c >= 0x30 && c <= 0x39
