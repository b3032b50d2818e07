import { setFlagsFromString } from 'node:v8'

/**
 * How much bytecode a function runs before V8 considers compiling it with its optimizing compiler
 * (V8's default is 67,584). Most runs of this CLI last a second or less on a few cores, where the
 * optimizing compiles, on a thread of their own, compete with the work and its worker threads and are
 * not paid back; a larger budget leaves them to the functions that run long (docs/performance.md).
 */
const INTERRUPT_BUDGET = 1_000_000

/**
 * Set for the whole process (its worker threads too) by the CLI's main, before any command runs.
 * Only the CLI, which owns its process, sets it: a program that imports the library keeps its own.
 */
export function tuneV8ForShortRuns(): void {
  setFlagsFromString(`--interrupt-budget=${INTERRUPT_BUDGET}`)
}
