#!/usr/bin/env node
import { realpathSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { annotatedPath, type CommandResult } from './_shared.js'
import { COMMAND_HELP, isCommand, nearestCommand, nearestOption, USAGE, type CommandName } from './help.js'
import { EtlError } from '../core/errors.js'
import { safeText, terminalSafe } from '../core/report-format.js'
import { TOOL } from '../core/version.js'
import { installNodeHost } from '../io/node-host.js'
import { settingsFromEnv } from './settings.js'
import { tuneV8ForShortRuns } from './v8-tuning.js'

export type { CommandResult } from './_shared.js'

/** Exit codes: the one contract of every command. */
export const EXIT = { valid: 0, invalid: 1, unusable: 2, internal: 3 } as const

// Each command is loaded only when run: a build never pays for the diff, fetch or Parquet reading code.
// Every command but help has one, and help describes each (typed: neither can be missed).
const COMMANDS: Record<Exclude<CommandName, 'help'>, () => Promise<{ run: (args: string[]) => Promise<CommandResult> }>> = {
  build: () => import('./build.js'),
  validate: () => import('./validate.js'),
  diff: () => import('./diff.js'),
  history: () => import('./history.js'),
  previous: () => import('./previous.js'),
  fetch: () => import('./fetch.js'),
  lineage: () => import('./lineage.js'),
  site: () => import('./site.js'),
}

// A mistake in the arguments: one line on stderr, with the usage of the command.
const usageError = (message: string, command?: string): CommandResult => {
  const usage = command && isCommand(command) ? `usage: ${COMMAND_HELP[command].split('\n')[0]!.replace(/^Usage: /, '')}` : 'mtg-rules --help lists the commands'
  return { exitCode: EXIT.unusable, stdout: '', stderr: `${message} (${usage})\n` }
}

/**
 * Run one command without touching the process: the result says what to print and the exit code.
 * An unexpected exception is an internal error (exit 3, one line; `--debug` adds the stack). What
 * it prints never holds a control character but newline and tab (see terminalSafe): not from the
 * data, not from a path.
 */
export async function runCommand(argv: string[]): Promise<CommandResult> {
  const result = await runAnyCommand(argv)
  return { ...result, stdout: terminalSafe(result.stdout), stderr: terminalSafe(result.stderr) }
}

async function runAnyCommand(argv: string[]): Promise<CommandResult> {
  const debug = argv.includes('--debug')
  const args = argv.filter((a) => a !== '--debug')
  const [command, ...rest] = args
  if (command === '--version' || command === '-V' || command === '-v') return { exitCode: 0, stdout: `${TOOL.version}\n`, stderr: '' }
  if (command === undefined) return { exitCode: EXIT.unusable, stdout: '', stderr: USAGE + '\n' }
  if (command === '--help' || command === '-h') return { exitCode: 0, stdout: USAGE + '\n', stderr: '' }
  if (command === 'help') {
    const topic = rest[0] === '--help' || rest[0] === '-h' ? 'help' : rest[0]
    if (topic === undefined) return { exitCode: 0, stdout: USAGE + '\n', stderr: '' }
    if (!isCommand(topic)) return unknownCommand(topic)
    return { exitCode: 0, stdout: COMMAND_HELP[topic] + '\n', stderr: '' }
  }
  if (!isCommand(command) || command === 'help') return unknownCommand(command)
  const load = COMMANDS[command]
  if (rest.includes('--help') || rest.includes('-h')) return { exitCode: 0, stdout: COMMAND_HELP[command] + '\n', stderr: '' }
  // `-` is standard input, which only validate reads (as a PATH); anywhere else it would be taken for
  // a file named `-`, or after --out make a folder of that name.
  const dash = rest.findIndex((a, i) => a === '-' && (command !== 'validate' || rest[i - 1] === '--rules'))
  if (dash >= 0) return usageError(`mtg-rules ${command}: - (standard input) is read only by validate, as a PATH${dash > 0 && rest[dash - 1]!.startsWith('--') ? `; ${rest[dash - 1]} takes a path` : ''}`, command)
  try {
    // Test seam: an unexpected exception, as a bug would throw.
    if (process.env.MTG_RULES_TEST_INTERNAL_ERROR) throw new TypeError(process.env.MTG_RULES_TEST_INTERNAL_ERROR)
    return await (await load()).run(rest)
  } catch (e) {
    if (e instanceof EtlError) {
      // One line whatever it names: a line break in a path or in the data is shown escaped.
      const message = safeText(e.message)
      const result = e.code === 'USAGE' ? usageError(message, command) : { exitCode: EXIT.unusable, stdout: '', stderr: message + '\n' }
      if (e.code === 'USAGE' || !githubFormat(rest)) return result
      // The file the error is about, when the command was given one: the annotation lands on it.
      const paths = rest.filter((a, i) => !a.startsWith('-') && !(i > 0 && ['--format', '--rules', '--out', '--at'].includes(rest[i - 1]!)))
      const file = paths.length === 1 ? `file=${escapeProperty(annotatedPath(paths[0]!))},` : ''
      return { ...result, stdout: `::error ${file}title=mtg-rules ${command}::${escapeAnnotation(message)}\n` }
    }
    const err = e as Error & { code?: string }
    // One line, as every error: Node's messages for arguments can run over several.
    if (err.code?.startsWith('ERR_PARSE_ARGS')) {
      const dashed = /^Option '(--[\w-]+)[^']*' argument is ambiguous/.exec(err.message)
      // Node's own words for an unknown option run on about positionals after `--`: the option is what matters.
      const unknown = /^Unknown option '([^']+)'/.exec(err.message)?.[1]
      const near = unknown === undefined || !isCommand(command) ? null : nearestOption(command, unknown)
      const said = dashed
        ? `${dashed[1]} takes a value, and one that starts with a dash is written ${dashed[1]}=VALUE`
        : unknown !== undefined
          ? `unknown option ${safeText(unknown)}${near ? ` (did you mean ${near}?)` : ''}`
          : err.message.split('\n')[0]
      return usageError(`mtg-rules ${command}: ${said}`, command)
    }
    return internalError(err, debug)
  }
}

