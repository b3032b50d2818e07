import { spawn, spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse as parseYaml } from 'yaml'
import { EXPORT_EXTENSIONS } from '../src/validate/validate-export.js'
import { builtDataset } from './helpers/built.js'
import { cli, snapshot, inProcess } from './helpers/cli.js'
import { writeHfExports } from './helpers/hf-exports.js'
import { sampleRows } from './helpers/hf-sample.js'
import { CLI, release, REPO, RULES_ARCHIVE } from './helpers/shared.js'

const r = release('2025-02-07')
const tmp = mkdtempSync(join(tmpdir(), 'conventions-'))
const built = builtDataset(r.effective)

describe('help and version, like git and ripgrep', () => {
  it.each([
    [['build', '--help']],
    [['build', '-h']],
    [['help', 'build']],
  ])('%j prints the command’s usage to stdout and exits 0', (args) => {
    const run = cli(args)
    expect([run.status, run.stderr]).toEqual([0, ''])
    expect(run.stdout).toMatch(/^Usage: mtg-rules build FILE \[--out DIR\]/)
    expect(run.stdout).toContain('--allow-errors')
  })

  // The commands are the modules of src/cli/ that export a run function (cli.ts aside: it runs them).
  const commands = readdirSync(join(REPO, 'src/cli'))
    .filter((f) => f !== 'cli.ts' && /export async function run\(/.test(readFileSync(join(REPO, 'src/cli', f), 'utf8')))
    .map((f) => f.replace(/\.ts$/, ''))

  it('mtg-rules --help lists every command, each with its operands; no arguments print it to stderr, exit 2', async () => {
    const help = await inProcess(['--help'])
    expect(help.status).toBe(0)
    expect(commands).toContain('site')
    for (const c of [...commands, 'help']) {
      const operands = (await inProcess(['help', c])).stdout.split('\n')[0]!.replace(/^Usage: mtg-rules /, '').replace(/ \[--.*$/, '')
      expect(help.stdout, c).toMatch(new RegExp(`^  ${operands.replace(/[.[\]]/g, '\\$&')} +[a-z]`, 'm'))
    }
    expect(help.stdout.match(/^  [a-z]+\b/gm)).toHaveLength(commands.length + 1)
    const none = await inProcess([])
    expect([none.status, none.stdout]).toEqual([2, ''])
    expect(none.stderr).toMatch(/^Usage: mtg-rules <command>/)
  })

  it('every command’s help names every option its parser takes; help --help is help’s own', async () => {
    for (const command of commands) {
      const source = readFileSync(join(REPO, 'src/cli', `${command}.ts`), 'utf8')
      const options = [...(/options: \{([^]*?)\}\s*,?\s*\}\)/.exec(source)?.[1] ?? '').matchAll(/'?([a-z][\w-]*)'?: \{ type:/g)].map((m) => m[1]!)
      const help = await inProcess([command, '--help'])
      expect(help.status).toBe(0)
      for (const option of options) expect(help.stdout, `${command} --${option}`).toMatch(new RegExp(`^  --${option}\\b`, 'm'))
    }
    expect((await inProcess(['history', '--help'])).stdout).toContain('(default out-history)')
    const helpHelp = await inProcess(['help', '--help'])
    expect([helpHelp.status, helpHelp.stdout.split('\n')[0]]).toEqual([0, 'Usage: mtg-rules help [COMMAND]'])
  })

  it('-V prints the version from package.json', async () => {
    const version = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')).version
    expect(await inProcess(['-V'])).toEqual({ status: 0, stdout: `${version}\n`, stderr: '' })
  })

  it('names every export extension validate takes, in its help and its errors (.ndjson and .feather were left out)', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'no-dataset-'))
    const said = [(await inProcess(['validate', '--help'])).stdout, (await inProcess(['validate', 'rules.xlsx'])).stderr, (await inProcess(['validate', empty])).stderr]
    for (const text of said) for (const [ext] of EXPORT_EXTENSIONS) expect(text, text).toMatch(new RegExp(`\\.${ext}\\b`))
  })

  it('suggests the nearest command for a typo', async () => {
    const run = await inProcess(['valdiate', 'x.jsonl'])
    expect(run.status).toBe(2)
    expect(run.stderr).toBe('mtg-rules: unknown command "valdiate" (did you mean validate?) (mtg-rules --help lists the commands)\n')
  })
})

