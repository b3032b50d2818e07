import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { buildDataset } from '../src/build/build.js'
import { EtlError } from '../src/core/errors.js'
import { decode, splitLines } from '../src/text/decode.js'
import { readExport } from '../src/exports/read/read-export.js'
import { validateSource } from '../src/validate/validate.js'
import { readBytes, releases } from './helpers/shared.js'

// `make test` runs a share of the cases; `make fuzz` sets FUZZ_RUNS=10000.
const RUNS = Number(process.env.FUZZ_RUNS ?? 150)
// make test replays the same cases (a red CI must mean a real change); make fuzz draws new ones.
const SEED = process.env.FUZZ_RUNS === undefined ? { seed: 20261129 } : {}
const texts = releases().map((r) => splitLines(decode(readBytes(r.path)).text))

type Op =
  | { kind: 'drop' | 'duplicate'; at: number }
  | { kind: 'swap'; at: number; with: number }
  | { kind: 'truncate'; at: number; keep: number }
  | { kind: 'control'; at: number; char: number }
  | { kind: 'replace'; at: number; text: string }

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constantFrom('drop' as const, 'duplicate' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('swap' as const), at: fc.nat(), with: fc.nat() }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat(), keep: fc.nat() }),
  fc.record({ kind: fc.constant('control' as const), at: fc.nat(), char: fc.integer({ min: 0, max: 31 }) }),
  fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), text: fc.string({ unit: 'binary', maxLength: 40 }) }),
)

function mutate(lines: string[], ops: Op[]): string[] {
  const out = [...lines]
  for (const o of ops) {
    if (out.length === 0) break
    const i = o.at % out.length
    if (o.kind === 'drop') out.splice(i, 1)
    else if (o.kind === 'duplicate') out.splice(i, 0, out[i]!)
    else if (o.kind === 'swap') [out[i], out[o.with % out.length]] = [out[o.with % out.length]!, out[i]!]
    else if (o.kind === 'truncate') out[i] = out[i]!.slice(0, o.keep % (out[i]!.length + 1))
    else if (o.kind === 'control') out[i] = out[i]! + String.fromCharCode(o.char)
    else out[i] = o.text
  }
  return out
}

const CP1252 = '€\uFFFD‚ƒ„…†‡ˆ‰Š‹Œ\uFFFDŽ\uFFFD\uFFFD‘’“”•–—˜™š›œ\uFFFDžŸ'
function encode(text: string, encoding: string): Uint8Array {
  switch (encoding) {
    case 'utf-8':
      return new TextEncoder().encode(text)
    case 'utf-8-bom':
      return new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(text)])
    case 'utf-16le':
      return new Uint8Array([0xff, 0xfe, ...Buffer.from(text, 'utf16le')])
    case 'utf-16be':
      return new Uint8Array([0xfe, 0xff, ...Buffer.from(text, 'utf16le').swap16()])
    default: {
      // Windows-1252 where every character fits, else UTF-8 (the reader must tell them apart).
      const bytes: number[] = []
      for (const ch of text) {
        const code = ch.codePointAt(0)!
        const high = CP1252.indexOf(ch)
        if (code < 0x80 || (code >= 0xa0 && code <= 0xff)) bytes.push(code)
        else if (high >= 0 && ch !== '\uFFFD') bytes.push(0x80 + high)
        else return new TextEncoder().encode(text)
      }
      return new Uint8Array(bytes)
    }
  }
}

const input = fc.record({
  release: fc.nat({ max: texts.length - 1 }),
  start: fc.nat(),
  length: fc.integer({ min: 1, max: 300 }),
  withHeader: fc.boolean(),
  ops: fc.array(op, { maxLength: 8 }),
  eol: fc.constantFrom('\n', '\r\n', '\r', 'mixed'),
  encoding: fc.constantFrom('utf-8', 'utf-8-bom', 'utf-16le', 'utf-16be', 'windows-1252'),
})

function bytesOf(c: fc.RecordValue<typeof input extends fc.Arbitrary<infer T> ? T : never>): Uint8Array {
  const lines = texts[c.release]!
  // Start inside the rules body half the time, so that most cases hold rules.
  const body = lines.findIndex((l) => l.startsWith('100.1'))
  const start = (c.start % 2 === 0 ? body : 0) + (c.start % Math.max(1, lines.length - body))
  const window = [...(c.withHeader ? lines.slice(0, 16) : []), ...lines.slice(start, start + c.length)]
  const mutated = mutate(window, c.ops)
  const text = c.eol === 'mixed' ? mutated.map((l, i) => l + ['\n', '\r\n', '\r'][i % 3]).join('') : mutated.join(c.eol)
  return encode(text, c.encoding)
}

const KNOWN = new Set(['INPUT_EMPTY', 'INPUT_BINARY', 'INPUT_ENCODING', 'INPUT_NOT_CR'])

describe(`fuzzing the build with mutated real CR texts (${RUNS} cases)`, () => {
  it('never throws an unexpected exception; always returns diagnostics; rows survive every export', async () => {
    let built = 0
    await fc.assert(
      fc.asyncProperty(input, async (c) => {
        const bytes = bytesOf(c)
        let result
        try {
          result = buildDataset('fuzz.txt', bytes)
        } catch (e) {
          expect(e).toBeInstanceOf(EtlError)
          expect(KNOWN.has((e as EtlError).code)).toBe(true)
          expect((e as EtlError).message.split('\n')).toHaveLength(1)
          return
        }
        built++
        expect(Array.isArray(result.report.diagnostics)).toBe(true)
        // Lossless: a word in no row is only ever one the parser said it could not place (no rule above it).
        const all = [...result.document.diagnostics]
        const unplaced = new Set(all.filter((d) => /left out of every row|has no rule above it and is in no row/.test(d.message)).map((d) => d.line))
        for (const d of result.report.diagnostics.filter((x) => x.code === 'text-lost')) expect(unplaced.has(d.line), d.message).toBe(true)
        for (const d of result.report.diagnostics) expect(d.message.length).toBeGreaterThan(0)
        for (const format of ['parquet', 'jsonl', 'csv'] as const) {
          const file = result.files.find((f) => f.name === `rules.${format}`)!
          const read = await readExport(`rules.${format}`, file.bytes, format)
          expect(read.records.map((r) => r.record), format).toEqual(result.rows)
        }
        // What build writes, validate reads: every table's file is read (an empty glossary was
        // refused), and a text build calls valid gives files validate calls valid.
        for (const file of result.files.filter((f) => /\.(?:parquet|jsonl|csv)$/.test(f.name))) {
          const report = await validateSource(file.name, file.bytes)
          if (result.report.valid) expect(report.valid, `${file.name}: ${JSON.stringify(report.diagnostics.slice(0, 3))}`).toBe(true)
        }
      }),
      { numRuns: RUNS, ...SEED },
    )
    // Most cases must reach the exports, or the round trip would be tested on nothing.
    expect(built).toBeGreaterThan(RUNS / 3)
  }, 600_000)
})
