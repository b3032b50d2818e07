import { appendFileSync } from 'node:fs'
import { MAX_FOLDERS_CHECKED, MAX_FOLDERS_NAMED } from '../core/limits.js'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { append } from '../core/diagnostics.js'
import { EtlError } from '../core/errors.js'
import { formatGithub, formatReport, formatSummaryMarkdown, safeText } from '../core/report-format.js'
import type { Report } from '../core/report.js'
import { isFolder } from '../io/files.js'
import { validateStandardInput } from './standard-input.js'
import { describeFsError } from '../io/fs-errors.js'
import { plural, thousands } from '../core/words.js'
import { datasetFoldersInside, folderExports, holdsDataset, readKnownRules, unreadableReport, validateFile, validateFolder } from '../io/validate-folder.js'
import type { KnownRules } from '../checks/companion.js'
import { RULES_TABLE, TABLES } from '../core/tables.js'
import { annotatedPath, ok, type CommandResult } from './_shared.js'

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
      recursive: { type: 'boolean', default: false },
    },
  })
  if (values.json && values.format !== undefined && values.format !== 'json') throw new EtlError('USAGE', `mtg-rules validate: --json is --format json, and --format ${values.format} was given too: choose one`)
  const format = values.format ?? (values.json ? 'json' : 'text')
  if (!['text', 'json', 'github'].includes(format)) throw new EtlError('USAGE', `mtg-rules validate: --format must be text, json or github, not "${format}"`)
  if (positionals.length === 0) throw new EtlError('USAGE', 'mtg-rules validate: expected a FILE or dataset folder')
  const reports: Report[] = []
  const how = { strict: values.strict, exact: values.exact }
  const rulesFile = values.rules
  if (rulesFile !== undefined && positionals.some(isFolder)) throw new EtlError('USAGE', `mtg-rules validate: --rules is for companion files given one by one; a folder's companions are checked against the rules in it`)
  // The rules the companion files are checked against, read once: a file that cannot give them stops the run.
  const known = rulesFile === undefined ? undefined : { knownRules: Promise.resolve(await rulesOf(rulesFile)) }
  const skipped: string[] = []
  if (positionals.filter((p) => p === '-').length > 1) throw new EtlError('USAGE', 'mtg-rules validate: - (standard input) can be read once; it was given more than once')
  for (const path of positionals) {
    try {
      if (path === '-') reports.push(await validateStandardInput(how, known))
      else if (isFolder(path)) {
        // Every dataset folder below it, at any depth: checked with --recursive, else named.
        const below = datasetFoldersInside(path, values.recursive ? MAX_FOLDERS_CHECKED : MAX_FOLDERS_NAMED)
        if (values.recursive && !below.complete) throw new EtlError('INPUT_TOO_LARGE', `validate: ${path} holds more than ${thousands(MAX_FOLDERS_CHECKED)} folders below it: give its dataset folders by their paths`)
        const inside = below.found
        // Never passed over unsaid: a folder below that could not be listed (permission denied).
        const unlisted = below.unlisted.length === 0 ? '' : `${thousands(below.unlisted.length)} ${plural(below.unlisted.length, 'folder')} below it could not be listed, so not looked into for datasets: ${below.unlisted.slice(0, 3).map((u) => `${safeText(u.folder)}/ (${u.why})`).join(', ')}${below.unlisted.length > 3 ? ', …' : ''}`
        if (!values.recursive && inside.length > 0 && !holdsDataset(path)) throw new EtlError('INPUT_MISSING', `validate: ${path} holds no dataset itself, and ${foldersSaid(inside, 'below it:')}: validate ${plural(inside.length, 'it', 'each')} by its path, or the folder with --recursive${unlisted && `; ${unlisted}`}`)
        // Without --recursive the folders below are named, not checked (below).
        if (unlisted && !values.recursive) skipped.push(`validate: ${safeText(path)}: ${unlisted}\n`)
        // --recursive: the folder (when it holds a dataset itself) and every dataset folder below it,
        // each in its own reports; one that cannot be read is an error in its own, the rest go on.
        const folders = values.recursive ? [...(inside.length === 0 || holdsDataset(path) ? [path] : []), ...inside.map((sub) => join(path, sub))] : [path]
        for (const folder of folders) {
          try {
            append(reports, await validateFolder(folder, how))
          } catch (e) {
            // A folder with no dataset may hold one in a folder that could not be listed: said with it.
            if (e instanceof EtlError && e.code === 'INPUT_MISSING' && folder === path && unlisted) throw new EtlError(e.code, `${e.message}; ${unlisted}`)
            if (!(e instanceof EtlError) || folders.length === 1) throw e
            reports.push(unreadableReport(folder, e.message, how.strict))
          }
          // Never a silent skip: an export of the folder that is no table's file is named.
          const { notChecked } = folderExports(folder)
          if (notChecked.length > 0) skipped.push(`validate: ${safeText(folder)}: not checked: ${notChecked.map(safeText).join(', ')} (${plural(notChecked.length, "its name is no table's: validate it by its path", "their names are no table's: validate each by its path")})\n`)
        }
        // With it, a folder that could not be listed is input that could not be read: an `unreadable`
        // report of its own after the others (exit 2), as a file that cannot be read is.
        if (values.recursive) for (const u of below.unlisted) reports.push(unreadableReport(join(path, u.folder), `validate: ${join(path, u.folder)} cannot be listed (${u.why}), so it was not looked into for datasets`, how.strict))
        if (!values.recursive && inside.length > 0) skipped.push(`validate: ${safeText(path)}: not checked: ${foldersSaid(inside, 'inside it,')} (${plural(inside.length, 'validate it by its path', 'validate each by its path')}, or the folder with --recursive)\n`)
        if (!values.recursive && !below.complete) skipped.push(`validate: ${safeText(path)}: of the folders below it, the first ${thousands(MAX_FOLDERS_NAMED)} were looked into for datasets, not the others\n`)
      } else reports.push(await validateFile(path, how, known))
    } catch (e) {
      // One path given: its error is the run's one line (exit 2). Several: each gets its report, a
      // path that cannot be read an `unreadable` error in its own, and the others are still checked.
      if (!(e instanceof EtlError) || positionals.length === 1 || (e.code === 'USAGE' && !/cannot tell the format/.test(e.message))) throw e
      reports.push(unreadableReport(path, e.message, how.strict))
    }
  }
  // Said, never ignored: --rules given for a file that names no rules of another table.
  if (rulesFile !== undefined) {
    for (const r of reports) if (!COMPANIONS.has(r.source.table) && r.source.table !== 'unknown') r.notes.push(`--rules ${rulesFile} was not used: this file holds the ${r.source.table} table (--rules is for ${[...COMPANIONS].join(', ')})`)
  }
  let text: string
  let summaryFailure = ''
  if (format === 'json') text = JSON.stringify(reports.length === 1 && !isFolder(positionals[0]!) ? reports[0] : reports, null, 2)
  else if (format === 'github') {
    text = reports.map((r) => formatGithub({ ...r, source: { ...r.source, file: annotatedPath(r.source.file) } })).filter((t) => t !== '').join('\n')
    summaryFailure = writeJobSummary(process.env.GITHUB_STEP_SUMMARY, reports)
  } else text = reports.map((r) => formatReport(r)).join('\n\n')
  // The worst outcome: a file that could not be read at all is unusable input (2), even beside others;
  // so is a job summary asked for and not written (as GitHub's own toolkit fails then).
  const unusable = summaryFailure !== '' || reports.some((r) => r.diagnostics.some((d) => d.code === 'unreadable'))
  const verdict = format === 'json' ? '' : verdictLine(reports)
  return ok(text === '' ? '' : text + '\n', skipped.join('') + summaryFailure + verdict, unusable ? 2 : reports.every((r) => r.valid) ? 0 : 1)
}

