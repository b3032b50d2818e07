import { Buffer, isUtf8 } from 'node:buffer'
import type { CleanProof } from './clean-proof.js'
import type { PageScratch } from './page-scratch.js'
import { ByteView, bytesAt, EXAMPLE } from './clean-view.js'
import { byteArrayPage, listPage, pageValues, uint32At, type ByteArrayPage, type ByteArrayPages, type ListPage, type PageRef } from './parquet-pages.js'
import { examplePageKernel, numberPageKernel, textPageKernel } from './page-kernels.js'
import type { PackedColumn } from '../../exports/packed-columns.mjs'

// The proof of one row group (see CleanProof) goes column by column (its verdict does not depend on
// the order the rows are seen in): numbers and texts are read from their UTF-8 bytes, and only texts
// that may cite are made strings. A null anywhere, or a column of another shape, fails it.

/** The number and index columns: each number in place, each index its position. */
export function proveNumbers(proof: CleanProof, view: ByteView, number: ByteArrayPages, index: Float64Array, rowCount: number): void {
  if (number.count !== rowCount || index.length !== rowCount) return void proof.fail()
  let row = 0
  for (const page of number.pages) row = proveNumberPage(proof, view, page, index, row)
}

/**
 * One page of the number column as Parquet lays it out (each value after its four-byte length), its
 * first row `row` (an index of `index`): the row after it, or -1, with nothing proved, when its
 * values do not fit the page. No offsets are kept: the values are walked twice, for fit, then proved.
 */
export function proveNumberValues(proof: CleanProof, view: ByteView, bytes: Buffer, count: number, index: Float64Array, row: number): number {
  return numberPageKernel(proof, bytes, count, index, row) ?? walkNumberValues(proof, view, bytes, count, index, row)
}

/** proveNumberValues in JavaScript, where the kernel does not take the page (and in tests, its twin). */
export function walkNumberValues(proof: CleanProof, view: ByteView, bytes: Buffer, count: number, index: Float64Array, row: number): number {
  let at = 0
  for (let i = 0; i < count; i++) {
    if (at + 4 > bytes.length) return -1
    at += 4 + uint32At(bytes, at)
    if (at > bytes.length) return -1
  }
  view.loadNumbers(bytes, 0, bytes.length)
  at = 0
  for (let i = 0; i < count && proof.proved; i++, row++) {
    const from = at + 4
    at = from + uint32At(bytes, at)
    proveNumber(proof, view, from, at, index, row)
  }
  return row
}

/** The number at from..to of the view (row `row`, its index in `index`): exactly a rule number, the one after the row before. */
function proveNumber(proof: CleanProof, view: ByteView, from: number, to: number, index: Float64Array, row: number): void {
  if (row >= index.length || view.ruleNumber(from, to) !== to) proof.fail()
  else proof.number(view.section, view.rule, view.rank, index[row]!)
}

/** One page of the number column, its first row `row` (an index of `index`); the row after it. */
export function proveNumberPage(proof: CleanProof, view: ByteView, page: ByteArrayPage, index: Float64Array, row: number): number {
  view.loadNumbers(page.bytes, 0, page.bytes.length)
  for (let i = 0; i < page.starts.length && proof.proved; i++, row++) proveNumber(proof, view, page.starts[i]!, page.ends[i]!, index, row)
  return row
}

/**
 * One page of the text column in the layout, unpacked `into` the scratch, proved as proveTexts
 * proves it (by its kernel where it takes the page). A page whose values do not fit fails the proof.
 */
export function proveTextPage(proof: CleanProof, view: ByteView, ref: PageRef, codec: string, into?: PageScratch): void {
  // Four bytes at least a value (its length): a header that claims more is refused before unpacking.
  const bytes = ref.values * 4 > ref.size ? null : pageValues(ref, codec, into)
  if (!bytes) return void proof.fail()
  const walked = textPageKernel(proof, view, bytes, ref.values)
  if (walked !== null) return void (walked || proof.fail())
  const page = byteArrayPage(bytes, ref.values, into)
  if (page) proveTexts(proof, view, page)
  else proof.fail()
}

