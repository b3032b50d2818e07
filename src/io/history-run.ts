import { renameSync } from 'node:fs'
import { join } from 'node:path'
import { EtlError } from '../core/errors.js'
import type { TableRow } from '../core/tables.js'
import { HISTORY_RUNS_FILE, RULE_LINKS_TABLE, RULES_HISTORY_TABLE } from '../core/tables.js'
import type { RuleRow } from '../core/types.js'
import { TOOL } from '../core/version.js'
import { inMemoryBytes, renderHistoryCard } from '../exports/card.js'
import { writeCsv } from '../exports/csv-write.js'
import { writeJsonl } from '../exports/jsonl-write.js'
import { parquetAppender } from '../exports/parquet-write.js'
import { diffReleases, MATCH_WORK } from '../history/diff.js'
import { isBudgetWarning, workBudget } from '../history/work-budget.js'
import { HISTORY_LINEAGE_TABLE, historyLines } from '../history/history-lines.js'
import { historyCsv, historyFolders, historyRowOf, recordedRow, type HistoryRow } from '../history/history-table.js'
import { LINEAGE_INDEX_FILE, lineageIndexBuilder } from '../history/lineage-index.js'
import { ruleLinks } from '../history/rule-links.js'
import { startRulesHistory } from '../history/rules-history.js'
import { listReleases } from './release-files.js'
import { runHistoryTask, type BuiltRelease, type HistoryTask } from './history-tasks.js'
import { ioSettings } from './settings.js'
import { startWorkerPool } from './worker-pool.js'
import { openStaging } from './output-folder.js'

// A history folder holds history.json, history.csv, the rules_history and rule_links tables, the
// lineage index, the card and manifest, and one folder per release.
const OWN_FILES = /^(history\.(json|csv)|(rules_history|rule_links)\.(parquet|jsonl|csv|arrow)|lineage-index\.json|README\.md|manifest\.json)$/
const historyOwnership = (name: string, isDirectory: boolean) => isDirectory || OWN_FILES.test(name)
const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value, null, 2) + '\n')

export interface HistoryOptions {
  /** Write rules_history.arrow and each release's Arrow files too (default false). */
  arrow?: boolean
  /** Replace the output folder whole even when it holds what this tool did not write (default false). */
  force?: boolean
  /** Told how many releases there are, before any is built. */
  onStart?: (releases: number) => void | Promise<void>
  /** Told of each release as its build ends (in the order they end). */
  onRelease?: (row: HistoryRow) => void
  /** The bound of the lineage matcher and of the rule_links search, for each pair of releases, in words compared (default MATCH_WORK). */
  matchWork?: number
}

export interface HistoryResult {
  /** One row per release, oldest first: its counts, or why it failed. */
  releases: HistoryRow[]
  /** Rows of rules_history, and the releases it holds (one per effective date that built). */
  historyRows: number
  historyReleases: number
  /** False when no release built: nothing was written, and the output folder is as it was. */
  written: boolean
  seconds: number
  /**
   * Where the lineage of two releases is incomplete, the matcher having stopped at its bound; what
   * the run left behind that a later run removes (it still succeeded).
   */
  notes: string[]
}

/**
 * Build and validate every CR text of `archive` (oldest first, on every core) into `out`: each
 * release's folder, history.json and history.csv, and the rules_history table with its lineage,
 * card and manifest, switched in as one set. A release that fails is a row of the table; the run
 * goes on. EtlError when the archive or the output folder is unusable.
 */
