/**
 * One pass over a region's bytes, four at a time, for the clean proofs: where a citation may start
 * (gates), and where the control bytes are (JSONL only). Two regular expressions over the latin1
 * view did this at twice the cost.
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

  scan(bytes: Uint8Array, from: number, to: number, controls: boolean, maxControls = Infinity): void {
    this.gateCount = 0
    this.controls = []
    this.controlsUpTo = Infinity
    let i = from
    for (; i < to && (bytes.byteOffset + i) % 4 !== 0; i++) this.byte(bytes, from, to, i, controls, maxControls)
    // (A region too short to reach a word boundary has no word: an Int32Array there would throw.)
    const words = i < to ? new Int32Array(bytes.buffer, bytes.byteOffset + i, (to - i) >> 2) : NO_WORDS
    const base = i
    for (let w = 0; w < words.length; w++) {
      const x = words[w]!
      const low = x & LOW7
      // A lane of 0x80 for each byte in 0x30..0x39 (the "hasbetween" bit trick: each lane exact).
      let digits = ((DIGIT_HIGH - low) | 0) & ~x & ((low + DIGIT_LOW) | 0) & HIGH
      while (digits !== 0) {
        const k = base + 4 * w + ((31 - Math.clz32(digits & -digits)) >> 3)
        digits &= digits - 1
        if (k > from && spaceLike(bytes[k - 1]!)) this.gate(k - 1 - from)
      }
      // Some byte below 0x20 (lanes may be flagged wrongly above a true one: each byte is looked at).
      if (controls && (((x - SPACES) | 0) & ~x & HIGH) !== 0) {
        for (let k = base + 4 * w, end = k + 4; k < end; k++) if (bytes[k]! < 0x20) this.control(bytes, from, to, k, maxControls)
      }
    }
    for (i = base + 4 * words.length; i < to; i++) this.byte(bytes, from, to, i, controls, maxControls)
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
const NO_WORDS = new Int32Array(0)

const spaceLike = (b: number) => b === 0x20 || (b >= 0x09 && b <= 0x0d) || b >= 0x80
