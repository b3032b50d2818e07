// Vitest global setup: every temporary folder a test makes (mkdtemp under os.tmpdir(), in the test
// workers and in the CLI processes they start) lands in one folder for this run, removed at the end.
// Without it each run left a few hundred folders, gigabytes over a day, in the system's temp folder.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { changedSharedBuilds } from './built.js'

export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), 'mtg-rules-etl-test-'))
  const previous = process.env.TMPDIR
  process.env.TMPDIR = root
  return () => {
    if (previous === undefined) delete process.env.TMPDIR
    else process.env.TMPDIR = previous
    const changed = changedSharedBuilds(root)
    rmSync(root, { recursive: true, force: true })
    // What test/helpers/built.ts shares must stay as it was built: another test file read it.
    // (Vitest reports an error thrown here and still exits 0: the exit code is set too.)
    if (changed.length > 0) {
      process.exitCode = 1
      throw new Error(`a test changed the shared builds ${changed.join(', ')} (take a copy: datasetCopy)`)
    }
  }
}
