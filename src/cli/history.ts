import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { EtlError } from '../core/errors.js'
import { historyLines } from '../history/history-lines.js'
import { historyCsv, historyFolders, historyRowOf, renderHistoryTable, type HistoryRow } from '../history/history-table.js'
import { startPool } from '../io/history-pool.js'
import type { BuiltRelease } from '../io/history-tasks.js'
import { listReleases } from '../io/files.js'
import { openStaging } from '../io/output-folder.js'
import { startRulesHistory } from '../history/rules-history.js'
import { inMemoryBytes, renderHistoryCard } from '../exports/card.js'
import { diffReleases } from '../history/diff.js'
import type { TableRow } from '../core/tables.js'
import type { RuleRow } from '../core/types.js'
import { RULES_HISTORY_TABLE } from '../core/tables.js'
import { TOOL } from '../core/version.js'
import { writeCsv } from '../exports/csv-write.js'
import { parquetAppender } from '../exports/parquet-write.js'
import { ok, type CommandResult } from './_shared.js'

// A history folder holds history.json, history.csv, the rules_history table, its card and manifest, and one folder per release.
const OWN_FILES = /^(history\.(json|csv)|rules_history\.(parquet|jsonl|csv|arrow)|README\.md|manifest\.json)$/
const historyOwnership = (name: string, isDirectory: boolean) => isDirectory || OWN_FILES.test(name)
const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value, null, 2) + '\n')

/** mtg-rules history */
export async function run(args: string[]): Promise<CommandResult> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { out: { type: 'string', default: 'out-history' }, arrow: { type: 'boolean', default: false }, force: { type: 'boolean', default: false } },
  })
  if (positionals.length !== 1) throw new EtlError('USAGE', `mtg-rules history: expected one DIR, got ${positionals.length}`)
  const releases = await listReleases(positionals[0]!)
  const folders = historyFolders(releases)
  const progress = await startProgress(releases.length)
  // The whole history is one output set: written beside the old one, switched to when complete.
  const staging = await openStaging(values.out, historyOwnership, { force: values.force })
  const pool = startPool()
  const createdBy = `${TOOL.name} version ${TOOL.version}`
  try {
    const started = performance.now()
    // Every release is built on a free core; each result is written as soon as it is back.
    const builds = releases.map(async (release, i) => {
      const t0 = performance.now()
      let outcome: BuiltRelease | EtlError
      try {
        const task = { kind: 'build', name: release.name, path: release.path, arrow: values.arrow, outDir: join(staging.dir, folders[i]!), shownDir: join(values.out, folders[i]!) } as const
        outcome = await pool.run<BuiltRelease>(task)
      } catch (e) {
        // A release that does not build is a row of the table; a folder that cannot be written ends the run.
        if (!(e instanceof EtlError) || e.code === 'OUTPUT_UNWRITABLE') throw e
        outcome = e
      }
      const row = historyRowOf(release.name, outcome, (performance.now() - t0) / 1000)
      progress.step(row)
      return { release, folder: folders[i]!, outcome, row }
    })
    // A failure is seen when the loop below reaches its release; the later ones must not go unhandled meanwhile.
    for (const b of builds) b.catch(() => {})

    // The lineage, in date order as builds come back: each dated release that built (one per date:
    // the release whose folder is the date) is diffed with the one before, its rules_history rows
    // written, and its rows let go. Memory holds a release or two, not the whole history.
    const history = startRulesHistory()
    const parquet = parquetAppender(RULES_HISTORY_TABLE, createdBy)
    const arrowRows: TableRow[] = []
    const listed: { release: string; file: string; rules: number }[] = []
    let historyRows = 0
    let inMemory = 0
    let previous: { release: string; rows: RuleRow[] } | null = null
    const done: HistoryRow[] = []
    for (const pending of builds) {
      const b = await pending
      done.push(b.row)
      if (b.outcome instanceof Error || b.outcome.effectiveDate === null || b.folder !== b.outcome.effectiveDate) continue
      const { rows, effectiveDate } = b.outcome
      const lineage = previous ? diffReleases({ label: previous.release, rows: previous.rows, sectionTitles: new Map() }, { label: effectiveDate, rows, sectionTitles: new Map() }, { wordChanges: false }).lineage : null
      const chunk = history.add(effectiveDate, rows, lineage)
      parquet.add(chunk)
      const lines = historyLines(b.outcome.prefixes!, chunk)
      b.outcome.prefixes = null
      await staging.append('rules_history.jsonl', lines.jsonl)
      if (historyRows === 0) await staging.append('rules_history.csv', writeCsv(RULES_HISTORY_TABLE, []))
      await staging.append('rules_history.csv', lines.csv)
      if (values.arrow) for (const r of chunk) arrowRows.push(r)
      historyRows += chunk.length
      inMemory += inMemoryBytes(RULES_HISTORY_TABLE, chunk)
      listed.push({ release: effectiveDate, file: b.release.name, rules: rows.length })
      previous = { release: effectiveDate, rows }
      b.outcome.rows = []
    }
    progress.stop()
    const rows: HistoryRow[] = done
    if (historyRows === 0) {
      await staging.append('rules_history.jsonl', new Uint8Array())
      await staging.append('rules_history.csv', writeCsv(RULES_HISTORY_TABLE, []))
    }
    const parquetBytes = parquet.finish()
    await staging.write('rules_history.parquet', parquetBytes)
    if (values.arrow) await staging.write('rules_history.arrow', (await import('../exports/arrow-write.js')).writeArrow(RULES_HISTORY_TABLE, arrowRows))
    const exports = await Promise.all(
      ['parquet', 'jsonl', 'csv', ...(values.arrow ? ['arrow'] : [])].map(async (format) => {
        const { bytes, sha256 } = await staging.digest(`rules_history.${format}`)
        return { path: `rules_history.${format}`, table: 'rules_history', format, bytes, rows: historyRows, sha256 }
      }),
    )
    await staging.write('README.md', new TextEncoder().encode(renderHistoryCard(RULES_HISTORY_TABLE, { rows: historyRows, inMemoryBytes: inMemory }, { path: 'rules_history.parquet', bytes: parquetBytes.length }, listed)))
    await staging.write('manifest.json', json({ tool: TOOL, releases: listed, counts: { releases: listed.length, rows: historyRows }, exports }))
    await staging.write('history.json', json(rows))
    await staging.write('history.csv', historyCsv(rows))
    staging.commit()
    const failed = rows.filter((r) => !r.ok).length
    const seconds = ((performance.now() - started) / 1000).toFixed(1)
    const summary = `history: ${rows.length - failed} of ${rows.length} releases built in ${seconds} s; wrote ${join(values.out, 'history.json')}, history.csv and rules_history (${historyRows} rows, ${listed.length} releases)\n`
    return ok(renderHistoryTable(rows) + '\n', summary, failed > 0 ? 1 : 0)
  } catch (e) {
    staging.abort()
    throw e
  } finally {
    await pool.close()
  }
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
