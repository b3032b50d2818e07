import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cli } from './helpers/cli.js'
import { readBytes, releases, RULES_ARCHIVE } from './helpers/shared.js'

describe('mtg-rules history', () => {
  it('builds every release, oldest first, with a table and history files', () => {
    const out = mkdtempSync(join(tmpdir(), 'history-'))
    const run = cli(['history', RULES_ARCHIVE, '--out', out])
    expect(run.status).toBe(0)
    const rows = JSON.parse(readFileSync(join(out, 'history.json'), 'utf8'))
    const facts = releases().sort((a, b) => a.effective.localeCompare(b.effective))
    expect(rows.map((r: Record<string, unknown>) => [r.effectiveDate, r.rules, r.examples, r.glossary, r.errors, r.ok])).toEqual(
      facts.map((f) => [f.effective, f.rules, f.examples, f.glossary, 0, true]),
    )
    expect(run.stdout.split('\n')[0]).toMatch(/^effective\s+file\s+status\s+rules\s+examples\s+glossary\s+errors\s+warnings\s+seconds$/)
    const row = run.stdout.split('\n').find((l) => l.startsWith('2025-02-07'))!
    expect(row.split(/\s{2,}/).slice(0, 8)).toEqual(['2025-02-07', 'MagicCompRules 20250207.txt', 'ok', '3022', '274', '703', '0', '4'])
    expect(readFileSync(join(out, 'history.csv'), 'utf8').split('\r\n')[0]).toBe('effectiveDate,file,ok,rules,examples,glossary,errors,warnings,seconds,failure')
    expect(JSON.parse(readFileSync(join(out, '2026-06-19', 'manifest.json'), 'utf8')).counts.rules).toBe(3153)
    // Not a terminal: one plain progress line per release.
    expect(run.stderr.split('\n').filter((l) => /^history: \d\/\d /.test(l))).toHaveLength(facts.length)
  })

  it('goes on past a corrupted release, and exits 1', () => {
    const dir = mkdtempSync(join(tmpdir(), 'archive-'))
    for (const r of releases()) copyFileSync(r.path, join(dir, r.file))
    const broken = releases().find((r) => r.effective === '2024-03-08')!
    const bytes = readBytes(broken.path)
    bytes.fill(0, 2000, 6000)
    writeFileSync(join(dir, broken.file), bytes)
    const out = mkdtempSync(join(tmpdir(), 'history-'))
    const run = cli(['history', dir, '--out', out])
    expect(run.status).toBe(1)
    const rows = JSON.parse(readFileSync(join(out, 'history.json'), 'utf8'))
    expect(rows.filter((r: { ok: boolean }) => r.ok)).toHaveLength(releases().length - 1)
    const failed = rows.find((r: { ok: boolean }) => !r.ok)
    expect(failed).toMatchObject({ file: broken.file, rules: null })
    expect(failed.failure).toMatch(/^read: MagicCompRules 20240308\.txt is not a text file/)
    expect(run.stdout).toContain(`${broken.file}: read: MagicCompRules 20240308.txt is not a text file`)
  })
})
