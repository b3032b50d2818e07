import { resolve } from 'node:path'
import { EtlError } from '../core/errors.js'
import { workspacePath } from '../core/report-format.js'

export interface CommandResult {
  exitCode: number
  stdout: string
  stderr: string
}

export const ok = (stdout: string, stderr = '', exitCode = 0): CommandResult => ({ exitCode, stdout, stderr })

export function oneFile(positionals: string[], command: string): string {
  if (positionals.length !== 1) throw new EtlError('USAGE', `mtg-rules ${command}: expected one FILE, got ${positionals.length} (try mtg-rules --help)`)
  return positionals[0]!
}

/**
 * A file as a GitHub annotation names it. GitHub attaches an annotation by the file's path from the
 * repository's root ($GITHUB_WORKSPACE): a file inside it is named so however it was given
 * (`./data/x.jsonl`, `../repo/data/x.jsonl`, an absolute path, from another working directory);
 * any other as it was given.
 */
export function annotatedPath(file: string, workspace = process.env.GITHUB_WORKSPACE): string {
  if (!workspace) return file
  const absolute = resolve(file)
  const inside = workspacePath(absolute, resolve(workspace))
  return inside === absolute ? file : inside
}
