/** One row of the dataset: a numbered rule or subrule, in CR document order. */
export interface RuleRow {
  number: string
  text: string
  examples: string[]
  index: number
}

/** A rule as the parser found it, before normalization. */
export interface ParsedRule {
  number: string
  /** Text lines as published: the rule's own line, then continuation paragraphs. */
  textLines: string[]
  examples: string[]
  /** 1-based line of the rule's number in the source text. */
  line: number
}

export interface GlossaryEntry {
  term: string
  /** Definition lines joined with `\n`. */
  definition: string
  line: number
}

export interface Heading {
  number: string
  title: string
  line: number
}

export type Encoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252'

export interface LineEndingCounts {
  crlf: number
  cr: number
  lf: number
}

/** What `decode` found out about the bytes of a text file. */
export interface DecodedText {
  text: string
  encoding: Encoding
  bom: boolean
  lineEndings: LineEndingCounts
  /** Bytes that are not UTF-8 in a text that otherwise is (read as U+FFFD), with their lines. */
  invalidBytes?: { offset: number; byte: number; line: number }[]
  /** How many bytes are not UTF-8, when more than `invalidBytes` locates. */
  invalidByteCount?: number
}

export type Severity = 'error' | 'warning'

/** A problem found in the input: plain data, turned into text by `formatDiagnostics`. */
export interface Diagnostic {
  code: DiagnosticCode
  severity: Severity
  message: string
  /** The rule number concerned, or `glossary:<term>` for a glossary reference. */
  number?: string
  /** 1-based source line, when the input is CR text. */
  line?: number
  /** 0-based row position, when the input is an export. */
  position?: number
  params?: Record<string, unknown>
  /** Only on the marker a BoundedDiagnostics list leaves: how many diagnostics of this code it did not keep. */
  omitted?: number
}

export type DiagnosticCode =
  | 'schema'
  | 'duplicate-number'
  | 'order'
  | 'index'
  | 'gap'
  | 'dangling-reference'
  | 'source-format'
  | 'example-as-row'
  | 'structure'
  | 'columns'
  | 'unknown-number'
  | 'bad-number'
  | 'text-lost'
  | 'manifest'
  | 'encoding'
  | 'lineage'
  | 'unreadable'
  | 'text'

/** The parsed Comprehensive Rules document. */
export interface CrDocument {
  /** ISO date (YYYY-MM-DD) from "These rules are effective as of …", or null when absent. */
  effectiveDate: string | null
  /** Hard-wrapped (2001–2004): paragraphs broken into lines of about 100 characters. */
  wrapped: boolean
  /** The rules body: 0-based line indexes, end excluded. */
  body: { start: number; end: number }
  chapters: Heading[]
  sections: Heading[]
  rules: ParsedRule[]
  glossary: GlossaryEntry[]
  diagnostics: Diagnostic[]
}

/** A row as it travels through the checks, with where it came from. */
export interface LocatedRow {
  row: RuleRow
  line?: number
  position?: number
}

/** A record of an export as a reader gives it, with where it stands. */
export interface ExportRecord {
  record: Record<string, unknown>
  /** 0-based row position. */
  position: number
  /** 1-based line where the row starts (JSONL and CSV). */
  line?: number
}
