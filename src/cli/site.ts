import { parseArgs } from 'node:util'
import { EtlError } from '../core/errors.js'
import { safeText } from '../core/report-format.js'
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
  const site = buildSite(input)
  let pages = 0
  let assets = 0
  const files = function* () {
    for (const f of site.files) {
      if (f.path.endsWith('.html')) pages++
      else assets++
      yield { name: f.path, bytes: f.bytes }
    }
  }
  // Thousands of small pages, each written as it is made: synced as a whole by the switch, not one fsync each.
  const note = await replaceFolder(values.out, files(), siteOwnership, { force: values.force, durable: false, inputs: [positionals[0]!] })
  const seconds = (performance.now() - started) / 1000
  return ok('', `${site.warnings().map((w) => `site: ${w}\n`).join('')}site: wrote ${pages} pages and ${assets} assets to ${safeText(values.out)} in ${seconds.toFixed(1)} s (open ${safeText(values.out)}/index.html)\n${note ? note + '\n' : ''}`)
}
