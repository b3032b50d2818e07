import { createHash } from 'node:crypto'
import { appendFileSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { basename, dirname, extname, join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import type { KnownRules } from '../checks/companion.js'
import { EtlError } from '../core/errors.js'
import { formatGithub, formatReport, formatSummaryMarkdown } from '../core/report-format.js'
import { checkParquetFrame, inputFileChunks, MAX_EXPORT_BYTES, MAX_TEXT_BYTES, readInputFile } from '../io/files.js'
import type { Report } from '../core/report.js'
import { ALL_TABLES } from '../core/tables.js'
// Light modules only: a rules export proved clean needs no reader or check (see validate-export.ts).
import { sourceKindOf, validateExportStream } from '../validate/validate-export.js'
import { nodeFileProof } from '../io/file-proof.js'
import { ok, type CommandResult } from './_shared.js'

// In a dataset folder, the files named after a table; anything else is left to the manifest check.
const TABLE_FILE = new RegExp(`^(${ALL_TABLES.map((t) => t.name).join('|')})\\.(parquet|jsonl|ndjson|csv|arrow|feather)$`, 'i')

/** mtg-rules validate PATH... */
export async function run(args: string[]): Promise<CommandResult> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      json: { type: 'boolean', default: false },
      format: { type: 'string' },
      strict: { type: 'boolean', default: false },
      exact: { type: 'boolean', default: false },
      rules: { type: 'string' },
    },
  })
  const format = values.format ?? (values.json ? 'json' : 'text')
  if (!['text', 'json', 'github'].includes(format)) throw new EtlError('USAGE', `mtg-rules validate: --format must be text, json or github, not "${format}"`)
  if (positionals.length === 0) throw new EtlError('USAGE', 'mtg-rules validate: expected a FILE or dataset folder')
  const reports: Report[] = []
  for (const path of positionals) {
    const how = { strict: values.strict, exact: values.exact }
    if (isDirectory(path)) reports.push(...(await validateFolder(path, how)))
    else reports.push(await validateFile(path, how, values.rules))
  }
  let text: string
  if (format === 'json') text = JSON.stringify(reports.length === 1 && !isDirectory(positionals[0]!) ? reports[0] : reports, null, 2)
  else if (format === 'github') {
    const workspace = process.env.GITHUB_WORKSPACE
    text = reports.map((r) => formatGithub(r, workspace ? { workspace: resolve(workspace) } : {})).filter((t) => t !== '').join('\n')
    if (process.env.GITHUB_STEP_SUMMARY) appendFileSync(process.env.GITHUB_STEP_SUMMARY, formatSummaryMarkdown(reports))
  } else text = reports.map((r) => formatReport(r)).join('\n\n')
  return ok(text === '' ? '' : text + '\n', '', reports.every((r) => r.valid) ? 0 : 1)
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}

/** How to validate: count warnings as errors; run every check on every row, never the clean proof first. */
interface How {
  strict: boolean
  exact: boolean
}

async function validateFile(file: string, { strict, exact }: How, rulesOption?: string, knownRules?: KnownRules): Promise<Report> {
  if (sourceKindOf(file) === 'cr-text') {
    const { validateText } = await import('../validate/validate.js')
    return validateText(file, await readInputFile(file, MAX_TEXT_BYTES), { strict })
  }
  if (sourceKindOf(file) === 'parquet') checkParquetFrame(file)
  const rulesFile = knownRules ? null : (rulesOption ?? companionRulesFile(file))
  const known = knownRules ?? (rulesFile === null ? undefined : await readKnownRules(rulesFile))
  return validateExportStream(file, await inputFileChunks(file, MAX_EXPORT_BYTES), { strict, exact, fileProof: nodeFileProof, ...(known ? { knownRules: known } : {}) })
}

/**
 * A dataset folder: every table file in it (the rules first, so each companion is checked against
 * them), then manifest.json against the files.
 */
async function validateFolder(dir: string, how: How): Promise<Report[]> {
  const names = readdirSync(dir).filter((n) => TABLE_FILE.test(n)).sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0))
  const hasManifest = existsSync(join(dir, 'manifest.json'))
  if (names.length === 0 && !hasManifest) throw new EtlError('INPUT_MISSING', `validate: ${dir} holds no dataset (no .parquet, .jsonl, .csv or .arrow file, no manifest.json)`)
  const reports: Report[] = []
  const rulesFile = names.find((n) => /^rules\.(parquet|jsonl|csv|arrow)$/i.test(n))
  const knownRules = rulesFile ? await readKnownRules(join(dir, rulesFile)) : undefined
  for (const name of names) reports.push(await validateFile(join(dir, name), how, undefined, knownRules))
  if (hasManifest) {
    const { verifyManifest } = await import('../validate/verify-manifest.js')
    const rows = new Map(reports.map((r) => [basename(r.source.file), r.source.rows]))
    const files = readdirSync(dir)
      .filter((n) => statSync(join(dir, n)).isFile())
      .map((name) => ({ name, bytes: statSync(join(dir, name)).size, sha256: () => createHash('sha256').update(readFileSync(join(dir, name))).digest('hex') }))
    reports.push(verifyManifest(join(dir, 'manifest.json'), readFileSync(join(dir, 'manifest.json'), 'utf8'), files, rows))
  }
  return reports
}

const rank = (name: string) => (name.startsWith('rules.') ? 0 : 1)

// A companion file (glossary.jsonl, …) is checked against the rules export beside it, if any.
function companionRulesFile(file: string): string | null {
  const stem = basename(file).replace(/\.[^.]+$/, '')
  if (!['glossary', 'rules_meta', 'references'].includes(stem)) return null
  const candidates = [extname(file), '.parquet', '.jsonl', '.csv'].map((ext) => join(dirname(file), `rules${ext}`))
  return candidates.find((p) => existsSync(p)) ?? null
}

async function readKnownRules(file: string) {
  const kind = sourceKindOf(file)
  if (kind === 'cr-text') throw new EtlError('USAGE', `mtg-rules validate: --rules takes a rules export, not CR text (${file})`)
  const [{ openExport }, { knownRulesOf }] = await Promise.all([import('../exports/read-export.js'), import('../checks/companion.js')])
  const stream = await openExport(file, kind, await inputFileChunks(file, MAX_EXPORT_BYTES))
  if (stream.table.name !== 'rules') throw new EtlError('USAGE', `mtg-rules validate: --rules ${file} holds the ${stream.table.name} table, not the rules`)
  const numbers: string[] = []
  for await (const batch of stream.batches) for (const r of batch) if (typeof r.record.number === 'string') numbers.push(r.record.number)
  return knownRulesOf(numbers)
}