/** The run's verdict in one line, when it checked more than one file: how many, and which failed. */
function verdictLine(reports: Report[]): string {
  if (reports.length < 2) return ''
  const failed = reports.filter((r) => !r.valid).map((r) => safeText(r.source.file))
  const checked = `validate: ${thousands(reports.length)} files checked`
  if (failed.length === 0) return `${checked}, all valid\n`
  const named = failed.length <= 3 ? failed.join(', ') : `${failed.slice(0, 3).join(', ')} and ${thousands(failed.length - 3)} more`
  return `${checked}: ${thousands(failed.length)} invalid (${named}), ${thousands(reports.length - failed.length)} valid\n`
}

/** Append the job summary to `path` ($GITHUB_STEP_SUMMARY) when set: '' when written, else the line saying why not. */
function writeJobSummary(path: string | undefined, reports: Report[]): string {
  if (!path) return ''
  try {
    appendFileSync(path, formatSummaryMarkdown(reports))
    return ''
  } catch (e) {
    return `validate: cannot write the job summary to ${safeText(path)} ($GITHUB_STEP_SUMMARY): ${describeFsError(e)}\n`
  }
}

const COMPANIONS = new Set(TABLES.filter((t) => t !== RULES_TABLE).map((t) => t.name))

/** The rule numbers of the --rules file; EtlError (exit 2) naming it when it cannot give them. */
async function rulesOf(file: string): Promise<KnownRules> {
  try {
    return await readKnownRules(file)
  } catch (e) {
    if (e instanceof EtlError && !e.message.includes('--rules')) throw new EtlError(e.code, `${e.message} (the --rules file)`)
    throw e
  }
}

/** `n dataset folders <where>` and the folders, up to three of them; more, the first and the last. */
function foldersSaid(names: string[], where: string): string {
  const shown = names.map((n) => `${safeText(n)}/`)
  return `${thousands(names.length)} ${plural(names.length, 'dataset folder')} ${where} ${shown.length <= 3 ? shown.join(', ') : `${shown[0]} … ${shown.at(-1)}`}`
}
