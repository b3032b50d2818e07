import { BYTE_SCAN_WASM } from '../../generated/byte-scan-wasm.js'

/**
 * One pass over a region's bytes for the clean proofs: where a citation may start (gates), and
 * where the control bytes are (JSONL only). Sixteen bytes at a time in WebAssembly SIMD
 * (src/wasm/byte-scan.wat); four at a time in JavaScript where WebAssembly is not there. Two
 * regular expressions over the latin1 view did this at several times the cost.
 */
export class ByteScan {
  /**
   * Positions (from the region's start), in order, of each byte that may be a citation's whitespace:
   * `[\s\x80-\xff]` on the latin1 view ({9…13, 32, 0x80…0xff}) followed by an ASCII digit.
   */
  gates = new Int32Array(1024)
  gateCount = 0
  /** With `controls`: positions of the bytes below 0x20 but \n and the \r of \r\n, at most `maxControls`. */
  controls: number[] = []
  /** Past this position (from the region's start) control bytes were no longer kept. */
  controlsUpTo = Infinity
  private readonly simd: Simd | null

  /** `simd: false`: the JavaScript scan (tests hold the two to the same answers). */
  constructor(options: { simd?: boolean } = {}) {
    this.simd = options.simd === false ? null : simdScan()
  }

  scan(bytes: Uint8Array, from: number, to: number, controls: boolean, maxControls = Infinity): void {
    if (this.simd) this.scanSimd(this.simd, bytes, from, to, controls, maxControls)
    else this.scanWords(bytes, from, to, controls, maxControls)
  }

  private scanSimd(simd: Simd, bytes: Uint8Array, from: number, to: number, controls: boolean, maxControls: number): void {
    const length = to - from
    const most = Math.min(maxControls, length + 1, 0x7fffffff)
    // The bytes and 16 of padding, then room for a gate at every byte and the most control bytes.
    const gatesOut = (length + 16 + 15) & ~15
    const controlsOut = gatesOut + 4 * (length + 1)
    const memory = kernelMemory(simd, controlsOut + 4 * most)
    memory.set(bytes.subarray(from, to), 0)
    memory.fill(0x41, length, length + 16)
    this.gatesFrom(simd.memory, gatesOut, simd.scan(length, gatesOut, controlsOut, most, controls ? 1 : 0))
    const kept = controls ? simd.controlCount.value : 0
    this.controls = kept > 0 ? Array.from(new Int32Array(simd.memory.buffer, controlsOut, kept)) : []
    this.controlsUpTo = kept === maxControls ? this.controls[kept - 1]! : Infinity
  }

  /** The gates the scan found (itself, or within textValues), `count` of them at `at` of the kernels' memory. */
  gatesFrom(memory: WebAssembly.Memory, at: number, count: number): void {
    if (this.gates.length < count) this.gates = new Int32Array(count * 2)
    this.gates.set(new Int32Array(memory.buffer, at, count))
    this.gateCount = count
    this.controls = []
    this.controlsUpTo = Infinity
  }

  private scanWords(bytes: Uint8Array, from: number, to: number, controls: boolean, maxControls: number): void {
    this.gateCount = 0
    this.controls = []
    this.controlsUpTo = Infinity
    let i = from
    for (; i < to && (bytes.byteOffset + i) % 4 !== 0; i++) this.byte(bytes, from, to, i, controls, maxControls)
    const count = (to - i) >> 2
    if (count > 0) this.words(new Int32Array(bytes.buffer, bytes.byteOffset + i, count), bytes, from, to, i, controls, maxControls)
    for (i += 4 * count; i < to; i++) this.byte(bytes, from, to, i, controls, maxControls)
  }

