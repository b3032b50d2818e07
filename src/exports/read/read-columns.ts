import { diagnostics } from '../../core/diagnostics.js'
import { detectTable, RULES_TABLE, shownColumn, tableNamed, type ColumnType } from '../../core/tables.js'
import type { Diagnostic } from '../../core/types.js'
import { PANDAS_INDEX } from './export-stream.js'
import { plural } from '../../core/words.js'

// --- Columns -------------------------------------------------------------------------------

const PARQUET_TYPE: Record<ColumnType, string> = { string: 'string', int64: 'int64', double: 'double', bool: 'boolean', 'list<string>': 'list<string>' }

/**
 * The table the file `name` holds (detectTable: by its name, else by its columns), and how its
 * columns map onto that table (rules: `__index_level_0__` read as `index`), with the missing,
 * unknown and wrongly typed columns reported once each.
 */
export function columnMapping(name: string, columns: string[], parquetTypes?: Map<string, string>) {
  const table = detectTable(name, columns)
  const notes: string[] = []
  const diags: Diagnostic[] = []
  const names = table.columns.map((c) => c.name)
  const present = new Set(columns)
  const renameIndex = table === RULES_TABLE && !present.has('index') && present.has(PANDAS_INDEX)
  if (renameIndex) notes.push(`column ${PANDAS_INDEX} was read as index (pandas layout)`)
  // Said only when the name does not say it (a Hugging Face `train-00000-of-00001.parquet`).
  if (table !== RULES_TABLE && tableNamed(name) === undefined) notes.push(`read as the ${table.name} table: its columns are that table’s (its name does not say)`)
  const sourceOf = (c: string) => (c === 'index' && renameIndex ? PANDAS_INDEX : c)
  const known = new Set(names.map(sourceOf))
  const missing = names.filter((c) => !present.has(sourceOf(c)))
  const unknown = columns.filter((c) => !known.has(c))
  // A header or schema that names a column twice: readers differ on which one they read (DuckDB the first).
  const seen = new Set<string>()
  const repeated = new Set<string>()
  for (const c of columns) (seen.has(c) ? repeated : seen).add(c)
  const twice = [...repeated]
  if (twice.length > 0) {
    const shown = twice.map(shownColumn)
    diags.push(diagnostics.columns(`${plural(twice.length, 'column')} named twice in the ${parquetTypes ? 'schema' : 'header'}: ${shown.join(', ')} (readers differ on which one they read)`, { duplicated: shown }))
  }
  if (missing.length > 0) diags.push(diagnostics.columns(`missing ${plural(missing.length, 'column')}: ${missing.join(', ')}`, { missing }))
  if (unknown.length > 0) {
    if (unknown.length === columns.length) {
      // No column of the table at all: perhaps not data (a link to a secrets file, a stray text
      // file). Its first line is not echoed, only counted.
      diags.push(diagnostics.columns(`none of the file's ${columns.length} ${plural(columns.length, 'column is', 'columns are')} a column of the ${table.name} table (their names are not shown: the file may not be data)`, { unknownCount: columns.length }))
    } else {
      const shown = unknown.map(shownColumn)
      // pandas' to_csv writes its row index first, under no name, unless told index=False.
      const said = unknown.map((c, i) => (c === '' && columns[0] === '' ? 'an unnamed first column, as pandas to_csv writes its row index (pass index=False)' : shown[i]))
      diags.push(diagnostics.columns(`unknown ${plural(unknown.length, 'column')}: ${said.join(', ')}`, { unknown: shown }))
    }
  }
  for (const c of table.columns) {
    const got = parquetTypes?.get(sourceOf(c.name))
    const expected = PARQUET_TYPE[c.type]
    if (got !== undefined && got !== expected) {
      diags.push(diagnostics.columns(`column ${sourceOf(c.name)} has type ${got}, expected ${expected}`, { column: sourceOf(c.name), type: got, expected }))
    }
  }
  const map = (raw: Record<string, unknown>) => {
    // A record whose keys are the table's columns, in their order, is already what the copy would be.
    let at = 0
    for (const k in raw) {
      if (at === names.length || k !== names[at]) {
        at = -1
        break
      }
      at++
    }
    if (at === names.length) return raw
    const record: Record<string, unknown> = {}
    for (const c of names) {
      const from = sourceOf(c)
      if (from in raw) record[c] = raw[from]
    }
    return record
  }
  const reported = new Set([...missing.map(sourceOf), ...unknown, ...[...(parquetTypes ?? new Map()).keys()].filter((c) => diags.some((d) => d.params?.column === c))])
  return { info: { table, notes, diagnostics: diags, reportedColumns: reported }, known, map }
}
