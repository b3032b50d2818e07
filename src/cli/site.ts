import { parseArgs } from 'node:util'
import { EtlError } from '../core/errors.js'
import { replaceFolder } from '../io/output-folder.js'
import { readSiteInput } from '../io/site-input.js'
import { buildSite } from '../site/build-site.js'
import { ok, type CommandResult } from './_shared.js'

// What a site folder holds: its pages and assets (anything else in it is not ours).
const SITE_FOLDERS = new Set(['assets', 'chapters', 'rules', 'timeline', 'releases'])
const siteOwnership = (name: string, isDirectory: boolean) => (isDirectory ? SITE_FOLDERS.has(name) : /\.html$/.test(name))

/** mtg-rules site */
export async function run(args: string[]): Promise<CommandResult> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { out: { type: 'string', default: 'site' }, force: { type: 'boolean', default: false } } })
  if (positionals.length !== 1) throw new EtlError('USAGE', `mtg-rules site: expected one DIR (a dataset or history folder), got ${positionals.length}`)
  const started = performance.now()
  const input = await readSiteInput(positionals[0]!)
  const { files, warnings } = buildSite(input)
  // Thousands of small pages: synced as a whole by the switch, not one fsync each.
  const note = await replaceFolder(values.out, files.map((f) => ({ name: f.path, bytes: f.bytes })), siteOwnership, { force: values.force, durable: false })
  const pages = files.filter((f) => f.path.endsWith('.html')).length
  const seconds = (performance.now() - started) / 1000
  return ok('', `${warnings.map((w) => `site: ${w}\n`).join('')}site: wrote ${pages} pages and ${files.length - pages} assets to ${values.out} in ${seconds.toFixed(1)} s (open ${values.out}/index.html)\n${note ? note + '\n' : ''}`)
}
