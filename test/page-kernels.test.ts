import fc from 'fast-check'
import { ByteWriter } from 'hyparquet-writer'
import { writeRleBitPackedHybrid } from 'hyparquet-writer/src/encoding.js'
import { describe, expect, it } from 'vitest'
import { buildDataset } from '../src/build/build.js'
import { simdScan } from '../src/validate/proof/byte-scan.js'
import { CleanProof } from '../src/validate/proof/clean-proof.js'
import { proveTexts, walkExamplePage, walkNumberValues } from '../src/validate/proof/clean-parquet.js'
import { ByteView } from '../src/validate/proof/clean-view.js'
import { examplePageKernel, int64sKernel, levelsKernel, numberPageKernel, textPageKernel } from '../src/validate/proof/page-kernels.js'
import { byteArrayPage, levelsFit, walkInt64s, walkLevels, type ListPage } from '../src/validate/proof/parquet-pages.js'
import { type ReferenceKind } from '../src/core/citations.js'
import { lettersAt, SUBRULE_LETTERS } from '../src/core/rule-number.js'
import { readBytes, releases } from './helpers/shared.js'

// The kernels (src/page-kernels.ts, WebAssembly) and their JavaScript twins (clean-parquet.ts) must
// agree on every page: the same verdict, the same rows proved, the same citations read, in order.
// A kernel that proved what its twin refuses would let a damaged export through.

const RUNS = Math.max(100, Math.round(Number(process.env.FUZZ_RUNS ?? 2000) / 4))
// make test replays the same cases (a red CI must mean a real change); make fuzz draws new ones.
const SEED = process.env.FUZZ_RUNS === undefined ? { seed: 20261201 } : {}

/** A proof that keeps every citation it is given, in order. */
class Recording extends CleanProof {
  cited: string[] = []
  override citeRule(section: number, rule: number, rank: number): void {
    this.cited.push(`rule ${section}.${rule}${lettersAt(rank)}`)
    super.citeRule(section, rule, rank)
  }
  override citeTarget(target: string, kind: ReferenceKind): void {
    this.cited.push(`${kind} ${target}`)
    super.citeTarget(target, kind)
  }
}

/** PLAIN byte arrays: each value after its four-byte little-endian length, then `after`. */
function plainPage(values: (string | Uint8Array)[], after: Uint8Array = new Uint8Array(0)): Buffer {
  const parts = values.flatMap((v) => {
    const bytes = typeof v === 'string' ? Buffer.from(v, 'utf8') : Buffer.from(v)
    const length = Buffer.alloc(4)
    length.writeUInt32LE(bytes.length)
    return [length, bytes]
  })
  return Buffer.concat([...parts, after])
}

/** A proof holding these numbers as its rows (so that citations of them resolve), index from 0. */
function proofWith(numbers: string[], make = () => new Recording()): Recording {
  const proof = make()
  numbers.forEach((n, i) => proof.numberText(n, i))
  return proof as Recording
}

/** What a proof says: its part, and the citations it was given. */
const outcome = (proof: Recording) => ({ part: proof.part(), cited: proof.cited })

/**
 * The same verdict; when proved, the same part and citations. (A part that failed is thrown away
 * whole, whatever it holds: mergeProofs. The kernel refuses a page before reading its citations.)
 */
function expectSameOutcome(kernel: ReturnType<typeof outcome>, walk: ReturnType<typeof outcome>): void {
  expect(kernel.part.failed).toBe(walk.part.failed)
  if (!walk.part.failed) expect(kernel).toEqual(walk)
}

function textsBothWays(numbers: string[], bytes: Buffer, count: number) {
  const kernelProof = proofWith(numbers)
  const walkProof = proofWith(numbers)
  const kernel = textPageKernel(kernelProof, new ByteView(), Buffer.from(bytes), count)
  const page = byteArrayPage(Buffer.from(bytes), count)
  if (page) proveTexts(walkProof, new ByteView(), page)
  return { kernel, walk: page !== null, kernelProof: outcome(kernelProof), walkProof: outcome(walkProof) }
}

