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

/**
 * The arguments every library function that reads a file takes: a name and its bytes. A program
 * that passes something else gets an EtlError USAGE naming the function, not a TypeError from deep
 * inside it.
 */
export function requireNamedBytes(fn: string, name: unknown, bytes: unknown): asserts bytes is Uint8Array {
  if (typeof name !== 'string' || name === '') throw new EtlError('USAGE', `${fn}: the name must be a non-empty string, not ${describe(name)}`)
  if (!(bytes instanceof Uint8Array)) throw new EtlError('USAGE', `${fn}: the bytes of ${name} must be a Uint8Array (a Buffer is one), not ${describe(bytes)}`)
}

const describe = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? `a ${(v as object).constructor?.name ?? 'object'}` : typeof v)
