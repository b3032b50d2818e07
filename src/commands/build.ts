import { basename } from 'node:path'
import { parseArgs } from 'node:util'
import { buildDataset } from '../build.js'
import { formatReport } from '../format.js'
import { MAX_TEXT_BYTES, readInputFile, writeFilesAtomically } from '../node.js'
import { ok, oneFile, type CommandResult } from './_shared.js'

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
    },
  })
  const file = oneFile(positionals, 'build')
  const bytes = readInputFile(file, MAX_TEXT_BYTES)
  // apache-arrow is loaded only when asked for: it would double the start-up time of every build.
  const arrow = values.arrow ? (await import('../write-arrow.js')).writeArrow : undefined
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