function numbersBothWays(before: string[], bytes: Buffer, count: number, index: Float64Array, row: number) {
  const kernelProof = proofWith(before)
  const walkProof = proofWith(before)
  const kernel = numberPageKernel(kernelProof, Buffer.from(bytes), count, index, row)
  const walk = walkNumberValues(walkProof, new ByteView(), Buffer.from(bytes), count, index, row)
  return { kernel, walk, kernelProof: outcome(kernelProof), walkProof: outcome(walkProof) }
}

/**
 * Pages that fit (the row after them, or -1: the column is then decoded otherwise) alike; proofs
 * alike (once failed, the row either gives back is not looked at).
 */
function expectSameNumbers(both: ReturnType<typeof numbersBothWays>): void {
  expect(both.kernel! < 0).toBe(both.walk < 0)
  expectSameOutcome(both.kernelProof, both.walkProof)
  if (!both.walkProof.part.failed) expect(both.kernel).toBe(both.walk)
}

/** A page of the examples column as listPage gives it: a row's list of examples each, levels as our writer writes them. */
function listPageOf(lists: (string | Uint8Array)[][]): ListPage {
  const repetition: number[] = []
  const definition: number[] = []
  for (const list of lists) {
    if (list.length === 0) {
      repetition.push(0)
      definition.push(1)
    }
    list.forEach((_, k) => {
      repetition.push(k === 0 ? 0 : 1)
      definition.push(3)
    })
  }
  const values = lists.flat()
  return { repetition, definition, values: plainPage(values), present: values.length }
}

function examplesBothWays(numbers: string[], page: ListPage) {
  const kernelProof = proofWith(numbers)
  const walkProof = proofWith(numbers)
  const copy = (p: ListPage): ListPage => ({ ...p, repetition: [...p.repetition], definition: [...p.definition], values: Buffer.from(p.values) })
  const kernel = examplePageKernel(kernelProof, new ByteView(), copy(page))
  const walk = walkExamplePage(walkProof, new ByteView(), copy(page))
  // As proveExamplePages takes -1.
  if (kernel !== null && kernel < 0) kernelProof.fail()
  if (walk < 0) walkProof.fail()
  return { kernel, walk, kernelProof: outcome(kernelProof), walkProof: outcome(walkProof) }
}

/** The same rows (or -1: the proof fails) and proofs; once failed, the rows either gives are not looked at. */
function expectSameExamples(both: ReturnType<typeof examplesBothWays>): void {
  expect(both.kernel).not.toBeNull()
  expectSameOutcome(both.kernelProof, both.walkProof)
  if (both.walk >= 0 && !both.walkProof.part.failed) expect(both.kernel).toBe(both.walk)
}

let built: { numbers: string[]; texts: string[]; examples: string[][] }[] | null = null
const releaseRows = () => (built ??= releases().map((r) => {
  const rows = buildDataset(r.file, readBytes(r.path)).rows
  return { numbers: rows.map((row) => row.number), texts: rows.map((row) => row.text), examples: rows.map((row) => row.examples) }
}))

