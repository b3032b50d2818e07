/** Column types every export format can hold: Parquet, JSONL, CSV and Arrow. */
export type ColumnType = 'string' | 'int64' | 'double' | 'bool' | 'list<string>'

export interface ColumnSpec {
  name: string
  type: ColumnType
  /** May hold null (default false). */
  nullable?: boolean
  /** Long free text, seldom repeated: Parquet stores it plainly, with no dictionary and no min/max. */
  prose?: boolean
}

/** One exported table: its file stem (`rules` → rules.parquet, rules.jsonl, …) and columns in order. */
export interface TableSpec {
  name: string
  columns: ColumnSpec[]
  /**
   * Its export may hold no rows and still be whole, as build and history write it (every other
   * table's export with none is an error: a release always has rules).
   */
  mayBeEmpty?: true
}

export type TableRow = Record<string, string | number | boolean | string[] | null>

export const RULES_TABLE: TableSpec = {
  name: 'rules',
  columns: [
    { name: 'number', type: 'string' },
    { name: 'text', type: 'string', prose: true },
    { name: 'examples', type: 'list<string>', prose: true },
    { name: 'index', type: 'int64' },
  ],
}

/** A text whose Glossary section holds no entry builds an empty glossary. */
export const GLOSSARY_TABLE: TableSpec = {
  name: 'glossary',
  mayBeEmpty: true,
  columns: [
    { name: 'term', type: 'string' },
    { name: 'definition', type: 'string', prose: true },
    { name: 'index', type: 'int64' },
    { name: 'see', type: 'list<string>' },
    { name: 'obsolete', type: 'bool' },
  ],
}

export const RULES_META_TABLE: TableSpec = {
  name: 'rules_meta',
  columns: [
    { name: 'number', type: 'string' },
    { name: 'chapter', type: 'string' },
    { name: 'chapter_title', type: 'string', nullable: true },
    { name: 'section', type: 'string' },
    { name: 'section_title', type: 'string', nullable: true },
    { name: 'parent', type: 'string', nullable: true },
    { name: 'depth', type: 'int64' },
    { name: 'line', type: 'int64' },
  ],
}

/** A text that cites no rule builds an empty references table. */
export const REFERENCES_TABLE: TableSpec = {
  name: 'references',
  mayBeEmpty: true,
  columns: [
    { name: 'source', type: 'string' },
    { name: 'target', type: 'string' },
    { name: 'kind', type: 'string' },
    { name: 'resolved', type: 'bool' },
    { name: 'span', type: 'string' },
    { name: 'location', type: 'string' },
  ],
}

/** Every rule of every release, with its lineage: what `history` writes. */
export const RULES_HISTORY_TABLE: TableSpec = {
  name: 'rules_history',
  columns: [
    { name: 'release', type: 'string' },
    { name: 'number', type: 'string' },
    { name: 'text', type: 'string', prose: true },
    { name: 'examples', type: 'list<string>', prose: true },
    { name: 'index', type: 'int64' },
    { name: 'rule_id', type: 'string' },
    { name: 'previous_number', type: 'string', nullable: true },
    { name: 'change', type: 'string' },
  ],
}

/**
 * The links between rules of consecutive releases that `history` writes: every rule continued from
 * one of the release before, and the splits and merges a single previous_number cannot say. A
 * history of one release links nothing.
 */
export const RULE_LINKS_TABLE: TableSpec = {
  name: 'rule_links',
  mayBeEmpty: true,
  columns: [
    { name: 'release', type: 'string' },
    { name: 'number', type: 'string' },
    { name: 'previous_release', type: 'string' },
    { name: 'previous_number', type: 'string' },
    { name: 'relation', type: 'string' },
    { name: 'similarity', type: 'double' },
  ],
}

/** Every table a build exports, rules first. */
export const TABLES = [RULES_TABLE, GLOSSARY_TABLE, RULES_META_TABLE, REFERENCES_TABLE]

/** Every table an export may hold: a build's, and the history's. */
export const ALL_TABLES = [...TABLES, RULES_HISTORY_TABLE, RULE_LINKS_TABLE]

/** A history folder's table of its runs (one row per text: built or why not), beside its tables: no dataset table. */
export const HISTORY_RUNS_FILE = 'history.csv'

/** The table a file's name gives: `glossary.jsonl` → glossary; undefined for another name. */
export function tableNamed(name: string): TableSpec | undefined {
  const stem = /([^/\\]+?)(\.[^./\\]+)?$/.exec(withoutGzip(name))?.[1] ?? ''
  return ALL_TABLES.find((t) => t.name === stem)
}

/** Whether a file's name says it is gzip-compressed (`rules.jsonl.gz`): it is read unpacked. */
export const isGzipped = (name: string): boolean => /\.gz$/i.test(name)

/** A file's name without its `.gz`: the name of what it unpacks to. */
export const withoutGzip = (name: string): string => name.replace(/\.gz$/i, '')

/** Whether a file is named `.json` (or `.json.gz`): JSON Lines when it is a data file (validate-export.ts). */
export const isJsonNamed = (name: string): boolean => /\.json$/i.test(withoutGzip(name))

/** The table a file holds: `glossary.jsonl` → glossary; otherwise the table whose columns it has. */
export function detectTable(name: string, columns: string[]): TableSpec {
  const byName = tableNamed(name)
  if (byName) return byName
  const has = new Set(columns)
  const scored = ALL_TABLES.map((t) => ({ t, hits: t.columns.filter((c) => has.has(c.name)).length }))
  const best = scored.reduce((a, b) => (b.hits > a.hits ? b : a))
  return best.hits > 2 ? best.t : RULES_TABLE
}

/**
 * A column name as a report may show it: a name of the usual shape (letters, digits, `_`, `-`, `.`,
 * spaces; at most 64 characters) as it is, anything else by its length only, so that a report never
 * echoes text of a file that is not data.
 */
export function shownColumn(name: string): string {
  return /^[\p{L}\p{N}_][\p{L}\p{N}_ .-]{0,63}$/u.test(name) ? name : `(a column name of ${[...name].length} characters, not shown)`
}
