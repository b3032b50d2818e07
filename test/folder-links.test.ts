import { spawn, spawnSync } from 'node:child_process'
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { builtDataset, builtHistory, datasetCopy } from './helpers/built.js'
import { inProcess } from './helpers/cli.js'
import { CLI, release, releases } from './helpers/shared.js'

// The GitHub Action validates checked-out data: a pull request can plant a link in a dataset folder.
// A link is followed only to a file inside the folder, and a file that is not data is never echoed.
const SECRET = 'TOKEN=ghp_0123456789abcdefSECRET'

describe('a dataset folder with planted links', () => {
  const root = mkdtempSync(join(tmpdir(), 'links-'))
  const out = datasetCopy('2026-08-07', root)
  const secret = join(root, 'secret.env')

  beforeAll(() => {
    writeFileSync(secret, `${SECRET}\nOTHER=1\n`)
  })

  const github = (args: string[]) => {
    const summary = join(root, `summary-${Math.random().toString(36).slice(2)}.md`)
    const run = spawnSync(process.execPath, [CLI, ...args, '--format', 'github'], { encoding: 'utf8', env: { ...process.env, GITHUB_STEP_SUMMARY: summary } })
    return { status: run.status, stdout: run.stdout, stderr: run.stderr, summary: readFileSync(summary, 'utf8') }
  }

  it('a table linked to a file outside the folder is not read: an unreadable error, the rest checked, exit 2', async () => {
    rmSync(join(out, 'glossary.csv'))
    symlinkSync(secret, join(out, 'glossary.csv'))
    const run = github(['validate', out])
    expect(run.status).toBe(2)
    expect(run.stdout + run.stderr + run.summary).not.toContain('ghp_')
    expect(run.stdout).toContain(`::error file=${join(out, 'glossary.csv')},title=unreadable::read: ${join(out, 'glossary.csv')} is a link to a file outside ${out}: not read`)
    // Every other table still has its report, and the summary lists every file.
    for (const name of ['rules.parquet', 'rules.jsonl', 'references.csv', 'manifest.json']) expect(run.summary).toContain(name)
    const json = JSON.parse((await inProcess(['validate', out, '--json'])).stdout) as { source: { file: string }; valid: boolean }[]
    expect(json.filter((r) => !r.valid).map((r) => r.source.file.slice(out.length + 1))).toEqual(['glossary.csv', 'manifest.json'])
  })

  it('a table linked to a file inside the folder is read, a folder named with two dots (..tables/) included', async () => {
    const own = datasetCopy('2026-08-07')
    mkdirSync(join(own, '..tables'))
    renameSync(join(own, 'glossary.jsonl'), join(own, '..tables', 'glossary.jsonl'))
    symlinkSync(join(own, '..tables', 'glossary.jsonl'), join(own, 'glossary.jsonl'))
    const reports = JSON.parse((await inProcess(['validate', own, '--json'])).stdout) as { source: { file: string; rows: number }; diagnostics: { code: string }[] }[]
    const glossary = reports.find((r) => r.source.file === join(own, 'glossary.jsonl'))!
    expect([glossary.source.rows, glossary.diagnostics.map((d) => d.code)]).toEqual([739, []])
  })

  it('a dangling link and a link loop are unreadable too, never an internal error', async () => {
    rmSync(join(out, 'glossary.jsonl'))
    symlinkSync(join(root, 'nowhere.jsonl'), join(out, 'glossary.jsonl'))
    rmSync(join(out, 'references.jsonl'))
    symlinkSync(join(out, 'references.jsonl'), join(out, 'references.jsonl'))
    const run = await inProcess(['validate', out])
    expect(run.status).toBe(2)
    expect(run.stdout).toContain(`error unreadable: read: ${join(out, 'glossary.jsonl')} is a link that leads nowhere (a missing file or a loop): not read`)
    expect(run.stdout).toContain(`error unreadable: read: ${join(out, 'references.jsonl')} is a link that leads nowhere`)
  })

  it('a file that is not data, named as a table, is counted, never echoed', () => {
    const file = join(root, 'glossary.csv')
    writeFileSync(file, `${SECRET}\nOTHER=1\n`)
    const run = github(['validate', file])
    expect(run.status).toBe(1)
    expect(run.stdout + run.summary).not.toContain('ghp_')
    expect(run.stdout).toContain("none of the file's 1 column is a column of the glossary table (their names are not shown: the file may not be data)")
    // JSONL keys that are not names are not echoed by the row checks either.
    const jsonl = join(root, 'rules.jsonl')
    writeFileSync(jsonl, JSON.stringify({ number: '100.1', text: 'A rule.', examples: [], index: 0, [SECRET]: 1 }) + '\n' + JSON.stringify({ number: '100.2', text: 'A rule.', examples: [], index: 1 }) + '\n')
    const keys = github(['validate', jsonl])
    expect(keys.status).toBe(1)
    expect(keys.stdout + keys.summary).not.toContain('ghp_')
    expect(keys.stdout).toContain(`unknown column: (a column name of ${SECRET.length} characters, not shown)`)
  })

  it('a missing column is one finding, not one per row', () => {
    const file = join(root, 'no-examples.jsonl')
    writeFileSync(file, Array.from({ length: 2000 }, (_, i) => JSON.stringify({ number: `100.${i + 1}`, text: 'A rule.', index: i })).join('\n') + '\n')
    const run = github(['validate', file])
    expect(run.status).toBe(1)
    expect(run.stdout.trim().split('\n')).toEqual([`${file}: INVALID, 2000 rows, 1 errors, 0 warnings (1 columns)`, `::error file=${file},title=columns::missing column: examples`])
  })
})

