import { createHash } from 'node:crypto'
import { createReadStream, type Dirent, existsSync, lstatSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { basename, join } from 'node:path'
import type { KnownRules } from '../checks/companion.js'
import { append, diagnostics } from '../core/diagnostics.js'
import { EtlError } from '../core/errors.js'
import { MAX_FOLDER_DEPTH } from '../core/limits.js'
import { makeReport, type Report } from '../core/report.js'
import { ALL_TABLES, HISTORY_RUNS_FILE } from '../core/tables.js'
import { EXPORT_EXTENSION_PATTERN, EXPORT_EXTENSIONS, EXPORT_EXTENSIONS_SAID, EXPORT_FILE, isJsonData, sourceKindOf, validateExportStream } from '../validate/validate-export.js'
import { alternating, firstKnown, inOrder } from '../validate/folder-schedule.js'
import { firstReadableRules, rulesFilesBeside } from '../validate/companion-rules.js'
import { describeFsError } from './fs-errors.js'
import { checkParquetFrame, inputFileChunks, MAX_EXPORT_BYTES, MAX_TEXT_BYTES, readInputFile, readOneSet, isWithin } from './files.js'
import { plural } from '../core/words.js'

// In a dataset folder, the files named after a table; any other export there is left to the manifest
// check and named as not checked (folderExports).
const TABLE_FILE = new RegExp(`^(${ALL_TABLES.map((t) => t.name).join('|')})\\.${EXPORT_EXTENSION_PATTERN}(?:\\.gz)?$`, 'i')

/** How to validate: count warnings as errors (`exact` is kept for earlier callers and changes nothing). */
export interface ValidateHow {
  strict: boolean
  exact?: boolean
}

/**
 * Validate one file (CR text or an export) by its path, read with the Node edges: sizes capped,
 * Parquet by ranges. A companion file is checked against `rules` (its folder's, or the --rules
 * file's), else against the rules export beside it. EtlError when it cannot be read.
 */
export async function validateFile(file: string, { strict }: ValidateHow, rules?: CompanionRules): Promise<Report> {
  if (sourceKindOf(file) === 'cr-text') {
    const { validateText } = await import('../validate/validate.js')
    return validateText(file, await readInputFile(file, MAX_TEXT_BYTES), { strict })
  }
  if (sourceKindOf(file) === 'parquet') checkParquetFrame(file)
  const chunks = await inputFileChunks(file, MAX_EXPORT_BYTES)
  if (rules) return validateExportStream(file, chunks, { strict, ...rules })
  // Else the rules beside it: the first that can be read, one that cannot said in a note.
  const beside = await firstReadableRules(rulesFilesBeside(file).filter((p) => existsSync(p)), readKnownRules)
  const report = await validateExportStream(file, chunks, { strict, ...(beside.known ? { knownRules: beside.known } : {}) })
  report.notes.unshift(...beside.notes)
  return report
}

/** Where a companion's rules come from: a folder's as they become known (or the file they are taken from), or --rules. */
type CompanionRules = { knownRules?: Promise<KnownRules | undefined>; onKnownRules?: (known: KnownRules) => void }

/**
 * A dataset folder: every table file in it (the rules first, so each companion is checked against
 * them), then manifest.json against the files. Every file gets its report: one that cannot be read
 * (damaged, too large, a link out of the folder) is an `unreadable` error in its own report, and the
 * rest are still checked. A link is followed only to a file inside the folder.
 */
export async function validateFolder(dir: string, how: ValidateHow): Promise<Report[]> {
  return readOneSet(dir, () => validateFolderOnce(dir, how))
}

/** Up to this many bytes of table files, a folder's files are checked several at a time (a dataset folder is ~20 MB). */
const PARALLEL_BYTES = 64 * 1024 * 1024
const sizeOf = (path: string) => {
  try {
    return statSync(path).size
  } catch {
    return 0
  }
}

/**
 * The export files of a folder that `validate DIR` checks: those named after a table, or without
 * any, the Hugging Face layouts (data/<config>/train-00000-of-00001.parquet, or train-*.parquet at
 * the top: which table each holds is told by its columns). `notChecked`: the other export files at
 * its top, beside files named after a table (a history folder's own history.csv aside).
 */
export function folderExports(dir: string): { checked: string[]; notChecked: string[] } {
  const top = readdirSync(dir)
  const named = top.filter((n) => TABLE_FILE.test(n))
  const checked = (named.length > 0 ? named : huggingFaceFiles(realpathSync(dir), dir)).sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0))
  const notChecked = named.length === 0 ? [] : top.filter((n) => EXPORT_FILE.test(n) && !TABLE_FILE.test(n) && n !== HISTORY_RUNS_FILE).sort()
  return { checked, notChecked }
}

