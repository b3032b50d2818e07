import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { buildDataset } from '../src/build/build.js'
import { diffReleases } from '../src/history/diff.js'
import { historyLines, historyPrefixes, historyPrefixesOf } from '../src/history/history-lines.js'
import { lineageIndexOf } from '../src/history/lineage-index.js'
import { buildHistory } from '../src/io/history-run.js'
import { writeFilesInto } from '../src/io/history-tasks.js'
import { EtlError } from '../src/core/errors.js'
import { startRulesHistory } from '../src/history/rules-history.js'
import { RULES_HISTORY_TABLE, RULES_TABLE } from '../src/core/tables.js'
import { writeCsv } from '../src/exports/csv-write.js'
import { writeJsonl } from '../src/exports/jsonl-write.js'
import { builtHistory } from './helpers/built.js'
import { inProcess } from './helpers/cli.js'
import { readBytes, releases } from './helpers/shared.js'
import { decode } from '../src/text/decode.js'


describe('mtg-rules history', () => {
  it('builds every release, oldest first, with a table and history files', () => {
    const { out, run } = builtHistory()
    expect(run.status).toBe(0)
    const rows = JSON.parse(readFileSync(join(out, 'history.json'), 'utf8'))
    const facts = releases().sort((a, b) => a.effective.localeCompare(b.effective))
    expect(rows.map((r: Record<string, unknown>) => [r.effectiveDate, r.rules, r.examples, r.glossary, r.errors, r.ok])).toEqual(
      facts.map((f) => [f.effective, f.rules, f.examples, f.glossary, 0, true]),
    )
    expect(run.stdout.split('\n')[0]).toMatch(/^effective\s+file\s+status\s+rules\s+examples\s+glossary\s+errors\s+warnings\s+seconds$/)
    const row = run.stdout.split('\n').find((l) => l.startsWith('2025-02-07'))!
    expect(row.split(/\s{2,}/).slice(0, 8)).toEqual(['2025-02-07', 'MagicCompRules 20250207.txt', 'ok', '3022', '274', '703', '0', '4'])
    // The files keep no build times (the same archive gives the same bytes); the run's table shows them.
    expect(readFileSync(join(out, 'history.csv'), 'utf8').split('\r\n')[0]).toBe('effectiveDate,file,ok,rules,examples,glossary,errors,warnings,failure')
    expect(Object.keys(rows[0])).toEqual(['file', 'effectiveDate', 'ok', 'rules', 'examples', 'glossary', 'errors', 'warnings', 'failure'])
    expect(JSON.parse(readFileSync(join(out, '2026-06-19', 'manifest.json'), 'utf8')).counts.rules).toBe(3153)
    // Each release's seconds are its own build's, not the time since the run began (nine releases
    // on two cores: the last one taken waited for most of the run).
    const total = Number(/releases built in ([\d.]+) s/.exec(run.stderr)![1])
    const seconds = run.stdout.split('\n').slice(1, 1 + facts.length).map((l) => Number(l.split(/\s+/).at(-1)))
    expect(seconds.every((s) => s > 0)).toBe(true)
    expect(Math.max(...seconds)).toBeLessThan(0.7 * total)
    // Not a terminal: one plain progress line per release.
    expect(run.stderr.split('\n').filter((l) => /^history: \d\/\d /.test(l))).toHaveLength(facts.length)
  })

  it('gives the same bytes in every file for the same archive, run after run', async () => {
    // Two releases, each run into a folder of its own: every file the same, history.json and history.csv included.
    const archive = mkdtempSync(join(tmpdir(), 'history-twice-'))
    for (const r of releases().slice(0, 2)) copyFileSync(r.path, join(archive, r.file))
    const files = async (out: string) => {
      const run = await inProcess(['history', archive, '--out', out])
      expect(run.status, run.stderr).toBe(0)
      const walk = (dir: string, under = ''): [string, string][] =>
        readdirSync(join(dir, under), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(dir, join(under, e.name)) : [[join(under, e.name), createHash('sha256').update(readFileSync(join(dir, under, e.name))).digest('hex')] as [string, string]]))
      return walk(out).sort(([a], [b]) => (a < b ? -1 : 1))
    }
    const outs = mkdtempSync(join(tmpdir(), 'history-twice-out-'))
    const first = await files(join(outs, '1'))
    expect(first.map(([name]) => name)).toContain('history.json')
    expect(await files(join(outs, '2'))).toEqual(first)
  })

  it('a release folder a worker cannot write ends in one OUTPUT_UNWRITABLE line naming the folder', () => {
    const dir = mkdtempSync(join(tmpdir(), 'staging-'))
    writeFileSync(join(dir, 'rules.csv'), 'planted')
    const attempt = () => writeFilesInto(dir, 'out-history/2026-08-07', [{ name: 'rules.csv', bytes: new Uint8Array([1]) }])
    expect(attempt).toThrow(EtlError)
    expect(attempt).toThrow(/^write: cannot write to out-history\/2026-08-07: /)
    // Created exclusively: the planted file is left as it was.
    expect(readFileSync(join(dir, 'rules.csv'), 'utf8')).toBe('planted')
  })

  it('a worker writing into a staging folder an interrupt has removed never creates it again', () => {
    const staging = mkdtempSync(join(tmpdir(), 'staging-'))
    rmSync(staging, { recursive: true })
    expect(() => writeFilesInto(join(staging, '2026-08-07'), 'out-history/2026-08-07', [{ name: 'rules.csv', bytes: new Uint8Array([1]) }])).toThrow(/^write: cannot write to out-history\/2026-08-07: /)
    expect(existsSync(staging)).toBe(false)
  })

  // What history writes, every command of the toolkit reads: with one release, rule_links links
  // nothing (0 rows; its JSONL 0 bytes), which validate and site refused.
  it('of a single release: validate finds it whole, site makes it, lineage reads it without its index', async () => {
    const newest = releases().at(-1)!
    const dir = mkdtempSync(join(tmpdir(), 'archive-one-'))
    copyFileSync(newest.path, join(dir, newest.file))
    const out = join(mkdtempSync(join(tmpdir(), 'history-one-')), 'out')
    const run = await inProcess(['history', dir, '--out', out])
    expect(run.status, run.stderr).toBe(0)
    expect(run.stderr).toMatch(/rules_history \(\d+ rows, 1 release\)\n$/)
    expect(readFileSync(join(out, 'rule_links.jsonl'), 'utf8')).toBe('')
    const report = await inProcess(['validate', out, '--json'])
    expect(report.status, report.stdout.slice(0, 2000)).toBe(0)
    // (No note asks for a rules table: rule_links names the rules of two releases, which no rules table holds.)
    expect(JSON.parse(report.stdout).filter((r: { source: { table: string } }) => r.source.table === 'rule_links').map((r: { valid: boolean; source: { rows: number }; notes: string[] }) => [r.valid, r.source.rows, r.notes])).toEqual(Array(3).fill([true, 0, ["no rows, which the rule_links table may have; a file cut to nothing reads the same (a dataset folder's manifest tells them apart)"]]))
    expect((await inProcess(['site', out, '--out', join(out, '..', 'site')])).status).toBe(0)
    rmSync(join(out, 'lineage-index.json'))
    expect((await inProcess(['lineage', out, '701.5'])).stdout.split('\n')[2]).toMatch(/^lineage \d{4}-\d{2}-\d{2}:701\.\d+, 1 release$/)
    // An empty file of a table that may not be empty is an error.
    writeFileSync(join(out, 'rules_history.jsonl'), '')
    expect((await inProcess(['validate', join(out, 'rules_history.jsonl')])).stdout).toMatch(/: INVALID, 0 rows, 1 errors, .*\nerror structure: the export holds no rows\n$/)
  })

  it('where no release builds: the table says why, exit 1, and nothing is written (an earlier history stays)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'archive-none-'))
    writeFileSync(join(dir, 'notes.txt'), 'Not a rules text.\n')
    const out = join(mkdtempSync(join(tmpdir(), 'history-none-')), 'out')
    const run = await inProcess(['history', dir, '--out', out])
    expect([run.status, run.stderr.split('\n').at(-2)]).toEqual([1, `history: no release of ${dir} could be built (1 tried): nothing written (${out} is as it was)`])
    expect(run.stdout).toContain('notes.txt: parse: notes.txt is not a Comprehensive Rules text')
    expect(existsSync(out)).toBe(false)
    const newest = releases().at(-1)!
    const good = mkdtempSync(join(tmpdir(), 'archive-one-'))
    copyFileSync(newest.path, join(good, newest.file))
    expect((await inProcess(['history', good, '--out', out])).status).toBe(0)
    const before = readFileSync(join(out, 'manifest.json'))
    expect((await inProcess(['history', dir, '--out', out])).status).toBe(1)
    expect(readFileSync(join(out, 'manifest.json'))).toEqual(before)
  })

  it('goes on past a corrupted release, and exits 1', async () => {
    // The broken release between two that build (the whole archive proves no more, at three times the cost).
    const dir = mkdtempSync(join(tmpdir(), 'archive-'))
    const around = releases().filter((r) => r.effective >= '2022' && r.effective < '2026')
    for (const r of around) copyFileSync(r.path, join(dir, r.file))
    const broken = around.find((r) => r.effective === '2024-03-08')!
    const bytes = readBytes(broken.path)
    bytes.fill(0, 2000, 6000)
    writeFileSync(join(dir, broken.file), bytes)
    const out = mkdtempSync(join(tmpdir(), 'history-'))
    const run = await inProcess(['history', dir, '--out', out])
    expect(run.status).toBe(1)
    const rows = JSON.parse(readFileSync(join(out, 'history.json'), 'utf8'))
    expect(around.map((r) => r.effective)).toEqual(['2022-11-18', '2024-03-08', '2025-02-07'])
    expect(rows.filter((r: { ok: boolean }) => r.ok)).toHaveLength(around.length - 1)
    const failed = rows.find((r: { ok: boolean }) => !r.ok)
    expect(failed).toMatchObject({ file: broken.file, rules: null })
    expect(failed.failure).toMatch(/^read: MagicCompRules 20240308\.txt is not a text file/)
    expect(run.stdout).toContain(`${broken.file}: read: MagicCompRules 20240308.txt is not a text file`)
  })

  it('says where a lineage or its rule_links are incomplete, the matcher having stopped at its bound', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'archive-'))
    for (const r of releases().filter((x) => x.effective >= '2026')) copyFileSync(r.path, join(dir, r.file))
    const out = mkdtempSync(join(tmpdir(), 'history-'))
    const result = await buildHistory(dir, out, { matchWork: 1000 })
    expect(result.notes).toEqual([
      expect.stringMatching(/^history: lineage 2026-06-19 → 2026-08-07: the matcher stopped at its bound of 1,000 words compared, in step 1: of the \d+ removed and \d+ added rules/),
      'history: rule_links 2026-06-19 → 2026-08-07: the search for splits and merges stopped at its bound of 1,000 words compared; the rules it did not reach have no split-from or merged-from link',
    ])
    // The card says so too, for whoever reads the tables without the run's output.
    const card = readFileSync(join(out, 'README.md'), 'utf8')
    expect(card).toContain('## Incomplete lineage')
    expect(card).toContain(`- ${result.notes[1]!.replace(/^history: /, '')}`)
    expect((await buildHistory(dir, out)).notes).toEqual([])
    expect(readFileSync(join(out, 'README.md'), 'utf8')).not.toContain('Incomplete lineage')
  }, 120_000)

  it('says why a release that builds did not validate: its error codes and counts', async () => {
    // 2025-02-07 with the line of 704.5a given twice: what validate finds in that text is what the table says.
    const r = releases().find((x) => x.effective === '2025-02-07')!
    const dir = mkdtempSync(join(tmpdir(), 'archive-'))
    const lines = readFileSync(r.path, 'utf8').split('\r\n')
    const at = lines.findIndex((l) => l.startsWith('704.5a '))
    lines.splice(at, 0, lines[at]!)
    writeFileSync(join(dir, r.file), lines.join('\r\n'))
    const report = JSON.parse((await inProcess(['validate', join(dir, r.file), '--json'])).stdout)
    const errors = Object.entries(report.counts.byCode as Record<string, number>).filter(([code]) => report.diagnostics.some((d: { code: string; severity: string }) => d.code === code && d.severity === 'error'))
    expect(errors.length).toBeGreaterThan(0)
    const out = mkdtempSync(join(tmpdir(), 'history-'))
    const run = await inProcess(['history', dir, '--out', out])
    expect(run.status).toBe(1)
    const [row] = JSON.parse(readFileSync(join(out, 'history.json'), 'utf8'))
    const expected = `${report.counts.errors} validation error${report.counts.errors === 1 ? '' : 's'}: ${errors.sort(([a, m], [b, n]) => n - m || (a < b ? -1 : 1)).map(([code, n]) => `${n} ${code}`).join(', ')}`
    expect([row.ok, row.failure]).toEqual([false, expected])
    expect(run.stdout).toContain(`${r.file}: ${expected}`)
  })
})