  /**
   * The aligned words from `base`. A function of its own, the hot loop and nothing else: in one
   * with the ends' byte loops, the optimised code was thrown away at each region's end (a path
   * never run when it was compiled) and the next region began unoptimised.
   */
  private words(words: Int32Array, bytes: Uint8Array, from: number, to: number, base: number, controls: boolean, maxControls: number): void {
    for (let w = 0; w < words.length; w++) {
      const x = words[w]!
      const low = x & LOW7
      // A lane of 0x80 for each byte in 0x30..0x39 (the "hasbetween" bit trick: each lane exact).
      const digits = ((DIGIT_HIGH - low) | 0) & ~x & ((low + DIGIT_LOW) | 0) & HIGH
      // Lane by lane, not by lowest set bit: negating or decrementing a word with only its top bit
      // set leaves int32, and the optimised loop would go floating-point.
      if (digits !== 0) {
        const k = base + 4 * w
        if (digits & 0x80 && k > from && spaceLike(bytes[k - 1]!)) this.gate(k - 1 - from)
        if (digits & 0x8000 && spaceLike(bytes[k]!)) this.gate(k - from)
        if (digits & 0x800000 && spaceLike(bytes[k + 1]!)) this.gate(k + 1 - from)
        if (digits & HIGH & ~0x808080 && spaceLike(bytes[k + 2]!)) this.gate(k + 2 - from)
      }
      // Some byte below 0x20 (lanes may be flagged wrongly above a true one: each byte is looked at).
      if (controls && (((x - SPACES) | 0) & ~x & HIGH) !== 0) this.controlsIn(bytes, from, to, base + 4 * w, maxControls)
    }
  }

  private controlsIn(bytes: Uint8Array, from: number, to: number, at: number, maxControls: number): void {
    for (let k = at; k < at + 4; k++) if (bytes[k]! < 0x20) this.control(bytes, from, to, k, maxControls)
  }

  private byte(bytes: Uint8Array, from: number, to: number, k: number, controls: boolean, maxControls: number): void {
    const b = bytes[k]!
    if (b >= 0x30 && b <= 0x39 && k > from && spaceLike(bytes[k - 1]!)) this.gate(k - 1 - from)
    if (controls && b < 0x20) this.control(bytes, from, to, k, maxControls)
  }

  private gate(at: number): void {
    if (this.gateCount === this.gates.length) {
      const grown = new Int32Array(this.gates.length * 2)
      grown.set(this.gates)
      this.gates = grown
    }
    this.gates[this.gateCount++] = at
  }

  private control(bytes: Uint8Array, from: number, to: number, k: number, maxControls: number): void {
    const b = bytes[k]!
    if (this.controls.length >= maxControls || b === 0x0a || (b === 0x0d && k + 1 < to && bytes[k + 1] === 0x0a)) return
    this.controls.push(k - from)
    if (this.controls.length === maxControls) this.controlsUpTo = k - from
  }
}

// As int32 (`| 0`): constants past 2^31 would make the word arithmetic floating-point.
const HIGH = 0x80808080 | 0
const LOW7 = 0x7f7f7f7f
const DIGIT_HIGH = 0xb9b9b9b9 | 0 // 127 + 0x3a in each lane
const DIGIT_LOW = 0x50505050 // 127 - 0x2f
const SPACES = 0x20202020

const spaceLike = (b: number) => b === 0x20 || (b >= 0x09 && b <= 0x0d) || b >= 0x80

/** The module's exports (src/wasm/byte-scan.wat; the page walks are page-kernels.ts'). */
export interface Simd {
  memory: WebAssembly.Memory
  controlCount: WebAssembly.Global
  valuesEnd: WebAssembly.Global
  gateCount: WebAssembly.Global
  scan(length: number, gatesOut: number, controlsOut: number, maxControls: number, controls: number): number
  numberValues(length: number, count: number, indexAt: number, keysOut: number, sectionsOut: number, prevKey: number, first: number): number
  textValues(length: number, count: number, endsOut: number, gatesOut: number, citingOut: number): number
  int64sToNumbers(count: number, out: number): void
  exampleValues(length: number, levels: number, repAt: number, defAt: number, present: number, endsOut: number, gatesOut: number, citingOut: number): number
  rowsSeen: WebAssembly.Global
  hybridLevels(at: number, end: number, width: number, out: number, n: number): number
}

/** The kernels' memory, grown to `needed` bytes: a view of it (growing detaches the views before). */
export function kernelMemory(simd: Simd, needed: number): Uint8Array {
  const memory = simd.memory
  if (memory.buffer.byteLength < needed) memory.grow(Math.ceil((needed - memory.buffer.byteLength) / 65536))
  return new Uint8Array(memory.buffer)
}

let instance: Simd | null | undefined

/**
 * The WebAssembly kernels, one instance per thread (its memory is used only inside one call of
 * theirs, or until the caller's next one), or null where WebAssembly SIMD is not there.
 */
export function simdScan(): Simd | null {
  if (instance === undefined) {
    try {
      instance = new WebAssembly.Instance(new WebAssembly.Module(Buffer.from(BYTE_SCAN_WASM, 'base64'))).exports as unknown as Simd
    } catch {
      instance = null
    }
  }
  return instance
}