export async function buildHistory(archive: string, out: string, options: HistoryOptions = {}): Promise<HistoryResult> {
  const arrow = options.arrow ?? false
  const force = options.force ?? false
  const releases = await listReleases(archive)
  const folders = historyFolders(releases)
  await options.onStart?.(releases.length)
  // The whole history is one output set: written beside the old one, switched to when complete.
  const staging = await openStaging(out, historyOwnership, { force, inputs: [archive] })
  // Each release built on a core of its own (workers/history-worker.ts), with this thread's settings.
  const pool = startWorkerPool<HistoryTask, BuiltRelease>(new URL('./workers/history-worker.js', import.meta.url), {
    workerData: { settings: { ...ioSettings } },
    // A release's build keeps little alive: a young generation of at most 16 MB (V8's default lets
    // it grow larger) took 20–40 MB off the peak of 130 releases, in the same time (8 MB: ~50 MB
    // off, and a tenth slower).
    resourceLimits: { maxYoungGenerationSizeMb: 16 },
    inline: runHistoryTask,
  })
  const createdBy = `${TOOL.name} version ${TOOL.version}`
  try {
    const started = performance.now()
    // Every release is built on a free core; each result is written as soon as it is back.
    const builds = releases.map(async (release, i) => {
      // The release's own time: from when a worker takes it, not from the run's start.
      let t0 = performance.now()
      let outcome: BuiltRelease | EtlError
      try {
        const task = { kind: 'build', name: release.name, path: release.path, sha256: release.sha256, arrow: arrow, outDir: join(staging.dir, folders[i]!), shownDir: join(out, folders[i]!) } as const
        outcome = await pool.run(task, () => (t0 = performance.now()))
      } catch (e) {
        // A release that does not build is a row of the table; a folder that cannot be written ends the run.
        if (!(e instanceof EtlError) || e.code === 'OUTPUT_UNWRITABLE') throw e
        outcome = e
      }
      const row = historyRowOf(release.name, outcome, (performance.now() - t0) / 1000)
      options.onRelease?.(row)
      return { release, folder: folders[i]!, outcome, row }
    })
    // A failure is seen when the loop below reaches its release; the later ones must not go unhandled meanwhile.
    for (const b of builds) b.catch(() => {})

    // The lineage, in date order as builds come back: each dated release that built (one per date:
    // the release whose folder is the date) is diffed with the one before, its rules_history rows
    // written, and its rows let go. Memory holds a release or two, not the whole history.
    const history = startRulesHistory()
    // Where lineage finds one rule's lines (lineage-index.json).
    const lineageIndex = lineageIndexBuilder()
    const parquet = parquetAppender(RULES_HISTORY_TABLE, createdBy)
    const arrowRows: TableRow[] = []
    const listed: { release: string; file: string; rules: number }[] = []
    let historyRows = 0
    let inMemory = 0
    let previous: { release: string; rows: RuleRow[] } | null = null
    // rule_links, like rules_history, is written a release at a time.
    const linksParquet = parquetAppender(RULE_LINKS_TABLE, createdBy)
    const linksCsvHeader = writeCsv(RULE_LINKS_TABLE, [])
    const arrowLinks: TableRow[] = []
    let linkRows = 0
    let linksInMemory = 0
    const done: HistoryRow[] = []
    const notes: string[] = []
    // Texts of a date whose release is another text of that date (its later file name): said once every build is back.
    const superseded: { name: string; date: string; folder: string }[] = []
    type Built = Awaited<(typeof builds)[number]>
    // A date's release is its text of the later file name; when that text does not build, another
    // text of that date that did is taken instead (its folder renamed to the date): these wait for
    // their date's own text, and the dates whose text failed wait for one of them.
    const standIns = new Map<string, { b: Built; outcome: BuiltRelease }[]>()
    const orphaned = new Set<string>()
    const take = async (b: Built, outcome: BuiltRelease, effectiveDate: string) => {
      const { rows } = outcome
      const diff = previous ? diffReleases({ label: previous.release, rows: previous.rows, sectionTitles: new Map() }, { label: effectiveDate, rows, sectionTitles: new Map() }, { wordChanges: false, matchWork: options.matchWork }) : null
      for (const warning of diff?.warnings.filter(isBudgetWarning) ?? []) notes.push(`history: lineage ${previous!.release} → ${effectiveDate}: ${warning}`)
      const lineage = diff?.lineage ?? null
      if (previous && lineage) {
        const work = workBudget(options.matchWork ?? MATCH_WORK)
        const links = ruleLinks(previous, { release: effectiveDate, rows }, lineage, work)
        if (work.ranOutIn !== null) notes.push(`history: rule_links ${previous.release} → ${effectiveDate}: the search for splits and merges stopped at its bound of ${work.limit.toLocaleString('en-US')} words compared; the rules it did not reach have no split-from or merged-from link`)
        linksParquet.add(links)
        const linksJsonl = writeJsonl(RULE_LINKS_TABLE, links)
        await staging.append('rule_links.jsonl', linksJsonl)
        lineageIndex.addLinks(effectiveDate, links, linksJsonl)
        await staging.append('rule_links.csv', linkRows === 0 ? writeCsv(RULE_LINKS_TABLE, links) : writeCsv(RULE_LINKS_TABLE, links).subarray(linksCsvHeader.length))
        if (arrow) for (const l of links) arrowLinks.push(l)
        linkRows += links.length
        linksInMemory += inMemoryBytes(RULE_LINKS_TABLE, links)
      }
      const chunk = history.add(effectiveDate, rows, lineage)
      parquet.add(chunk)
      const lines = historyLines(outcome.prefixes!, chunk)
      outcome.prefixes = null
      await staging.append('rules_history.jsonl', lines.jsonl)
      lineageIndex.add(effectiveDate, chunk, lines.jsonl)
      if (historyRows === 0) await staging.append('rules_history.csv', writeCsv(RULES_HISTORY_TABLE, []))
      await staging.append('rules_history.csv', lines.csv)
      if (arrow) for (const r of chunk) arrowRows.push(r)
      historyRows += chunk.length
      inMemory += outcome.leadingBytes + inMemoryBytes(HISTORY_LINEAGE_TABLE, chunk)
      listed.push({ release: effectiveDate, file: b.release.name, rules: rows.length })
      previous = { release: effectiveDate, rows }
      outcome.rows = []
      standIns.delete(effectiveDate)
    }
    const takeInstead = async (standIn: { b: Built; outcome: BuiltRelease }, date: string) => {
      renameSync(join(staging.dir, standIn.b.folder), join(staging.dir, date))
      superseded.find((t) => t.name === standIn.b.release.name)!.folder = date
      standIn.b.folder = date
      await take(standIn.b, standIn.outcome, date)
    }
    for (const pending of builds) {
      const b = await pending
      done.push(b.row)
      const ownDate = b.release.effectiveDate
      if (b.outcome instanceof Error || b.outcome.effectiveDate === null) {
        if (ownDate === null || b.folder !== ownDate) continue
        const standIn = standIns.get(ownDate)?.pop()
        if (standIn) await takeInstead(standIn, ownDate)
        else orphaned.add(ownDate)
        continue
      }
      const date = b.outcome.effectiveDate
      if (b.folder !== date) {
        superseded.push({ name: b.release.name, date, folder: b.folder })
        if (orphaned.delete(date)) await takeInstead({ b, outcome: b.outcome }, date)
        else if (listed.some((l) => l.release === date)) b.outcome.rows = []
        else standIns.set(date, [...(standIns.get(date) ?? []), { b, outcome: b.outcome }])
        continue
      }
      await take(b, b.outcome, date)
    }
    for (const t of superseded) {
      const own = releases[folders.indexOf(t.date)]!.name
      const taken = listed.find((l) => l.release === t.date)?.file
      if (taken === t.name) notes.push(`history: ${own}, the later file name of ${t.date}, did not build: rules_history takes ${t.name}, of the same date, built in ${t.date}/`)
      else {
        const which = taken === own ? `rules_history takes the later file name, ${own}` : taken === undefined ? `${own}, the later file name, did not build (${t.date} is not in rules_history)` : `${own}, the later file name, did not build: rules_history takes ${taken}`
        notes.push(`history: ${t.name} is effective ${t.date}, as ${own} is: ${which}; ${t.name} is built in ${t.folder}/`)
      }
    }
    const rows: HistoryRow[] = done
    // No release built: a history of nothing would replace whatever the folder held.
    if (historyRows === 0) {
      staging.abort()
      return { releases: rows, historyRows, historyReleases: 0, written: false, seconds: (performance.now() - started) / 1000, notes }
    }
    // Not pretty-printed: three numbers a row.
    await staging.write(LINEAGE_INDEX_FILE, new TextEncoder().encode(JSON.stringify(lineageIndex.finish()) + '\n'))
    const parquetBytes = parquet.finish()
    await staging.write('rules_history.parquet', parquetBytes)
    if (arrow) await staging.write('rules_history.arrow', (await import('../exports/arrow-write.js')).writeArrow(RULES_HISTORY_TABLE, arrowRows))
    if (linkRows === 0) {
      await staging.append('rule_links.jsonl', new Uint8Array())
      await staging.append('rule_links.csv', linksCsvHeader)
    }
    const linksBytes = linksParquet.finish()
    await staging.write('rule_links.parquet', linksBytes)
    if (arrow) await staging.write('rule_links.arrow', (await import('../exports/arrow-write.js')).writeArrow(RULE_LINKS_TABLE, arrowLinks))
    const formats = ['parquet', 'jsonl', 'csv', ...(arrow ? ['arrow'] : [])]
    const exports = await Promise.all(
      [...formats.map((format) => ['rules_history', format, historyRows] as const), ...formats.map((format) => ['rule_links', format, linkRows] as const)].map(async ([table, format, rowCount]) => {
        const { bytes, sha256 } = await staging.digest(`${table}.${format}`)
        return { path: `${table}.${format}`, table, format, bytes, rows: rowCount, sha256 }
      }),
    )
    const linksCard = { rows: linkRows, inMemoryBytes: linksInMemory, parquet: { path: 'rule_links.parquet', bytes: linksBytes.length } }
    await staging.write('README.md', new TextEncoder().encode(renderHistoryCard(RULES_HISTORY_TABLE, { rows: historyRows, inMemoryBytes: inMemory }, { path: 'rules_history.parquet', bytes: parquetBytes.length }, listed, linksCard, notes.map((n) => n.replace(/^history: /, '')))))
    await staging.write('manifest.json', json({ tool: TOOL, releases: listed, counts: { releases: listed.length, rows: historyRows }, exports }))
    const recorded = rows.map(recordedRow)
    await staging.write('history.json', json(recorded))
    await staging.write(HISTORY_RUNS_FILE, historyCsv(recorded))
    const leftover = staging.commit()
    if (leftover) notes.push(leftover)
    return { releases: rows, historyRows, historyReleases: listed.length, written: true, seconds: (performance.now() - started) / 1000, notes }
  } catch (e) {
    staging.abort()
    throw e
  } finally {
    await pool.close()
  }
}