/** Whether `dir` holds a dataset that validate DIR checks: a manifest.json, or table files (folderExports). */
export function holdsDataset(dir: string): boolean {
  try {
    return existsSync(join(dir, 'manifest.json')) || folderExports(dir).checked.length > 0
  } catch {
    return false
  }
}

/**
 * The folders below `dir` (to MAX_FOLDER_DEPTH) that hold a dataset of their own, such as a history
 * folder's release folders, as paths under it, in order; `complete` is false when more than `limit`
 * folders would have had to be looked into; `unlisted`, those below it that could not be listed, each
 * with why (`{ folder: 'locked', why: 'permission denied' }`). Links are not followed; hidden folders, and a Hugging Face
 * layout's data/ (its files are the folder's own), are passed over.
 */
export function datasetFoldersInside(dir: string, limit: number): { found: string[]; complete: boolean; unlisted: { folder: string; why: string }[] } {
  const found: string[] = []
  const unlisted: { folder: string; why: string }[] = []
  let seen = 0
  let complete = true
  const foldersIn = (sub: string): Dirent[] => {
    try {
      const entries = readdirSync(sub === '' ? dir : join(dir, sub), { withFileTypes: true })
      const own = folderExports(sub === '' ? dir : join(dir, sub)).checked
      return entries.filter((e) => e.isDirectory() && !e.name.startsWith('.') && !own.some((n) => n.startsWith(`${e.name}/`)))
    } catch (e) {
      // The folder given itself is validate DIR's to report.
      if (sub !== '') unlisted.push({ folder: sub, why: describeFsError(e) })
      return []
    }
  }
  const visit = (sub: string, depth: number) => {
    for (const e of foldersIn(sub).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (!complete || ++seen > limit) return void (complete = false)
      const path = sub === '' ? e.name : `${sub}/${e.name}`
      if (holdsDataset(join(dir, path))) found.push(path)
      if (depth < MAX_FOLDER_DEPTH) visit(path, depth + 1)
    }
  }
  visit('', 1)
  return { found, complete, unlisted }
}

