import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { beforeAll, describe, expect, it } from 'vitest'
import { parse as parseYaml } from 'yaml'
import manifestSchema from '../schemas/manifest.schema.json' with { type: 'json' }
import reportSchema from '../schemas/report.schema.json' with { type: 'json' }
import { buildDataset } from '../src/build/build.js'
import { cli, inProcess, snapshot } from './helpers/cli.js'
import { readBytes, release, releases } from './helpers/shared.js'

const ajv = new Ajv2020({ allErrors: true })
const validManifest = ajv.compile(manifestSchema)
const validReport = ajv.compile(reportSchema)
const r = release('2024-03-08')
const tmp = mkdtempSync(join(tmpdir(), 'cli-'))
const out = join(tmp, 'out')
const fixture = join(import.meta.dirname, 'fixtures/mini-cr.txt')

beforeAll(async () => {
  const run = await inProcess(['build', r.path, '--out', out])
  expect(run.stderr).toMatch(/^build: wrote 15 files to .* \(2941 rules, 276 examples, 675 glossary entries, effective 2024-03-08\)\n$/)
  expect(run.status).toBe(0)
})

describe('mtg-rules build', () => {
  it('--timings tells where the time went, stage by stage, summing to the total', async () => {
    const run = await inProcess(['build', r.path, '--out', join(tmp, 'timed'), '--timings'])
    expect(run.status).toBe(0)
    const rows = [...run.stderr.matchAll(/^ {2}(.+?)\s+([\d.]+) ms$/gm)].map((m) => [m[1]!, Number(m[2])] as const)
    const stages = rows.map(([s]) => s)
    expect(stages.slice(0, 4)).toEqual(['node start, modules loaded, arguments read', 'read the file', 'read: decode', 'parse'])
    for (const t of ['rules', 'glossary', 'rules_meta', 'references']) for (const f of ['parquet', 'jsonl', 'csv']) expect(stages).toContain(`write ${t}.${f}`)
    expect(stages.at(-2)).toBe('write 15 files (staging folder, fsync, switch)')
    const [, total] = rows.at(-1)!
    const sum = rows.slice(0, -1).reduce((n, [, ms]) => n + ms, 0)
    expect(Math.abs(sum - total)).toBeLessThan(0.5 + rows.length * 0.05)
  })

  it('writes a manifest and a report that satisfy their schemas', () => {
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'))
    expect(validManifest(manifest), JSON.stringify(validManifest.errors)).toBe(true)
    expect(manifest.source).toMatchObject({ file: r.file, encoding: 'utf-8', bom: true, lineEndings: 'mixed', lineEndingCounts: { crlf: 12, cr: 8732, lf: 0 } })
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'))
    expect(validReport(report), JSON.stringify(validReport.errors)).toBe(true)
    expect(report.counts).toEqual({ errors: 0, warnings: 4, byCode: { 'dangling-reference': 1, 'source-format': 3 } })
    expect(snapshot(out)[`rules.parquet`]).toBe(manifest.exports[0].sha256)
  })

  it('writes a dataset card whose YAML parses and whose counts match the manifest', () => {
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'))
    const card = readFileSync(join(out, 'README.md'), 'utf8')
    const [, yamlText, body] = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(card)!
    const header = parseYaml(yamlText!)
    const byConfig = new Map(header.dataset_info.map((d: { config_name: string }) => [d.config_name, d]))
    const rulesInfo = byConfig.get('rules') as { features: unknown[]; splits: { num_examples: number }[] }
    expect(rulesInfo.features).toEqual([
      { name: 'number', dtype: 'string' },
      { name: 'text', dtype: 'string' },
      { name: 'examples', sequence: 'string' },
      { name: 'index', dtype: 'int64' },
    ])
    for (const e of manifest.exports.filter((x: { format: string }) => x.format === 'parquet')) {
      const info = byConfig.get(e.table) as { splits: { num_examples: number; num_bytes: number }[]; download_size: number; dataset_size: number }
      // num_bytes is the size in memory (Arrow), larger than the compressed file; download_size is the file.
      expect(info.splits[0]).toMatchObject({ name: 'train', num_examples: e.rows })
      expect(info.splits[0]!.num_bytes).toBeGreaterThan(e.bytes)
      expect([info.download_size, info.dataset_size]).toEqual([e.bytes, info.splits[0]!.num_bytes])
    }
    // Config names are the table names; rules is the default.
    expect(header.configs.map((c: { config_name: string }) => c.config_name)).toEqual(['rules', 'glossary', 'rules_meta', 'references'])
    expect(header.configs[0]).toEqual({ config_name: 'rules', default: true, data_files: [{ split: 'train', path: 'rules.parquet' }] })
    for (const key of ['task_categories', 'language', 'pretty_name', 'size_categories', 'source_datasets', 'license']) expect(header[key], key).toBeDefined()
    expect(body).toContain('## How to load')
    expect(body).toContain('```bibtex')
    expect(body).toContain(`sha256: \`${manifest.source.sha256}\``)
    expect(body).toContain('effective 2024-03-08')
    expect(body).toContain('Valid: 0 errors, 4 warnings (1 dangling-reference, 3 source-format)')
  })

  it('gives the same bytes when run again, from another folder', () => {
    const again = join(tmp, 'again')
    expect(cli(['build', r.path, '--out', again], { cwd: tmp }).status).toBe(0)
    expect(snapshot(again)).toEqual(snapshot(out))
  })

  it('a build that writes nothing when invalid makes no file then (onlyIfValid), and the same files when valid', () => {
    const valid = buildDataset(r.file, readBytes(r.path))
    const asked = buildDataset(r.file, readBytes(r.path), { onlyIfValid: true })
    expect(asked.files.map((f) => [f.name, f.bytes.length])).toEqual(valid.files.map((f) => [f.name, f.bytes.length]))
    expect(asked.files.length).toBe(15)
    // 2024-03-08 with 100.1's line given twice: a duplicate-number error.
    const text = readFileSync(r.path, 'utf8')
    const line = text.split(/\r\n|\r|\n/).find((l) => l.startsWith('100.1. '))!
    const invalid = new TextEncoder().encode(text.replace(line, `${line}\r\n\r\n${line}`))
    const refused = buildDataset(r.file, invalid, { onlyIfValid: true })
    expect([refused.report.valid, refused.report.counts.byCode['duplicate-number'], refused.files]).toEqual([false, 1, []])
    expect(buildDataset(r.file, invalid).files.length).toBe(15)
  })

  it('refuses validation errors: exit 1, nothing written; --allow-errors writes them', async () => {
    const bad = join(tmp, 'duplicate.txt')
    const text = readFileSync(fixture, 'utf8').replace('100.1c The last lettered subrule here.', '100.1c The last lettered subrule here.\n\n100.1c Again.')
    writeFileSync(bad, text)
    const target = join(tmp, 'errors-out')
    const refused = await inProcess(['build', bad, '--out', target])
    expect(refused.status).toBe(1)
    expect(refused.stderr).toContain('error duplicate-number 100.1c line 35: rule 100.1c occurs 2 times (line 33, line 35)')
    expect(refused.stderr).toMatch(/nothing was written to .*errors-out \(--allow-errors writes anyway\)\n$/)
    expect(snapshot(target)).toEqual({})
    const forced = await inProcess(['build', bad, '--out', target, '--allow-errors'])
    expect(forced.status).toBe(1)
    expect(Object.keys(snapshot(target))).toContain('rules.parquet')
    expect(JSON.parse(readFileSync(join(target, 'report.json'), 'utf8')).counts.byCode['duplicate-number']).toBe(1)
  })

  it('--strict counts warnings as errors', async () => {
    const run = await inProcess(['build', fixture, '--out', join(tmp, 'strict'), '--strict'])
    expect(run.status).toBe(1)
    expect(run.stderr).toContain('[strict]')
  })
})