function unknownCommand(typed: string): CommandResult {
  const near = nearestCommand(typed)
  return usageError(`mtg-rules: unknown command "${safeText(typed)}"${near ? ` (did you mean ${near}?)` : ''}`)
}

export function internalError(err: unknown, debug: boolean): CommandResult {
  const e = err instanceof Error ? err : new Error(String(err))
  const line = `mtg-rules: internal error, please report it: ${e.name}: ${e.message.split('\n')[0]}${debug ? '' : ' (--debug shows the stack)'}`
  return { exitCode: EXIT.internal, stdout: '', stderr: `${line}\n${debug && e.stack ? e.stack + '\n' : ''}` }
}

const githubFormat = (args: string[]) => args.some((a, i) => a === '--format=github' || (a === '--format' && args[i + 1] === 'github'))
const escapeAnnotation = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')
const escapeProperty = (s: string) => escapeAnnotation(s).replace(/:/g, '%3A').replace(/,/g, '%2C')

async function main() {
  tuneV8ForShortRuns()
  const debug = process.argv.includes('--debug')
  try {
    installNodeHost(settingsFromEnv(process.env))
  } catch (e) {
    if (!(e instanceof EtlError)) throw e
    process.stderr.write(safeText(e.message) + '\n')
    process.exit(EXIT.unusable)
  }
  // A reader that stops early (`| head`) is no error: end quietly, keeping the exit code.
  const quietOnBrokenPipe = (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0)
    throw e
  }
  process.stdout.on('error', quietOnBrokenPipe)
  process.stderr.on('error', quietOnBrokenPipe)
  const crash = (e: unknown) => {
    const r = internalError(e, debug)
    process.stderr.write(terminalSafe(r.stderr))
    process.exit(r.exitCode)
  }
  process.on('uncaughtException', crash)
  process.on('unhandledRejection', crash)
  const result = await runCommand(process.argv.slice(2))
  if (result.stdout) process.stdout.write(result.stdout)
  if (result.stderr) process.stderr.write(result.stderr)
  process.exitCode = result.exitCode
}

const invokedDirectly = process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)
if (invokedDirectly) await main()
