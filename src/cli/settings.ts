import { EtlError } from '../core/errors.js'
import { MAX_TIMER_MS, type IoSettings } from '../io/settings.js'

/**
 * A whole number of milliseconds from the environment variable `name`, or nothing when it is unset
 * or empty. Anything else is refused (exit 2), never ignored: a limit set wrong would silently be
 * the default, and one past what a timer takes would fire at once.
 */
function milliseconds(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const value = env[name]?.trim()
  if (value === undefined || value === '') return undefined
  if (!/^\d+$/.test(value) || Number(value) > MAX_TIMER_MS) throw new EtlError('USAGE', `mtg-rules: ${name} takes a whole number of milliseconds, at most ${MAX_TIMER_MS}, not "${value}"`)
  return Number(value)
}

/**
 * The settings the environment gives, read once when the CLI starts (the library never reads the
 * environment): MTG_RULES_FIFO_TIMEOUT_MS, MTG_RULES_LOCK_TIMEOUT_MS, MTG_RULES_DECODE_TIMEOUT_MS and
 * the test seam MTG_RULES_TEST_WRITE_DELAY_MS.
 */
export function settingsFromEnv(env: NodeJS.ProcessEnv): Partial<IoSettings> {
  const settings: Partial<IoSettings> = {}
  const fifo = milliseconds(env, 'MTG_RULES_FIFO_TIMEOUT_MS')
  const lock = milliseconds(env, 'MTG_RULES_LOCK_TIMEOUT_MS')
  const decode = milliseconds(env, 'MTG_RULES_DECODE_TIMEOUT_MS')
  const delay = milliseconds(env, 'MTG_RULES_TEST_WRITE_DELAY_MS')
  if (fifo !== undefined) settings.fifoTimeoutMs = fifo
  if (lock !== undefined) settings.lockTimeoutMs = lock
  if (decode !== undefined) settings.decodeTimeoutMs = decode
  if (delay !== undefined) settings.writeDelayMs = delay
  return settings
}