describe('mtg-rules validate', () => {
  it('--json prints a report valid against report.schema.json', async () => {
    const run = await inProcess(['validate', join(out, 'rules.parquet'), '--json'])
    expect(run.status).toBe(0)
    const report = JSON.parse(run.stdout)
    expect(validReport(report)).toBe(true)
    expect(report).toMatchObject({ valid: true, source: { kind: 'parquet', rows: 2941 }, counts: { errors: 0, warnings: 0 } })
  })

  it('--format github prints the verdict line, then one annotation per diagnostic', async () => {
    const run = await inProcess(['validate', r.path, '--format', 'github'])
    expect(run.status).toBe(0)
    expect(run.stdout.trimEnd().split('\n')).toEqual([
      `${r.path}: valid, ${r.rules} rows, 0 errors, 4 warnings (1 dangling-reference, 3 source-format)`,
      `::warning file=${r.path},line=1042,title=source-format 119.1d::subrule 119.1d is written "119.1d." with a period`,
      `::warning file=${r.path},line=2695,title=source-format 606.5::rule 606.5 is written without the period after its number`,
      `::warning file=${r.path},line=6397,title=source-format 901.4::rule 901.4 has no space between its number and its text`,
      `::warning file=${r.path},line=7781,title=dangling-reference glossary%3AMap::glossary:Map cites 110.10 (“110.10”), which does not exist`,
    ])
  })

  it('--strict makes warnings fail, and github annotations become errors', async () => {
    const run = await inProcess(['validate', r.path, '--format', 'github', '--strict'])
    expect(run.status).toBe(1)
    expect(run.stdout.split('\n')[0]).toMatch(/: INVALID, \d+ rows, 0 errors, 4 warnings \(.*\) \[strict\]$/)
    expect(run.stdout.split('\n')[1]).toMatch(/^::error file=/)
  })

  it('- reads standard input: each format told by its first bytes, the same report as by path, as `-`', async () => {
    // A copy left by a run killed before it could remove it (its process gone): removed by the next.
    const leftover = join(tmpdir(), 'mtg-rules-stdin-2147483646-left')
    mkdirSync(leftover)
    writeFileSync(join(leftover, 'stdin.csv'), 'number\n')
    // By path, in this process (what the command answers is compared, not how a process starts).
    const asPath = async (file: string) => JSON.parse((await inProcess(['validate', file, '--json'])).stdout)
    const said = { 'rules.jsonl': 'JSONL', 'rules.csv': 'CSV', 'rules.parquet': 'Parquet', 'glossary.csv': 'CSV' } as const
    for (const [name, kind] of Object.entries(said)) {
      // A companion is checked against the rules given (by path, against the rules beside it).
      const companion = name.startsWith('glossary')
      const run = cli(['validate', '-', '--json', ...(companion ? ['--rules', join(out, 'rules.jsonl')] : [])], { input: readBytes(join(out, name)) })
      const byPath = await asPath(join(out, name))
      expect(run.status, name).toBe(0)
      // Named after no table, the glossary is told by its columns (a note says so, as for any such file).
      const notes = companion ? [expect.stringMatching(/^read as the glossary table: its columns/), ...byPath.notes] : byPath.notes
      expect(JSON.parse(run.stdout), name).toEqual({ ...byPath, source: { ...byPath.source, file: '-' }, notes: [`standard input read as ${kind} (told by its first bytes)`, ...notes] })
    }
    // gzip-compressed: told by what its first bytes unpack to.
    const packed = JSON.parse(cli(['validate', '-', '--json'], { input: gzipSync(readBytes(join(out, 'rules.jsonl'))) }).stdout)
    const plain = await asPath(join(out, 'rules.jsonl'))
    expect(packed).toEqual({ ...plain, source: { ...plain.source, file: '-' }, notes: ['standard input read as gzip-compressed JSONL (told by its first bytes)', ...plain.notes] })
    // CR text (UTF-8 with a byte order mark, before its first line): its findings at the lines they are at by path.
    for (const date of ['2024-03-08']) {
      const text = release(date)
      const run = cli(['validate', '-', '--json'], { input: readBytes(text.path) })
      const byPath = await asPath(text.path)
      expect(JSON.parse(run.stdout).diagnostics).toEqual(byPath.diagnostics)
      expect(JSON.parse(run.stdout).notes[0]).toBe('standard input read as CR text (told by its first bytes)')
    }
    // In a GitHub log: annotations that name no file (standard input is none), the line in their title.
    const twoOf = '{"number":"100.1","text":"A.","examples":[],"index":0}\n{"number":"100.1","text":"B.","examples":[],"index":1}\n'
    expect(cli(['validate', '-', '--format', 'github'], { input: twoOf }).stdout.split('\n')).toEqual([
      '-: INVALID, 2 rows, 1 errors, 0 warnings (1 duplicate-number)',
      'note: standard input read as JSONL (told by its first bytes)',
      '::error title=duplicate-number 100.1 line 2::rule 100.1 occurs 2 times (line 1, line 2)',
      '',
    ])
    // Nothing, something of no known shape, and - twice: one line each, exit 2 or 1; no temporary copy left.
    expect([cli(['validate', '-']).status, cli(['validate', '-']).stderr]).toEqual([2, 'read: - is empty (0 bytes)\n'])
    const prose = cli(['validate', '-'], { input: 'hello\n' })
    expect([prose.status, prose.stdout.split('\n')[1]]).toEqual([1, 'note: standard input read as CSV (told by its first bytes)'])
    const twice = cli(['validate', '-', '-'])
    expect([twice.status, twice.stderr.split(' (usage')[0]]).toEqual([2, 'mtg-rules validate: - (standard input) can be read once; it was given more than once'])
    expect(readdirSync(tmpdir()).filter((n) => n.startsWith('mtg-rules-stdin-'))).toEqual([])
    expect(existsSync(leftover)).toBe(false)
    // No temporary folder to keep it in: exit 2, one line, never an internal error.
    const nowhere = join(tmp, 'no-such-folder')
    const homeless = cli(['validate', '-'], { input: 'number\n', env: { TMPDIR: nowhere } })
    expect([homeless.status, homeless.stderr]).toEqual([2, `validate: standard input is kept in a temporary file in ${nowhere}, where none can be made: no such file or directory\n`])
  })

  it('reads JSONL and CSV exports gzip-compressed (.jsonl.gz, as pandas writes them): the same report; a folder of them too', async () => {
    const packed = join(tmp, 'packed')
    mkdirSync(packed)
    for (const name of ['rules.jsonl', 'rules.csv', 'glossary.jsonl', 'references.csv']) writeFileSync(join(packed, `${name}.gz`), gzipSync(readFileSync(join(out, name))))
    const report = async (path: string) => JSON.parse((await inProcess(['validate', path, '--json'])).stdout)
    for (const name of ['rules.jsonl', 'rules.csv', 'glossary.jsonl']) {
      const plain = await report(join(out, name))
      // A companion alone is checked against the rules beside it: rules.jsonl.gz is found as rules.jsonl is.
      expect(await report(join(packed, `${name}.gz`)), name).toEqual({ ...plain, source: { ...plain.source, file: join(packed, `${name}.gz`) } })
    }
    const folder = await inProcess(['validate', packed, '--json'])
    expect(folder.status).toBe(0)
    expect(JSON.parse(folder.stdout).map((r: { source: { file: string; rows: number }; notes: string[] }) => [r.source.file.slice(packed.length + 1), r.source.rows, r.notes])).toEqual([
      ['rules.csv.gz', 2941, []],
      ['rules.jsonl.gz', 2941, []],
      ['glossary.jsonl.gz', 675, []],
      ['references.csv.gz', (await report(join(out, 'references.csv'))).source.rows, []],
    ])
    // diff reads them too; Parquet, Arrow and CR text are not read compressed; a .gz that is not gzip is named.
    expect((await inProcess(['diff', join(packed, 'rules.jsonl.gz'), join(out, 'rules.parquet')])).stdout.split('\n')[2]).toMatch(/^2941 rules in 2024-03-08 \(2941 in rules\.jsonl\.gz\): 2941 unchanged/)
    writeFileSync(join(tmp, 'rules.parquet.gz'), gzipSync(readFileSync(join(out, 'rules.parquet'))))
    expect((await inProcess(['validate', join(tmp, 'rules.parquet.gz')])).stderr).toMatch(/^read: .*rules\.parquet\.gz: only JSONL and CSV exports are read gzip-compressed \(Parquet compresses its own pages\): give it unpacked \(usage: /)
    writeFileSync(join(tmp, 'plain.jsonl.gz'), readFileSync(join(out, 'rules.jsonl')))
    expect((await inProcess(['validate', join(tmp, 'plain.jsonl.gz')])).stderr).toBe(`read: ${join(tmp, 'plain.jsonl.gz')} is not a readable gzip file (incorrect header check)\n`)
  })

  it('reads a .json file of JSON Lines (as Hugging Face datasets and pyarrow read one): the same report, with a note', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'json-lines-'))
    const report = async (path: string) => JSON.parse((await inProcess(['validate', path, '--json'])).stdout)
    const note = 'read as JSON Lines (one object a line), as Hugging Face datasets and pyarrow read a .json file'
    // Named after its table (a companion checked against the rules.json beside it), told by its
    // columns (a Hugging Face data file), gzip-compressed.
    mkdirSync(join(dir, 'packed'))
    const cases: [string, string, (b: Buffer) => Uint8Array][] = [
      ['rules.jsonl', 'rules.json', (b) => b],
      ['glossary.jsonl', 'glossary.json', (b) => b],
      ['rules.jsonl', 'train-00000-of-00001.json', (b) => b],
      ['rules.jsonl', 'packed/rules.json.gz', (b) => gzipSync(b)],
    ]
    for (const [name, as, pack] of cases) {
      writeFileSync(join(dir, as), pack(readFileSync(join(out, name))))
      const plain = await report(join(out, name))
      expect(await report(join(dir, as)), as).toEqual({ ...plain, source: { ...plain.source, file: join(dir, as) }, notes: [note, ...plain.notes] })
    }
    // One JSON document, not a line a row: refused as a .jsonl file of it is; a manifest or report alone is no export.
    writeFileSync(join(dir, 'rows.json'), JSON.stringify(readFileSync(join(out, 'rules.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l))))
    expect((await inProcess(['validate', join(dir, 'rows.json')])).stderr).toBe(`read: ${join(dir, 'rows.json')}: line 1 is not a JSON object: the file is a JSON array, not JSON Lines (one object a line; pandas writes it with to_json(orient="records", lines=True))\n`)
    // A folder is not searched for them (mtg-rules keeps its own .json files beside the exports): said so.
    expect((await inProcess(['validate', join(dir, 'packed')])).stderr).toMatch(/^validate: .*packed holds no dataset \(.*\); it holds 1 \.json file: one of JSON Lines is read when given by its path\n$/)
    // Ours are no data: a folder holding a report.json alone says nothing of .json files.
    const reportOnly = join(dir, 'report-only')
    mkdirSync(reportOnly)
    writeFileSync(join(reportOnly, 'report.json'), readFileSync(join(out, 'report.json')))
    expect((await inProcess(['validate', reportOnly])).stderr).toBe(`validate: ${reportOnly} holds no dataset (no .jsonl, .ndjson, .csv, .parquet, .arrow or .feather file, no manifest.json)\n`)
    expect((await inProcess(['validate', join(out, 'report.json')])).stderr).toMatch(/^read: cannot tell the format of .*report\.json: .*; mtg-rules writes report\.json beside the exports, and it holds no rows \(rows of yours in a file of that name are read named \.jsonl\) \(usage: /)
  })

  it('exits 2 on an export it cannot read', async () => {
    const notParquet = join(tmp, 'fake.parquet')
    writeFileSync(notParquet, 'number,text\n')
    const run = await inProcess(['validate', notParquet])
    expect([run.status, run.stderr.trimEnd()]).toEqual([2, `read: ${notParquet} is not a Parquet file (no PAR1 magic bytes)`])
  })
})

describe('mtg-rules fetch --from', () => {
  it('copies the newest release into the cache with its sha256', async () => {
    const dest = join(tmp, 'raw')
    mkdirSync(dest)
    const run = await inProcess(['fetch', '--from', join(r.path, '..'), '--dest', dest])
    expect(run.status).toBe(0)
    const newest = releases().at(-1)!
    expect(run.stdout).toBe(join(dest, newest.file) + '\n')
    const index = JSON.parse(readFileSync(join(dest, 'index.json'), 'utf8'))
    expect(index[newest.file]).toMatchObject({ effectiveDate: newest.effective, bytes: statSync(newest.path).size, sha256: snapshot(dest)[newest.file] })
  })
})
