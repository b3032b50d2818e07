import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { reportValidator } from '../checks/schema.js'
import { isIsoDate } from '../core/calendar.js'
import { EtlError } from '../core/errors.js'
import { MAX_HELD_ROWS, tooManyHeldRows } from '../core/limits.js'
import type { Report } from '../core/report.js'
import type { RuleRow } from '../core/types.js'
import type { GlossaryEntry, HistoryRow, RuleLink, RulePlace, SiteInput, SiteRelease } from '../site/site-input.js'
import { inputFileChunks, isFolder, MAX_EXPORT_BYTES, readInputFile, readOneSet, tableFile } from './files.js'
import { schemaCheckedRows } from '../validate/checked-rows.js'
import { exportFormatOf } from '../validate/validate-export.js'

/**
 * What the site is made from, read from a dataset folder (as `build` writes it) or a history folder
 * (as `history` writes it: the newest release's folder, and rules_history). The tables are read with
 * the library's readers (JSONL, else Parquet, else CSV); EtlError when the folder is not one of these.
 */
export async function readSiteInput(dir: string): Promise<SiteInput> {
  if (!isFolder(dir)) throw new EtlError('INPUT_MISSING', `site: ${dir} is not a folder`)
  // A build or history run may switch the folder meanwhile: the site is made from one set of files.
  return readOneSet(dir, () => readSiteInputOnce(dir))
}

async function readSiteInputOnce(dir: string): Promise<SiteInput> {
  const historyTable = tableFile(dir, 'rules_history')
  const releaseDir = historyTable ? newestReleaseFolder(dir) : dir
  const release = await readRelease(releaseDir)
  const history = historyTable ? ((await records(historyTable, 'rules_history')) as unknown as HistoryRow[]) : undefined
  const linksTable = historyTable ? tableFile(dir, 'rule_links') : null
  const links = linksTable ? ((await records(linksTable, 'rule_links')).filter((l) => l.relation !== 'continues') as unknown as RuleLink[]) : undefined
  return { release, ...(history ? { history } : {}), ...(links ? { links } : {}), searchLibrary: searchLibrary() }
}

async function readRelease(dir: string): Promise<SiteRelease> {
  const manifest = (await readJson(join(dir, 'manifest.json'))) as { source?: { file?: string; sha256?: string; effectiveDate?: string } }
  const report = (await readJson(join(dir, 'report.json'))) as Report
  // The pages show it: a report of another shape (its schema decides) is refused, not half shown.
  const validReport = reportValidator()
  if (!validReport(report)) {
    const e = validReport.errors?.[0]
    throw new EtlError('EXPORT_MALFORMED', `site: ${join(dir, 'report.json')} is not a validation report (${e ? `${e.instancePath || 'the report'} ${e.message}` : 'its schema refuses it'})`)
  }
  const need = (table: string) => {
    const file = tableFile(dir, table)
    if (!file) throw new EtlError('INPUT_MISSING', `site: ${dir} holds no ${table} table (${table}.jsonl, .parquet or .csv): not a dataset folder`)
    return file
  }
  const rules = (await records(need('rules'), 'rules')) as unknown as RuleRow[]
  const places = new Map((await records(need('rules_meta'), 'rules_meta')).map((m) => [String(m.number), m as unknown as RulePlace]))
  const glossary = (await records(need('glossary'), 'glossary')) as unknown as GlossaryEntry[]
  return {
    effective: manifest.source?.effectiveDate ?? 'unknown',
    sourceFile: manifest.source?.file ?? 'unknown',
    sha256: manifest.source?.sha256 ?? 'unknown',
    rules,
    places,
    glossary,
    report,
  }
}

/**
 * A table's rows, read as a stream (a history's rules_history is ~120 MB: never its bytes, its text
 * and its rows in memory at once), each checked by its row schema; EtlError as schemaCheckedRows says.
 */
async function records(file: string, table: string): Promise<Record<string, unknown>[]> {
  const format = exportFormatOf(file)
  const rows: Record<string, unknown>[] = []
  for await (const record of schemaCheckedRows('site', file, format, await inputFileChunks(file, MAX_EXPORT_BYTES), table)) {
    if (rows.length === MAX_HELD_ROWS[table]) throw tooManyHeldRows('site', file, table)
    rows.push(record)
  }
  return rows
}

/** A history folder's newest release: its YYYY-MM-DD folders, the last that holds a dataset. */
function newestReleaseFolder(dir: string): string {
  const releases = readdirSync(dir)
    .filter((n) => isIsoDate(n) && existsSync(join(dir, n, 'manifest.json')))
    .sort()
  if (releases.length === 0) throw new EtlError('INPUT_MISSING', `site: ${dir} holds rules_history but no release folder (YYYY-MM-DD/) with a dataset`)
  return join(dir, releases.at(-1)!)
}

// manifest.json and report.json of a dataset: kilobytes; anything far larger is refused unread.
const MAX_JSON_BYTES = 64 * 1024 * 1024

/** A JSON file of the folder, read as every input is (size capped, a FIFO timed out, a folder refused). */
async function readJson(path: string): Promise<unknown> {
  if (!existsSync(path)) throw new EtlError('INPUT_MISSING', `site: ${path} is missing: not a dataset folder (mtg-rules build writes one)`)
  const text = new TextDecoder().decode(await readInputFile(path, MAX_JSON_BYTES))
  try {
    return JSON.parse(text)
  } catch (e) {
    throw new EtlError('EXPORT_MALFORMED', `site: ${path} is not JSON (${(e as Error).message})`)
  }
}

/**
 * minisearch's browser build (dist/umd/index.js, the file its README loads in a script tag: it
 * defines window.MiniSearch), shipped in the site as it is. Found beside the package's main file
 * (its exports map names only the modules).
 */
function searchLibrary(): string {
  const main = createRequire(import.meta.url).resolve('minisearch')
  return readFileSync(join(dirname(main), '..', 'umd', 'index.js'), 'utf8')
}
