import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { EtlError } from '../errors.js'
import { historyCsv, historyFolders, historyRowOf, renderHistoryTable, type HistoryRow } from '../history.js'
import { renderHistoryCard } from '../history-card.js'
import { startPool } from '../history-pool.js'
import type { BuiltRelease, DiffedPair } from '../history-tasks.js'
import { sha256 } from '../manifest.js'
import { listReleases } from '../node.js'
import { openStaging } from '../output-folder.js'
import { rulesHistoryRows, type HistoryRelease } from '../rules-history.js'
import { RULES_HISTORY_TABLE } from '../tables.js'
import { TOOL } from '../version.js'
import { writeCsv } from '../write-csv.js'
import { writeJsonl } from '../write-jsonl.js'
import { writeParquet } from '../write-parquet.js'
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
  try {
    // Every release is built on a free core; each result is written as soon as it is back.
    const started = performance.now()
    const built = await Promise.all(
      releases.map(async (release, i) => {
        const t0 = performance.now()
        let outcome: BuiltRelease | EtlError
        try {
          outcome = (await pool.run({ kind: 'build', name: release.name, path: release.path, arrow: values.arrow })) as BuiltRelease
        } catch (e) {
          if (!(e instanceof EtlError)) throw e
          outcome = e
        }
        if (!(outcome instanceof Error)) {
          for (const f of outcome.files) await staging.write(join(folders[i]!, f.name), f.bytes)
          // Written: only the rows are kept (for the lineage), not ~15 MB of files per release.
          outcome.files = []
        }
        const row = historyRowOf(release.name, outcome, (performance.now() - t0) / 1000)
        progress.step(row)
        return { release, folder: folders[i]!, outcome, row }
      }),
    )
    progress.stop()
    const rows: HistoryRow[] = built.map((b) => b.row)

    // The lineage: a dated release that built, one per date (the release whose folder is the date).
    const chain: (HistoryRelease & { file: string })[] = built
      .filter((b) => !(b.outcome instanceof Error) && b.outcome.effectiveDate !== null && b.folder === b.outcome.effectiveDate)
      .map((b) => ({ release: (b.outcome as BuiltRelease).effectiveDate!, rows: (b.outcome as BuiltRelease).rows, file: b.release.name }))
    const lineages = await Promise.all(
      chain.map((r, i) => (i === 0 ? null : (pool.run({ kind: 'diff', old: { label: chain[i - 1]!.release, rows: chain[i - 1]!.rows }, new: { label: r.release, rows: r.rows } }) as Promise<DiffedPair>).then((d) => d.lineage))),
    )
    const historyRows = rulesHistoryRows(chain, lineages)
    const createdBy = `${TOOL.name} version ${TOOL.version}`
    const exports = [
      { path: 'rules_history.parquet', format: 'parquet', bytes: writeParquet(RULES_HISTORY_TABLE, historyRows, createdBy) },
      { path: 'rules_history.jsonl', format: 'jsonl', bytes: writeJsonl(RULES_HISTORY_TABLE, historyRows) },
      { path: 'rules_history.csv', format: 'csv', bytes: writeCsv(RULES_HISTORY_TABLE, historyRows) },
    ]
    if (values.arrow) exports.push({ path: 'rules_history.arrow', format: 'arrow', bytes: (await import('../write-arrow.js')).writeArrow(RULES_HISTORY_TABLE, historyRows) })
    for (const e of exports) await staging.write(e.path, e.bytes)
    const releasesListed = chain.map((r) => ({ release: r.release, file: r.file, rules: r.rows.length }))
    await staging.write('README.md', new TextEncoder().encode(renderHistoryCard(RULES_HISTORY_TABLE, historyRows, { path: 'rules_history.parquet', bytes: exports[0]!.bytes.length }, releasesListed)))
    await staging.write(
      'manifest.json',
      json({
        tool: TOOL,
        releases: releasesListed,
        counts: { releases: chain.length, rows: historyRows.length },
        exports: exports.map((e) => ({ path: e.path, table: 'rules_history', format: e.format, bytes: e.bytes.length, rows: historyRows.length, sha256: sha256(e.bytes) })),
      }),
    )
    await staging.write('history.json', json(rows))
    await staging.write('history.csv', historyCsv(rows))
    staging.commit()
    const failed = rows.filter((r) => !r.ok).length
    const seconds = ((performance.now() - started) / 1000).toFixed(1)
    const summary = `history: ${rows.length - failed} of ${rows.length} releases built in ${seconds} s; wrote ${join(values.out, 'history.json')}, history.csv and rules_history (${historyRows.length} rows, ${chain.length} releases)\n`
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