describe('output into a pipe that closes early', () => {
  it('ends quietly with the command’s exit code when the reader stops (| head -1)', () => {
    const run = spawnSync('bash', ['-c', `node "${CLI}" diff "${release('2016-07-22').path}" "${r.path}" --json | head -c 100 >/dev/null; echo "status=\${PIPESTATUS[0]}"`], { encoding: 'utf8' })
    expect(run.stdout.trim()).toBe('status=0')
    expect(run.stderr).toBe('')
  })
})

describe('an error names the command that was run, or the stage that failed, never another command', () => {
  it('a file of no known format, a missing or empty folder of releases: each command says it in its own name', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'no-releases-'))
    const text = release('2026-08-07').path
    const cases: [string, string[]][] = [
      ['diff', ['diff', join(REPO, 'README.md'), text]],
      ['diff', ['diff', text, join(REPO, 'Makefile')]],
      ['previous', ['previous', join(tmp, 'missing-folder'), text]],
      ['previous', ['previous', empty, text]],
      ['history', ['history', join(tmp, 'missing-folder'), '--out', join(tmp, 'h')]],
      ['history', ['history', empty, '--out', join(tmp, 'h')]],
      ['fetch', ['fetch', '--from', join(tmp, 'missing-folder'), '--dest', join(tmp, 'raw')]],
      ['validate', ['validate', join(REPO, 'Makefile')]],
    ]
    const commands = ['build', 'validate', 'site', 'diff', 'history', 'lineage', 'previous', 'fetch']
    for (const [command, args] of cases) {
      const run = await inProcess(args)
      expect(run.status, args.join(' ')).toBe(2)
      const named = /^(?:mtg-rules )?([a-z]+):/.exec(run.stderr)?.[1]
      expect([args.join(' '), named && commands.includes(named) ? named : command], run.stderr).toEqual([args.join(' '), command])
    }
  })

  it('validate of a folder of CR texts (an archive) says what checks those', async () => {
    const run = await inProcess(['validate', RULES_ARCHIVE])
    const texts = readdirSync(RULES_ARCHIVE).filter((n) => n.endsWith('.txt')).length
    expect([run.status, run.stderr]).toEqual([2, `validate: ${RULES_ARCHIVE} holds no dataset (no .jsonl, .ndjson, .csv, .parquet, .arrow or .feather file, no manifest.json); it holds ${texts} .txt files: validate each by its path, or mtg-rules history DIR builds and validates them all\n`])
  })
})

describe('text output never carries raw control characters from the data', () => {
  const hostile = join(tmp, 'hostile.jsonl')
  writeFileSync(hostile, JSON.stringify({ number: '100.1\n::error file=x::pwned\u001b[31m', text: 'x', examples: [], index: 0 }) + '\n')

  it.each(['text', 'github'])('--format %s', async (format) => {
    const run = await inProcess(['validate', hostile, '--format', format])
    expect(run.status).toBe(1)
    for (const line of run.stdout.split('\n')) expect(line.startsWith('::error file=x')).toBe(false)
    expect(run.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/)
    expect(run.stdout).toContain(format === 'text' ? '\\n::error file=x::pwned\\u001b[31m' : '%0A%3A%3Aerror')
  })
})

