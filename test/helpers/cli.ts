import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { runCommand } from '../../src/cli/cli.js'
import { CLI, REPO } from './shared.js'

export const CLI_TIMEOUT_MS = 180_000

export interface Run {
  status: number | null
  stdout: string
  stderr: string
}

/** Run the compiled CLI (`make build` compiles it) as a user would: a process of its own. */
export function cli(args: string[], options: { cwd?: string; input?: string | Uint8Array; env?: Record<string, string> } = {}): Run {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run make build first`)
  // A run that hangs fails the test (a synchronous spawn is beyond the test timeout's reach).
  const run = spawnSync(process.execPath, [CLI, ...args], { cwd: options.cwd ?? REPO, encoding: 'utf8', input: options.input ?? '', timeout: CLI_TIMEOUT_MS, killSignal: 'SIGKILL', ...(options.env ? { env: { ...process.env, ...options.env } } : {}) })
  if (run.error) throw new Error(`mtg-rules ${args.join(' ')}: ${run.error.message}`)
  return { status: run.status, stdout: run.stdout, stderr: run.stderr }
}

/**
 * Run a command in this process, through what the CLI runs (runCommand): for what a command answers,
 * where the process around it is not what is tested (a process's start, its bundle's loading and its
 * code's first, cold run cost ~0.2 s a command). What the command writes to stderr as it goes (history's
 * progress lines) comes first in `stderr`, as the process prints it. Standard input is not read here:
 * `validate -` is run with cli().
 */
export function inProcess(args: string[]): Promise<Run> {
  // One at a time: commands started together would each swap stderr's writer and put back another's
  // (the process's stderr then stayed captured), and their progress lines would land in each other's.
  const run = queue.then(() => capturing(args))
  queue = run.then(
    () => undefined,
    () => undefined,
  )
  return run
}

let queue: Promise<void> = Promise.resolve()

async function capturing(args: string[]): Promise<Run> {
  const write = process.stderr.write
  let printed = ''
  process.stderr.write = ((chunk: string | Uint8Array) => {
    printed += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8')
    return true
  }) as typeof process.stderr.write
  try {
    const run = await runCommand(args)
    return { status: run.exitCode, stdout: run.stdout, stderr: printed + run.stderr }
  } finally {
    process.stderr.write = write
  }
}

/** sha256 of every file in a folder (hidden ones too), to prove a failed run changed nothing. */
export function snapshot(dir: string): Record<string, string> {
  if (!existsSync(dir)) return {}
  const out: Record<string, string> = {}
  for (const name of readdirSync(dir).sort()) out[name] = createHash('sha256').update(readFileSync(join(dir, name))).digest('hex')
  return out
}