describe('the page kernels', () => {
  it('run in WebAssembly here (the walks in JavaScript are only the fallback)', () => {
    expect(simdScan()).not.toBeNull()
    expect(numberPageKernel(new CleanProof(), plainPage(['100.1']), 1, Float64Array.of(0), 0)).toBe(1)
    expect(textPageKernel(new CleanProof(), new ByteView(), plainPage(['See rule 100.1.']), 1)).toBe(true)
  })

  it('read every text of every release as the walk does, a page of a thousand at a time', () => {
    let citations = 0
    // (No rows: every citation is kept pending, and compared. Some releases' numbers have gaps, which
    // would fail a proof holding them before a text is read.)
    for (const { texts } of releaseRows()) {
      for (let at = 0; at < texts.length; at += 1000) {
        const chunk = texts.slice(at, at + 1000)
        const both = textsBothWays([], plainPage(chunk), chunk.length)
        expect(both.walkProof.part.failed).toBe(false)
        expect(both.kernel).toBe(true)
        expectSameOutcome(both.kernelProof, both.walkProof)
        citations += both.kernelProof.cited.length
      }
    }
    // Real texts cite: the kernel must hand over the texts that do.
    expect(citations).toBeGreaterThan(5000)
  })

  it('read every example of every release as the walk does, a page of a thousand rows at a time', () => {
    let citations = 0
    let rows = 0
    for (const { examples } of releaseRows()) {
      for (let at = 0; at < examples.length; at += 1000) {
        const both = examplesBothWays([], listPageOf(examples.slice(at, at + 1000)))
        expect(both.walkProof.part.failed).toBe(false)
        expect(both.kernel).toBe(both.walk)
        expectSameOutcome(both.kernelProof, both.walkProof)
        citations += both.kernelProof.cited.length
        rows += both.kernel!
      }
    }
    expect(rows).toBe(releaseRows().reduce((n, r) => n + r.examples.length, 0))
    expect(citations).toBeGreaterThan(10)
  })

  it('agree with the walk on examples pages of every shape: levels out of place, empty examples, values that do not fit', () => {
    const pieces = ['See rule ', 'rule ', 'section ', ' and ', ', ', ' ', '\u00a0', 'é', 'Example', 'a', '100.1', '100.2', '601.2f–h', '999.9', '7']
    const example = fc.oneof(
      { weight: 8, arbitrary: fc.array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 6 }).map((p) => p.join('')) },
      { weight: 1, arbitrary: fc.constantFrom('', Buffer.from([0xff]), Buffer.from([0xe2, 0x80])) },
    )
    const damage = fc.record({
      level: fc.option(fc.tuple(fc.nat(40), fc.boolean(), fc.integer({ min: 0, max: 4 }))),
      presentShift: fc.constantFrom(0, 0, 0, 1, -1),
      cut: fc.option(fc.nat(8)),
      after: fc.uint8Array({ maxLength: 6 }),
    })
    fc.assert(
      fc.property(fc.array(fc.array(example, { maxLength: 3 }), { maxLength: 12 }), damage, (lists, d) => {
        const page = listPageOf(lists)
        if (d.level && page.repetition.length > 0) (d.level[1] ? page.repetition : page.definition)[d.level[0] % page.repetition.length] = d.level[2]
        page.present = Math.max(0, page.present + d.presentShift)
        page.values = Buffer.concat([page.values, d.after])
        if (d.cut !== null) page.values = page.values.subarray(0, Math.max(0, page.values.length - d.cut))
        // (Fewer than four bytes a value: listPage refuses the page.)
        if (page.present * 4 > page.values.length) return
        expectSameExamples(examplesBothWays(['100.1', '100.2', '601.1', '601.2', '601.2a'], page))
      }),
      { numRuns: RUNS, ...SEED },
    )
  })

  it('prove every release\'s numbers as the walk does, across pages', () => {
    let proved = 0
    for (const { numbers } of releaseRows()) {
      const index = Float64Array.from(numbers, (_, i) => i)
      const half = numbers.length >> 1
      const first = numbersBothWays([], plainPage(numbers.slice(0, half)), half, index, 0)
      expectSameNumbers(first)
      // The second page after the first's rows, as a proof goes on from page to page.
      const second = numbersBothWays(numbers.slice(0, half), plainPage(numbers.slice(half)), numbers.length - half, index, half)
      expectSameNumbers(second)
      if (second.kernelProof.part.failed === false) proved++
    }
    // Some releases are in order from end to end (the others have gaps the checks report).
    expect(proved).toBeGreaterThan(0)
  })

  it('prove numbers in order and refuse each way out of it, both ways', () => {
    const letters = (n: number) => Array.from({ length: n }, (_, k) => `100.1${lettersAt(k + 1)}`)
    const cases: [string[], boolean][] = [
      [['100.1', ...letters(11)], true],
      // After k comes m: l and o are not subrule letters.
      [['100.1', ...letters(11), '100.1m'], true],
      [['100.1', ...letters(11), '100.1l'], false],
      [['100.1', ...letters(13), '100.1o'], false],
      [['100.1', '100.1A'], false],
      [['100.1', '100.2', '101.1', '101.2a'], false],
      [['100.1', '100.2', '101.1', '101.1a', '101.2'], true],
      [['100.1', '100.3'], false],
      [['100.1', '100.1'], false],
      [['100.1', '100.02'], false],
      [['100.1', '099.1'], false],
      [['100.1', '100.1 '], false],
      [['100.1', '100.1.'], false],
      // The largest rule a packed key holds, and one more; a rule that overflows 32 bits to 2.
      [['100.1022', '100.1023'], true],
      [['100.1023', '100.1024'], false],
      [['100.1', '100.4294967298'], false],
      [['100.1', '100.2', '200.1', '200.1a', '200.1aa'], false],
      // Two letters at most: zz then aaa would be ranks 600 and 601.
      [['100.1zy', '100.1zz'], true],
      [['100.1zz', '100.1aaa'], false],
    ]
    for (const [numbers, proved] of cases) {
      const index = Float64Array.from(numbers, (_, i) => i)
      const both = numbersBothWays([], plainPage(numbers), numbers.length, index, 0)
      expect([numbers, both.walkProof.part.failed]).toEqual([numbers, !proved])
      expectSameNumbers(both)
    }
    // Each index one more than the one before.
    for (const index of [Float64Array.of(0, 2), Float64Array.of(5, 5), Float64Array.of(0, NaN), Float64Array.of(NaN, NaN)]) {
      const both = numbersBothWays([], plainPage(['100.1', '100.2']), 2, index, 0)
      expect(both.walkProof.part.failed).toBe(true)
      expectSameNumbers(both)
    }
  })

  it('agree with the walk on numbers of every shape, in and out of order, with any index', () => {
    const letters = [...SUBRULE_LETTERS, 'l', 'o', 'A', '']
    const number = fc.oneof(
      fc.tuple(fc.integer({ min: 99, max: 1000 }), fc.integer({ min: 0, max: 1100 }), fc.constantFrom(...letters), fc.constantFrom(...letters)).map(([s, r, a, b]) => `${s}.${r}${a}${b}`),
      fc.constantFrom('100.1', '100.01', '100.1a', '100.1aa', '100.1abc', '0100.1', '100..1', '100.', '100', '1000.1', '100.1023z', '100.1024', '100.999999999', '100.1000000000', '100.1 ', ' 100.1', '100.1.', '१००.1', 'é00.1', ''),
    )
    // Runs of numbers in order, broken here and there by any other.
    // (Some start near the largest rule a key holds, 1023.)
    const ordered = fc.tuple(fc.integer({ min: 100, max: 998 }), fc.integer({ min: 1, max: 40 }), fc.constantFrom(1, 1, 1020)).map(([section, n, start]) => {
      const out: string[] = []
      let rule = start
      let rank = 0
      for (let i = 0; i < n; i++) {
        out.push(`${section}.${rule}${lettersAt(rank)}`)
        if (rank < 30 && i % 3 !== 2) rank++
        else [rule, rank] = [rule + 1, 0]
      }
      return out
    })
    // A number of the run with its last letter changed: one subrule letters skip, another case, a digit.
    const misspelt = fc.option(fc.tuple(fc.nat(60), fc.constantFrom('l', 'o', 'A', 'K', '0', '', 'aa')))
    const numbers = fc.tuple(ordered, fc.array(fc.tuple(fc.nat(60), number), { maxLength: 3 }), fc.boolean(), misspelt).map(([run, others, next, typo]) => {
      const out = [...run]
      if (typo) {
        const at = typo[0] % out.length
        out[at] = /[a-z]$/.test(out[at]!) ? out[at]!.slice(0, -1) + typo[1] : out[at]! + typo[1]
      }
      for (const [at, n] of others) out.splice(at % (out.length + 1), 0, n)
      // The next section's first rule, after the run.
      if (next) out.push(`${Number(out[0]?.slice(0, 3) ?? 100) + 1}.1`)
      return out
    })
    const damage = fc.record({
      before: fc.integer({ min: 0, max: 3 }),
      indexShift: fc.constantFrom(0, 0, 0, 1, -1, NaN),
      badIndex: fc.option(fc.tuple(fc.nat(60), fc.constantFrom(NaN, -1, 2 ** 53, 0.5, 7))),
      countShift: fc.constantFrom(0, 0, 0, 1, -1),
      cut: fc.option(fc.nat(8)),
      after: fc.uint8Array({ maxLength: 6 }),
    })
    fc.assert(
      fc.property(numbers, damage, (values, d) => {
        // The first `before` numbers are rows already proved; the page holds the rest.
        const before = values.slice(0, Math.min(d.before, values.length - 1))
        const page = values.slice(before.length)
        let bytes = plainPage(page, d.after)
        if (d.cut !== null) bytes = bytes.subarray(0, Math.max(0, bytes.length - d.cut))
        const index = Float64Array.from(values, (_, i) => i + (i >= before.length ? d.indexShift : 0))
        if (d.badIndex) index[d.badIndex[0] % index.length] = d.badIndex[1]
        const count = Math.max(0, page.length + d.countShift)
        const both = numbersBothWays(before, bytes, count, index, before.length)
        // (null: a page the kernel leaves to the walk.)
        if (both.kernel !== null) expectSameNumbers(both)
      }),
      { numRuns: RUNS, ...SEED },
    )
  })

  it('agree with the walk on texts of every shape: empty, examples, not UTF-8, citing in any spacing', () => {
    const pieces = ['rule ', 'Rules ', 'see ', 'See rule ', 'section ', 'sections ', 'SECTION\u00a0', 'rule\u2009', 'xrule ', 'foresee ', 'rules_ ', ' and ', ', ', ' ', '\t', '\u00a0', '\u3000', 'é', '—', '–', '.', 'Example', 'Example:', 'Exampl', 'example', 'a', '100.1', '100.1a', '100.2', '601.2f', '601.2f–h', '999.9', '1', '7', '10', '8-9', '9.', '100.1a.5']
    const text = fc.oneof(
      { weight: 8, arbitrary: fc.array(fc.constantFrom(...pieces), { maxLength: 8 }).map((p) => Buffer.from(p.join(''), 'utf8')) },
      // Not UTF-8, or cut inside a character.
      { weight: 1, arbitrary: fc.constantFrom(Buffer.from([0xff]), Buffer.from('rule 100.1 \xe9', 'latin1'), Buffer.from('see 100.1 é', 'utf8').subarray(0, 11), Buffer.from([0xe2, 0x80])) },
    )
    const damage = fc.record({ countShift: fc.constantFrom(0, 0, 0, 1, -1), cut: fc.option(fc.nat(8)), after: fc.uint8Array({ maxLength: 6 }) })
    fc.assert(
      fc.property(fc.array(text, { minLength: 0, maxLength: 12 }), damage, (texts, d) => {
        let bytes = plainPage(texts, d.after)
        if (d.cut !== null) bytes = bytes.subarray(0, Math.max(0, bytes.length - d.cut))
        const count = Math.max(0, texts.length + d.countShift)
        const both = textsBothWays(['100.1', '100.1a', '100.2', '601.1', '601.2', '601.2a'], bytes, count)
        // (Fewer than four bytes a value: refused before the page is unpacked, see proveTextPage.)
        if (count * 4 > bytes.length) return
        expect(both.kernel).toBe(both.walk)
        if (both.walk) expectSameOutcome(both.kernelProof, both.walkProof)
      }),
      { numRuns: RUNS, ...SEED },
    )
  })

  it('read INT64s as the walk does: each exactly when a safe integer, else NaN', () => {
    const edges = [0n, 1n, -1n, 2n ** 53n - 1n, 2n ** 53n, 2n ** 53n + 1n, -(2n ** 53n) + 1n, -(2n ** 53n), 2n ** 63n - 1n, -(2n ** 63n), 2n ** 32n, 2n ** 32n - 1n, -(2n ** 32n)]
    const check = (values: bigint[], at: number) => {
      const bytes = Buffer.alloc(8 * values.length + 3)
      values.forEach((v, i) => bytes.writeBigInt64LE(v, 8 * i))
      const kernel = new Float64Array(at + values.length + 2).fill(7)
      const walk = new Float64Array(at + values.length + 2).fill(7)
      expect(int64sKernel(kernel, at, bytes, values.length)).toBe(walkInt64s(walk, at, bytes, values.length))
      expect(kernel).toEqual(walk)
      return kernel
    }
    expect([...check(edges, 1).subarray(1, 1 + edges.length)]).toEqual([0, 1, -1, 2 ** 53 - 1, NaN, NaN, -(2 ** 53) + 1, NaN, NaN, NaN, 2 ** 32, 2 ** 32 - 1, -(2 ** 32)])
    fc.assert(fc.property(fc.array(fc.oneof(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), fc.bigInt({ min: -(2n ** 54n), max: 2n ** 54n }), fc.constantFrom(...edges))), fc.nat(3), (values, at) => void check(values, at)), { numRuns: RUNS, ...SEED })
  })

  it('decode list levels as hyparquet does: every release\'s examples as our writer encodes them, and damaged encodings', () => {
    /** A page's level bytes as the writer lays them out: repetition (width 1), then definition (width 2). */
    const encode = (page: ListPage) => {
      const writer = new ByteWriter()
      const repLength = writeRleBitPackedHybrid(writer, Array.from(page.repetition), 1)
      writeRleBitPackedHybrid(writer, Array.from(page.definition), 2)
      return { levels: new Uint8Array(writer.getBuffer()), repLength }
    }
    const both = (levels: Uint8Array, repLength: number, n: number, definitionLength = levels.length - repLength) => {
      const header = { num_values: n, repetition_levels_byte_length: repLength, definition_levels_byte_length: definitionLength } as Parameters<typeof walkLevels>[1]
      const kernel = levelsKernel(levels, repLength, n)
      const walk = walkLevels(levels, header)
      return { kernel: kernel && kernel.map((a) => Array.from(a)), walk }
    }
    let taken = 0
    for (const { examples } of releaseRows()) {
      for (let at = 0; at < examples.length; at += 1000) {
        const page = listPageOf(examples.slice(at, at + 1000))
        const { levels, repLength } = encode(page)
        expect(levelsFit(levels, repLength, page.repetition.length)).toBe(true)
        const decoded = both(levels, repLength, page.repetition.length)
        expect(decoded.kernel).toEqual([Array.from(page.repetition), Array.from(page.definition)])
        expect(decoded.kernel).toEqual(decoded.walk)
        taken++
      }
    }
    expect(taken).toBeGreaterThan(20)
    // hyparquet reads a byte for a bit-packed run of no groups (header 1), which the runs' own walk
    // does not: such levels are left to it.
    const noGroups = Uint8Array.of(0x01, 0x10, 0x00, 0x10, 0x01)
    expect(levelsFit(noGroups, 3, 8)).toBe(true)
    expect(levelsKernel(noGroups, 3, 8)).toBeNull()
    // Any levels (in range or not) as the writer encodes them, then damaged: the kernel decodes them
    // as the walk does, or leaves them to it.
    const lists = fc.array(fc.array(fc.constant('x'), { maxLength: 3 }), { maxLength: 60 })
    const damage = fc.record({
      flips: fc.array(fc.tuple(fc.nat(400), fc.integer({ min: 0, max: 255 })), { maxLength: 2 }),
      cut: fc.nat(3),
      nShift: fc.constantFrom(0, 0, 0, 1, -1, 8),
      repShift: fc.constantFrom(0, 0, 0, 1, -1),
      odd: fc.option(fc.tuple(fc.nat(200), fc.integer({ min: 0, max: 3 }))),
    })
    let decoded = 0
    fc.assert(
      fc.property(lists, damage, (rows, d) => {
        const page = listPageOf(rows)
        const definition = Array.from(page.definition)
        if (d.odd && definition.length > 0) definition[d.odd[0] % definition.length] = d.odd[1]
        const { levels, repLength } = encode({ ...page, definition })
        for (const [at, byte] of d.flips) if (levels.length > 0) levels[at % levels.length] = byte
        const cut = levels.subarray(0, Math.max(0, levels.length - d.cut))
        const n = Math.max(0, page.repetition.length + d.nShift)
        const rep = Math.max(0, Math.min(cut.length, repLength + d.repShift))
        // (listPage decodes only levels whose runs fit: else hyparquet's arrays could grow without bound.)
        if (!levelsFit(cut, rep, n)) return
        const out = both(cut, rep, n)
        if (out.kernel !== null) {
          expect(out.kernel).toEqual(out.walk)
          decoded++
        }
        // What the writer wrote, undamaged, is always taken (levels out of range included).
        if (d.flips.length === 0 && d.cut === 0 && d.nShift === 0 && d.repShift === 0) expect(out.kernel).not.toBeNull()
      }),
      { numRuns: RUNS, ...SEED },
    )
    expect(decoded).toBeGreaterThan(RUNS / 10)
  })

  it('leave pages to the walk where they would grow the module\'s memory past its bound', () => {
    const big = plainPage([Buffer.alloc(5 * 1024 * 1024, 0x61)])
    expect(textPageKernel(new CleanProof(), new ByteView(), big, 1)).toBeNull()
    expect(numberPageKernel(new CleanProof(), big, 1, Float64Array.of(0), 0)).toBeNull()
  })
})