describe('a path with a line break is shown escaped: every message stays one line', () => {
  const text = release('2026-08-07').path
  const dir = join(tmp, 'line\nbreak')

  it('build and site say where they wrote in one line; an error naming such a file is one line', async () => {
    const built = await inProcess(['build', text, '--out', join(dir, 'out')])
    expect(built.status, built.stderr).toBe(0)
    expect(built.stderr).toMatch(/^build: wrote 15 files to .*line\\nbreak\/out \(3162 rules, .*\)\n$/)
    const site = await inProcess(['site', join(dir, 'out'), '--out', join(dir, 'site')])
    expect(site.stderr).toMatch(/^site: wrote \d+ pages and \d+ assets to .*line\\nbreak\/site in .*line\\nbreak\/site\/index\.html\)\n$/)
    const foreign = join(dir, 'foreign')
    mkdirSync(foreign)
    writeFileSync(join(foreign, 'notes\nand more.txt'), 'mine\n')
    const refused = await inProcess(['build', text, '--out', foreign])
    expect(refused.status).toBe(2)
    expect(refused.stderr).toMatch(/^write: .*foreign holds files this tool cannot replace \(notes\\nand more\.txt\): .*\n$/)
  })

  it('history prints one table line per release, whatever its file is named', async () => {
    const archive = join(dir, 'archive')
    mkdirSync(archive)
    cpSync(text, join(archive, 'MagicCompRules 20260807\nreissue.txt'))
    writeFileSync(join(archive, 'not\nrules.txt'), 'junk')
    const run = await inProcess(['history', archive, '--out', join(dir, 'history')])
    expect(run.status).toBe(1)
    expect(run.stdout.trimEnd().split('\n')).toEqual([
      expect.stringMatching(/^effective +file +status/),
      expect.stringMatching(/^2026-08-07 +MagicCompRules 20260807\\nreissue\.txt +ok +3162 /),
      expect.stringMatching(/^- +not\\nrules\.txt +FAILED /),
      expect.stringMatching(/^not\\nrules\.txt: parse: not\\nrules\.txt is not a Comprehensive Rules text/),
    ])
    for (const line of run.stderr.trimEnd().split('\n')) expect(line).toMatch(/^history: /)
  })
})

