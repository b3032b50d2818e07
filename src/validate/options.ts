import type { KnownRules } from '../checks/companion.js'
import type { FileRef } from '../exports/read/read-export.js'

/** How to validate an export. */
export interface ValidateOptions {
  /** Count warnings as errors (default false). */
  strict?: boolean
  /**
   * For a companion file: the rules it goes with (default: numbers are not cross-checked). A promise
   * is awaited only if the file holds a companion table (a folder's rules are read as they are checked).
   */
  knownRules?: KnownRules | Promise<KnownRules | undefined>
  /** For a rules export: given the rule numbers its rows hold, once it was read to its end. */
  onKnownRules?: (known: KnownRules) => void
  /** Kept for scripts written for earlier releases: there is one validation path, and this changes nothing. */
  exact?: boolean
}

/** An export's bytes as they stream; `file` when they are a regular file, read by ranges (Parquet). */
export type ExportChunks = AsyncIterable<Uint8Array> & { file?: FileRef }