async function validateFolderOnce(dir: string, how: ValidateHow): Promise<Report[]> {
  const root = realpathSync(dir)
  const names = folderExports(dir).checked
  const hasManifest = existsSync(join(dir, 'manifest.json'))
  if (names.length === 0 && !hasManifest) {
    // A folder of CR texts (an archive such as raw/) is a likely mistake: say what checks those.
    // So is a folder of .json files (Hugging Face's JSON Lines), read only when each is given by its path.
    const [texts, jsons] = [(n: string) => /\.txt$/i.test(n), isJsonData].map((is) => readdirSync(dir).filter(is).length) as [number, number]
    const archive = texts === 0 ? '' : `; it holds ${texts} .txt ${plural(texts, 'file')}: validate each by its path, or mtg-rules history DIR builds and validates them all`
    const json = jsons === 0 ? '' : `; it holds ${jsons} .json ${plural(jsons, 'file')}: one of JSON Lines is read when given by its path`
    throw new EtlError('INPUT_MISSING', `validate: ${dir} holds no dataset (no ${EXPORT_EXTENSIONS_SAID} file, no manifest.json)${archive}${json}`)
  }
  const reports: Report[] = []
  // The companions are checked against the numbers of a rules file, taken as it is validated (each
  // is read once): the first of these, in EXPORT_EXTENSIONS' order, read to its end as the rules table.
  const rulesFiles = EXPORT_EXTENSIONS.map(([ext]) => names.find((n) => new RegExp(`^(data/rules/[^/]+|rules)\\.${ext}(?:\\.gz)?$`, 'i').test(n))).filter((n) => n !== undefined)
  const knownRules = firstKnown(rulesFiles.length)
  // Small files are checked on every core, their reports kept in the files' order; large ones one at
  // a time, so that memory holds one file's batches, not one per core.
  const bytes = names.reduce((sum, name) => sum + sizeOf(join(dir, name)), 0)
  const width = bytes <= PARALLEL_BYTES ? availableParallelism() : 1
  const reportOf = async (name: string): Promise<Report> => {
    const source = rulesFiles.indexOf(name)
    try {
      const own = source < 0 ? { knownRules: knownRules.promise } : knownRules.needed(source) ? { onKnownRules: (known: KnownRules) => knownRules.settle(source, known) } : {}
      return await validateFile(insideFolder(root, dir, name), how, own)
    } catch (e) {
      if (!(e instanceof EtlError)) throw e
      return unreadableReport(join(dir, name), e.message, how.strict)
    } finally {
      if (source >= 0) knownRules.settle(source, undefined)
    }
  }
  // The rules files are started first: the other files may wait for their numbers.
  const first = rulesFiles.map((n) => names.indexOf(n))
  const order = [...alternating(names, first), ...alternating(names, [...names.keys()].filter((i) => !first.includes(i)))]
  append(reports, await inOrder(names, order, width, reportOf))
  if (hasManifest) {
    const path = join(dir, 'manifest.json')
    try {
      const { verifyManifest } = await import('../validate/verify-manifest.js')
      const rows = new Map(reports.map((r) => [basename(r.source.file), r.source.rows]))
      const files = readdirSync(dir)
        .filter((n) => isFileInside(root, dir, n))
        .map((name) => ({ name, bytes: statSync(join(dir, name)).size, sha256: () => sha256OfFile(join(dir, name)) }))
      reports.push(await verifyManifest(path, readManifest(insideFolder(root, dir, 'manifest.json')), files, rows))
    } catch (e) {
      if (!(e instanceof EtlError)) throw e
      reports.push(makeReport({ file: path, kind: 'manifest', table: 'manifest', rows: 0 }, [diagnostics.unreadable(e.message)], how.strict))
    }
  }
  return reports
}

/** A manifest is a few kilobytes: anything that is not a regular file of at most this is refused unread. */
const MAX_MANIFEST_BYTES = 16 * 1024 * 1024

/** manifest.json's text: a regular file, its size capped (never /dev/zero, a FIFO or a folder). */
function readManifest(path: string): string {
  let st
  try {
    st = statSync(path)
  } catch (e) {
    throw new EtlError('INPUT_UNREADABLE', `read: cannot read ${path}: ${describeFsError(e)}`)
  }
  if (!st.isFile()) throw new EtlError('INPUT_UNREADABLE', `read: ${path} is ${st.isDirectory() ? 'a folder' : st.isFIFO() ? 'a FIFO' : 'not a regular file'}, not a manifest`)
  if (st.size > MAX_MANIFEST_BYTES) throw new EtlError('INPUT_TOO_LARGE', `read: ${path} is ${st.size} bytes, more than the ${MAX_MANIFEST_BYTES} a manifest may have`)
  try {
    return readFileSync(path, 'utf8')
  } catch (e) {
    throw new EtlError('INPUT_UNREADABLE', `read: cannot read ${path}: ${describeFsError(e)}`)
  }
}

/** A file's sha256, read as a stream (a listed file of gigabytes is never held whole). */
async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256')
  try {
    for await (const chunk of createReadStream(path, { highWaterMark: 1024 * 1024 })) hash.update(chunk as Buffer)
  } catch (e) {
    throw new EtlError('INPUT_UNREADABLE', `read: cannot read ${path}: ${describeFsError(e)}`)
  }
  return hash.digest('hex')
}