describe('--format github', () => {
  const broken = join(tmp, 'gh')
  mkdirSync(broken)
  const jsonl = readFileSync(join(built, 'rules.jsonl'), 'utf8').split('\n')
  // A duplicate (error) after a dangling reference (warning) in file order.
  writeFileSync(join(broken, 'rules.jsonl'), [...jsonl.slice(0, 3), jsonl[1]!.replace('"index":1', '"index":3'), ...jsonl.slice(4)].join('\n'))

  it('lists errors before warnings, paths relative to GITHUB_WORKSPACE, and writes a job summary', () => {
    const summary = join(tmp, 'summary.md')
    const run = spawnSync(process.execPath, [CLI, 'validate', join(broken, 'rules.jsonl'), '--format', 'github'], { encoding: 'utf8', env: { ...process.env, GITHUB_WORKSPACE: tmp, GITHUB_STEP_SUMMARY: summary } })
    expect(run.status).toBe(1)
    const [verdict, ...lines] = run.stdout.trim().split('\n')
    // The verdict line first, as plain text (GitHub acts only on lines starting with ::), then the annotations.
    expect(verdict).toMatch(/^gh\/rules\.jsonl: INVALID, \d+ rows, \d+ errors, \d+ warnings \(.*duplicate-number/)
    expect(lines.every((l) => l.startsWith('::'))).toBe(true)
    const firstWarning = lines.findIndex((l) => l.startsWith('::warning'))
    const lastError = lines.map((l) => l.startsWith('::error')).lastIndexOf(true)
    expect(lastError).toBeGreaterThanOrEqual(0)
    if (firstWarning >= 0) expect(lastError).toBeLessThan(firstWarning)
    expect(lines[0]).toMatch(/^::error file=gh\/rules\.jsonl,line=\d+,title=duplicate-number /)
    expect(readFileSync(summary, 'utf8')).toMatch(/^## mtg-rules validate\n[\s\S]*\| gh\/rules\.jsonl|rules\.jsonl/)
    // GitHub attaches an annotation by the path from the repository's root, however the file was
    // named: relative with ./ or ../, from another working directory; an unreadable one too.
    mkdirSync(join(tmp, 'sub'), { recursive: true })
    const env = { ...process.env, GITHUB_WORKSPACE: tmp, GITHUB_STEP_SUMMARY: summary }
    for (const [cwd, given] of [[tmp, './gh/rules.jsonl'], [join(tmp, 'sub'), '../gh/rules.jsonl'], [join(tmp, 'sub'), join(tmp, 'gh', '.', 'rules.jsonl')]] as const) {
      const from = spawnSync(process.execPath, [CLI, 'validate', given, '--format', 'github'], { cwd, encoding: 'utf8', env })
      expect(from.stdout.split('\n').slice(0, 2), given).toEqual([verdict, lines[0]])
    }
    writeFileSync(join(tmp, 'gh', 'rules.csv'), '')
    const unreadable = spawnSync(process.execPath, [CLI, 'validate', './gh/rules.csv', '--format', 'github'], { cwd: tmp, encoding: 'utf8', env })
    expect(unreadable.stdout).toMatch(/^::error file=gh\/rules\.csv,title=mtg-rules validate::read: \.\/gh\/rules\.csv is empty/)
  })

  it('a valid run shows each file in the log: its verdict line and notes, and no annotation', async () => {
    const folder = builtDataset('2026-08-07')
    const run = spawnSync(process.execPath, [CLI, 'validate', folder, '--format', 'github'], { encoding: 'utf8', env: { ...process.env, GITHUB_WORKSPACE: dirname(folder) } })
    const text = await inProcess(['validate', folder])
    expect([run.status, text.status]).toEqual([0, 0])
    // The text report's lines (no diagnostic in a valid build), each path from the workspace.
    const expected = text.stdout.split('\n').filter((l) => l !== '').map((l) => l.replace(`${dirname(folder)}/`, ''))
    expect(run.stdout.trim().split('\n')).toEqual(expected)
    // Each of its exports and its manifest, valid.
    const checked = readdirSync(folder).filter((f) => /\.(parquet|jsonl|csv|arrow)$|^manifest\.json$/.test(f))
    expect(checked.length).toBeGreaterThanOrEqual(13)
    expect(expected.filter((l) => /^[\w.-]+\/[\w.]+: valid, \d+ rows, 0 errors, \d+ warnings/.test(l))).toHaveLength(checked.length)
  })

  it('names the row of a Parquet export in the title', async () => {
    const paths = writeHfExports(mkdtempSync(join(tmpdir(), 'hf-')), sampleRows())
    const run = await inProcess(['validate', paths.parquet, '--format', 'github'])
    expect(run.status).toBe(1)
    expect(run.stdout).toMatch(/^::error file=.*\.parquet,title=duplicate-number 704\.5a row 199::rule 704\.5a occurs 2 times \(row 198, row 199\)$/m)
  })

  it('a job summary that cannot be written ($GITHUB_STEP_SUMMARY a folder, or in a missing one): exit 2, one line, the annotations still printed', () => {
    const paths = writeHfExports(mkdtempSync(join(tmpdir(), 'hf-summary-')), sampleRows())
    for (const summary of [tmp, join(tmp, 'missing', 'summary.md')]) {
      const run = spawnSync(process.execPath, [CLI, 'validate', paths.csv, '--format', 'github'], { encoding: 'utf8', env: { ...process.env, GITHUB_STEP_SUMMARY: summary } })
      expect(run.status).toBe(2)
      expect(run.stdout).toContain('title=duplicate-number 704.5a::rule 704.5a occurs 2 times')
      expect(run.stderr).toMatch(new RegExp(`^validate: cannot write the job summary to ${summary.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(\\$GITHUB_STEP_SUMMARY\\): [^\\n]+\\n$`))
    }
  })

  it('a setting from the environment that is not a whole number of milliseconds (or is past what a timer takes): exit 2, one line, never the default in silence', () => {
    const file = join(builtDataset('2026-08-07'), 'rules.parquet')
    for (const value of ['abc', '30s', '-5', '3000000000']) {
      const run = spawnSync(process.execPath, [CLI, 'validate', file], { encoding: 'utf8', env: { ...process.env, MTG_RULES_DECODE_TIMEOUT_MS: value } })
      expect([run.status, run.stdout, run.stderr]).toEqual([2, '', `mtg-rules: MTG_RULES_DECODE_TIMEOUT_MS takes a whole number of milliseconds, at most 2147483647, not "${value}"\n`])
    }
    // The longest a timer takes is a limit like any other (a longer one fired at once: the file "did not finish").
    const longest = spawnSync(process.execPath, [CLI, 'validate', file], { encoding: 'utf8', env: { ...process.env, MTG_RULES_DECODE_TIMEOUT_MS: '2147483647' } })
    expect([longest.status, longest.stderr]).toEqual([0, ''])
  })

  it('--json with another --format is a usage error (exit 2), not one of them chosen in silence', async () => {
    const run = await inProcess(['validate', 'out', '--json', '--format', 'github'])
    expect([run.status, run.stdout]).toEqual([2, ''])
    expect(run.stderr).toMatch(/^mtg-rules validate: --json is --format json, and --format github was given too: choose one \(usage: mtg-rules validate PATH\.\.\. /)
    expect((await inProcess(['validate', release('2026-08-07').path, '--json', '--format', 'json'])).status).toBe(0)
  })

  it('an unusable input is an ::error annotation too (exit 2)', async () => {
    const run = await inProcess(['validate', join(tmp, 'missing.parquet'), '--format', 'github'])
    expect(run.status).toBe(2)
    expect(run.stdout).toMatch(/^::error file=.*missing\.parquet,title=mtg-rules validate::read: cannot open .*missing\.parquet: no such file or directory\n$/)
    expect(run.stderr.trim().split('\n')).toHaveLength(1)
  })
})

describe('validate several paths and a dataset folder', () => {
  it('validates every table of a folder and verifies manifest.json', async () => {
    const run = await inProcess(['validate', built, '--json'])
    expect(run.status).toBe(0)
    const reports = JSON.parse(run.stdout)
    expect(reports.map((x: { source: { table: string } }) => x.source.table)).toEqual([
      ...Array(3).fill('rules'),
      ...Array(3).fill('glossary'),
      ...Array(3).fill('references'),
      ...Array(3).fill('rules_meta'),
      'manifest',
    ])
    expect(reports.at(-1)).toMatchObject({ valid: true, source: { kind: 'manifest', rows: 12 } })
  })

  it('reports a changed, a missing and an unlisted file against the manifest', async () => {
    const copy = join(tmp, 'tampered')
    mkdirSync(copy)
    for (const name of readdirSync(built)) writeFileSync(join(copy, name), readFileSync(join(built, name)))
    writeFileSync(join(copy, 'glossary.csv'), readFileSync(join(copy, 'glossary.csv'), 'utf8').replace('Abandon', 'Abandom'))
    rmSync(join(copy, 'references.csv'))
    writeFileSync(join(copy, 'notes.csv'), 'a,b\r\n')
    const run = await inProcess(['validate', copy, '--json'])
    expect(run.status).toBe(1)
    const manifest = JSON.parse(run.stdout).find((x: { source: { kind: string } }) => x.source.kind === 'manifest')
    expect(manifest.diagnostics.map((d: { message: string }) => d.message)).toEqual([
      'glossary.csv does not match its sha256 in manifest.json',
      'references.csv is listed in manifest.json but missing',
      'notes.csv is in the folder but not listed in manifest.json',
    ])
  })

  it('takes several files at once; exit 1 when any is invalid', async () => {
    const bad = join(tmp, 'bad-rows.jsonl')
    writeFileSync(bad, '{"number":"100.2","text":"a","examples":[],"index":0}\n{"number":"100.1","text":"b","examples":[],"index":1}\n')
    const run = await inProcess(['validate', join(built, 'rules.jsonl'), bad])
    expect(run.status).toBe(1)
    expect(run.stdout).toMatch(/rules\.jsonl: valid,[\s\S]*bad-rows\.jsonl: INVALID/)
  })
})

describe('build owns its output folder', () => {
  it('removes a stale file of an earlier build (rules.arrow) in the same switch', async () => {
    const out = join(tmp, 'owned')
    expect((await inProcess(['build', r.path, '--out', out, '--arrow'])).status).toBe(0)
    expect(existsSync(join(out, 'rules.arrow'))).toBe(true)
    expect(readdirSync(out).filter((n) => n.endsWith('.arrow')).sort()).toEqual(['glossary.arrow', 'references.arrow', 'rules.arrow', 'rules_meta.arrow'])
    expect((await inProcess(['build', r.path, '--out', out])).status).toBe(0)
    expect(readdirSync(out).filter((n) => n.endsWith('.arrow'))).toEqual([])
  })

  it('refuses a folder holding files it did not write, unless --force; never the current folder', async () => {
    const out = join(tmp, 'foreign')
    mkdirSync(out)
    writeFileSync(join(out, 'thesis.tex'), 'mine')
    const run = await inProcess(['build', r.path, '--out', out])
    expect(run.status).toBe(2)
    expect(run.stderr).toMatch(/^write: .*foreign holds files this tool cannot replace \(thesis\.tex\): it holds no sign that this tool wrote it; choose an empty folder, or pass --force to replace it whole\n$/)
    expect(snapshot(out)).toEqual({ 'thesis.tex': snapshot(out)['thesis.tex'] })
    expect((await inProcess(['build', r.path, '--out', out, '--force'])).status).toBe(0)
    const here = cli(['build', r.path, '--out', '.'], { cwd: tmp })
    expect(here.status).toBe(2)
    expect(here.stderr).toMatch(/holds the current folder/)
  })

  it('never writes through a link planted in the staging place', async () => {
    const out = join(tmp, 'linked')
    const victim = join(tmp, 'victim.txt')
    writeFileSync(victim, 'untouched')
    // Predictable names of old: a link at out/.rules.parquet.<pid>.tmp. Staging folders are mkdtemp'd now.
    mkdirSync(out)
    for (let pid = 1; pid < 50; pid++) symlinkSync(victim, join(out, `.rules.parquet.${pid}.tmp`))
    const run = await inProcess(['build', r.path, '--out', out, '--force'])
    expect(run.status).toBe(0)
    expect(readFileSync(victim, 'utf8')).toBe('untouched')
  })

  it('says "N warnings (strict)" when --strict fails on warnings alone', async () => {
    const run = await inProcess(['build', r.path, '--out', join(tmp, 'strict'), '--strict'])
    expect(run.status).toBe(1)
    expect(run.stderr).toMatch(/build: .* has 4 warnings \(strict\); nothing was written/)
    // One warning is one: a release with none (2016-07-22) given one, its rule 100.2 written without its period.
    const text = readFileSync(release('2016-07-22').path, 'latin1')
    expect(text).toContain('\n100.2. To play')
    const one = join(tmp, 'one-warning.txt')
    writeFileSync(one, text.replace('\n100.2. To play', '\n100.2 To play'), 'latin1')
    expect((await inProcess(['build', one, '--out', join(tmp, 'strict-one'), '--strict'])).stderr).toMatch(/build: .* has 1 warning \(strict\); nothing was written/)
    // Built without --strict, its dataset card counts it alike.
    expect((await inProcess(['build', one, '--out', join(tmp, 'one-warning')])).status).toBe(0)
    expect(readFileSync(join(tmp, 'one-warning', 'README.md'), 'utf8')).toContain('Valid: 0 errors, 1 warning (1 source-format). 0 citations point to a rule that does not exist in this release.')
  })
})

describe('concurrent and killed builds', () => {
  it('six parallel builds into one folder leave one whole set whose manifest matches its files', async () => {
    const out = join(tmp, 'parallel')
    const texts = [r.path, release('2026-06-19').path]
    const runs = await Promise.all(
      Array.from({ length: 6 }, (_, i) => new Promise<number | null>((res) => spawn(process.execPath, [CLI, 'build', texts[i % 2]!, '--out', out], { stdio: 'ignore' }).on('exit', res))),
    )
    expect(runs).toEqual(Array(6).fill(0))
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'))
    const files = snapshot(out)
    for (const e of manifest.exports) expect(files[e.path], e.path).toBe(e.sha256)
    expect(readdirSync(tmp).filter((n) => n.startsWith('.parallel.'))).toEqual([])
  }, 120_000)

  it('SIGKILL while writing leaves the old set, and the next build sweeps the leftovers', async () => {
    const out = join(tmp, 'killed')
    expect((await inProcess(['build', r.path, '--out', out])).status).toBe(0)
    const before = snapshot(out)
    const child = spawn(process.execPath, [CLI, 'build', release('2026-06-19').path, '--out', out], { env: { ...process.env, MTG_RULES_TEST_WRITE_DELAY_MS: '200' }, stdio: 'ignore' })
    const staging = () => readdirSync(tmp).filter((n) => n.startsWith('.killed.staging-'))
    for (let i = 0; i < 400 && !staging().some((s) => readdirSync(join(tmp, s)).length > 1); i++) await new Promise((res) => setTimeout(res, 25))
    child.kill('SIGKILL')
    await new Promise((res) => child.on('exit', res))
    expect(snapshot(out)).toEqual(before)
    expect(staging().length).toBe(1)
    expect((await inProcess(['build', release('2026-06-19').path, '--out', out])).status).toBe(0)
    expect(readdirSync(tmp).filter((n) => n.startsWith('.killed.'))).toEqual([])
    expect(JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')).source.effectiveDate).toBe('2026-06-19')
  }, 60_000)
})

describe('the GitHub Action (action.yml)', () => {
  const action = parseYaml(readFileSync(join(REPO, 'action.yml'), 'utf8'))
  const validateStep = action.runs.steps.find((s: { name?: string }) => s.name === 'Validate')
  const runStep = (paths: string, strict = 'false', recursive = 'false') =>
    spawnSync('bash', ['-c', validateStep.run.replaceAll('${{ github.action_path }}', REPO)], {
      encoding: 'utf8',
      env: { ...process.env, MTG_RULES_PATHS: paths, MTG_RULES_STRICT: strict, MTG_RULES_RECURSIVE: recursive },
    })

  it('is a composite action that keeps the caller’s Node when it is 20 or newer, caches its build, and validates', () => {
    expect(action.runs.using).toBe('composite')
    expect(action.runs.steps.find((s: { uses?: string }) => s.uses === 'actions/setup-node@v4')).toMatchObject({ if: "steps.node.outputs.ok != 'true'", with: { 'node-version': 20 } })
    expect(action.runs.steps.find((s: { uses?: string }) => s.uses === 'actions/cache@v4').with.path).toContain('/dist')
    expect(Object.keys(action.inputs)).toEqual(['path', 'strict', 'recursive'])
    const check = action.runs.steps.find((s: { id?: string }) => s.id === 'node')
    const outputs = join(mkdtempSync(join(tmpdir(), 'gh-')), 'output')
    expect(spawnSync('bash', ['-c', check.run], { env: { ...process.env, GITHUB_OUTPUT: outputs } }).status).toBe(0)
    expect(readFileSync(outputs, 'utf8')).toBe('ok=true\n')
  })

  it('takes one path per line, a path with spaces kept whole (the publisher’s file names)', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'spaces-')), 'txt')
    mkdirSync(dir)
    const file = join(dir, 'MagicCompRules 20250207.txt')
    writeFileSync(file, readFileSync(release('2025-02-07').path))
    const run = runStep(`${file}\n\n${built}\n`)
    expect(run.status, run.stdout + run.stderr).toBe(0)
    expect(run.stdout).toContain(`file=${file.replace(/,/g, '%2C')},line=`)
  })

  it('takes strict and recursive as "true" or "false" only (anything else is an error, never false in silence), and a path that begins with a dash as a path', () => {
    for (const value of ['yes', 'True', '1', '']) {
      const run = runStep(built, value)
      expect([run.status, run.stdout], value).toEqual([2, `::error title=mtg-rules validate::the action's strict input is "true" or "false", not "${value}"\n`])
    }
    const recursive = runStep(built, 'false', 'yes')
    expect([recursive.status, recursive.stdout]).toEqual([2, `::error title=mtg-rules validate::the action's recursive input is "true" or "false", not "yes"\n`])
    // recursive "true": the dataset folders below the one given are checked too.
    const holder = mkdtempSync(join(tmpdir(), 'nested-'))
    cpSync(built, join(holder, 'release'), { recursive: true })
    const deep = runStep(holder, 'false', 'true')
    expect([deep.status, deep.stdout.split('\n').filter((l) => l === `${join(holder, 'release', 'manifest.json')}: valid, 12 rows, 0 errors, 0 warnings`).length]).toEqual([0, 1])
    const dir = mkdtempSync(join(tmpdir(), 'dash-'))
    cpSync(join(built, 'rules.jsonl'), join(dir, '-rules.jsonl'))
    const dashed = spawnSync('bash', ['-c', validateStep.run.replaceAll('${{ github.action_path }}', REPO)], { cwd: dir, encoding: 'utf8', env: { ...process.env, MTG_RULES_PATHS: '-rules.jsonl', MTG_RULES_STRICT: 'false', MTG_RULES_RECURSIVE: 'false' } })
    expect([dashed.status, dashed.stderr]).toEqual([0, ''])
  })

  it('its validate step passes a built folder and fails the public dataset’s layout with annotations', () => {
    expect(runStep(built).status).toBe(0)
    const hf = writeHfExports(mkdtempSync(join(tmpdir(), 'hf-')), sampleRows())
    const failing = runStep(`${hf.jsonl}\n${hf.csv}`)
    expect(failing.status).toBe(1)
    expect(failing.stdout).toMatch(/^::error file=.*\.jsonl,line=\d+,title=duplicate-number 704\.5a::/m)
    // strict: the glossary's real dangling citation (Map → 110.10) fails the run.
    const strict = runStep(built, 'true')
    expect(strict.status).toBe(1)
    expect(strict.stdout).toMatch(/^::error file=.*glossary\.csv,line=\d+,title=dangling-reference glossary%3AMap::/m)
  })
})
