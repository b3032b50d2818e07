import { createHash } from 'node:crypto'
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { MARKER } from '../src/io/output-folder.js'
import { inProcess, snapshot } from './helpers/cli.js'
import { release, RULES_ARCHIVE } from './helpers/shared.js'

// A tool may remove only what it can prove it wrote: what its marker lists, or (a dataset folder of a
// version that wrote no marker) what its manifest lists. Everything else is left, and the run exits 2.
/** sha256 of every file below a folder, by its path inside it. */
const deepSnapshot = (dir: string): Record<string, string> =>
  Object.fromEntries(
    (readdirSync(dir, { recursive: true }) as string[])
      .filter((name) => statSync(join(dir, name)).isFile())
      .sort()
      .map((name) => [name, createHash('sha256').update(readFileSync(join(dir, name))).digest('hex')]),
  )

const tree = (dir: string, files: Record<string, string>) => {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true })
    writeFileSync(join(dir, name), text)
  }
}

describe('output folders this tool did not write', () => {
  const newest = release('2026-08-07')

  it('history --out a folder of texts, docs and hooks (shared/): refused, nothing removed', async () => {
    const shared = mkdtempSync(join(tmpdir(), 'shared-'))
    cpSync(RULES_ARCHIVE, join(shared, 'rules'), { recursive: true })
    tree(shared, { 'docs/libraries.md': 'notes', 'hooks/before-stop': '#!/bin/sh\n', 'README.md': '# mine\n', 'manifest.json': '{}' })
    const before = deepSnapshot(shared)
    const run = await inProcess(['history', join(shared, 'rules'), '--out', shared])
    expect(run.status).toBe(2)
    // Refused twice over: it holds the archive this run reads, and files this tool did not write.
    expect(run.stderr).toBe(`write: ${shared} holds ${join(shared, 'rules')}, what this run reads; choose another output folder\n`)
    expect((await inProcess(['history', join(shared, 'rules'), '--out', join(shared, 'docs')])).stderr).toMatch(/^write: .* holds files this tool cannot replace \(libraries\.md\): it holds no sign that this tool wrote it; choose an empty folder, or pass --force to replace it whole\n$/)
    expect(deepSnapshot(shared)).toEqual(before)
    expect(Object.keys(before)).toContain('rules/MagicCompRules 20260807.txt')
  })

  it('history --out a folder of source files: refused', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'project-'))
    tree(dir, { 'docs/plan.txt': 'plan', 'src/lib/main.c': 'int main;' })
    const before = deepSnapshot(dir)
    const run = await inProcess(['history', RULES_ARCHIVE, '--out', dir])
    expect(run.status).toBe(2)
    expect(deepSnapshot(dir)).toEqual(before)
  })

  it('build into a hand-written README.md and manifest.json: refused; into its own earlier output: replaced', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cards-'))
    tree(dir, { 'README.md': '# my dataset\n', 'manifest.json': '{"exports": []}' })
    const before = snapshot(dir)
    expect((await inProcess(['build', newest.path, '--out', dir])).status).toBe(2)
    expect(snapshot(dir)).toEqual(before)

    const out = join(mkdtempSync(join(tmpdir(), 'own-')), 'out')
    expect((await inProcess(['build', newest.path, '--out', out])).status).toBe(0)
    const marker = JSON.parse(readFileSync(join(out, MARKER), 'utf8'))
    expect(marker).toEqual({ tool: 'mtg-rules-etl', entries: expect.arrayContaining(['manifest.json', 'rules.parquet', 'README.md']) })
    // A changelog the release pipeline adds is the tool's too; a file of the user's is not.
    writeFileSync(join(out, 'CHANGELOG.md'), '# changes\n')
    expect((await inProcess(['build', newest.path, '--out', out])).status).toBe(0)
    writeFileSync(join(out, 'notes.txt'), 'mine')
    const run = await inProcess(['build', newest.path, '--out', out])
    expect(run.status).toBe(2)
    expect(run.stderr).toContain('(notes.txt): this tool did not write them')
    expect(readFileSync(join(out, 'notes.txt'), 'utf8')).toBe('mine')
  })

  it('a dataset folder of a version that wrote no marker is recognised by its manifest', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'older-')), 'out')
    expect((await inProcess(['build', newest.path, '--out', out])).status).toBe(0)
    const older = join(mkdtempSync(join(tmpdir(), 'older-')), 'out')
    cpSync(out, older, { recursive: true, filter: (src) => !src.endsWith(MARKER) })
    expect((await inProcess(['build', newest.path, '--out', older])).status).toBe(0)
    // A manifest that is not ours (another tool's name) proves nothing.
    const manifest = JSON.parse(readFileSync(join(older, 'manifest.json'), 'utf8'))
    cpSync(out, older + '-other', { recursive: true, filter: (src) => !src.endsWith(MARKER) })
    writeFileSync(join(older + '-other', 'manifest.json'), JSON.stringify({ ...manifest, tool: { name: 'someone-else' } }))
    expect((await inProcess(['build', newest.path, '--out', older + '-other'])).status).toBe(2)
  })
})

describe('a run never writes over what it reads, --force or not', () => {
  it('build into the folder of its text, site into its dataset folder (or one above it), history into its archive: exit 2, one line, nothing removed', async () => {
    const home = mkdtempSync(join(tmpdir(), 'reads-'))
    const text = join(home, 'MagicCompRules 20260807.txt')
    cpSync(release('2026-08-07').path, text)
    const before = deepSnapshot(home)
    const build = await inProcess(['build', text, '--out', home, '--force'])
    expect([build.status, build.stderr]).toEqual([2, `write: ${home} holds ${text}, what this run reads; choose another output folder\n`])
    const history = await inProcess(['history', home, '--out', home, '--force'])
    expect([history.status, history.stderr.trimEnd().split('\n').at(-1)]).toEqual([2, `write: ${home} is what this run reads; choose another output folder`])
    expect(deepSnapshot(home)).toEqual(before)
    // A dataset folder inside: its site may go beside it, never over it or over the folder that holds it.
    const dataset = join(home, 'out')
    expect((await inProcess(['build', text, '--out', dataset])).status).toBe(0)
    const withDataset = deepSnapshot(home)
    for (const out of [dataset, home]) {
      const site = await inProcess(['site', dataset, '--out', out, '--force'])
      expect([site.status, site.stderr], out).toEqual([2, `write: ${out} ${out === dataset ? 'is' : `holds ${dataset},`} what this run reads; choose another output folder\n`])
    }
    expect(deepSnapshot(home)).toEqual(withDataset)
    expect((await inProcess(['site', dataset, '--out', join(home, 'site')])).status).toBe(0)
    // A folder whose name begins with two dots is inside too.
    const dotted = join(home, '..texts', 'MagicCompRules 20260807.txt')
    mkdirSync(join(home, '..texts'))
    cpSync(text, dotted)
    expect((await inProcess(['build', dotted, '--out', home, '--force'])).stderr).toBe(`write: ${home} holds ${dotted}, what this run reads; choose another output folder\n`)
  })
})
