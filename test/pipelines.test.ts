import { spawnSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { inProcess } from './helpers/cli.js'
import { REPO, release } from './helpers/shared.js'

const pipeline = (script: string, args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [join(REPO, 'pipelines', script), ...args], { cwd: REPO, encoding: 'utf8', env: { ...process.env, ...env } })

describe('pipelines/regenerate.mjs (make release)', () => {
  it('takes the new release, builds, validates and writes the changelog against the previous one in raw/', () => {
    const tmp = mkdtempSync(join(tmpdir(), 'release-'))
    const [archive, raw, out] = ['archive', 'raw', 'out'].map((d) => join(tmp, d)) as [string, string, string]
    mkdirSync(archive)
    mkdirSync(raw)
    const oldRelease = release('2025-02-07')
    const newRelease = release('2026-06-19')
    copyFileSync(oldRelease.path, join(raw, oldRelease.file))
    copyFileSync(newRelease.path, join(archive, newRelease.file))
    const run = pipeline('regenerate.mjs', ['--from', archive, '--raw', raw, '--out', out])
    expect(run.stdout).toContain(`${out}/rules.parquet: valid, 3153 rows`)
    expect(run.status).toBe(0)
    expect(existsSync(join(raw, newRelease.file))).toBe(true)
    const changelog = readFileSync(join(out, 'CHANGELOG.md'), 'utf8')
    expect(changelog.split('\n')[0]).toBe('# Comprehensive Rules: 2025-02-07 → 2026-06-19')
    const changes = JSON.parse(readFileSync(join(out, 'changes.json'), 'utf8'))
    expect(changes.counts.new).toBe(3153)
    expect(JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')).exports.map((e: { path: string }) => e.path)).toContain('rules.arrow')
    // The whole folder is validated, its manifest too.
    expect(run.stdout).toContain(`${join(out, 'manifest.json')}: valid`)
  })

  it('refuses an option it does not take, or one without its value (exit 2, one line), before anything is fetched', () => {
    const tmp = mkdtempSync(join(tmpdir(), 'release-args-'))
    for (const [args, why] of [
      [['--form', tmp], 'unknown --form'],
      [['--from'], '--from takes a value'],
      [['--from', tmp, '--url', 'https://example.org'], 'give --from or --url, not both'],
      [['stray'], 'unknown stray'],
    ] as const) {
      const run = pipeline('regenerate.mjs', [...args, '--raw', join(tmp, 'raw'), '--out', join(tmp, 'out')])
      expect([run.status, run.stderr], args.join(' ')).toEqual([2, `regenerate: ${why} (usage: regenerate.mjs [--from DIR | --url PAGE] [--raw DIR] [--out DIR])\n`])
    }
    expect(existsSync(join(tmp, 'raw'))).toBe(false)
  })
})

describe('make release on a fresh clone, then make dataset', () => {
  it('finds the previous release in the archive when raw/ has none, and a rebuild of that release keeps its changelog', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'fresh-'))
    const [archive, raw, out] = ['archive', 'raw', 'out'].map((d) => join(tmp, d)) as [string, string, string]
    mkdirSync(archive)
    for (const r of [release('2026-06-19'), release('2026-08-07')]) copyFileSync(r.path, join(archive, r.file))
    const run = pipeline('regenerate.mjs', ['--from', archive, '--raw', raw, '--out', out])
    expect(run.status, run.stderr).toBe(0)
    const changelog = readFileSync(join(out, 'CHANGELOG.md'), 'utf8')
    expect(changelog.split('\n')[0]).toBe('# Comprehensive Rules: 2026-06-19 → 2026-08-07')
    // make dataset builds the same text again: the release's changelog stays with its dataset.
    const again = await inProcess(['build', join(raw, release('2026-08-07').file), '--out', out])
    expect(again.status).toBe(0)
    expect(again.stderr).toContain('build: kept CHANGELOG.md and changes.json (the same release)')
    expect(readFileSync(join(out, 'CHANGELOG.md'), 'utf8')).toBe(changelog)
    // Another release replaces the folder: the notes of the old one go with it, and it says so.
    const other = await inProcess(['build', release('2026-06-19').path, '--out', out])
    expect(other.status).toBe(0)
    expect(other.stderr).toContain('build: removed CHANGELOG.md and changes.json (it described the release this folder held before)')
    expect(existsSync(join(out, 'CHANGELOG.md'))).toBe(false)
  })

  it('with no older release anywhere, says where it looked', () => {
    const tmp = mkdtempSync(join(tmpdir(), 'alone-'))
    const [archive, raw, out] = ['archive', 'raw', 'out'].map((d) => join(tmp, d)) as [string, string, string]
    mkdirSync(archive)
    copyFileSync(release('2026-08-07').path, join(archive, release('2026-08-07').file))
    const run = pipeline('regenerate.mjs', ['--from', archive, '--raw', raw, '--out', out])
    expect(run.status).toBe(0)
    expect(run.stderr).toContain(`regenerate: no release older than ${join(raw, release('2026-08-07').file)} in ${raw}, ${archive}, ${out}/ (no dataset of an older release there): no changelog written`)
  })
})

describe('pipelines/dataset.mjs (make dataset)', () => {
  it('builds the newest release of the archive, copied into the cache first', () => {
    const tmp = mkdtempSync(join(tmpdir(), 'dataset-'))
    const archive = join(tmp, 'archive with spaces')
    mkdirSync(archive)
    const r = release('2024-03-08')
    copyFileSync(r.path, join(archive, r.file))
    copyFileSync(release('2016-07-22').path, join(archive, 'older.txt'))
    const run = pipeline('dataset.mjs', [], { RULES_ARCHIVE: archive, OUT: join(tmp, 'out'), RAW: join(tmp, 'raw') })
    expect(run.status).toBe(0)
    expect(JSON.parse(readFileSync(join(tmp, 'out', 'manifest.json'), 'utf8')).source).toMatchObject({ file: r.file, effectiveDate: '2024-03-08' })
    expect(existsSync(join(tmp, 'raw', r.file))).toBe(true)
  })
})
