export type EtlErrorCode =
  | 'INPUT_MISSING'
  | 'INPUT_UNREADABLE'
  | 'INPUT_EMPTY'
  | 'INPUT_BINARY'
  | 'INPUT_ENCODING'
  | 'INPUT_TOO_LARGE'
  | 'INPUT_NOT_CR'
  | 'EXPORT_MALFORMED'
  | 'OUTPUT_UNWRITABLE'
  | 'ARCHIVE_EMPTY'
  | 'FETCH_FAILED'
  | 'USAGE'
  | 'OUTPUT_NOT_OURS'
  | 'OUTPUT_BUSY'
  | 'INTERNAL'

/**
 * The one error the toolkit throws: the run cannot continue (unusable input, bad arguments).
 * Problems inside usable input are diagnostics instead, never exceptions.
 */
export class EtlError extends Error {
  readonly code: EtlErrorCode
  constructor(code: EtlErrorCode, message: string) {
    super(message)
    this.name = 'EtlError'
    this.code = code
  }
}