/** One page of the text column: each text non-empty, UTF-8, not an example, its citations resolvable. */
export function proveTexts(proof: CleanProof, view: ByteView, page: ByteArrayPage): void {
  // The exact path decodes with replacement characters: text that is not UTF-8 is not proved.
  if (!valuesAreUtf8(page)) return void proof.fail()
  view.load(page.bytes, 0, page.bytes.length)
  const bytes = page.bytes
  for (let i = 0; i < page.starts.length && proof.proved; i++) {
    const from = page.starts[i]!
    const to = page.ends[i]!
    if (to === from || (to - from >= 7 && bytesAt(bytes, from, EXAMPLE))) proof.fail()
    else proof.citesIn(view, from, to)
  }
}

/**
 * Whether every value of a page of byte arrays is UTF-8. Values laid out as Parquet lays them, each
 * after its four-byte length, are checked in one call over the page, as leadingValuesAreUtf8 checks
 * a list page's (here the offsets are known, so the lengths need not be kept aside: ~5% of a proof
 * was a Buffer per value; routed through that walk, text pages measured 16 → 24 ms). Values laid out
 * otherwise are checked one by one.
 */
export function valuesAreUtf8(page: ByteArrayPage): boolean {
  const { bytes, starts, ends } = page
  const n = starts.length
  if (n === 0) return true
  let prefixed = starts[0]! >= 4
  for (let i = 1; i < n && prefixed; i++) prefixed = starts[i] === ends[i - 1]! + 4
  if (!prefixed) {
    for (let i = 0; i < n; i++) if (!isUtf8(bytes.subarray(starts[i]!, ends[i]!))) return false
    return true
  }
  for (let i = 0; i < n; i++) {
    const at = starts[i]! - 4
    bytes[at] = bytes[at + 1] = bytes[at + 2] = bytes[at + 3] = 0x20
  }
  const utf8 = isUtf8(bytes.subarray(starts[0]! - 4, ends[n - 1]!))
  for (let i = 0; i < n; i++) setUint32At(bytes, starts[i]! - 4, ends[i]! - starts[i]!)
  return utf8
}

/**
 * Whether the first `count` byte arrays of PLAIN values (each after its four-byte length) are
 * there and UTF-8, in one check of the bytes: the lengths read as spaces for it (kept aside), then
 * put back. No character straddles a space, so the bytes are UTF-8 exactly when each value is.
 */
export function leadingValuesAreUtf8(values: Buffer, count: number): boolean {
  let at = 0
  let n = 0
  for (; n < count && at + 4 <= values.length; n++) {
    const length = uint32At(values, at)
    if (at + 4 + length > values.length) break
    // Grown with the values found (four bytes each at least), not with the count a header claims.
    if (n === lengthsAside.length) lengthsAside = grown(lengthsAside)
    lengthsAside[n] = length
    values[at] = values[at + 1] = values[at + 2] = values[at + 3] = 0x20
    at += 4 + length
  }
  const utf8 = n === count && isUtf8(values.subarray(0, at))
  for (let k = 0, i = 0; k < n; k++) {
    setUint32At(values, i, lengthsAside[k]!)
    i += 4 + lengthsAside[k]!
  }
  // A page of countless tiny values is not held on to.
  if (lengthsAside.length > 1 << 16) lengthsAside = new Uint32Array(1024)
  return utf8
}

let lengthsAside = new Uint32Array(1024)
const grown = (a: Uint32Array) => {
  const b = new Uint32Array(a.length * 2)
  b.set(a)
  return b
}

