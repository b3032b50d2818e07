import { Buffer, isUtf8 } from 'node:buffer'
import { kernelMemory, simdScan, type Simd } from './byte-scan.js'
import type { CleanProof } from './clean-proof.js'
import type { ByteView } from './clean-view.js'

// The clean Parquet proof's per-value walks of a page, in WebAssembly (numberValues, textValues,
// exampleValues and int64sToNumbers in src/wasm/byte-scan.wat): the same loops in JavaScript ran
// before V8 had compiled them for much of a short proof (the number walk alone was ~55 ms of a 0.4 s
// validation of 300k rows). Each is held to its JavaScript twin (clean-parquet.ts, parquet-pages.ts),
// which runs where these cannot, by test/page-kernels.test.ts.

/** Larger pages are walked in JavaScript: the module's memory, which never shrinks, stays ~8× this at most. */
const KERNEL_PAGE_BYTES = 4 * 1024 * 1024
const SECTIONS = 1000

/**
 * The number column's page (PLAIN values, `count` of them), its first row `row`, their indexes in
 * `index`: proved into `proof` as proveNumberValues proves them. The row after them; -1 when the
 * values do not fit the page (nothing proved); null where the kernel does not take the page.
 */
export function numberPageKernel(proof: CleanProof, bytes: Uint8Array, count: number, index: Float64Array, row: number): number | null {
  const simd = simdScan()
  const len = bytes.length
  // A page whose rows run past the index column is left to the walk that says where.
  if (!simd || len > KERNEL_PAGE_BYTES || count * 4 > len || row + count > index.length) return null
  const indexAt = align(len, 8)
  const keysOut = indexAt + 8 * count
  const sectionsOut = keysOut + 4 * count
  const memory = kernelMemory(simd, sectionsOut + SECTIONS)
  memory.set(bytes, 0)
  new Float64Array(memory.buffer, indexAt, count).set(index.subarray(row, row + count))
  memory.fill(0, sectionsOut, sectionsOut + SECTIONS)
  const verdict = simd.numberValues(len, count, indexAt, keysOut, sectionsOut, proof.lastKey, proof.nextIndex)
  if (verdict < 0) return -1
  if (verdict === 0) proof.fail()
  else proof.keyRun(new Int32Array(memory.buffer, keysOut, count), index[row]!, memory.subarray(sectionsOut, sectionsOut + SECTIONS))
  return row + count
}

/**
 * The text column's page (PLAIN values, `count` of them): each text non-empty, UTF-8, not an
 * "Example", its citations resolvable, as proveTexts proves them; only the texts a keyword stands
 * in (ByteView.citing's gates) are read for their citations. False when the values do not fit the
 * page (nothing proved); null where the kernel does not take the page.
 */
export function textPageKernel(proof: CleanProof, view: ByteView, bytes: Buffer, count: number): boolean | null {
  const simd = simdScan()
  const len = bytes.length
  if (!simd || len > KERNEL_PAGE_BYTES || count * 4 > len) return null
  // The page, 16 bytes of padding for the scan, the values' ends, a gate at most a byte, the citing pairs.
  const endsOut = align(len + 16, 4)
  const gatesOut = endsOut + 4 * count
  const citingOut = gatesOut + 4 * (len + 1)
  const memory = kernelMemory(simd, citingOut + 8 * count)
  memory.set(bytes, 0)
  const citing = simd.textValues(len, count, endsOut, gatesOut, citingOut)
  if (citing === -2) return false
  // The lengths are spaces now: the values are UTF-8 each exactly when their run is.
  if (citing < 0 || !isUtf8(memory.subarray(0, simd.valuesEnd.value as number))) {
    proof.fail()
    return true
  }
  citeIn(proof, view, simd, bytes, gatesOut, citingOut, citing)
  return true
}

/**
 * A page of the examples column (its levels decoded: listPage), proved as walkExamplePage proves
 * it: the rows it starts, or -1 when it fails the proof; null where the kernel does not take it.
 */
