import type { KnownRules } from '../checks/companion.js'
import type { ExportFormat, FileRef } from '../exports/read-export.js'

/** How to validate an export. */
export interface ValidateOptions {
  /** Count warnings as errors (default false). */
  strict?: boolean
  /** For a companion file: the rules it goes with (default: numbers are not cross-checked). */
  knownRules?: KnownRules
  /** Run every check on every row, never the clean proof first (tests compare the two). */
  exact?: boolean
  /**
   * How a rules export in a regular file is proved clean: on every core, by ranges of the file
   * (io/prove-file.ts, io/prove-parquet.ts; the CLI gives it). Without it, JSONL and CSV are proved
   * from their bytes in this thread, and Parquet is checked row by row.
   */
  fileProof?: FileProof
}

/** An export's bytes as they stream; `again` reads them once more from the start (a regular file, bytes in memory). */
export type ExportChunks = AsyncIterable<Uint8Array> & { file?: FileRef; again?: () => AsyncIterable<Uint8Array> }

/** The row count of a rules export in a file proved clean, or null (not proved). */
export type FileProof = (name: string, format: Exclude<ExportFormat, 'arrow'>, file: FileRef) => Promise<number | null>
