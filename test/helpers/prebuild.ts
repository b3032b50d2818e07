// Vitest global setup, after temp-root: the history of the shared releases, which several test files
// read, built before the test workers start (on both cores), so that no two workers build it at once.
import { builtHistory } from './built.js'

export default function setup(): void {
  builtHistory()
}
