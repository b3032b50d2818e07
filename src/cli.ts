#!/usr/bin/env node
import { basename, dirname, extname, join } from 'node:path'
import { existsSync, realpathSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { effectiveDateOf } from './archive.js'
import { buildDataset, type BuildResult } from './build.js'
import { renderChangelog } from './changelog.js'
import { diffReleases } from './diff.js'
import { diffSideOf } from './diff-input.js'
import { EtlError } from './errors.js'
import { historyCsv, historyRowOf, renderHistoryTable, type HistoryRow } from './history.js'
import { formatGithub, formatReport } from './format.js'
import { copyNewestRelease, listReleases, MAX_EXPORT_BYTES, MAX_TEXT_BYTES, readInputFile, writeFilesAtomically } from './node.js'
import { knownRulesOf } from './checks/companion.js'
import { readExportFile, sourceKindOf, validateSource } from './validate.js'
import { TOOL } from './version.js'

export interface CommandResult {
  exitCode: number
  stdout: string
  stderr: string
}

const USAGE = `Usage: mtg-rules <command> [options]

Commands:
  build FILE [--out DIR] [--allow-errors] [--strict] [--arrow]
      Build the rules, glossary, rules_meta and references tables (Parquet, JSONL, CSV; rules.arrow
      with --arrow), report.json and manifest.json from a CR text.
  validate FILE [--json | --format text|json|github] [--strict] [--rules RULES_FILE]
      Check CR text (.txt) or an export (.parquet, .jsonl, .csv) of any table and report every
      problem. A companion table is checked against RULES_FILE (default: rules.* beside it).
  diff OLD NEW [--json] [--out FILE]
      Compare two releases (CR texts or rules exports): added, removed, edited and moved rules,
      as a Markdown changelog (or JSON).
  history DIR [--out DIR] [--arrow]
      Build and validate every CR text in DIR, oldest first; print a table and write
      history.json and history.csv (default out/history), each release's files in a folder of its own.
  previous DIR FILE
      Print the newest release in DIR that is older than FILE (nothing when there is none).
  fetch [--url PAGE | --from DIR] [--dest DIR] [--timeout MS] [--retries N]
      Download the newest CR text from the rules page (default https://magic.wizards.com/en/rules),
      or copy the newest release of a folder, into the raw/ cache; prints its path.

Exit codes: 0 valid (warnings allowed), 1 validation errors, 2 unusable input or arguments.`

const ok = (stdout: string, stderr = '', exitCode = 0): CommandResult => ({ exitCode, stdout, stderr })

/** Run one command without touching the process: the result says what to print and the exit code. */
export async function runCommand(argv: string[]): Promise<CommandResult> {
  const [command, ...rest] = argv
  try {
    switch (command) {
      case 'build':
        return await build(rest)
      case 'validate':
        return await validate(rest)
      case 'fetch':
        return await fetch(rest)
      case 'diff':
        return await diff(rest)
      case 'history':
        return await history(rest)
      case 'previous':
        return previous(rest)
      case '--version':
      case '-v':
        return ok(`${TOOL.version}\n`)
      case undefined:
      case '--help':
      case '-h':
      case 'help':
        return ok(USAGE + '\n', '', command === undefined ? 2 : 0)
      default:
        throw new EtlError('USAGE', `mtg-rules: unknown command "${command}" (try mtg-rules --help)`)
    }
  } catch (e) {
    if (e instanceof EtlError) return ok('', e.message + '\n', 2)
    const err = e as Error & { code?: string }
    if (err.code?.startsWith('ERR_PARSE_ARGS')) return ok('', `mtg-rules ${command}: ${err.message}\n`, 2)
    throw e
  }
}

function oneFile(positionals: string[], command: string): string {
  if (positionals.length !== 1) throw new EtlError('USAGE', `mtg-rules ${command}: expected one FILE, got ${positionals.length} (try mtg-rules --help)`)
  return positionals[0]!
}

async function build(args: string[]): Promise<CommandResult> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      out: { type: 'string', default: 'out' },
      'allow-errors': { type: 'boolean', default: false },
      strict: { type: 'boolean', default: false },
      arrow: { type: 'boolean', default: false },
    },
  })
  const file = oneFile(positionals, 'build')
  const bytes = readInputFile(file, MAX_TEXT_BYTES)
  // apache-arrow is loaded only when asked for: it would double the start-up time of every build.
  const arrow = values.arrow ? (await import('./write-arrow.js')).writeArrow : undefined
  const result = buildDataset(basename(file), bytes, { strict: values.strict, ...(arrow ? { arrow } : {}) })
  const summary = formatReport(result.report)
  const { rules, examples, glossary } = result.manifest.counts
  if (!result.report.valid && !values['allow-errors']) {
    return ok('', `${summary}\nbuild: ${file} has validation errors; nothing was written to ${values.out} (--allow-errors writes anyway)\n`, 1)
  }
  await writeFilesAtomically(values.out, result.files)
  const made = `build: wrote ${result.files.length} files to ${values.out} (${rules} rules, ${examples} examples, ${glossary} glossary entries, effective ${result.document.effectiveDate ?? 'unknown'})`
  return ok(`${summary}\n`, `${made}\n`, result.report.valid ? 0 : 1)
}

