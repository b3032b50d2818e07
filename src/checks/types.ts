import type { Reference } from '../core/citations.js'
import type { RuleNumber } from '../core/rule-number.js'
import type { Diagnostic, GlossaryEntry, Heading } from '../core/types.js'
import type { NumberIndex } from './number-index.js'

/** A row as the checks see it: fields of the wrong type are null, so one bad field never hides the rest. */
export interface CheckRow {
  number: string | null
  /** `number` parsed, or null when it is not a rule number (parsed once, for every check). */
  parsed: RuleNumber | null
  text: string | null
  examples: string[]
  index: unknown
  /** The record as read, for the schema check. */
  record: Record<string, unknown>
  line?: number
  position?: number
}

/** What the checks know besides the rows: the glossary and section headings of CR text (exports have none). */
export interface CheckContext {
  glossary: GlossaryEntry[]
  sections: Heading[]
  /**
   * Columns a reader already reported missing, unknown or wrongly typed: the per-row schema errors
   * about them would repeat that one finding for every row.
   */
  reportedColumns?: ReadonlySet<string>
  /** Each row's citations when already found (collectReferences fills it for a build); else found again. */
  citations?: Map<CheckRow, Reference[]>
}

export interface CheckInput extends CheckContext {
  rows: CheckRow[]
}

/**
 * What a check sees while the rows stream: the context, and every rule number met so far with the
 * ordinal of its first row — one map for all checks (at 3,000,000 rows, each check keeping its own
 * set of numbers cost hundreds of megabytes). A row's own number is added after every check saw it.
 */
export interface CheckEnv extends CheckContext {
  numbers: Pick<NumberIndex, 'get' | 'has'>
}

/** A check under way: it sees the rows one at a time, in order, and reports when they are done. */
export interface RowVisitor {
  visit(row: CheckRow, ordinal: number): void
  finish(): Diagnostic[]
}

/**
 * One check: a stable code and a visitor over the rows, so that an export can be checked as it
 * streams, in memory that holds the rule numbers but never all the rows.
 */
export interface Check {
  code: string
  start(env: CheckEnv): RowVisitor
}

/** Where a row stands, for diagnostics: its source line and/or row position, and its number. */
export function whereOf(row: CheckRow): { number?: string; line?: number; position?: number } {
  const w: { number?: string; line?: number; position?: number } = {}
  if (row.number !== null) w.number = row.number
  if (row.line !== undefined) w.line = row.line
  if (row.position !== undefined) w.position = row.position
  return w
}

