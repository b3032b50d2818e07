import { installBinaryDecoder } from '../exports/binary-decoder.js'
import { decodeInWorker } from './decode-worker.js'
import { configureIo, type IoSettings } from './settings.js'

/**
 * Give the library its Node edges: Parquet and Arrow decoded in a worker thread with a time and a
 * memory limit, and the settings (the CLI's from the environment). The package entry, the CLI and
 * the tests call it once.
 */
export function installNodeHost(settings: Partial<IoSettings> = {}): void {
  configureIo(settings)
  installBinaryDecoder(decodeInWorker)
}
