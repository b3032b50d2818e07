import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { EtlError } from '../core/errors.js'
import { safeText } from '../core/report-format.js'
import { plural } from '../core/words.js'
import { renderHistoryTable, type HistoryRow } from '../history/history-table.js'
import { buildHistory } from '../io/history-run.js'
import { ok, type CommandResult } from './_shared.js'

/** mtg-rules history */
export async function run(args: string[]): Promise<CommandResult> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { out: { type: 'string', default: 'out-history' }, arrow: { type: 'boolean', default: false }, force: { type: 'boolean', default: false } },
  })
  if (positionals.length !== 1) throw new EtlError('USAGE', `mtg-rules history: expected one DIR, got ${positionals.length}`)
  let progress = null as Progress | null
  const result = await buildHistory(positionals[0]!, values.out, {
    arrow: values.arrow,
    force: values.force,
    onStart: async (total) => {
      progress = await startProgress(total)
    },
    onRelease: (row) => progress?.step(row),
  })
  progress?.stop()
  const rows = result.releases
  const failed = rows.filter((r) => !r.ok).length
  if (!result.written) return ok(renderHistoryTable(rows) + '\n', `history: no release of ${safeText(positionals[0]!)} could be built (${rows.length} tried): nothing written (${safeText(values.out)} is as it was)\n`, 1)
  const summary = `history: ${rows.length - failed} of ${rows.length} releases built in ${result.seconds.toFixed(1)} s; wrote ${safeText(join(values.out, 'history.json'))}, history.csv and rules_history (${result.historyRows} rows, ${result.historyReleases} ${plural(result.historyReleases, 'release')})\n`
  return ok(renderHistoryTable(rows) + '\n', summary + result.notes.map((n) => n + '\n').join(''), failed > 0 ? 1 : 0)
}

interface Progress {
  step(row: HistoryRow): void
  stop(): void
}

async function startProgress(total: number): Promise<Progress> {
  if (process.stderr.isTTY) {
    const { SingleBar, Presets } = await import('cli-progress')
    const bar = new SingleBar({ format: 'history [{bar}] {value}/{total} {file}', stream: process.stderr }, Presets.shades_classic)
    bar.start(total, 0, { file: '' })
    return { step: (row: HistoryRow) => bar.increment({ file: safeText(row.file) }), stop: () => bar.stop() }
  }
  let done = 0
  return {
    step: (row: HistoryRow) => process.stderr.write(`history: ${++done}/${total} ${safeText(row.file)}: ${row.ok ? 'ok' : 'FAILED'} (${row.seconds.toFixed(2)} s)\n`),
    stop: () => {},
  }
}
