import { existsSync } from 'node:fs'
import { basename, dirname, extname, join } from 'node:path'
import { parseArgs } from 'node:util'
import { knownRulesOf } from '../checks/companion.js'
import { EtlError } from '../errors.js'
import { formatGithub, formatReport } from '../format.js'
import { inputFileChunks, MAX_EXPORT_BYTES, MAX_TEXT_BYTES, readInputFile } from '../node.js'
import { openExport } from '../read-export.js'
import { sourceKindOf, validateExportStream, validateText } from '../validate.js'
import { ok, oneFile, type CommandResult } from './_shared.js'

/** mtg-rules validate */
export async function run(args: string[]): Promise<CommandResult> {
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
  const strict = values.strict
  let report
  if (sourceKindOf(file) === 'cr-text') {
    report = validateText(file, readInputFile(file, MAX_TEXT_BYTES), { strict })
  } else {
    const rulesFile = values.rules ?? companionRulesFile(file)
    const knownRules = rulesFile === null ? undefined : await readKnownRules(rulesFile)
    report = await validateExportStream(file, inputFileChunks(file, MAX_EXPORT_BYTES), { strict, ...(knownRules ? { knownRules } : {}) })
  }
  const text = format === 'json' ? JSON.stringify(report, null, 2) : format === 'github' ? formatGithub(report) : formatReport(report)
  return ok(text === '' ? '' : text + '\n', '', report.valid ? 0 : 1)
}

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
  const stream = await openExport(file, kind, inputFileChunks(file, MAX_EXPORT_BYTES))
  if (stream.table.name !== 'rules') throw new EtlError('USAGE', `mtg-rules validate: --rules ${file} holds the ${stream.table.name} table, not the rules`)
  const numbers: string[] = []
  for await (const batch of stream.batches) for (const r of batch) if (typeof r.record.number === 'string') numbers.push(r.record.number)
  return knownRulesOf(numbers)
}
