#!/usr/bin/env node
import { realpathSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { CommandResult } from './commands/_shared.js'
import { EtlError } from './errors.js'
import { TOOL } from './version.js'

export type { CommandResult } from './commands/_shared.js'

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

// Each command is loaded only when run: a build never pays for the diff, fetch or Parquet reading code.
const COMMANDS: Record<string, () => Promise<{ run: (args: string[]) => Promise<CommandResult> }>> = {
  build: () => import('./commands/build.js'),
  validate: () => import('./commands/validate.js'),
  diff: () => import('./commands/diff.js'),
  history: () => import('./commands/history.js'),
  previous: () => import('./commands/previous.js'),
  fetch: () => import('./commands/fetch.js'),
}

/** Run one command without touching the process: the result says what to print and the exit code. */
export async function runCommand(argv: string[]): Promise<CommandResult> {
  const [command, ...rest] = argv
  if (command === '--version' || command === '-v') return { exitCode: 0, stdout: `${TOOL.version}\n`, stderr: '' }
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    return { exitCode: command === undefined ? 2 : 0, stdout: USAGE + '\n', stderr: '' }
  }
  try {
    const load = COMMANDS[command]
    if (!load) throw new EtlError('USAGE', `mtg-rules: unknown command "${command}" (try mtg-rules --help)`)
    return await (await load()).run(rest)
  } catch (e) {
    if (e instanceof EtlError) return { exitCode: 2, stdout: '', stderr: e.message + '\n' }
    const err = e as Error & { code?: string }
    if (err.code?.startsWith('ERR_PARSE_ARGS')) return { exitCode: 2, stdout: '', stderr: `mtg-rules ${command}: ${err.message}\n` }
    throw e
  }
}

async function main() {
  const result = await runCommand(process.argv.slice(2))
  if (result.stdout) process.stdout.write(result.stdout)
  if (result.stderr) process.stderr.write(result.stderr)
  process.exitCode = result.exitCode
}

const invokedDirectly = process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)
if (invokedDirectly) await main()