async function validate(args: string[]): Promise<CommandResult> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      json: { type: 'boolean', default: false },
      format: { type: 'string' },
      strict: { type: 'boolean', default: false },
      rules: { type: 'string' },
    },
  })
  const format = values.format ?? (values.json ? 'json' : 'text')
  if (!['text', 'json', 'github'].includes(format)) throw new EtlError('USAGE', `mtg-rules validate: --format must be text, json or github, not "${format}"`)
  const file = oneFile(positionals, 'validate')
  const limit = sourceKindOf(file) === 'cr-text' ? MAX_TEXT_BYTES : MAX_EXPORT_BYTES
  const rulesFile = values.rules ?? companionRulesFile(file)
  const knownRules = rulesFile === null ? undefined : await readKnownRules(rulesFile)
  const report = await validateSource(file, readInputFile(file, limit), { strict: values.strict, ...(knownRules ? { knownRules } : {}) })
  const text = format === 'json' ? JSON.stringify(report, null, 2) : format === 'github' ? formatGithub(report) : formatReport(report)
  return ok(text === '' ? '' : text + '\n', '', report.valid ? 0 : 1)
}

// A companion file (glossary.jsonl, …) is checked against the rules export beside it, if any.
function companionRulesFile(file: string): string | null {
  const stem = basename(file).replace(/\.[^.]+$/, '')
  if (sourceKindOf(file) === 'cr-text' || !['glossary', 'rules_meta', 'references'].includes(stem)) return null
  const candidates = [extname(file), '.parquet', '.jsonl', '.csv'].map((ext) => join(dirname(file), `rules${ext}`))
  return candidates.find((p) => existsSync(p)) ?? null
}

async function readKnownRules(file: string) {
  const read = await readExportFile(file, readInputFile(file, MAX_EXPORT_BYTES))
  if (read.table.name !== 'rules') throw new EtlError('USAGE', `mtg-rules validate: --rules ${file} holds the ${read.table.name} table, not the rules`)
  return knownRulesOf(read.records.map((r) => r.record.number).filter((n): n is string => typeof n === 'string'))
}

async function diff(args: string[]): Promise<CommandResult> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { json: { type: 'boolean', default: false }, out: { type: 'string' } } })
  if (positionals.length !== 2) throw new EtlError('USAGE', `mtg-rules diff: expected OLD and NEW, got ${positionals.length} files`)
  const [oldFile, newFile] = positionals as [string, string]
  const limit = (f: string) => (sourceKindOf(f) === 'cr-text' ? MAX_TEXT_BYTES : MAX_EXPORT_BYTES)
  const oldSide = await diffSideOf(oldFile, readInputFile(oldFile, limit(oldFile)))
  const newSide = await diffSideOf(newFile, readInputFile(newFile, limit(newFile)))
  const result = diffReleases(oldSide, newSide)
  const text = values.json ? JSON.stringify(result, null, 2) + '\n' : renderChangelog(result, newSide, oldSide)
  if (values.out === undefined) return ok(text)
  await writeFilesAtomically(dirname(values.out), [{ name: basename(values.out), bytes: new TextEncoder().encode(text) }])
  const c = result.counts
  return ok('', `diff: wrote ${values.out} (${c.edited} edited, ${c.added} added, ${c.moved} moved, ${c.removed} removed)\n`)
}