describe('a dataset folder whose manifest.json is not what it says', () => {
  const folder = () => datasetCopy('2026-08-07')
  const manifestReport = async (out: string) => {
    const run = await inProcess(['validate', out, '--json'])
    const reports = JSON.parse(run.stdout) as { source: { file: string }; diagnostics: { code: string; message: string }[] }[]
    return { status: run.status, diagnostics: reports.find((r) => r.source.file.endsWith('manifest.json'))!.diagnostics.map((d) => `${d.code}: ${d.message}`) }
  }

  it.each([
    ['null', 'null', 1, ['manifest: manifest.json is not a JSON object']],
    ['an exports list holding null', '{"exports": [null, {"path": "rules.jsonl"}]}', 1, ['manifest: manifest.json exports[0] is not an export (an object with a path, bytes, rows and sha256)', 'manifest: manifest.json exports[1] is not an export (an object with a path, bytes, rows and sha256)']],
  ] as const)('%s: manifest errors, never an internal error', async (_, text, status, expected) => {
    const out = folder()
    writeFileSync(join(out, 'manifest.json'), text)
    const got = await manifestReport(out)
    expect(got.status).toBe(status)
    expect(got.diagnostics.filter((d) => !d.includes('is in the folder but not listed'))).toEqual(expected)
  })

  it('a folder, a FIFO or a link to /dev/zero as manifest.json: unreadable, at once, exit 2', () => {
    for (const plant of [
      (m: string) => mkdirSync(m),
      (m: string) => spawnSync('mkfifo', [m]),
      (m: string) => symlinkSync('/dev/zero', m),
    ]) {
      const out = folder()
      rmSync(join(out, 'manifest.json'))
      plant(join(out, 'manifest.json'))
      const run = spawnSync(process.execPath, ['--max-old-space-size=256', CLI, 'validate', out], { encoding: 'utf8', timeout: 20_000, killSignal: 'SIGKILL' })
      expect([run.status, run.signal]).toEqual([2, null])
      expect(run.stdout).toMatch(/error unreadable: read: .*manifest\.json (is a folder, not a manifest|is a FIFO, not a manifest|is a link to a file outside .*: not read)/)
    }
  })
})

