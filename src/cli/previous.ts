import { parseArgs } from 'node:util'
import { effectiveDateOf } from '../fetch/archive.js'
import { EtlError } from '../core/errors.js'
import { MAX_TEXT_BYTES, readInputFile } from '../io/files.js'
import { sha256 } from '../exports/manifest.js'
import { previousRelease } from '../io/release-files.js'
import { ok, type CommandResult } from './_shared.js'

/** mtg-rules previous */
export async function run(args: string[]): Promise<CommandResult> {
  const { positionals } = parseArgs({ args, allowPositionals: true, options: {} })
  if (positionals.length !== 2) throw new EtlError('USAGE', `mtg-rules previous: expected DIR and FILE, got ${positionals.length} arguments`)
  const [dir, file] = positionals as [string, string]
  const bytes = await readInputFile(file, MAX_TEXT_BYTES)
  const date = effectiveDateOf(file, bytes)
  if (date === null) throw new EtlError('INPUT_NOT_CR', `previous: ${file} has no effective date`)
  const previous = await previousRelease(dir, file, date, sha256(bytes))
  return ok(previous === null ? '' : previous + '\n')
}