describe('the whole-history dataset: rules_history and lineage', () => {
  const { out, run } = builtHistory()
  const rows = readFileSync(join(out, 'rules_history.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l))
  const facts = releases().sort((a, b) => a.effective.localeCompare(b.effective))

  it('holds one row per rule per release, oldest first, in every format, with a card and a manifest', () => {
    expect(run.status).toBe(0)
    expect(rows).toHaveLength(facts.reduce((n, f) => n + f.rules, 0))
    expect([...new Set(rows.map((r) => r.release))]).toEqual(facts.map((f) => f.effective))
    expect(Object.keys(rows[0])).toEqual(['release', 'number', 'text', 'examples', 'index', 'rule_id', 'previous_number', 'change'])
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'))
    expect(manifest.exports.filter((e: { table: string }) => e.table === 'rules_history').map((e: { path: string; rows: number }) => [e.path, e.rows])).toEqual(['parquet', 'jsonl', 'csv'].map((f) => [`rules_history.${f}`, rows.length]))
    const card = readFileSync(join(out, 'README.md'), 'utf8')
    expect(card).toMatch(/configs:\n {2}- config_name: rules_history\n {4}default: true/)
    for (const f of facts) expect(card).toContain(`| ${f.effective} | ${f.file} | ${f.rules} |`)
  })

  it('writes, a release at a time, the same bytes as the JSONL and CSV writers (worker prefixes + lineage ends)', () => {
    const history = startRulesHistory()
    let previous: { label: string; rows: ReturnType<typeof buildDataset>['rows'] } | null = null
    const csvHeader = writeCsv(RULES_HISTORY_TABLE, []).length
    for (const f of facts.filter((f) => ['2001-07-23', '2026-06-19', '2026-08-07'].includes(f.effective))) {
      const { rows: built, files } = buildDataset(f.file, readBytes(f.path))
      const file = (name: string) => files.find((x) => x.name === name)!.bytes
      // Cut from the release's own exports, or written anew: the same bytes.
      const cut = historyPrefixesOf(f.effective, built.length, file('rules.jsonl'), file('rules.csv'))!
      const written = historyPrefixes(f.effective, built)
      expect([Buffer.from(cut.jsonl).equals(Buffer.from(written.jsonl)), Buffer.from(cut.csv).equals(Buffer.from(written.csv))]).toEqual([true, true])
      expect([[...cut.jsonlEnds], [...cut.csvEnds]]).toEqual([[...written.jsonlEnds], [...written.csvEnds]])
      expect(historyPrefixesOf(f.effective, built.length + 1, file('rules.jsonl'), file('rules.csv'))).toBeNull()
      const lineage = previous ? diffReleases({ ...previous, sectionTitles: new Map() }, { label: f.effective, rows: built, sectionTitles: new Map() }).lineage : null
      const chunk = history.add(f.effective, built, lineage)
      const lines = historyLines(historyPrefixes(f.effective, built), chunk)
      expect(Buffer.from(lines.jsonl).equals(Buffer.from(writeJsonl(RULES_HISTORY_TABLE, chunk)))).toBe(true)
      expect(Buffer.from(lines.csv).equals(Buffer.from(writeCsv(RULES_HISTORY_TABLE, chunk).subarray(csvHeader)))).toBe(true)
      previous = { label: f.effective, rows: built }
    }
    // Quotes, commas, line breaks and non-ASCII text: the CSV quoting and UTF-8 offsets.
    const odd = [{ number: '100.1', text: 'He said "hi", then\nleft — Æther', examples: ['a,b', 'ü'], index: 0 }]
    const chunk = startRulesHistory().add('2026-01-01', odd, null)
    const lines = historyLines(historyPrefixes('2026-01-01', odd), chunk)
    expect(Buffer.from(lines.jsonl).toString()).toBe(Buffer.from(writeJsonl(RULES_HISTORY_TABLE, chunk)).toString())
    expect(Buffer.from(lines.csv).toString()).toBe(Buffer.from(writeCsv(RULES_HISTORY_TABLE, chunk).subarray(csvHeader)).toString())
    // A CR LF inside a text: the release's own CSV cannot be cut into its rows, and the prefixes are
    // written a row at a time by the same writers.
    const crlf = [{ ...odd[0]!, text: 'Two\r\nlines' }]
    expect(historyPrefixesOf('2026-01-01', 1, writeJsonl(RULES_TABLE, crlf), writeCsv(RULES_TABLE, crlf))).toBeNull()
    const crlfChunk = startRulesHistory().add('2026-01-01', crlf, null)
    const crlfLines = historyLines(historyPrefixes('2026-01-01', crlf), crlfChunk)
    expect([Buffer.from(crlfLines.jsonl).toString(), Buffer.from(crlfLines.csv).toString()]).toEqual([Buffer.from(writeJsonl(RULES_HISTORY_TABLE, crlfChunk)).toString(), Buffer.from(writeCsv(RULES_HISTORY_TABLE, crlfChunk).subarray(csvHeader)).toString()])
    // Lineage columns are ASCII as history writes them; a row given other characters there is still
    // written as the writers write it.
    const foreign = chunk.map((r) => ({ ...r, rule_id: '2026-01-01:100.1~Æ' }))
    const foreignLines = historyLines(historyPrefixes('2026-01-01', odd), foreign)
    expect(Buffer.from(foreignLines.jsonl).equals(Buffer.from(writeJsonl(RULES_HISTORY_TABLE, foreign)))).toBe(true)
    expect(Buffer.from(foreignLines.csv).equals(Buffer.from(writeCsv(RULES_HISTORY_TABLE, foreign).subarray(csvHeader)))).toBe(true)
  })

  // Where the title-only rule "Cast" stands in each release, read from the texts themselves.
  const castNumbers = facts.flatMap((f) => {
    const m = /^(\d{3}\.\d+)\. Cast\r?$/m.exec(decode(readBytes(f.path)).text)
    return m ? [[f.effective, m[1]!] as const] : []
  })

  it('follows a rule through renumbering: Cast was 701.4 until 2026-06-19, then 701.5', () => {
    expect(castNumbers.find(([date]) => date === '2026-06-19')?.[1]).toBe('701.5')
    expect(castNumbers.find(([date]) => date === '2025-02-07')?.[1]).toBe('701.4')
    const cast = rows.filter((r) => r.text === 'Cast')
    expect(new Set(cast.map((r) => r.rule_id)).size).toBe(1)
    expect(cast.map((r) => [r.release, r.number, r.change, r.previous_number])).toEqual(
      castNumbers.map(([date, number], i) => {
        const before = castNumbers[i - 1]?.[1] ?? null
        return [date, number, before === null ? 'added' : before === number ? 'unchanged' : 'moved', before]
      }),
    )
  })

  it('every real row satisfies its schema, and a damaged one is reported at its line', async () => {
    const { rowValidator } = await import('../src/checks/schema.js')
    const validate = rowValidator('rules_history')
    expect(rows.length).toBe(facts.reduce((n, f) => n + f.rules, 0))
    expect(rows.filter((r) => !validate(r))).toEqual([])
    // One real row with a change the schema does not have.
    const at = rows.findIndex((r) => r.release === '2024-03-08' && r.number === '702.9a')
    const damaged = { ...rows[at], change: 'removed' }
    expect(validate(damaged)).toBe(false)
    const lines = readFileSync(join(out, 'rules_history.jsonl'), 'utf8').trim().split('\n')
    lines[at] = JSON.stringify(damaged)
    // (Outside the history's folder, which a later test validates whole against its manifest.)
    const file = join(mkdtempSync(join(tmpdir(), 'damaged-history-')), 'rules_history.jsonl')
    writeFileSync(file, lines.join('\n') + '\n')
    const report = JSON.parse((await inProcess(['validate', file, '--json'])).stdout)
    expect(report.diagnostics.filter((d: { code: string }) => d.code === 'schema').map((d: { number: string; line: number; params: unknown }) => [d.number, d.line, d.params])).toEqual([
      ['702.9a', at + 1, { instancePath: '/change', release: '2024-03-08', releaseRow: at - rows.findIndex((r) => r.release === '2024-03-08') }],
    ])
  })

  it('validates, and validate finds a broken lineage', async () => {
    // The whole folder: the three exports of each table and the manifest.
    const whole = await inProcess(['validate', out, '--json'])
    expect(whole.status).toBe(0)
    const folder = JSON.parse(whole.stdout)
    expect(folder.map((r: { source: { file: string }; valid: boolean }) => [r.source.file.replace(out + '/', ''), r.valid])).toEqual([
      ['rule_links.csv', true],
      ['rule_links.jsonl', true],
      ['rule_links.parquet', true],
      ['rules_history.csv', true],
      ['rules_history.jsonl', true],
      ['rules_history.parquet', true],
      ['manifest.json', true],
    ])
    const broken = join(mkdtempSync(join(tmpdir(), 'broken-history-')), 'rules_history.jsonl')
    const lines = readFileSync(join(out, 'rules_history.jsonl'), 'utf8').trim().split('\n')
    const at = rows.findIndex((r) => r.release === '2026-06-19' && r.number === '701.5')
    lines[at] = JSON.stringify({ ...rows[at], previous_number: '701.99' })
    writeFileSync(broken, lines.join('\n') + '\n')
    const bad = await inProcess(['validate', broken, '--json'])
    expect(bad.status).toBe(1)
    // Named by its release and its row within it, as well as its line in the file.
    const releaseRow = at - rows.findIndex((r) => r.release === '2026-06-19')
    expect(JSON.parse(bad.stdout).diagnostics.filter((d: { code: string }) => d.code === 'lineage').map((d: { message: string; line: number; params: unknown }) => [d.message, d.line, d.params])).toEqual([
      [`release 2026-06-19, row ${releaseRow}: previous_number 701.99 is not a rule of the release before 2026-06-19`, at + 1, { release: '2026-06-19', releaseRow }],
    ])
    expect(rows[at - releaseRow].release === '2026-06-19' && rows[at - releaseRow - 1].release !== '2026-06-19').toBe(true)
  })

  it('validate finds a rule_id that does not follow its lineage: a continued rule with another id, an added one not named by its release and number', async () => {
    const lines = readFileSync(join(out, 'rules_history.jsonl'), 'utf8').trim().split('\n')
    const continued = rows.findIndex((r) => r.release === '2026-06-19' && r.number === '701.5')
    const added = rows.findIndex((r) => r.release === '2026-08-07' && r.change === 'added')
    // Ids of the right shape: only the lineage check can tell them wrong (the schema takes them).
    lines[continued] = JSON.stringify({ ...rows[continued], rule_id: '2001-07-23:100.1' })
    lines[added] = JSON.stringify({ ...rows[added], rule_id: `2026-06-19:${rows[added].number}` })
    const broken = join(mkdtempSync(join(tmpdir(), 'broken-ids-')), 'rules_history.jsonl')
    writeFileSync(broken, lines.join('\n') + '\n')
    const report = JSON.parse((await inProcess(['validate', broken, '--json'])).stdout)
    const found = report.diagnostics.map((d: { code: string; message: string }) => `${d.code}: ${d.message.replace(/^release \S+, row \d+: /, '')}`)
    expect(found.filter((f: string) => !/^(gap|dangling-reference)/.test(f))).toEqual([
      `lineage: rule_id 2001-07-23:100.1 is not the rule_id of ${rows[continued].previous_number} in the release before (${rows.find((r) => r.release === '2025-02-07' && r.number === rows[continued].previous_number).rule_id})`,
      `lineage: rule_id 2026-06-19:${rows[added].number} of an added rule is not 2026-08-07:${rows[added].number} (its release and number)`,
      // The next release's 701.5 continues the changed row, and keeps the id it had.
      `lineage: rule_id ${rows[continued].rule_id} is not the rule_id of 701.5 in the release before (2001-07-23:100.1)`,
    ])
  })

  it('validate follows a number two rules hold: the added one named {release}:{number}~{index}, the next release keeping either id', async () => {
    // 2026-06-19 with 702.20 added as a second 702.19 (as 2024-09-20 gave 702.175 twice); 2026-08-07 as published.
    const [held, newest] = facts.slice(-2).map((f) => f.effective)
    const at = (release: string, number: string) => rows.findIndex((r) => r.release === release && r.number === number)
    const second = rows[at(held!, '702.20')]
    const own = `${held}:702.19~${second.index}`
    const lineageOf = async (edits: Record<number, object>) => {
      const file = join(mkdtempSync(join(tmpdir(), 'held-twice-')), 'rules_history.jsonl')
      writeFileSync(file, rows.map((r, i) => JSON.stringify({ ...r, ...edits[i] })).join('\n') + '\n')
      const report = JSON.parse((await inProcess(['validate', file, '--json'])).stdout)
      return report.diagnostics.filter((d: { code: string }) => d.code === 'lineage').map((d: { message: string }) => d.message.replace(/^release \S+, row \d+: /, ''))
    }
    const twice = { [at(held!, '702.20')]: { number: '702.19', previous_number: null, change: 'added', rule_id: own } }
    // 2026-08-07's 702.20 continued a 702.20 that 2026-06-19 no longer has; its 702.19 keeps the first id.
    const lost = `previous_number 702.20 is not a rule of the release before ${newest}`
    expect(await lineageOf(twice)).toEqual([lost])
    // Its 702.19 continues 2026-06-19's first 702.19 under the same id; the second's id serves as well.
    const first = rows[at(held!, '702.19')].rule_id
    expect(rows[at(newest!, '702.19')].rule_id).toBe(first)
    expect(await lineageOf({ ...twice, [at(newest!, '702.19')]: { rule_id: own } })).toEqual([lost])
    expect(await lineageOf({ ...twice, [at(newest!, '702.19')]: { rule_id: `${newest}:702.19` } })).toEqual([`rule_id ${newest}:702.19 is not the rule_id of 702.19 in the release before (${first}, ${own})`, lost])
    // The index after `~` is the row's own.
    const wrong = `${held}:702.19~${second.index + 1}`
    expect(await lineageOf({ [at(held!, '702.20')]: { ...twice[at(held!, '702.20')], rule_id: wrong } })).toEqual([`rule_id ${wrong} of an added rule is not ${held}:702.19 (its release and number)`, lost])
  })

  it('writes rule_links: every continued rule as rules_history says, and the splits and merges one previous_number cannot say', () => {
    const links = readFileSync(join(out, 'rule_links.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l))
    const continued = rows.filter((r) => r.previous_number !== null)
    const releasesInOrder = facts.map((f) => f.effective)
    const before = (release: string) => releasesInOrder[releasesInOrder.indexOf(release) - 1]
    expect(links.filter((l) => l.relation === 'continues').map((l) => [l.release, l.number, l.previous_release, l.previous_number])).toEqual(continued.map((r) => [r.release, r.number, before(r.release), r.previous_number]))
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'))
    expect(manifest.exports.filter((e: { table: string }) => e.table === 'rule_links').map((e: { path: string; rows: number }) => [e.path, e.rows])).toEqual(['parquet', 'jsonl', 'csv'].map((f) => [`rule_links.${f}`, links.length]))
    // 2026-06-19 rewrote 500.4 and 500.5 (read in the two texts): the old 500.4's mana-pool sentence
    // went into the new 500.5, and the old 500.5's "until end of combat/turn" sentences became 500.5a and 500.5b.
    const parts = links.filter((l) => l.release === '2026-06-19' && l.relation !== 'continues' && l.number.startsWith('500.'))
    expect(parts.map((l) => [l.relation, l.previous_number, l.number])).toEqual([
      ['merged-from', '500.4', '500.5'],
      ['split-from', '500.5', '500.5a'],
      ['split-from', '500.5', '500.5b'],
    ])
    for (const l of links) expect(l.similarity).toBeGreaterThanOrEqual(l.relation === 'continues' ? 0 : 0.85)
    // Rules written on another keyword's model are no part of it: 2024-03-08's cloak rules (701.56) and manifest (701.34).
    expect(links.filter((l) => l.relation !== 'continues' && l.previous_number.startsWith('701.34') && l.number.startsWith('701.56'))).toEqual([])
    expect(readFileSync(join(out, 'README.md'), 'utf8')).toContain('- config_name: rule_links')
  })

  it('mtg-rules lineage prints a rule’s versions over time', async () => {
    const run = await inProcess(['lineage', out, '701.5', '--at', '2026-06-19'])
    expect(run.status).toBe(0)
    const [first, firstNumber] = castNumbers[0]!
    expect(run.stdout.split('\n').slice(0, 3)).toEqual(['rule 701.5 as of 2026-06-19 (release 2026-06-19)', '', `lineage ${first}:${firstNumber}, ${castNumbers.length} releases`])
    // Renumbered with the same text: said so, the text not repeated.
    expect(run.stdout).toContain('    Cast\n')
    expect(run.stdout).toContain('\n2026-06-19  701.5 (was 701.4)  moved, same text\n2026-08-07  701.5  unchanged\n')
    // Renumbered and reworded (read from the rows): said so, the new text shown.
    const trample = (release: string) => rows.find((r) => r.release === release && r.number === (release < '2016' ? '702.17b' : '702.19b'))!
    expect(trample('2016-07-22').previous_number).toBe('702.17b')
    expect(trample('2016-07-22').text).not.toBe(trample('2009-07-11').text)
    expect((await inProcess(['lineage', out, '702.19b'])).stdout).toContain(`\n2016-07-22  702.19b (was 702.17b)  moved, edited\n    ${trample('2016-07-22').text}\n`)
    // Renumbered as the ASCII text of 2009 became the typographic one of 2016 (read from the rows).
    const icon = (release: string, number: string) => rows.find((r) => r.release === release && r.number === number)!.text
    expect([icon('2009-07-11', '107.9').includes('_Future Sight_(R)'), icon('2016-07-22', '107.10').includes('Future Sight® set')]).toEqual([true, true])
    expect((await inProcess(['lineage', out, '107.10'])).stdout).toContain(`\n2009-07-11  107.9 (was 104.7)  moved, same text\n2016-07-22  107.10 (was 107.9)  moved, typography only\n    ${icon('2016-07-22', '107.10')}\n`)
    const json = JSON.parse((await inProcess(['lineage', out, '104.6', '--json'])).stdout)
    expect(json.versions.filter((v: { change: string }) => v.change === 'edited').map((v: { release: string }) => v.release)).toEqual(['2022-11-18', '2026-06-19'])
    expect((await inProcess(['lineage', out, '999.1'])).stderr).toBe(`lineage: no rule 999.1 in ${out}\n`)
    // The number as the CR writes it, with its period, is that rule; what is no rule number is said so, before any file is read.
    expect((await inProcess(['lineage', out, '701.5.', '--at', '2026-06-19'])).stdout).toBe(run.stdout)
    for (const wrong of ['702', '100.1l', '701.5A', '0701.5', ' 701.5', '701.5..']) {
      expect([wrong, (await inProcess(['lineage', join(out, 'missing'), wrong])).stderr]).toEqual([wrong, expect.stringMatching(new RegExp(`^mtg-rules lineage: "${wrong.replace(/\./g, '\\.')}" is no rule number: .*\\(usage: `))])
    }
    // The links one previous_number cannot say, from rule_links.
    expect((await inProcess(['lineage', out, '500.5'])).stdout).toMatch(/^2026-06-19 {2}500\.5 merged-from 500\.4 \(2025-02-07\), similarity 0\.\d+$/m)
    expect(JSON.parse((await inProcess(['lineage', out, '500.5a', '--json'])).stdout).links.map((l: { relation: string; previous_number: string }) => [l.relation, l.previous_number])).toEqual([['split-from', '500.5']])
  })

  it('a row its schema refuses (a text that is a number): exit 2, naming the file and row, never a crash', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lineage-bad-'))
    for (const name of ['rules_history.jsonl', 'rule_links.jsonl', 'lineage-index.json']) copyFileSync(join(out, name), join(dir, name))
    const lines = readFileSync(join(dir, 'rules_history.jsonl'), 'utf8').trimEnd().split('\n')
    const at = lines.findIndex((l) => JSON.parse(l).number === '704.5a')
    lines[at] = JSON.stringify({ ...JSON.parse(lines[at]!), text: 5 })
    writeFileSync(join(dir, 'rules_history.jsonl'), lines.join('\n') + '\n')
    const run = await inProcess(['lineage', dir, '704.5a'])
    expect(run.status).toBe(2)
    expect(run.stderr).toBe(`lineage: ${join(dir, 'rules_history.jsonl')}: row ${at}: /text must be string (validate it for the whole report)\n`)
  })

  it('--at DATE answers only with a rule that held the number in the release in force on that date', async () => {
    // A number of the 2001 text that no release since 2009-07-11 gives: read from the rows.
    const newestNumbers = new Set(rows.filter((r) => r.release === facts.at(-1)!.effective).map((r) => r.number))
    const gone = rows.find((r) => r.release === '2001-07-23' && !newestNumbers.has(r.number) && !rows.some((x) => x.number === r.number && x.release >= '2009-07-11'))!
    const lastRelease = rows.filter((r) => r.number === gone.number).map((r) => r.release).sort().at(-1)
    const refused = await inProcess(['lineage', out, gone.number, '--at', '2026-01-01'])
    const inForce = facts.filter((f) => f.effective <= '2026-01-01').at(-1)!.effective
    expect([refused.status, refused.stderr]).toEqual([2, `lineage: no rule ${gone.number} in the rules in force on 2026-01-01 (release ${inForce}); it was last in ${lastRelease}\n`])
    // On a date when it held the number, it answers; a date before the first release has no rules at all.
    const then = await inProcess(['lineage', out, gone.number, '--at', '2001-12-31'])
    expect([then.status, then.stdout.split('\n')[0]]).toEqual([0, `rule ${gone.number} as of 2001-12-31 (release 2001-07-23)`])
    expect((await inProcess(['lineage', out, gone.number, '--at', '1999-01-01'])).stderr).toBe(`lineage: ${out} holds no release on or before 1999-01-01\n`)
    // A day the calendar does not have is refused, never compared as text; 29 February of a leap year is a day.
    // Shaped as a date but no day of the calendar, or not shaped as one: each said as it is.
    for (const day of ['2026-02-30', '2026-13-01', '2025-02-29']) expect((await inProcess(['lineage', out, gone.number, '--at', day])).stderr, day).toMatch(new RegExp(`^mtg-rules lineage: --at takes a date as YYYY-MM-DD, and "${day}" is no day of the calendar \\(usage: `))
    for (const day of ['2026-8-07', 'yesterday']) expect((await inProcess(['lineage', out, gone.number, '--at', day])).stderr, day).toMatch(new RegExp(`^mtg-rules lineage: --at takes a date as YYYY-MM-DD, not "${day}" \\(usage: `))
    expect((await inProcess(['lineage', out, gone.number, '--at', '2004-02-29'])).status).toBe(0)
    // Without --at: the newest release does not have it; the last one that did is shown, and said so.
    const last = await inProcess(['lineage', out, gone.number])
    expect(last.stdout.split('\n')[0]).toBe(`rule ${gone.number} is not in the rules in ${facts.at(-1)!.effective}, the newest release: it was last in ${lastRelease}, shown below`)
  })

  it('lineage reads the lines lineage-index.json places, and answers as from the whole table', async () => {
    const index = JSON.parse(readFileSync(join(out, 'lineage-index.json'), 'utf8'))
    expect([index.bytes, index.lineBytes.length, index.releases]).toEqual([readFileSync(join(out, 'rules_history.jsonl')).length, rows.length, facts.map((f) => f.effective)])
    // The same folder without the index: every query answers the same, byte for byte.
    const bare = mkdtempSync(join(tmpdir(), 'history-no-index-'))
    for (const f of ['rules_history.jsonl', 'rule_links.jsonl']) copyFileSync(join(out, f), join(bare, f))
    const queries = [['701.5'], ['500.5', '--json'], ['500.5a'], ['104.6', '--at', '2022-11-18'], ['704.5a', '--at', '2001-12-31'], ['999.1']]
    const write = process.stderr.write
    const answers = await Promise.all(queries.map((q) => inProcess(['lineage', out, ...q])))
    // Commands run at once in this process each get their own stderr, and leave the process's as it was.
    expect(process.stderr.write).toBe(write)
    expect(answers.map((a) => a.status)).toEqual([0, 0, 0, 0, 2, 2])
    for (const [i, q] of queries.entries()) expect(await inProcess(['lineage', bare, ...q])).toMatchObject({ status: answers[i]!.status, stdout: answers[i]!.stdout, stderr: answers[i]!.stderr.replace(out, bare) })
    // An index that does not describe the file: the releases' lines in another order, the same size.
    // Every line read is checked against the index, so the answer is still the whole table's.
    const moved = mkdtempSync(join(tmpdir(), 'history-stale-index-'))
    const lines = readFileSync(join(out, 'rules_history.jsonl'), 'utf8').trim().split('\n')
    writeFileSync(join(moved, 'rules_history.jsonl'), [...lines.slice(1), lines[0]].join('\n') + '\n')
    for (const f of ['rule_links.jsonl', 'lineage-index.json']) copyFileSync(join(out, f), join(moved, f))
    const reordered = await inProcess(['lineage', moved, '701.5'])
    expect(reordered.status).toBe(0)
    expect(reordered.stdout).toBe((await inProcess(['lineage', bare, '701.5'])).stdout)
    // An index that does not place a rule the table holds (701.5's number renamed in it): the table
    // is asked, and answers.
    const blind = mkdtempSync(join(tmpdir(), 'history-blind-index-'))
    for (const f of ['rules_history.jsonl', 'rule_links.jsonl']) copyFileSync(join(out, f), join(blind, f))
    writeFileSync(join(blind, 'lineage-index.json'), JSON.stringify({ ...index, numbers: index.numbers.map((n: string) => (n === '701.5' ? '701.5z' : n)) }))
    expect(await inProcess(['lineage', blind, '701.5'])).toMatchObject({ status: 0, stdout: answers[0]!.stdout })
    // Ranges of rule_links that overlap would read more than the file: such an index is not used.
    const links = statSync(join(out, 'rule_links.jsonl')).size
    expect(lineageIndexOf(index, index.bytes, links)).not.toBeNull()
    expect(lineageIndexOf({ ...index, splitsAndMerges: [...index.splitsAndMerges, ...index.splitsAndMerges] }, index.bytes, links)).toBeNull()
    // An index that is a FIFO is never opened (it would wait for a writer): the table answers.
    const piped = mkdtempSync(join(tmpdir(), 'history-fifo-index-'))
    for (const f of ['rules_history.jsonl', 'rule_links.jsonl']) copyFileSync(join(out, f), join(piped, f))
    execFileSync('mkfifo', [join(piped, 'lineage-index.json')])
    const fromFifo = await inProcess(['lineage', piped, '701.5'])
    expect([fromFifo.status, fromFifo.stdout]).toEqual([0, answers[0]!.stdout])
  })

  it('a number two rules hold in one release answers with both', async () => {
    // The real rows of 2026-08-07 with 702.19's number given to 702.20 as well (as 2024-09-20 gave 702.175 twice).
    const newest = facts.at(-1)!.effective
    const copy = mkdtempSync(join(tmpdir(), 'history-duplicate-'))
    const trample = rows.find((r) => r.release === newest && r.number === '702.19')
    const next = rows.find((r) => r.release === newest && r.number === '702.20')
    const edited = rows.map((r) => (r === next ? { ...r, number: '702.19' } : r))
    writeFileSync(join(copy, 'rules_history.jsonl'), edited.map((r) => JSON.stringify(r)).join('\n') + '\n')
    const run = await inProcess(['lineage', copy, '702.19', '--json'])
    expect(run.status).toBe(0)
    const json = JSON.parse(run.stdout)
    expect(json.lineages.map((l: { rule_id: string }) => l.rule_id)).toEqual([trample.rule_id, next.rule_id])
    expect((await inProcess(['lineage', copy, '702.19'])).stdout.split('\n')[0]).toBe(`rule 702.19 in ${newest}, the newest release: 2 rules hold this number (${trample.rule_id}, ${next.rule_id})`)
  })
})

describe('history reads each release as it was dated', () => {
  it('a release rewritten between listing and building is not built (it could land under another date)', async () => {
    const { listReleases } = await import('../src/io/release-files.js')
    const { runHistoryTask } = await import('../src/io/history-tasks.js')
    const dir = mkdtempSync(join(tmpdir(), 'rewritten-'))
    const first = releases().find((r) => r.effective === '2026-06-19')!
    const second = releases().find((r) => r.effective === '2026-08-07')!
    copyFileSync(first.path, join(dir, 'MagicCompRules.txt'))
    const [listed] = await listReleases(dir)
    expect(listed).toMatchObject({ effectiveDate: '2026-06-19', sha256: createHash('sha256').update(readBytes(first.path)).digest('hex') })
    copyFileSync(second.path, join(dir, 'MagicCompRules.txt'))
    const task = { kind: 'build', name: listed!.name, path: listed!.path, sha256: listed!.sha256, arrow: false, outDir: join(dir, 'out'), shownDir: 'out' } as const
    await expect(runHistoryTask(task)).rejects.toThrow(/^read: MagicCompRules\.txt changed while history was running; not built$/)
  })
})
