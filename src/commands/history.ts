import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { buildDataset, type BuildResult } from '../build.js'
import { EtlError } from '../errors.js'
import { historyCsv, historyFolders, historyRowOf, renderHistoryTable, type HistoryRow } from '../history.js'
import { listReleases, MAX_TEXT_BYTES, readInputFile, writeFilesAtomically } from '../node.js'
import { ok, type CommandResult } from './_shared.js'

/** mtg-rules history */
export async function run(args: string[]): Promise<CommandResult> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { out: { type: 'string', default: join('out', 'history') }, arrow: { type: 'boolean', default: false } } })
  if (positionals.length !== 1) throw new EtlError('USAGE', `mtg-rules history: expected one DIR, got ${positionals.length}`)
  const releases = listReleases(positionals[0]!)
  const arrow = values.arrow ? (await import('../write-arrow.js')).writeArrow : undefined
  const progress = await startProgress(releases.length)
  const rows: HistoryRow[] = []
  const folders = historyFolders(releases)
  for (const [i, release] of releases.entries()) {
    const started = performance.now()
    let outcome: BuildResult | Error
    try {
      outcome = buildDataset(release.name, readInputFile(release.path, MAX_TEXT_BYTES), arrow ? { arrow } : {})
      const folder = join(values.out, folders[i]!)
      await writeFilesAtomically(folder, outcome.files)
    } catch (e) {
      if (!(e instanceof EtlError)) throw e
      outcome = e
    }
    const row = historyRowOf(release.name, outcome, (performance.now() - started) / 1000)
    rows.push(row)
    progress.step(row)
  }
  progress.stop()
  await writeFilesAtomically(values.out, [
    { name: 'history.json', bytes: new TextEncoder().encode(JSON.stringify(rows, null, 2) + '\n') },
    { name: 'history.csv', bytes: historyCsv(rows) },
  ])
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
