/**
 * What the Node edges take from the environment. The CLI reads the environment once
 * (cli/settings.ts) and sets them here; a program using the library sets them with configureIo.
 */
export interface IoSettings {
  /** How long a FIFO may stay without a writer, or without data, before a read gives up (default 10 s). */
  fifoTimeoutMs: number
  /** How long a run waits for another one writing the same output folder (default 120 s). */
  lockTimeoutMs: number
  /** The time limit of decoding one Parquet row group or Arrow file; null: 20 s + 1 s per 10 MB of file. */
  decodeTimeoutMs: number | null
  /** How long a decoding worker left without a file waits for one before it is stopped, with its heap (default 2 s). */
  decoderIdleMs: number
  /** A pause after each file written into an output folder: a test seam, to interrupt a write (default 0). */
  writeDelayMs: number
}

/** The longest delay a timer takes (2^31 − 1 ms, about 24.8 days): Node fires a longer one at once. */
export const MAX_TIMER_MS = 2_147_483_647

/** The settings a process starts with. */
export const DEFAULT_IO_SETTINGS: Readonly<IoSettings> = Object.freeze({ fifoTimeoutMs: 10_000, lockTimeoutMs: 120_000, decodeTimeoutMs: null, decoderIdleMs: 2000, writeDelayMs: 0 })

const settings: IoSettings = { ...DEFAULT_IO_SETTINGS }

/** The settings in force. */
export const ioSettings: Readonly<IoSettings> = settings

/** Change some settings (the rest stay as they are). */
export function configureIo(next: Partial<IoSettings>): void {
  Object.assign(settings, next)
}

/** A time limit as an error line gives it: "2 s", "0.5 s" (never "0 s" for a limit under a second), "50 ms". */
export const timeLimit = (ms: number): string => (ms < 100 ? `${Math.round(ms)} ms` : `${ms < 10_000 ? Math.round(ms / 100) / 10 : Math.round(ms / 1000)} s`)

/** The time limit of decoding a file of `size` bytes, in one place for every decoder. */
export const decodeTimeoutMs = (size: number): number => settings.decodeTimeoutMs ?? 20_000 + size / 10_000
