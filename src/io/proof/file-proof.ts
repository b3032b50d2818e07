import type { FileProof } from '../../validate/options.js'
import { proveFile } from './prove-file.js'

/**
 * The clean proof of a rules export in a regular file, on every core: what the CLI gives
 * `validateExportStream` (the Parquet proof is loaded only for a Parquet file).
 */
export const nodeFileProof: FileProof = async (name, format, file) =>
  format === 'parquet' ? (await import('./prove-parquet.js')).proveParquetFile(name, file) : proveFile(format, file.path, file.size)