export function examplePageKernel(proof: CleanProof, view: ByteView, page: ListPage): number | null {
  const simd = simdScan()
  const { values, present } = page
  const len = values.length
  const n = page.repetition.length
  if (!simd || len > KERNEL_PAGE_BYTES || n > KERNEL_PAGE_BYTES / 8 || present * 4 > len || page.definition.length !== n) return null
  const endsOut = align(len + 16, 4)
  const gatesOut = endsOut + 4 * present
  const citingOut = gatesOut + 4 * (len + 1)
  const repAt = citingOut + 8 * present
  const defAt = repAt + 4 * n
  const memory = kernelMemory(simd, defAt + 4 * n)
  memory.set(values, 0)
  new Int32Array(memory.buffer, repAt, n).set(page.repetition)
  new Int32Array(memory.buffer, defAt, n).set(page.definition)
  const citing = simd.exampleValues(len, n, repAt, defAt, present, endsOut, gatesOut, citingOut)
  if (citing < 0 || !isUtf8(memory.subarray(0, simd.valuesEnd.value as number))) return -1
  citeIn(proof, view, simd, values, gatesOut, citingOut, citing)
  return simd.rowsSeen.value as number
}

/** The citations of the values a walk found citing (their pairs at citingOut), read as proof.citesIn reads them. */
function citeIn(proof: CleanProof, view: ByteView, simd: Simd, bytes: Buffer, gatesOut: number, citingOut: number, citing: number): void {
  view.scan.gatesFrom(simd.memory, gatesOut, simd.gateCount.value as number)
  view.loadScanned(bytes, 0, bytes.length)
  const pairs = new Int32Array(simd.memory.buffer, citingOut, 2 * citing).slice()
  for (let k = 0; k < citing && proof.proved; k++) proof.citesIn(view, pairs[2 * k]!, pairs[2 * k + 1]!)
}

/**
 * `count` little-endian INT64s from `bytes` into out[at…] as int64sInto writes them (NaN where not a
 * safe integer): the row after them; null where the kernel does not take the page.
 */
export function int64sKernel(out: Float64Array, at: number, bytes: Uint8Array, count: number): number | null {
  const simd = simdScan()
  if (!simd || count * 8 > KERNEL_PAGE_BYTES || count * 8 > bytes.length || at + count > out.length) return null
  const numbersAt = align(count * 8, 8)
  const memory = kernelMemory(simd, numbersAt + count * 8)
  memory.set(bytes.subarray(0, count * 8), 0)
  simd.int64sToNumbers(count, numbersAt)
  out.set(new Float64Array(memory.buffer, numbersAt, count), at)
  return at + count
}

/**
 * A list page's levels (repetition, then definition, `n` of each: widths 1 and 2) decoded as
 * walkLevels decodes them (hyparquet's decoder); null where the kernel does not take them (the
 * walk then decodes them, and says when they do not decode).
 */
export function levelsKernel(levels: Uint8Array, repLength: number, n: number): [Int32Array, Int32Array] | null {
  const simd = simdScan()
  if (!simd || levels.length > KERNEL_PAGE_BYTES || n > KERNEL_PAGE_BYTES / 8 || !(repLength >= 0 && repLength <= levels.length)) return null
  const repOut = align(levels.length, 4)
  const defOut = repOut + 4 * n
  const memory = kernelMemory(simd, defOut + 4 * n)
  memory.set(levels, 0)
  if (!simd.hybridLevels(0, repLength, 1, repOut, n) || !simd.hybridLevels(repLength, levels.length, 2, defOut, n)) return null
  return [new Int32Array(memory.buffer, repOut, n).slice(), new Int32Array(memory.buffer, defOut, n).slice()]
}

const align = (n: number, to: number) => Math.ceil(n / to) * to

/** A list column's page as read for the proof: its levels, and the values of the entries present. */
export interface ListPage {
  repetition: ArrayLike<number>
  definition: ArrayLike<number>
  /** PLAIN byte arrays: one for each entry whose definition level is 3. */
  values: Buffer
  /** How many values the header says there are. */
  present: number
}
