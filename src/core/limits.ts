// The limits on what the toolkit reads, in one place. docs/reliability.md lists them with what
// happens beyond each.
import { EtlError } from './errors.js'
import { thousands } from './words.js'

/** CR texts are about 1 MB; anything far larger is refused before it is read into memory. */
export const MAX_TEXT_BYTES = 64 * 1024 * 1024
/** Numbered rules a CR text may hold: a published release has about 3,200 (a build at the limit peaks at ~0.3 GB). */
export const MAX_TEXT_RULES = 50_000
/**
 * Citations a CR text's references table may hold (a published release has about 2,100): the build
 * writes that table in every format in memory, ~1.6 KB a row (a million took 1.6 GB).
 */
export const MAX_TEXT_CITATIONS = 100_000
/**
 * Characters a line, a rule (its text and examples) or a glossary entry of a CR text may hold: a
 * published rule has at most ~3,000. The row written from it stays within what the export readers
 * take (MAX_JSONL_LINE, MAX_CSV_RECORD: even at 6 bytes a character, escaped, ~6 MB).
 */
export const MAX_ROW_CHARS = 1_000_000
/** Glossary entries a CR text may hold: a published release has about 740 (a site of 80,000 peaked at ~1 GB). */
export const MAX_TEXT_GLOSSARY = 20_000
/**
 * Rows of a Parquet row group as the toolkit writes it, and of a batch its readers decode: a larger
 * group (pyarrow writes up to 1Mi rows as one, 64Mi before version 13: pandas' to_parquet of these
 * tables is one group) is sent in slices of this many rows (one 3,000,000-row group took 4.2 GB whole).
 */
export const PARQUET_BATCH_ROWS = 100_000
/** rules_history (and rule_links) rows `site` holds: ~3,200 a release, ~420,000 for 130 releases. */
export const MAX_HISTORY_ROWS = 1_000_000

/**
 * Rows of a table that `site` and `diff` hold in memory whole: never more than a CR text can give
 * (a 300,000-row rules export took 3.7 GB in `site` and 1.1 GB in `diff`). `validate` streams
 * every table and has no such bound.
 */
export const MAX_HELD_ROWS: Readonly<Record<string, number>> = {
  rules: MAX_TEXT_RULES,
  rules_meta: MAX_TEXT_RULES,
  glossary: MAX_TEXT_GLOSSARY,
  references: MAX_TEXT_CITATIONS,
  rules_history: MAX_HISTORY_ROWS,
  rule_links: MAX_HISTORY_ROWS,
}

/** The error of a table past MAX_HELD_ROWS, as `command` (site, diff) says it. */
export const tooManyHeldRows = (command: string, file: string, table: string) =>
  new EtlError('INPUT_TOO_LARGE', `${command}: ${file} holds more than ${thousands(MAX_HELD_ROWS[table]!)} rows of the ${table} table, more than ${command} holds in memory (validate checks a table of any size)`)

/** Exports of 300,000 rows stay well below this. */
export const MAX_EXPORT_BYTES = 1024 * 1024 * 1024

/** A JSONL line longer than this is refused: an export row is a few kilobytes. */
export const MAX_JSONL_LINE = 16 * 1024 * 1024
/**
 * A row with more keys, or a file with more columns (a CSV header, a Parquet or Arrow schema), than
 * this is refused: our tables have at most eight columns, and the Parquet and Arrow libraries look
 * each column up by name among all of them (work that grows with the square of their number).
 */
export const MAX_KEYS = 1000
/**
 * A JSONL line nesting deeper than this, when its keys must be read from its syntax tree (a key
 * given twice, or nested objects), is refused: a row of these tables nests two levels (the row, its
 * examples), and the syntax tree is built by recursion (200,000 levels overflowed the stack).
 */
export const MAX_JSON_NESTING = 100
/** A CSV record longer than this is refused. */
export const MAX_CSV_RECORD = 16 * 1024 * 1024
/** A Parquet footer larger than this is refused: ours is under a kilobyte, 10,000 row groups of eight columns ~3 MB. */
export const MAX_PARQUET_FOOTER = 8 * 1024 * 1024
/** A Parquet page may not claim more than this once uncompressed: a damaged size must not allocate gigabytes. */
export const MAX_PAGE_BYTES = 256 * 1024 * 1024

/**
 * The folders below a folder validate looks into for dataset folders, this deep: to check them
 * (--recursive; more is an error), or to name them (more are said not to have been looked into).
 */
export const MAX_FOLDER_DEPTH = 8
export const MAX_FOLDERS_CHECKED = 10_000
export const MAX_FOLDERS_NAMED = 1_000
