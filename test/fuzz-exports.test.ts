import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { buildDataset } from '../src/build/build.js'
import { EtlError } from '../src/core/errors.js'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { inputFileChunks, MAX_EXPORT_BYTES } from '../src/io/files.js'
import { validateExportStream, validateSource } from '../src/validate/validate.js'
import { writeArrow } from '../src/exports/arrow-write.js'
import { configureIo } from '../src/io/settings.js'
import { readBytes, release } from './helpers/shared.js'

// `make test` runs a share of the cases; `make fuzz` sets FUZZ_RUNS=10000 for the build fuzzer.
// The damaged files that make a decoder loop are stopped after 1 s, in this file's tests (the setup
// file puts the default back before the next file).
beforeAll(() => configureIo({ decodeTimeoutMs: 1000 }))
const RUNS = Math.max(50, Math.round(Number(process.env.FUZZ_RUNS ?? 150) / 5))
// make test replays the same cases (a red CI must mean a real change); make fuzz draws new ones.
const SEED = process.env.FUZZ_RUNS === undefined ? { seed: 20261129 } : {}
const r = release('2025-02-07')
const built = buildDataset(r.file, readBytes(r.path), { arrow: writeArrow })
// The first 400 rows of each export keep the cases fast; the formats' own headers are kept whole.
const small = buildDataset(r.file, readBytes(r.path).subarray(0, 120_000), { arrow: writeArrow })
const files = (['rules.parquet', 'rules.jsonl', 'rules.csv', 'rules.arrow', 'glossary.jsonl', 'references.csv'] as const).map((name) => ({
  name,
  bytes: (small.files.find((f) => f.name === name) ?? built.files.find((f) => f.name === name))!.bytes,
}))

const mutation = fc.oneof(
  fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), value: fc.integer({ min: 0, max: 255 }) }),
  fc.record({ kind: fc.constant('cut' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 64 }) }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), bytes: fc.uint8Array({ maxLength: 32 }) }),
)

function mutate(bytes: Uint8Array, ops: fc.RecordValue<unknown>[]): Uint8Array {
  let out = new Uint8Array(bytes)
  for (const op of ops as { kind: string; at: number; value?: number; length?: number; bytes?: Uint8Array }[]) {
    const at = op.at % Math.max(1, out.length)
    if (op.kind === 'flip') out[at] = op.value!
    else if (op.kind === 'cut') out = out.slice(0, at)
    else if (op.kind === 'delete') out = new Uint8Array([...out.subarray(0, at), ...out.subarray(at + op.length!)])
    else out = new Uint8Array([...out.subarray(0, at), ...op.bytes!, ...out.subarray(at)])
  }
  return out
}

describe(`fuzzing validate with damaged exports (${RUNS} cases)`, () => {
  it('gives a report or one clear EtlError line, never anything else', async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: files.length - 1 }), fc.array(mutation, { minLength: 1, maxLength: 4 }), async (which, ops) => {
        const file = files[which]!
        const bytes = mutate(file.bytes, ops)
        try {
          const report = await validateSource(file.name, bytes)
          expect(typeof report.valid).toBe('boolean')
          const omitted = Object.values(report.omitted ?? {}).reduce((a, b) => a + b, 0)
          expect(report.counts.errors + report.counts.warnings).toBe(report.diagnostics.length + omitted)
        } catch (e) {
          expect(e, String(e)).toBeInstanceOf(EtlError)
          expect((e as EtlError).message.split('\n')).toHaveLength(1)
        }
      }),
      { numRuns: RUNS, ...SEED },
    )
  }, 600_000)
})

describe(`Parquet read by ranges from a file reports exactly what the bytes in memory report (${RUNS} damaged cases)`, () => {
  const dir = mkdtempSync(join(tmpdir(), 'ranged-'))
  const parquet = files.find((f) => f.name === 'rules.parquet')!
  const outcome = async (run: () => Promise<unknown>) => {
    try {
      return { report: await run() }
    } catch (e) {
      return { error: e instanceof EtlError ? `${e.code}: ${e.message}` : `not an EtlError: ${String(e)}` }
    }
  }
  it('gives the same report, or the same error line, both ways', async () => {
    let n = 0
    await fc.assert(
      fc.asyncProperty(fc.array(mutation, { minLength: 0, maxLength: 3 }), async (ops) => {
        const bytes = mutate(parquet.bytes, ops)
        const path = join(dir, `case-${n++}.parquet`)
        writeFileSync(path, bytes)
        const chunks = await inputFileChunks(path, MAX_EXPORT_BYTES).catch(() => null)
        // An empty file is refused before either reader sees it.
        if (chunks === null) return
        expect(chunks.file?.size).toBe(bytes.length)
        const inMemory = await outcome(() => validateSource('rules.parquet', bytes))
        const ranged = await outcome(() => validateExportStream('rules.parquet', chunks))
        expect(ranged).toEqual(inMemory)
      }),
      { numRuns: RUNS, ...SEED },
    )
  }, 600_000)
})
