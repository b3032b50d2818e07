import { existsSync } from 'node:fs'
import { basename, dirname, extname, join } from 'node:path'
import { parseArgs } from 'node:util'
import { knownRulesOf } from '../checks/companion.js'
import { EtlError } from '../errors.js'
import { formatGithub, formatReport } from '../format.js'
import { MAX_EXPORT_BYTES, MAX_TEXT_BYTES, readInputFile } from '../node.js'
import { readExportFile, sourceKindOf, validateSource } from '../validate.js'
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
  const limit = sourceKindOf(file) === 'cr-text' ? MAX_TEXT_BYTES : MAX_EXPORT_BYTES
  const rulesFile = values.rules ?? companionRulesFile(file)
  const knownRules = rulesFile === null ? undefined : await readKnownRules(rulesFile)
  const report = await validateSource(file, readInputFile(file, limit), { strict: values.strict, ...(knownRules ? { knownRules } : {}) })
  const text = format === 'json' ? JSON.stringify(report, null, 2) : format === 'github' ? formatGithub(report) : formatReport(report)
  return ok(text === '' ? '' : text + '\n', '', report.valid ? 0 : 1)
}

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
