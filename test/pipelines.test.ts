import { spawnSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
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