async function history(args: string[]): Promise<CommandResult> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { out: { type: 'string', default: join('out', 'history') }, arrow: { type: 'boolean', default: false } } })
  if (positionals.length !== 1) throw new EtlError('USAGE', `mtg-rules history: expected one DIR, got ${positionals.length}`)
  const releases = listReleases(positionals[0]!)
  const arrow = values.arrow ? (await import('./write-arrow.js')).writeArrow : undefined
  const progress = await startProgress(releases.length)
  const rows: HistoryRow[] = []
  for (const release of releases) {
    const started = performance.now()
    let outcome: BuildResult | Error
    try {
      outcome = buildDataset(release.name, readInputFile(release.path, MAX_TEXT_BYTES), arrow ? { arrow } : {})
      const folder = join(values.out, outcome.document.effectiveDate ?? release.name.replace(/\.txt$/i, ''))
      await writeFilesAtomically(folder, outcome.files)
    } catch (e) {
      if (!(e instanceof EtlError)) throw e
      outcome = e
    }
    const row = historyRowOf(release.name, outcome, (performance.now() - started) / 1000)
    rows.push(row)
    progress.step(row)
  }
  progress.stop()
  await writeFilesAtomically(values.out, [
    { name: 'history.json', bytes: new TextEncoder().encode(JSON.stringify(rows, null, 2) + '\n') },
    { name: 'history.csv', bytes: historyCsv(rows) },
  ])
  const failed = rows.filter((r) => !r.ok).length
  const summary = `history: ${rows.length - failed} of ${rows.length} releases built; wrote ${join(values.out, 'history.json')} and history.csv\n`
  return ok(renderHistoryTable(rows) + '\n', summary, failed > 0 ? 1 : 0)
}

// A progress bar on a terminal, one plain line per release otherwise (CI logs, pipes).
async function startProgress(total: number) {
  if (process.stderr.isTTY) {
    const { SingleBar, Presets } = await import('cli-progress')
    const bar = new SingleBar({ format: 'history [{bar}] {value}/{total} {file}', stream: process.stderr }, Presets.shades_classic)
    bar.start(total, 0, { file: '' })
    return { step: (row: HistoryRow) => bar.increment({ file: row.file }), stop: () => bar.stop() }
  }
  let done = 0
  return {
    step: (row: HistoryRow) => process.stderr.write(`history: ${++done}/${total} ${row.file}: ${row.ok ? 'ok' : 'FAILED'} (${row.seconds.toFixed(2)} s)\n`),
    stop: () => {},
  }
}

function previous(args: string[]): CommandResult {
  const { positionals } = parseArgs({ args, allowPositionals: true, options: {} })
  if (positionals.length !== 2) throw new EtlError('USAGE', `mtg-rules previous: expected DIR and FILE, got ${positionals.length} arguments`)
  const [dir, file] = positionals as [string, string]
  const date = effectiveDateOf(file, readInputFile(file, MAX_TEXT_BYTES))
  if (date === null) throw new EtlError('INPUT_NOT_CR', `previous: ${file} has no effective date`)
  const older = listReleases(dir).filter((r) => r.effectiveDate !== null && r.effectiveDate < date)
  return ok(older.length === 0 ? '' : older[older.length - 1]!.path + '\n')
}

async function fetch(args: string[]): Promise<CommandResult> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { from: { type: 'string' }, url: { type: 'string' }, dest: { type: 'string', default: 'raw' }, timeout: { type: 'string' }, retries: { type: 'string' } },
  })
  if (positionals.length > 0) throw new EtlError('USAGE', `mtg-rules fetch: unexpected argument "${positionals[0]}"`)
  if (values.from !== undefined && values.url !== undefined) throw new EtlError('USAGE', 'mtg-rules fetch: give --from DIR or --url PAGE, not both')
  if (values.from !== undefined) return ok((await copyNewestRelease(values.from, values.dest)) + '\n')
  const { fetchRelease } = await import('./fetch-release.js')
  const number = (name: string, v: string | undefined) => {
    if (v === undefined) return undefined
    if (!/^\d+$/.test(v)) throw new EtlError('USAGE', `mtg-rules fetch: --${name} takes a whole number, not "${v}"`)
    return Number(v)
  }
  const timeoutMs = number('timeout', values.timeout)
  const retries = number('retries', values.retries)
  const path = await fetchRelease({
    dest: values.dest,
    ...(values.url !== undefined ? { url: values.url } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(retries !== undefined ? { retries } : {}),
  })
  return ok(path + '\n')
}

async function main() {
  const result = await runCommand(process.argv.slice(2))
  if (result.stdout) process.stdout.write(result.stdout)
  if (result.stderr) process.stderr.write(result.stderr)
  process.exitCode = result.exitCode
}

const invokedDirectly = process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)
if (invokedDirectly) await main()