/** The examples column (packed by packed-columns.mjs): a list each row, each example non-empty UTF-8. */
export function proveExamples(proof: CleanProof, view: ByteView, examples: PackedColumn, rowCount: number): void {
  if (examples.kind !== 'lists' || examples.listStarts.length !== rowCount + 1 || !isUtf8(examples.items.bytes)) return void proof.fail()
  const items = examples.items
  view.load(Buffer.from(items.bytes.buffer, items.bytes.byteOffset, items.bytes.byteLength), 0, items.bytes.length)
  for (let i = 0; i < rowCount && proof.proved; i++) {
    if (examples.missing[i] !== 0) proof.fail()
    for (let k = examples.listStarts[i]!; k < examples.listStarts[i + 1]! && proof.proved; k++) {
      const s = items.starts[k]!
      const e = items.starts[k + 1]!
      if (items.missing[k] !== 0 || e === s) proof.fail()
      else proof.citesIn(view, s, e)
    }
  }
}

/**
 * The examples column read straight from its pages (listPageRefs), as hyparquet assembles it: each
 * repetition level 0 starts a row, whose list must be there (definition level 1: empty; 3: an
 * example), each level 1 adds an example to it; every example non-empty UTF-8. Levels of any other
 * shape fail the proof (the exact path says what they mean).
 */
export function proveExamplePages(proof: CleanProof, view: ByteView, refs: PageRef[], codec: string, rowCount: number, into?: PageScratch): void {
  let rows = 0
  for (const ref of refs) {
    const page = proof.proved ? listPage(ref, codec, into) : null
    if (!page) return void proof.fail()
    const seen = examplePageKernel(proof, view, page) ?? walkExamplePage(proof, view, page)
    if (seen < 0) return void proof.fail()
    if (!proof.proved) return
    rows += seen
  }
  if (rows !== rowCount) proof.fail()
}

/**
 * One page of the examples column (see proveExamplePages) in JavaScript, where its kernel does not
 * take the page (and in tests, its twin): the rows it starts, or -1 when it fails the proof.
 */
export function walkExamplePage(proof: CleanProof, view: ByteView, page: ListPage): number {
  const { repetition, definition, values } = page
  if (!leadingValuesAreUtf8(values, page.present)) return -1
  view.load(values, 0, values.length)
  let rows = 0
  let at = 0
  let present = 0
  let previous = 0
  for (let i = 0; i < repetition.length; i++) {
    const r = repetition[i]!
    const d = definition[i]!
    if (r === 0 ? d !== 1 && d !== 3 : r !== 1 || i === 0 || previous !== 3 || d !== 3) return -1
    previous = d
    if (r === 0) rows++
    if (d !== 3) continue
    present++
    if (at + 4 > values.length) return -1
    const from = at + 4
    at = from + uint32At(values, at)
    if (at > values.length || at === from) return -1
    if (!proof.citesIn(view, from, at)) return rows
  }
  return present === page.present ? rows : -1
}

/** A string column packed by packed-columns.mjs as one page, or null when it holds a null. */
export function pagesOfPacked(column: PackedColumn, rowCount: number): ByteArrayPages | null {
  if (column.kind !== 'strings' || column.missing.some((m) => m !== 0)) return null
  const bytes = Buffer.from(column.bytes.buffer, column.bytes.byteOffset, column.bytes.byteLength)
  return { pages: [{ bytes, starts: column.starts.subarray(0, rowCount), ends: column.starts.subarray(1, rowCount + 1) }], count: rowCount }
}

/** An index column as hyparquet decoded it, as numbers (NaN where the exact path sees no number). */
export function numbersOf(values: unknown[]): Float64Array {
  const out = new Float64Array(values.length)
  for (let i = 0; i < values.length; i++) {
    const v = values[i]
    const n = typeof v === 'bigint' && Number.isSafeInteger(Number(v)) ? Number(v) : v
    out[i] = typeof n === 'number' ? n : NaN
  }
  return out
}

/** Write `value` (a uint32) little-endian at `at`, whose four bytes are there: writeUInt32LE without its checks. */
function setUint32At(bytes: Uint8Array, at: number, value: number): void {
  bytes[at] = value & 0xff
  bytes[at + 1] = (value >>> 8) & 0xff
  bytes[at + 2] = (value >>> 16) & 0xff
  bytes[at + 3] = value >>> 24
}