describe('validate DIR while a build replaces DIR', () => {
  it('every run reports one set, old or new, never a mixture', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'switch-'))
    const out = join(parent, 'out')
    const texts = [release('2026-06-19').path, release('2026-08-07').path]
    expect((await inProcess(['build', texts[1]!, '--out', out])).status).toBe(0)
    // Three more builds, alternating releases, a pause between them; validate runs back to back throughout.
    const script = texts.concat(texts[0]!).map((t) => `node ${JSON.stringify(CLI)} build ${JSON.stringify(t)} --out ${JSON.stringify(out)} >/dev/null && sleep 0.4`).join(' && ')
    const builder = spawn('bash', ['-c', script], { stdio: 'ignore' })
    const ended = new Promise<number | null>((resolve) => builder.on('exit', resolve))
    let running = true
    void ended.then(() => (running = false))
    const outcomes: string[] = []
    while (running || outcomes.length < 3) {
      const run = await new Promise<{ status: number | null; stdout: string }>((resolve) => {
        const child = spawn(process.execPath, [CLI, 'validate', out, '--json'])
        let stdout = ''
        child.stdout.on('data', (c) => (stdout += c))
        child.on('exit', (status) => resolve({ status, stdout }))
      })
      const reports = JSON.parse(run.stdout) as { valid: boolean; source: { file: string }; diagnostics: { message: string }[] }[]
      outcomes.push(run.status === 0 ? 'ok' : reports.filter((r) => !r.valid).map((r) => `${r.source.file}: ${r.diagnostics[0]?.message}`).join('; '))
    }
    expect(await ended).toBe(0)
    expect(outcomes.filter((o) => o !== 'ok')).toEqual([])
  }, 120_000)
})

describe('one set of files, whatever switches the folder meanwhile (validate DIR and site read through it)', () => {
  it('a folder switched while read is read again, whole; one that keeps switching is read a few times at most', async () => {
    const { readOneSet } = await import('../src/io/files.js')
    const parent = mkdtempSync(join(tmpdir(), 'one-set-'))
    const dir = join(parent, 'out')
    const write = (path: string, text: string) => {
      mkdirSync(path)
      writeFileSync(join(path, 'a.txt'), text)
    }
    // A build's switch: the new set renamed in, the old one moved aside.
    let switches = 0
    const switchIn = (text: string) => {
      const next = join(parent, `next-${++switches}`)
      write(next, text)
      renameSync(dir, join(parent, `old-${switches}`))
      renameSync(next, dir)
    }
    write(dir, 'first')
    let reads = 0
    const value = await readOneSet(dir, async () => {
      reads++
      const seen = readFileSync(join(dir, 'a.txt'), 'utf8')
      if (reads === 1) switchIn('second')
      return seen
    })
    expect([value, reads]).toEqual(['second', 2])
    reads = 0
    await readOneSet(dir, async () => void (++reads, switchIn(`again ${reads}`)))
    expect(reads).toBe(4)
  })
})

describe('several paths, one of them unusable', () => {
  it('every path gets its report (an unreadable one an error in its own), the summary lists them all, exit 2', () => {
    const root = mkdtempSync(join(tmpdir(), 'paths-'))
    const out = builtDataset('2026-08-07')
    const cut = join(root, 'glossary.parquet')
    writeFileSync(cut, readFileSync(join(out, 'glossary.parquet')).subarray(0, 3000))
    const readme = join(root, 'README.md')
    writeFileSync(readme, '# notes\n')
    const summary = join(root, 'summary.md')
    const run = spawnSync(process.execPath, [CLI, 'validate', join(out, 'rules.parquet'), cut, readme, join(out, 'rules.jsonl'), '--format', 'github'], { encoding: 'utf8', env: { ...process.env, GITHUB_STEP_SUMMARY: summary } })
    expect(run.status).toBe(2)
    expect(run.stdout).toMatch(new RegExp(`^::error file=${cut.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')},title=unreadable::read: .*glossary\\.parquet is not a Parquet file`, 'm'))
    expect(run.stdout).toContain(`::error file=${readme},title=unreadable::read: cannot tell the format of ${readme}`)
    for (const name of ['rules.parquet', 'glossary.parquet', 'README.md', 'rules.jsonl']) expect(readFileSync(summary, 'utf8')).toContain(name)
    // One path alone: its error is the run's one line, and its annotation names the file.
    const alone = spawnSync(process.execPath, [CLI, 'validate', cut, '--format', 'github'], { encoding: 'utf8' })
    expect(alone.status).toBe(2)
    expect(alone.stdout).toMatch(/^::error file=.*glossary\.parquet,title=mtg-rules validate::read: /)
  })
})

