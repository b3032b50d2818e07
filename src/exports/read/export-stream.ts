import type { TableSpec } from '../../core/tables.js'
import type { Diagnostic, ExportRecord } from '../../core/types.js'

export type ExportFormat = 'parquet' | 'jsonl' | 'csv' | 'arrow'

/** Records a reader gives at a time. */
export const BATCH = 4096

/** The index column of exports written by pandas, as in the public Hugging Face dataset. */
export const PANDAS_INDEX = '__index_level_0__'

export type { ExportRecord }

/** An export being read: which table it holds, what its columns say, and its records as they come. */
export interface ExportStream {
  table: TableSpec
  notes: string[]
  /** Column problems known from the header or schema. */
  diagnostics: Diagnostic[]
  /** The records in file order, a batch at a time (awaiting each record would cost more than reading it). */
  batches: AsyncIterable<ExportRecord[]>
  /** Column problems found while reading (JSONL keys first seen late): ask once the records are read. */
  lateDiagnostics(): Diagnostic[]
  /**
   * The columns reported missing, unknown or wrongly typed, by their names as the file gives them:
   * for the row checks to leave alone (one finding, not one per row). Never shown as they are.
   */
  reportedColumns: ReadonlySet<string>
  /**
   * Let go of what reads the file (a Parquet or Arrow file's decoding worker, which would keep the
   * process from exiting): every reader that may not read the batches to their end calls it, in a
   * `finally`. Idempotent; a no-op once the last batch was read.
   */
  close(): void
}

/** Records read whole, for callers that want them all in memory (diff, tests). */
export interface ExportRecords {
  table: TableSpec
  records: ExportRecord[]
  diagnostics: Diagnostic[]
  notes: string[]
}
