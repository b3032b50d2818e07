import { createHash } from 'node:crypto'
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { buildDataset } from '../src/build/build.js'
import { EtlError } from '../src/core/errors.js'
import { RULES_TABLE } from '../src/core/tables.js'
import { writeCsv } from '../src/exports/csv-write.js'
import { writeJsonl } from '../src/exports/jsonl-write.js'
import { writeParquet } from '../src/exports/parquet-write.js'
import { writeArrow } from '../src/exports/arrow-write.js'
import { validateFolder } from '../src/io/validate-folder.js'
import { validateSource } from '../src/validate/validate.js'
import { builtHistory } from './helpers/built.js'
import { inProcess } from './helpers/cli.js'
import { readBytes, release, releases, REPO } from './helpers/shared.js'

// The one validation path must give, byte for byte, the reports the row-by-row ("exact") path gave
// when the clean proof was deleted: test/fixtures/validate-oracle.json holds each report's sha256.
// ORACLE_WRITE=1 rewrites it (only when a report changes on purpose, with that change's own test).
const FIXTURE = join(REPO, 'test/fixtures/validate-oracle.json')
const writing = process.env.ORACLE_WRITE === '1'
const expected: Record<string, string> = writing || !existsSync(FIXTURE) ? {} : JSON.parse(readFileSync(FIXTURE, 'utf8'))
const seen: Record<string, string> = {}

const digest = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex')

function record(key: string, value: unknown) {
  seen[key] = digest(value)
  if (!writing) expect(seen[key], `${key}: the report differs from the oracle's`).toBe(expected[key])
}

/** A report with the temporary folder's path taken out, or the error line a file gives. */
async function outcome(run: () => Promise<unknown>, dir = ''): Promise<unknown> {
  try {
    const value = await run()
    return dir ? JSON.parse(JSON.stringify(value).replaceAll(dir, 'DIR')) : value
  } catch (e) {
    if (!(e instanceof EtlError)) throw e
    return { error: e.code, message: e.message.replaceAll(dir || '\0', 'DIR') }
  }
}

describe('one validation path, the oracle: the reports of the row-by-row path', () => {
  for (const r of releases()) {
    it(`${r.effective}: every table of the dataset folder, every format`, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'oracle-'))
      const built = await inProcess(['build', r.path, '--out', dir, '--arrow', '--allow-errors'])
      expect(built.status, built.stderr).toBeLessThanOrEqual(1)
      expect(readdirSync(dir).filter((n) => /\.(parquet|jsonl|csv|arrow)$/.test(n))).toHaveLength(16)
      record(`release ${r.effective}`, await outcome(() => validateFolder(dir, { strict: false, exact: false }), dir))
    }, 120_000)
  }

  it('the history of the shared releases: rules_history in every format', async () => {
    const { out } = builtHistory()
    for (const name of readdirSync(out).filter((n) => /^rules_history\.(parquet|jsonl|csv)$/.test(n)).sort()) {
      record(`history ${name}`, await outcome(() => validateSource(name, readBytes(join(out, name)))))
    }
    expect(Object.keys(seen).filter((k) => k.startsWith('history '))).toHaveLength(3)
  }, 240_000)

  it('299,700 rules numbered {section}.{k} with 2025-02-07\'s texts: tens of thousands of warnings, each format', async () => {
    const real = buildDataset('x.txt', readBytes(release('2025-02-07').path)).rows
    const rows = []
    for (let section = 100; section <= 999; section++) {
      for (let k = 1; k <= 333; k++) {
        const source = real[rows.length % real.length]!
        rows.push({ number: `${section}.${k}`, text: source.text, examples: source.examples, index: rows.length })
      }
    }
    const dir = mkdtempSync(join(tmpdir(), 'oracle-300k-'))
    writeFileSync(join(dir, 'rules.parquet'), writeParquet(RULES_TABLE, rows, 'oracle'))
    writeFileSync(join(dir, 'rules.jsonl'), writeJsonl(RULES_TABLE, rows))
    writeFileSync(join(dir, 'rules.csv'), writeCsv(RULES_TABLE, rows))
    const reports = (await validateFolder(dir, { strict: false, exact: false })) as { counts: { warnings: number } }[]
    expect(reports.map((x) => x.counts.warnings)).toEqual([45_889, 45_889, 45_889])
    record('300k with warnings', JSON.parse(JSON.stringify(reports).replaceAll(dir, 'DIR')))
  }, 240_000)

  it('damaged exports: the same report or the same error line', async () => {
    const r = release('2025-02-07')
    const small = buildDataset(r.file, readBytes(r.path).subarray(0, 120_000), { arrow: writeArrow })
    const names = ['rules.parquet', 'rules.jsonl', 'rules.csv', 'rules.arrow', 'glossary.jsonl', 'references.csv']
    const files = names.map((name) => ({ name, bytes: small.files.find((f) => f.name === name)!.bytes }))
    const cases = fc.sample(
      fc.tuple(fc.nat({ max: files.length - 1 }), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 }), fc.boolean()), { minLength: 1, maxLength: 4 })),
      { numRuns: 120, seed: 20261201 },
    )
    const outcomes = []
    for (const [which, ops] of cases) {
      const file = files[which]!
      let bytes = new Uint8Array(file.bytes)
      // A byte overwritten, or the file cut there.
      for (const [at, value, cut] of ops) {
        const i = at % Math.max(1, bytes.length)
        if (cut) bytes = bytes.slice(0, i)
        else bytes[i] = value
      }
      outcomes.push(await outcome(() => validateSource(file.name, bytes)))
    }
    record('damaged exports', outcomes)
  }, 240_000)

  it('covers every case the oracle holds', () => {
    if (writing) writeFileSync(FIXTURE, JSON.stringify(seen, null, 2) + '\n')
    expect(Object.keys(seen).sort()).toEqual(Object.keys(writing ? seen : expected).sort())
  })
})
