// Limits on one row of an export, shared by the readers and the clean proofs (a light module: the
// proofs load without the readers).

/** A JSONL line longer than this is refused: an export row is a few kilobytes. */
export const MAX_JSONL_LINE = 16 * 1024 * 1024
/** A row with more keys than this is refused: our tables have at most eight columns. */
export const MAX_KEYS = 1000
/** A CSV record longer than this is refused. */
export const MAX_CSV_RECORD = 16 * 1024 * 1024
