import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { describe, expect, it } from 'vitest'
import reportSchema from '../schemas/report.schema.json' with { type: 'json' }
import { decode } from '../src/text/decode.js'
import { validateSource } from '../src/validate/validate.js'
import { inProcess } from './helpers/cli.js'
import { writeHfExports } from './helpers/hf-exports.js'
import { sampleRows } from './helpers/hf-sample.js'
import { readBytes, releases } from './helpers/shared.js'

const validateReport = new Ajv2020({ allErrors: true }).compile(reportSchema)

// What each release really contains, verified by reading the texts: the typos, and the glossary
// entry "Map" citing rule 110.10, which does not exist (predefined tokens are 111.10).
const EXPECTED: Record<string, string[]> = {
  // 2001: three rules without their period, a subrule with one, 214.8j skipped (214.8i, then 214.8k),
  // and the glossary's list of expansion symbols: 37 headwords with no definition.
  '2001-07-23': [
    'source-format 102.8',
    'gap 214.8k',
    'source-format 217.9',
    'source-format 302.3',
    'source-format 309.2a',
    ...Array.from({ length: 37 }, () => 'source-format glossary'),
  ],
  // The last text before the Magic 2010 rewrite: section 211 is a blank placeholder the Contents
  // leaves out, and the multiplayer chapter's subrules carry periods.
  '2009-05-01': [
    'source-format 211',
    'source-format 212.1b',
    'source-format 216.4',
    'source-format 600.4a',
    'source-format 600.4b',
    'source-format 600.5',
    'source-format 606.4b',
    'source-format 606.6b',
    'source-format 606.7b',
    'source-format 609.6',
  ],
  // The rewrite itself: the body's first heading still says "1. The Game" (the Contents "1. Game
  // Concepts"), 113.8 is skipped, 401.6 cites 602.1i and 605.3b cites 405.3c (neither exists), and
  // storm is numbered "702. 37a".
  '2009-07-11': [
    'source-format 1',
    'gap 113.9',
    'source-format 120.1c',
    'source-format 400.2',
    'dangling-reference 401.6',
    'dangling-reference 605.3b',
    'source-format 702.37a',
    'source-format 702.37b',
    'source-format 800.4a',
    'source-format 800.4b',
    'source-format 806.4b',
    'source-format 806.6b',
    'source-format 809.6',
  ],
  '2016-07-22': [],
  '2022-11-18': ['source-format 119.1d', 'source-format 606.5', 'source-format 702.124h', 'source-format 702.124i', 'source-format 901.4'],
  '2024-03-08': ['source-format 119.1d', 'source-format 606.5', 'source-format 901.4', 'dangling-reference glossary:Map'],
  '2025-02-07': ['source-format 119.1d', 'source-format 606.5', 'source-format 901.4', 'dangling-reference glossary:Map'],
  '2026-06-19': ['source-format 119.1d', 'source-format 606.5'],
  // 205.4c and 509.1b hold U+2028 paragraph breaks: nothing lost, so the glossary's 509.1b resolves.
  '2026-08-07': ['source-format 119.1d', 'source-format 606.5'],
}

describe('validate on every published release', () => {
  it.each(releases().map((r) => [r.file, r] as const))('%s: valid, with exactly the real problems', async (_, r) => {
    const report = await validateSource(r.path, readBytes(r.path))
    expect(validateReport(report), JSON.stringify(validateReport.errors)).toBe(true)
    expect(report.valid).toBe(true)
    expect(report.diagnostics.map((d) => `${d.code} ${d.code === 'source-format' && d.number?.startsWith('glossary:') ? 'glossary' : d.number}`)).toEqual(EXPECTED[r.effective])
    const map = report.diagnostics.find((d) => d.code === 'dangling-reference' && d.number === 'glossary:Map')
    if (map) expect(map.params).toEqual({ target: '110.10', span: '110.10' })
    // Every finding points at the source line that holds it.
    const lines = decode(readBytes(r.path)).text.split(/\r\n|\r|\n/)
    for (const d of report.diagnostics.filter((d) => /^\d{3}\.\d+[a-z]?$/.test(d.number ?? ''))) {
      expect(lines[d.line! - 1]!.replace(/^\uFEFF/, '').replace(/\s/g, ''), `${d.code} ${d.number}`).toContain(d.number!.slice(0, 4))
    }
  })
})

describe('validate on the public dataset layout, built from the samples', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hf-'))
  const paths = writeHfExports(dir, sampleRows())

  it.each(Object.entries(paths))('%s: invalid, with the dataset’s known defects', async (format, path) => {
    const report = await validateSource(path, new Uint8Array(readFileSync(path)))
    expect(validateReport(report), JSON.stringify(validateReport.errors)).toBe(true)
    expect(report.valid).toBe(false)
    expect(report.source).toEqual({ file: path, kind: format, table: 'rules', rows: 200 })
    expect(report.notes).toEqual(['column __index_level_0__ was read as index (pandas layout)'])
    const found = (code: string) => report.diagnostics.filter((d) => d.code === code)
    expect(found('duplicate-number').map((d) => [d.number, d.position])).toEqual([['704.5a', 199]])
    // Sorted as strings: 120.1, 120.10, 120.1a and 702.89a, 702.8a … 702.99c, 702.9a. The page of
    // rows 2200–2299 starts inside 702.80 and after 702.8, so 702.8a and 702.8b have no rule before them:
    // a rule missing above its subrules is a gap (once), wherever they stand, as in a published text.
    // 702.80d opens its page, after rows of section 1xx: to the checks, the rules before it are missing (a gap, not an order error).
    expect(found('gap').filter((d) => d.number === '702.80d').map((d) => d.message)).toEqual(['rule 702.80d comes at the start of its section: 702.1 is missing'])
    expect(found('gap').filter((d) => d.number?.startsWith('702.8') && d.number.length === 6).map((d) => d.message)).toEqual([
      'rule 702.8 is missing: subrule 702.8a comes after 702.89a with no rule above it',
    ])
    expect(found('order').map((d) => d.message)).toEqual([
      'rule 120.1a comes after 120.10, but CR order puts it before',
      'rule 702.8a comes after 702.89a, but CR order puts it before',
      'rule 702.9a comes after 702.99c, but CR order puts it before',
    ])
    expect(found('example-as-row').map((d) => [d.number, d.position])).toEqual([['704.5a', 199]])
    expect(found('schema')).toEqual([])
    expect(found('columns')).toEqual([])
  })

  it('the CLI exits 1 on them, with GitHub annotations that name the rows', async () => {
    const run = await inProcess(['validate', paths.csv, '--format', 'github'])
    expect(run.status).toBe(1)
    expect(run.stdout).toContain(`::error file=${paths.csv},line=201,title=duplicate-number 704.5a::rule 704.5a occurs 2 times (line 200, line 201)`)
  })
})
