import type { IoSettings } from '../io/settings.js'

/** A whole number of milliseconds from the environment, or nothing when unset or not one. */
function milliseconds(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d+$/.test(value.trim())) return undefined
  return Number(value)
}

/**
 * The settings the environment gives, read once when the CLI starts (the library never reads the
 * environment): MTG_RULES_FIFO_TIMEOUT_MS, MTG_RULES_LOCK_TIMEOUT_MS, MTG_RULES_DECODE_TIMEOUT_MS and
 * the test seam MTG_RULES_TEST_WRITE_DELAY_MS.
 */
export function settingsFromEnv(env: NodeJS.ProcessEnv): Partial<IoSettings> {
  const settings: Partial<IoSettings> = {}
  const fifo = milliseconds(env.MTG_RULES_FIFO_TIMEOUT_MS)
  const lock = milliseconds(env.MTG_RULES_LOCK_TIMEOUT_MS)
  const decode = milliseconds(env.MTG_RULES_DECODE_TIMEOUT_MS)
  const delay = milliseconds(env.MTG_RULES_TEST_WRITE_DELAY_MS)
  if (fifo !== undefined) settings.fifoTimeoutMs = fifo
  if (lock !== undefined) settings.lockTimeoutMs = lock
  if (decode !== undefined) settings.decodeTimeoutMs = decode
  if (delay !== undefined) settings.writeDelayMs = delay
  return settings
}
