import type { Diagnostic, GlossaryEntry, Heading } from '../types.js'

/** A row as the checks see it: fields of the wrong type are null, so one bad field never hides the rest. */
export interface CheckRow {
  number: string | null
  text: string | null
  examples: string[]
  index: unknown
  /** The record as read, for the schema check. */
  record: Record<string, unknown>
  line?: number
  position?: number
}

export interface CheckInput {
  rows: CheckRow[]
  /** Glossary entries, when the input is CR text. */
  glossary: GlossaryEntry[]
  /** Section headings, when the input is CR text (exports carry none). */
  sections: Heading[]
}

/** One check: a stable code and a pure function from the whole input to diagnostics. */
export interface Check {
  code: string
  run(input: CheckInput): Diagnostic[]
}

/** Where a row stands, for diagnostics: its source line and/or row position, and its number. */
export function whereOf(row: CheckRow): { number?: string; line?: number; position?: number } {
  const w: { number?: string; line?: number; position?: number } = {}
  if (row.number !== null) w.number = row.number
  if (row.line !== undefined) w.line = row.line
  if (row.position !== undefined) w.position = row.position
  return w
}
