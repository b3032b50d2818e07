import { parseArgs } from 'node:util'
import { buildDataset } from '../build/build.js'
import { formatReport, safeText } from '../core/report-format.js'
import { plural } from '../core/words.js'
import { isFolder, MAX_TEXT_BYTES, readInputFile } from '../io/files.js'
import { publisherNameOf, releaseNotesOf } from '../io/release-files.js'
import { replaceFolder } from '../io/output-folder.js'
import { TABLES } from '../core/tables.js'
import { EtlError } from '../core/errors.js'
import { sourceKindOf } from '../validate/validate-export.js'
import { ok, oneFile, type CommandResult } from './_shared.js'

const DATASET_FILE = new RegExp(`^(${TABLES.map((t) => t.name).join('|')})\\.(parquet|jsonl|csv|arrow)$`)
// CHANGELOG.md and changes.json (make release) are written into the dataset folder too, and bench.json was (make bench, before it wrote out-bench/).
const FOLDER_FILES = new Set(['manifest.json', 'report.json', 'README.md', 'bench.json', 'CHANGELOG.md', 'changes.json'])

/** What a build may replace in an existing output folder: the files builds write, nothing else. */
export const datasetOwnership = (name: string, isDirectory: boolean) => !isDirectory && (DATASET_FILE.test(name) || FOLDER_FILES.has(name))

/** mtg-rules build */
export async function run(args: string[]): Promise<CommandResult> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      out: { type: 'string', default: 'out' },
      'allow-errors': { type: 'boolean', default: false },
      strict: { type: 'boolean', default: false },
      arrow: { type: 'boolean', default: false },
      force: { type: 'boolean', default: false },
      timings: { type: 'boolean', default: false },
    },
  })
  const timings = startTimings()
  const file = oneFile(positionals, 'build')
  refuseWhatIsNoText(file)
  const bytes = await readInputFile(file, MAX_TEXT_BYTES)
  timings.mark('read the file')
  // apache-arrow is loaded only when asked for: it would double the start-up time of every build.
  const arrow = values.arrow ? (await import('../exports/arrow-write.js')).writeArrow : undefined
  // A text from the raw/ cache is named as the publisher named it (a re-issue is cached under another name).
  const result = buildDataset(publisherNameOf(file), bytes, { strict: values.strict, mark: timings.mark, onlyIfValid: !values['allow-errors'], ...(arrow ? { arrow } : {}) })
  const summary = formatReport(result.report)
  const { rules, examples, glossary } = result.manifest.counts
  const { errors, warnings } = result.report.counts
  const why = errors > 0 ? `has ${errors} validation ${plural(errors, 'error')}` : `has ${warnings} ${plural(warnings, 'warning')} (strict)`
  if (!result.report.valid && !values['allow-errors']) {
    return ok('', `${summary}\nbuild: ${safeText(file)} ${why}; nothing was written to ${safeText(values.out)} (--allow-errors writes anyway)\n`, 1)
  }
  // The folder is replaced whole: a file of an earlier build that this one did not write is gone too.
  // make release's changelog describes the release the folder was built from: kept when the same
  // text is built again, left behind (and said so) when another release replaces the folder.
  const notes = releaseNotesOf(values.out, result.manifest.source.sha256)
  const leftover = await replaceFolder(values.out, notes.same ? [...result.files, ...notes.files] : result.files, datasetOwnership, { force: values.force, inputs: [file] })
  const noteLine = notes.files.length === 0 ? '' : `build: ${notes.same ? 'kept' : 'removed'} ${notes.files.map((f) => f.name).join(' and ')} (${notes.same ? 'the same release' : 'it described the release this folder held before'})\n`
  timings.mark(`write ${result.files.length} files (staging folder, fsync, switch)`)
  const made = `build: wrote ${result.files.length} files to ${safeText(values.out)} (${rules} rules, ${examples} examples, ${glossary} glossary entries, effective ${result.document.effectiveDate ?? 'unknown'})`
  return ok(`${summary}\n`, `${made}${result.report.valid ? '' : `; ${file} ${why}`}\n${noteLine}${leftover ? leftover + '\n' : ''}${values.timings ? timings.render() : ''}`, result.report.valid ? 0 : 1)
}

/** A folder or an export given for the text: said with the command that takes it (not "no numbered rule found"). */
function refuseWhatIsNoText(file: string) {
  if (isFolder(file)) throw new EtlError('USAGE', `mtg-rules build: ${file} is a folder: build takes one CR text (mtg-rules history DIR builds every release of a folder)`)
  let kind = 'cr-text'
  try {
    kind = sourceKindOf(file)
  } catch {
    // A name of no known extension may still be a text (built by its content).
  }
  if (kind !== 'cr-text') throw new EtlError('USAGE', `mtg-rules build: ${file} is an export (${kind}), not a CR text: build takes the published text (MagicCompRules YYYYMMDD.txt); mtg-rules validate checks an export`)
}

/**
 * Stage times for --timings: the first from the process's start (Node's own start and loading the
 * modules), then each stage's, in milliseconds.
 */
function startTimings() {
  const marks: [string, number][] = [['node start, modules loaded, arguments read', performance.now()]]
  return {
    mark: (stage: string) => void marks.push([stage, performance.now()]),
    render() {
      const rows = marks.map(([stage, at], i) => [stage, at - (i === 0 ? 0 : marks[i - 1]![1])] as const)
      const width = Math.max(...rows.map(([s]) => s.length))
      const lines = rows.map(([stage, ms]) => `  ${stage.padEnd(width)}  ${ms.toFixed(1).padStart(7)} ms`)
      return `build: timings\n${lines.join('\n')}\n  ${'total (before exit)'.padEnd(width)}  ${marks.at(-1)![1].toFixed(1).padStart(7)} ms\n`
    },
  }
}