describe('a dataset folder holding exports not named after a table', () => {
  it('checks the table files and says which others it did not check (never a silent skip): exports named after no table, folders holding a dataset of their own', async () => {
    // Exports of another project: no manifest (ours lists its files, and one it does not list is an error).
    const out = mkdtempSync(join(tmpdir(), 'unnamed-'))
    const built = builtDataset('2026-08-07')
    for (const [from, to] of [['rules.jsonl', 'rules.jsonl'], ['glossary.csv', 'glossary.csv'], ['rules.jsonl', 'rules-2024.jsonl'], ['glossary.csv', 'terms.csv']]) cpSync(join(built, from!), join(out, to!))
    const run = await inProcess(['validate', out])
    expect(run.status).toBe(0)
    expect(run.stderr).toBe(`validate: ${out}: not checked: rules-2024.jsonl, terms.csv (their names are no table's: validate each by its path)\nvalidate: 2 files checked, all valid\n`)
    expect(run.stdout).not.toContain('rules-2024.jsonl')
    // Named, it is checked.
    expect((await inProcess(['validate', join(out, 'terms.csv')])).stdout).toMatch(/terms\.csv: valid, \d+ rows/)
    // A history folder as history writes it: its own history.csv is no table's file; its release
    // folders (each a dataset) are named, as validate DIR does not descend into them.
    const history = builtHistory().out
    const folders = readdirSync(history, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort()
    expect(folders).toEqual(releases().map((r) => r.effective))
    expect((await inProcess(['validate', history])).stderr.split('\n')[0]).toBe(`validate: ${history}: not checked: ${folders.length} dataset folders inside it, ${folders[0]}/ … ${folders.at(-1)}/ (validate each by its path, or the folder with --recursive)`)
    // One folder: named; a folder holding no dataset (notes/): not named.
    const one = mkdtempSync(join(tmpdir(), 'one-inside-'))
    cpSync(built, join(one, 'out'), { recursive: true })
    mkdirSync(join(one, 'notes'))
    writeFileSync(join(one, 'notes', 'todo.md'), 'x')
    cpSync(join(built, 'rules.jsonl'), join(one, 'rules.jsonl'))
    expect((await inProcess(['validate', one])).stderr).toBe(`validate: ${one}: not checked: 1 dataset folder inside it, out/ (validate it by its path, or the folder with --recursive)\n`)
  })
})

describe('validate --recursive', () => {
  it('a folder below that cannot be listed (permission denied) is said, never passed over unsaid; with --recursive, an unreadable report (exit 2)', () => {
    // Run as a user the folder refuses: root drops the capabilities that let it list any folder.
    const asUser = (args: string[]) => {
      const command = process.getuid?.() === 0 ? ['setpriv', '--bounding-set=-dac_override,-dac_read_search', process.execPath] : [process.execPath]
      const r = spawnSync(command[0]!, [...command.slice(1), CLI, ...args], { encoding: 'utf8' })
      return { status: r.status, stdout: r.stdout, stderr: r.stderr }
    }
    const parent = mkdtempSync(join(tmpdir(), 'unlisted-'))
    cpSync(builtDataset('2026-08-07'), join(parent, 'open', 'out'), { recursive: true })
    mkdirSync(join(parent, 'locked', 'inner'), { recursive: true })
    chmodSync(join(parent, 'locked'), 0)
    try {
      const line = `validate: ${parent}: 1 folder below it could not be listed, so not looked into for datasets: locked/ (permission denied)`
      const named = asUser(['validate', parent])
      expect([named.status, named.stderr.split('\n')]).toEqual([2, [`validate: ${parent} holds no dataset itself, and 1 dataset folder below it: open/out/: validate it by its path, or the folder with --recursive; ${line.slice(line.indexOf(' 1 folder') + 1)}`, '']])
      // --recursive: the dataset that could be listed is checked as by its own path, and the folder
      // that could not be listed is an unreadable report of its own after it (exit 2, as a file that
      // cannot be read), in the text verdict and in JSON alike.
      const locked = join(parent, 'locked')
      const alone = JSON.parse(asUser(['validate', join(parent, 'open', 'out'), '--json']).stdout) as unknown[]
      const checked = asUser(['validate', parent, '--recursive'])
      expect([checked.status, checked.stderr]).toEqual([2, `validate: ${alone.length + 1} files checked: 1 invalid (${locked}), ${alone.length} valid\n`])
      const json = asUser(['validate', parent, '--recursive', '--json'])
      expect(json.status).toBe(2)
      const reports = JSON.parse(json.stdout) as { source: { file: string }; valid: boolean; diagnostics: { code: string; message: string }[] }[]
      expect(reports.slice(0, -1)).toEqual(alone)
      expect(reports.at(-1)).toMatchObject({ source: { file: locked }, valid: false, diagnostics: [{ code: 'unreadable', severity: 'error', message: `validate: ${locked} cannot be listed (permission denied), so it was not looked into for datasets` }] })
      // Nothing else below it: the folder holds no dataset that could be seen, and says why it may.
      rmSync(join(parent, 'open'), { recursive: true })
      const none = asUser(['validate', parent])
      expect([none.status, none.stderr]).toEqual([2, `validate: ${parent} holds no dataset (no .jsonl, .ndjson, .csv, .parquet, .arrow or .feather file, no manifest.json); ${line.slice(line.indexOf(' 1 folder') + 1)}\n`])
    } finally {
      chmodSync(join(parent, 'locked'), 0o755)
    }
  })

  it('checks a folder and every dataset folder below it, each file once; one that fails is said in its own reports', async () => {
    // A dataset, and two more two levels below it (one damaged); without --recursive those are named.
    const parent = datasetCopy('2026-08-07')
    mkdirSync(join(parent, 'by-year', '2026'), { recursive: true })
    cpSync(builtDataset('2026-06-19'), join(parent, 'by-year', '2026', 'june'), { recursive: true })
    cpSync(builtDataset('2026-08-07'), join(parent, 'by-year', '2026', 'august'), { recursive: true })
    rmSync(join(parent, 'by-year', '2026', 'june', 'glossary.csv'))
    const flat = await inProcess(['validate', parent])
    const files = flat.stdout.split('\n').filter((l) => /: (valid|INVALID), /.test(l)).length
    expect([flat.status, flat.stderr]).toEqual([0, `validate: ${parent}: not checked: 2 dataset folders inside it, by-year/2026/august/, by-year/2026/june/ (validate each by its path, or the folder with --recursive)\nvalidate: ${files} files checked, all valid\n`])
    const nested = await inProcess(['validate', parent, '--recursive', '--json'])
    expect([nested.status, nested.stderr]).toEqual([1, ''])
    // In text, the run's verdict ends it: how many files, and which failed (the reports above say why).
    const said = await inProcess(['validate', parent, '--recursive'])
    expect([said.status, said.stderr]).toEqual([1, `validate: ${JSON.parse(nested.stdout).length} files checked: 1 invalid (${join(parent, 'by-year/2026/june/manifest.json')}), ${JSON.parse(nested.stdout).length - 1} valid\n`])
    const byFolder = (JSON.parse(nested.stdout) as { source: { file: string }; valid: boolean }[]).map((r) => [r.source.file.slice(parent.length + 1).replace(/\/?[^/]+$/, ''), r.source.file.replace(/^.*\//, ''), r.valid])
    // The folder first, then those below in order of their paths, each one's files as validate DIR gives them; only june's manifest fails.
    expect([...new Set(byFolder.map(([folder]) => folder))]).toEqual(['', 'by-year/2026/august', 'by-year/2026/june'])
    expect(byFolder.filter(([folder]) => folder === '')).toEqual(byFolder.filter(([folder]) => folder === 'by-year/2026/august').map(([, file, valid]) => ['', file, valid]))
    expect(byFolder.filter(([, , valid]) => !valid)).toEqual([['by-year/2026/june', 'manifest.json', false]])
    expect(byFolder.filter(([folder]) => folder === 'by-year/2026/june').length).toBe(byFolder.filter(([folder]) => folder === '').length - 1)
    // A parent that holds no dataset itself: only those below it, with --recursive; without, one line, exit 2.
    const above = join(parent, 'by-year')
    expect(JSON.parse((await inProcess(['validate', above, '--recursive', '--json'])).stdout).length).toBe(byFolder.filter(([folder]) => folder !== '').length)
    // Bounded: a dataset among 1,001 empty folders (as a node_modules may hold) is named after the
    // first 1,000 looked into; the walk stops at its limit, which --recursive (10,000) refuses past.
    const crowded = datasetCopy('2026-08-07')
    for (let i = 0; i <= 1000; i++) mkdirSync(join(crowded, 'many', String(i).padStart(4, '0')), { recursive: true })
    expect((await inProcess(['validate', crowded])).stderr).toBe(`validate: ${crowded}: of the folders below it, the first 1,000 were looked into for datasets, not the others\nvalidate: ${files} files checked, all valid\n`)
    const { datasetFoldersInside } = await import('../src/io/validate-folder.js')
    expect(datasetFoldersInside(crowded, 10)).toEqual({ found: [], complete: false, unlisted: [] })
    expect(datasetFoldersInside(parent, 4)).toEqual({ found: ['by-year/2026/august', 'by-year/2026/june'], complete: true, unlisted: [] })
    expect(datasetFoldersInside(parent, 3)).toEqual({ found: ['by-year/2026/august'], complete: false, unlisted: [] })
    const refused = await inProcess(['validate', above])
    expect([refused.status, refused.stderr]).toEqual([2, `validate: ${above} holds no dataset itself, and 2 dataset folders below it: 2026/august/, 2026/june/: validate each by its path, or the folder with --recursive\n`])
  })
})

describe('a dataset folder in a Hugging Face layout', () => {
  it('data/<config>/train-00000-of-00001.parquet, or train-*.parquet at the top: each table told by its columns', async () => {
    const root = mkdtempSync(join(tmpdir(), 'hf-layout-'))
    const out = builtDataset('2026-08-07')
    const nested = join(root, 'nested')
    for (const table of ['rules', 'glossary']) {
      mkdirSync(join(nested, 'data', table), { recursive: true })
      writeFileSync(join(nested, 'data', table, 'train-00000-of-00001.parquet'), readFileSync(join(out, `${table}.parquet`)))
    }
    const reports = JSON.parse((await inProcess(['validate', nested, '--json'])).stdout) as { source: { file: string; table: string; rows: number }; valid: boolean; notes: string[] }[]
    expect(reports.map((r) => [r.source.file.slice(nested.length + 1), r.source.table, r.source.rows, r.valid])).toEqual([
      ['data/rules/train-00000-of-00001.parquet', 'rules', 3162, true],
      ['data/glossary/train-00000-of-00001.parquet', 'glossary', 739, true],
    ])
    // A note says how a companion table was told when its name does not say it; named so, nothing to say.
    expect(reports[1]!.notes).toEqual(['read as the glossary table: its columns are that table’s (its name does not say)'])
    const named = JSON.parse((await inProcess(['validate', join(out, 'glossary.parquet'), '--json'])).stdout) as { source: { table: string }; notes: string[] }
    expect([named.source.table, named.notes]).toEqual(['glossary', []])
    const flat = join(root, 'flat')
    mkdirSync(flat)
    writeFileSync(join(flat, 'train-00000-of-00001.parquet'), readFileSync(join(out, 'rules.parquet')))
    const run = await inProcess(['validate', flat])
    expect(run.status).toBe(0)
    expect(run.stdout).toContain('train-00000-of-00001.parquet: valid, 3162 rows')
    // One config, its files in data/ itself (Hugging Face's usual layout), and JSON Lines as .json
    // there (Hugging Face's loader reads them so; at the top, .json files are metadata, ours among them).
    const single = join(root, 'single')
    mkdirSync(join(single, 'data'), { recursive: true })
    writeFileSync(join(single, 'data', 'train-00000-of-00001.parquet'), readFileSync(join(out, 'rules.parquet')))
    writeFileSync(join(single, 'data', 'test.json'), readFileSync(join(out, 'rules.jsonl')))
    writeFileSync(join(single, 'dataset_infos.json'), '{}')
    const one = await inProcess(['validate', single, '--json'])
    expect([one.status, one.stderr]).toEqual([0, ''])
    expect((JSON.parse(one.stdout) as { source: { file: string; table: string; rows: number } }[]).map((r) => [r.source.file.slice(single.length + 1), r.source.table, r.source.rows])).toEqual([
      ['data/test.json', 'rules', 3162],
      ['data/train-00000-of-00001.parquet', 'rules', 3162],
    ])
    // A config folder that is a link out of the dataset is not followed.
    const linked = join(root, 'linked')
    mkdirSync(join(linked, 'data'), { recursive: true })
    symlinkSync(join(nested, 'data', 'rules'), join(linked, 'data', 'rules'))
    expect((await inProcess(['validate', linked])).stdout).not.toContain('valid, 3162 rows')
  })
})
