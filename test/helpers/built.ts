import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { cli, CLI_TIMEOUT_MS, type Run } from './cli.js'
import { RULES_ARCHIVE, release } from './shared.js'

// What the CLI builds from the shared releases, built once per test run for the tests that only read
// it (a build is ~0.4 s of CPU, the history of the shared releases ~4 s): under the run's temporary
// root, one folder per input, each made whole in a folder of its own and renamed into place, so that
// two test workers asking at once both get a whole one. Read these folders, never change them: a test
// that changes a dataset folder takes a copy (datasetCopy). The run fails when one has changed
// (changedSharedBuilds, from the global setup's teardown).

const shared = () => join(tmpdir(), 'shared-builds')

/** The CLI run `args` into `out`, once per test run: its folder and what the run printed. */
function once(name: string, args: (out: string) => string[]): { out: string; run: Run } {
  const home = join(shared(), name)
  if (!existsSync(home)) {
    mkdirSync(shared(), { recursive: true })
    // One worker builds it; a worker asking meanwhile waits for it (both building it at the start of
    // a run cost a second history, ~4 s of the run's CPU).
    const building = join(shared(), `.${name}.building`)
    try {
      mkdirSync(building)
    } catch {
      awaitOther(home, building, name)
      return once(name, args)
    }
    try {
      const making = mkdtempSync(join(shared(), `.${name}-`))
      const run = cli(args(join(making, 'out')))
      if (run.status !== 0) throw new Error(`mtg-rules ${args('OUT').join(' ')}: exit ${run.status}: ${run.stderr}`)
      writeFileSync(join(making, 'run.json'), JSON.stringify(run))
      writeFileSync(join(making, 'files.json'), JSON.stringify(filesOf(join(making, 'out'))))
      renameSync(making, home)
    } finally {
      rmSync(building, { recursive: true, force: true })
    }
  }
  return { out: join(home, 'out'), run: JSON.parse(readFileSync(join(home, 'run.json'), 'utf8')) as Run }
}

/** Block until another worker's build of `name` is in place or has given up (then the caller tries it itself). */
function awaitOther(home: string, building: string, name: string): void {
  const tick = new Int32Array(new SharedArrayBuffer(4))
  const until = Date.now() + CLI_TIMEOUT_MS
  while (!existsSync(home) && existsSync(building)) {
    if (Date.now() > until) throw new Error(`the shared build ${name} was not done after ${CLI_TIMEOUT_MS} ms`)
    Atomics.wait(tick, 0, 0, 20)
  }
}

/** The dataset folder `mtg-rules build` writes for the shared release effective on `date` (read only). */
export const builtDataset = (date: string): string => once(date, (out) => ['build', release(date).path, '--out', out]).out

/** A copy of that folder, as `parent/out` (a new temporary folder when none is given), to change. */
export function datasetCopy(date: string, parent = mkdtempSync(join(tmpdir(), 'dataset-'))): string {
  const out = join(parent, 'out')
  cpSync(builtDataset(date), out, { recursive: true })
  return out
}

/** The folder `mtg-rules history` writes for the shared releases, and what that run printed (read only). */
export const builtHistory = (): { out: string; run: Run } => once('history', (out) => ['history', RULES_ARCHIVE, '--out', out])

/** Every file below `dir` (its path inside it), with its size, time of change and inode. */
function filesOf(dir: string, under = ''): Record<string, string> {
  const out: Record<string, string> = {}
  for (const e of readdirSync(join(dir, under), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const path = join(under, e.name)
    if (e.isDirectory()) Object.assign(out, filesOf(dir, path))
    else {
      const st = statSync(join(dir, path))
      out[path] = `${st.size} ${st.mtimeMs} ${st.ino}`
    }
  }
  return out
}

/** The shared builds a test changed (written, added, removed or replaced files) under the run's temporary root. */
export function changedSharedBuilds(root: string): string[] {
  const home = join(root, 'shared-builds')
  if (!existsSync(home)) return []
  return readdirSync(home)
    .filter((name) => !name.startsWith('.'))
    .filter((name) => JSON.stringify(filesOf(join(home, name, 'out'))) !== readFileSync(join(home, name, 'files.json'), 'utf8'))
}
