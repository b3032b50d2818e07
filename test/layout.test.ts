import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO } from './helpers/shared.js'

// The stages of src/, in the order the data flows: a stage imports only the stages before it.
const STAGES = ['core', 'text', 'checks', 'exports', 'build', 'validate', 'history', 'fetch', 'site', 'io', 'cli']
// What only the Node edges may use.
const NODE_EDGES = /(?:from\s+|import\s*\(\s*)['"]node:(?:fs|fs\/promises|worker_threads)['"]|process\.env\b/
const SRC = join(REPO, 'src')

const walk = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]))
const sources = walk(SRC).filter((f) => /\.(ts|mts|mjs)$/.test(f) && !f.endsWith('.d.mts') && !f.includes('/generated/'))
const rel = (f: string) => relative(SRC, f)
const stageOf = (f: string) => rel(f).split('/')[0]!

/**
 * Every file of src/ a module imports (static, dynamic, type-only), resolved; with `workers`, also
 * the worker scripts it starts (`new URL(…)`): a stage rule, though no module edge (a worker is a
 * program of its own, which may load its starter's module again).
 */
function importsOf(file: string, workers = true): string[] {
  const text = readFileSync(file, 'utf8').replace(/^\s*\/\/.*$/gm, '')
  const pattern = workers ? /(?:from|import|new URL)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g : /(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g
  const specs = [...text.matchAll(pattern)].map((m) => m[1]!)
  return specs
    .map((s) => resolve(dirname(file), s))
    .map((p) => [p, p.replace(/\.js$/, '.ts')].find((c) => sources.includes(c)) ?? p)
    .filter((p) => p.startsWith(SRC + '/') && !p.includes('/generated/'))
}

describe('the layout of src/', () => {
  it('has no folder of more than 15 files, and every folder is a stage', () => {
    const counts = new Map<string, number>()
    for (const f of walk(SRC).filter((f) => !f.includes('/generated/'))) counts.set(dirname(rel(f)), (counts.get(dirname(rel(f))) ?? 0) + 1)
    expect([...counts].filter(([, n]) => n > 15)).toEqual([])
    expect([...counts.keys()].map((d) => d.split('/')[0]).filter((d) => d !== '.' && !STAGES.includes(d))).toEqual([])
  })

  it('has no source file over 300 lines', () => {
    const long = sources.map((f) => [rel(f), readFileSync(f, 'utf8').split('\n').length - 1] as const).filter(([, n]) => n > 300)
    expect(long).toEqual([])
  })

  it('imports only earlier stages (index.ts, the package entry, may import any)', () => {
    const upward = sources
      .filter((f) => rel(f) !== 'index.ts')
      .flatMap((f) => importsOf(f).filter((t) => STAGES.indexOf(stageOf(t)) > STAGES.indexOf(stageOf(f))).map((t) => `${rel(f)} → ${rel(t)}`))
    expect(upward).toEqual([])
  })

  it('has no import cycle', () => {
    const graph = new Map(sources.map((f) => [f, importsOf(f, false)]))
    const cycles: string[] = []
    const state = new Map<string, 'open' | 'done'>()
    const visit = (f: string, path: string[]) => {
      if (state.get(f) === 'done') return
      if (state.get(f) === 'open') return void cycles.push([...path.slice(path.indexOf(f)), f].map(rel).join(' → '))
      state.set(f, 'open')
      for (const t of graph.get(f) ?? []) visit(t, [...path, f])
      state.set(f, 'done')
    }
    for (const f of sources) visit(f, [])
    expect(cycles).toEqual([])
  })

  it('touches files, workers and the environment only in io/ and cli/', () => {
    const outside = sources.filter((f) => !['io', 'cli'].includes(stageOf(f)) && NODE_EDGES.test(readFileSync(f, 'utf8'))).map(rel)
    expect(outside).toEqual([])
  })

  it('finds a violation when there is one (the checks above can fail)', () => {
    expect(NODE_EDGES.test("import { readFileSync } from 'node:fs'")).toBe(true)
    expect(NODE_EDGES.test('const t = process.env.X')).toBe(true)
    expect(importsOf(join(SRC, 'exports/read/read-export.ts')).map(rel)).toContain('core/tables.ts')
  })
})