/**
 * A report for a file that could not be read: one `unreadable` error, the tool's words only; its
 * kind and table as far as its name tells them (`unknown` when it does not).
 */
export function unreadableReport(path: string, why: string, strict: boolean): Report {
  const table = (TABLE_FILE.exec(basename(path))?.[1]?.toLowerCase() ?? 'unknown') as Report['source']['table']
  let kind: Report['source']['kind'] = 'unknown'
  try {
    kind = sourceKindOf(path)
  } catch {
    // An extension no reader takes (README.md): the report says so, as unknown.
  }
  return makeReport({ file: path, kind, table, rows: 0 }, [diagnostics.unreadable(why)], strict)
}

/**
 * The path of `name` in the folder, when it is a file there or a link to a file inside the folder;
 * EtlError for a link that leads out of it (a pull request can plant one to have CI print a secret),
 * nowhere, or round in a loop.
 */
function insideFolder(root: string, dir: string, name: string): string {
  const path = join(dir, name)
  try {
    lstatSync(path)
  } catch {
    return path
  }
  let target: string
  try {
    target = realpathSync(path)
  } catch {
    throw new EtlError('INPUT_UNREADABLE', `read: ${path} is a link that leads nowhere (a missing file or a loop): not read`)
  }
  // The real path, whatever on the way is a link: a file inside a linked folder is outside too.
  if (target === root || !isWithin(root, target)) throw new EtlError('INPUT_UNREADABLE', `read: ${path} is a link to a file outside ${dir}: not read`)
  return path
}

function isFileInside(root: string, dir: string, name: string): boolean {
  try {
    insideFolder(root, dir, name)
    return statSync(join(dir, name)).isFile()
  } catch {
    return false
  }
}

const rank = (name: string) => (name.startsWith('rules.') || name.startsWith('data/rules/') ? 0 : 1)


/**
 * A Hugging Face layout's export files, as paths inside `dir` (never a link out): at its top, else in data/ and each
 * data/<config>/, where .json is JSON Lines too, as Hugging Face reads it (at the top it is metadata, ours among it).
 */
function huggingFaceFiles(root: string, dir: string): string[] {
  const filesIn = (sub: string) => {
    try {
      return readdirSync(join(dir, sub)).filter((n) => (EXPORT_FILE.test(n) || (sub !== '.' && isJsonData(n))) && isFileInside(root, dir, sub === '.' ? n : `${sub}/${n}`)).map((n) => (sub === '.' ? n : `${sub}/${n}`))
    } catch {
      return []
    }
  }
  const configs = filesIn('.').length > 0 ? [] : (() => {
    try {
      return ['data', ...readdirSync(join(dir, 'data'), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => `data/${e.name}`)]
    } catch {
      return []
    }
  })()
  return [...filesIn('.'), ...configs.flatMap(filesIn)]
}

/** The rule numbers of a rules export, for checking a companion file against them. */
export async function readKnownRules(file: string): Promise<KnownRules> {
  const kind = sourceKindOf(file)
  if (kind === 'cr-text') throw new EtlError('USAGE', `mtg-rules validate: --rules takes a rules export, not CR text (${file})`)
  const [{ openExport }, { knownRulesOf }] = await Promise.all([import('../exports/read/read-export.js'), import('../checks/companion.js')])
  const stream = await openExport(file, kind, await inputFileChunks(file, MAX_EXPORT_BYTES))
  try {
    if (stream.table.name !== 'rules') throw new EtlError('USAGE', `mtg-rules validate: --rules ${file} holds the ${stream.table.name} table, not the rules`)
    const numbers: string[] = []
    for await (const batch of stream.batches) for (const r of batch) if (typeof r.record.number === 'string') numbers.push(r.record.number)
    return knownRulesOf(numbers)
  } finally {
    stream.close()
  }
}
