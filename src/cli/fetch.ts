import { parseArgs } from 'node:util'
import { EtlError } from '../core/errors.js'
import { isWithin, realPath } from '../io/files.js'
import { copyNewestRelease, storeRelease } from '../io/release-files.js'
import { ok, type CommandResult } from './_shared.js'

/** mtg-rules fetch */
export async function run(args: string[]): Promise<CommandResult> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { from: { type: 'string' }, url: { type: 'string' }, dest: { type: 'string', default: 'raw' }, timeout: { type: 'string' }, retries: { type: 'string' } },
  })
  if (positionals.length > 0) throw new EtlError('USAGE', `mtg-rules fetch: unexpected argument "${positionals[0]}"`)
  if (values.from !== undefined && values.url !== undefined) throw new EtlError('USAGE', 'mtg-rules fetch: give --from DIR or --url PAGE, not both')
  const stored = (r: { path: string; note: string | null }) => ok(r.path + '\n', r.note === null ? '' : r.note + '\n')
  if (values.from !== undefined) {
    // The cache is written to (a text, index.json): never the archive that is read, nor a folder in it.
    if (isWithin(realPath(values.from), realPath(values.dest))) {
      throw new EtlError('USAGE', `mtg-rules fetch: --dest ${values.dest} is the folder --from reads, or inside it: choose another cache folder (the default is raw)`)
    }
    return stored(await copyNewestRelease(values.from, values.dest))
  }
  const { downloadRelease } = await import('../fetch/fetch-release.js')
  // A time-out past what a timer holds (2^31 - 1 ms, ~24.8 days) would fire at once.
  const number = (name: string, v: string | undefined, max: number) => {
    if (v === undefined) return undefined
    if (!/^\d+$/.test(v) || Number(v) > max) throw new EtlError('USAGE', `mtg-rules fetch: --${name} takes a whole number from 0 to ${max}, not "${v}"`)
    return Number(v)
  }
  const timeoutMs = number('timeout', values.timeout, 2_147_483_647)
  const retries = number('retries', values.retries, 100)
  const release = await downloadRelease({
    ...(values.url !== undefined ? { url: values.url } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(retries !== undefined ? { retries } : {}),
  })
  return stored(await storeRelease(values.dest, release.bytes, release.effectiveDate, release.url))
}
