import { EtlError } from '../core/errors.js'
import { isGzipped, isJsonNamed, tableNamed, withoutGzip } from '../core/tables.js'
import type { ExportFormat } from '../exports/read/read-export.js'
import type { ExportChunks, ValidateOptions } from './options.js'
import type { Report, SourceKind } from '../core/report.js'

// What `validate` loads for CR text is light: the export readers and checks (validate-rows.ts) are
// loaded only for an export.

export type { ExportChunks, ValidateOptions } from './options.js'

/**
 * The extensions of an export, each with its format, in the order a folder's rules file is chosen
 * by (the quickest to read first). Every list of export files is made from this one.
 */
export const EXPORT_EXTENSIONS: readonly (readonly [string, ExportFormat])[] = [
  ['jsonl', 'jsonl'],
  ['ndjson', 'jsonl'],
  ['csv', 'csv'],
  ['parquet', 'parquet'],
  ['arrow', 'arrow'],
  ['feather', 'arrow'],
]

/** A name that ends in an export's extension: `(?:jsonl|ndjson|…)`, for a regular expression. */
export const EXPORT_EXTENSION_PATTERN = `(?:${EXPORT_EXTENSIONS.map(([ext]) => ext).join('|')})`
/** The export extensions as a message names them: `.jsonl, .ndjson, … or .feather`. */
export const EXPORT_EXTENSIONS_SAID = EXPORT_EXTENSIONS.map(([ext]) => `.${ext}`).join(', ').replace(/, ([^,]*)$/, ' or $1')
/** The formats read gzip-compressed (`rules.jsonl.gz`): Parquet and Arrow compress their own pages. */
const GZIP_FORMATS: readonly string[] = ['jsonl', 'csv']
/** The extensions of gzip-compressed exports, in EXPORT_EXTENSIONS' order: `jsonl.gz`, `ndjson.gz`, `csv.gz`. */
export const GZIP_EXTENSIONS = EXPORT_EXTENSIONS.filter(([, format]) => GZIP_FORMATS.includes(format)).map(([ext]) => `${ext}.gz`)

/** An export's name, gzip-compressed or not (`rules.jsonl`, `rules.jsonl.gz`). */
export const EXPORT_FILE = new RegExp(`\\.${EXPORT_EXTENSION_PATTERN}(?:\\.gz)?$`, 'i')

/** The JSON files mtg-rules writes beside the exports (a dataset folder's, a history's, raw/'s): no rows. */
const OWN_JSON = /(?:^|[/\\])(manifest|report|changes|history|lineage-index|bench|index)\.json$/i

/** A `.json` file that may hold rows (JSON Lines): not one of the JSON files mtg-rules writes. */
export const isJsonData = (name: string): boolean => isJsonNamed(name) && !OWN_JSON.test(withoutGzip(name))

/**
 * Which reader a file needs, from its name: .txt is CR text, else an export's (EXPORT_EXTENSIONS).
 * A JSONL or CSV export may be gzip-compressed (`.jsonl.gz`); Parquet and Arrow compress their own
 * pages, and a CR text is read as published. A `.json` file given by its path is read as JSON Lines,
 * as Hugging Face datasets and pyarrow read one (a file of one JSON document is then refused as a
 * `.jsonl` one is); folders are not searched for `.json` files, where mtg-rules keeps its own.
 */
export function sourceKindOf(name: string): Exclude<SourceKind, 'manifest' | 'unknown'> {
  const ext = /\.([^./\\]+)$/.exec(withoutGzip(name))?.[1]?.toLowerCase()
  const own = isJsonNamed(name) ? OWN_JSON.exec(withoutGzip(name))?.[1]?.toLowerCase() : undefined
  const format = ext === 'txt' ? 'cr-text' : isJsonData(name) ? 'jsonl' : EXPORT_EXTENSIONS.find(([e]) => e === ext)?.[1]
  if (format && isGzipped(name) && !GZIP_FORMATS.includes(format)) throw new EtlError('USAGE', `read: ${name}: only JSONL and CSV exports are read gzip-compressed (${format === 'cr-text' ? 'a CR text is read as published' : `${format === 'parquet' ? 'Parquet' : 'Arrow'} compresses its own pages`}): give it unpacked`)
  if (format) return format
  const why = own === 'manifest' ? '; a manifest is checked with its folder: validate the folder' : own ? `; mtg-rules writes ${own}.json beside the exports, and it holds no rows (rows of yours in a file of that name are read named .jsonl)` : ''
  throw new EtlError('USAGE', `read: cannot tell the format of ${name}: expected .txt (CR text) or an export: ${EXPORT_EXTENSIONS_SAID}${why}`)
}

/** How many first bytes sourceKindOfContent reads. */
export const CONTENT_HEAD_BYTES = 4096

/**
 * Which reader bytes without a name need (standard input), from their first bytes: Parquet and
 * Arrow by their magic, JSONL by a first `{`, CR text by a UTF-16 byte order mark or a first line
 * naming the Comprehensive Rules; anything else is read as CSV (a header line of column names).
 */
export function sourceKindOfContent(head: Uint8Array): Exclude<SourceKind, 'manifest' | 'unknown'> {
  const start = new TextDecoder('latin1').decode(head.subarray(0, CONTENT_HEAD_BYTES))
  if (start.startsWith('PAR1')) return 'parquet'
  // An Arrow IPC file, or a stream (its first message after the 0xFFFFFFFF continuation marker).
  if (start.startsWith('ARROW1') || start.startsWith('\xFF\xFF\xFF\xFF')) return 'arrow'
  if (start.startsWith('\xFE\xFF') || start.startsWith('\xFF\xFE')) return 'cr-text'
  const text = start.replace(/^\xEF\xBB\xBF/, '')
  if (/^\s*\{/.test(text)) return 'jsonl'
  return /^[^\r\n]*Comprehensive Rules/.test(text) ? 'cr-text' : 'csv'
}

/** The file name extension a kind of source is read by (sourceKindOf's inverse). */
export const extensionOfKind = (kind: Exclude<SourceKind, 'manifest' | 'unknown'>): string => (kind === 'cr-text' ? 'txt' : kind)

/**
 * A file whose 0 bytes are an export of no rows: JSONL (it has no header to write) named after its
 * table (`rule_links.jsonl` of a one-release history), whose rows check then says whether the table
 * may be empty. Any other empty file is refused: nothing tells what it holds.
 */
export function emptyIsNoRows(name: string): boolean {
  return EXPORT_FILE.test(name) && sourceKindOf(name) === 'jsonl' && tableNamed(name) !== undefined
}

export function exportFormatOf(name: string): ExportFormat {
  const kind = sourceKindOf(name)
  if (kind === 'cr-text') throw new EtlError('USAGE', `read: ${name} is CR text, not an export`)
  return kind
}

/**
 * Validate an export as its bytes stream in: every check sees each row once and keeps only what it
 * needs (the rule numbers), so JSONL and CSV are checked in memory that does not hold all the rows.
 */
export async function validateExportStream(name: string, chunks: ExportChunks, options: ValidateOptions = {}): Promise<Report> {
  const format = exportFormatOf(name)
  const { validateExportRows } = await import('./validate-rows.js')
  return validateExportRows(name, format, chunks, options)
}
