import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { buildDataset, type BuildResult } from '../build.js'
import { EtlError } from '../errors.js'
import { historyCsv, historyFolders, historyRowOf, renderHistoryTable, type HistoryRow } from '../history.js'
import { listReleases, MAX_TEXT_BYTES, readInputFile } from '../node.js'
import { openStaging } from '../output-folder.js'
import { ok, type CommandResult } from './_shared.js'

// A history folder holds history.json, history.csv and one folder per release.
const historyOwnership = (name: string, isDirectory: boolean) => isDirectory || name === 'history.json' || name === 'history.csv'

/** mtg-rules history */
export async function run(args: string[]): Promise<CommandResult> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { out: { type: 'string', default: 'out-history' }, arrow: { type: 'boolean', default: false }, force: { type: 'boolean', default: false } },
  })
  if (positionals.length !== 1) throw new EtlError('USAGE', `mtg-rules history: expected one DIR, got ${positionals.length}`)
  const releases = await listReleases(positionals[0]!)
  const arrow = values.arrow ? (await import('../write-arrow.js')).writeArrow : undefined
  const progress = await startProgress(releases.length)
  const rows: HistoryRow[] = []
  const folders = historyFolders(releases)
  // The whole history is one output set: written beside the old one, switched to when complete.
  const staging = await openStaging(values.out, historyOwnership, { force: values.force })
  for (const [i, release] of releases.entries()) {
    const started = performance.now()
    let outcome: BuildResult | Error
    try {
      outcome = buildDataset(release.name, await readInputFile(release.path, MAX_TEXT_BYTES), arrow ? { arrow } : {})
    } catch (e) {
      if (!(e instanceof EtlError)) {
        staging.abort()
        throw e
      }
      outcome = e
    }
    if (!(outcome instanceof Error)) for (const f of outcome.files) await staging.write(join(folders[i]!, f.name), f.bytes)
    const row = historyRowOf(release.name, outcome, (performance.now() - started) / 1000)
    rows.push(row)
    progress.step(row)
  }
  progress.stop()
  await staging.write('history.json', new TextEncoder().encode(JSON.stringify(rows, null, 2) + '\n'))
  await staging.write('history.csv', historyCsv(rows))
  staging.commit()
  const failed = rows.filter((r) => !r.ok).length
  const summary = `history: ${rows.length - failed} of ${rows.length} releases built; wrote ${join(values.out, 'history.json')} and history.csv\n`
  return ok(renderHistoryTable(rows) + '\n', summary, failed > 0 ? 1 : 0)
}

async function startProgress(total: number) {
  if (process.stderr.isTTY) {
    const { SingleBar, Presets } = await import('cli-progress')
    const bar = new SingleBar({ format: 'history [{bar}] {value}/{total} {file}', stream: process.stderr }, Presets.shades_classic)
    bar.start(total, 0, { file: '' })
    return { step: (row: HistoryRow) => bar.increment({ file: row.file }), stop: () => bar.stop() }
  }
  let done = 0
  return {
    step: (row: HistoryRow) => process.stderr.write(`history: ${++done}/${total} ${row.file}: ${row.ok ? 'ok' : 'FAILED'} (${row.seconds.toFixed(2)} s)\n`),
    stop: () => {},
  }
}
