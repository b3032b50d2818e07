import { EtlError } from '../core/errors.js'

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
