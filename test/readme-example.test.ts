import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { builtDataset } from './helpers/built.js'
import { CLI, REPO, RULES_ARCHIVE } from './helpers/shared.js'

describe('the README’s library example', () => {
  it('compiles and prints what its comments say', async () => {
    const readme = readFileSync(join(REPO, 'README.md'), 'utf8')
    const code = /## Library[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)![1]!
    const js = ts.transpileModule(code, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText
    const dir = mkdtempSync(join(REPO, 'node_modules', '.readme-example-'))
    const file = join(dir, 'example.mjs')
    const logged: unknown[][] = []
    const runnable = js
      .replace("from 'mtg-rules-etl'", `from ${JSON.stringify(join(REPO, 'dist/src/index.js'))}`)
      .replace("'../shared/rules/", `${JSON.stringify(RULES_ARCHIVE + '/')} + '`)
      .replace(/console\.log\(/g, 'globalThis.__log(')
    writeFileSync(file, runnable)
    ;(globalThis as { __log?: (...a: unknown[]) => void }).__log = (...a) => logged.push(a)
    await import(file)
    expect(logged[0]).toEqual([3162, '100.1'])
    expect(String(logged[1]![0])).toMatch(/^rules\.jsonl: valid, 3162 rows, 0 errors, 0 warnings/)
  })
})

// The README's console examples, run as written (an output folder in a temporary one instead of out/):
// each printed line as the README shows it, a run's seconds aside.
describe('the README’s console examples', () => {
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8')
  const blocks = [...readme.matchAll(/```console\n([\s\S]*?)```/g)].map((m) => m[1]!)
  const block = (command: string) => {
    const found = blocks.find((b) => b.startsWith(`$ ${command}`))
    if (!found) throw new Error(`README: no console example of ${command}`)
    return found.split('\n').slice(1)
  }
  const run = (args: string[], cwd: string) => {
    const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8' })
    return { status: r.status, lines: (r.stdout + r.stderr).split('\n') }
  }
  const tmp = mkdtempSync(join(tmpdir(), 'readme-'))

  it('build', () => {
    const out = join(tmp, 'out')
    const expected = block('mtg-rules build').join('\n').trimEnd().replace(' to out ', ` to ${out} `)
    const r = run(['build', join(RULES_ARCHIVE, 'MagicCompRules 20260807.txt'), '--out', out], REPO)
    expect([r.status, r.lines.join('\n').trimEnd()]).toEqual([0, expected])
  })

  it('validate bad.jsonl, and its exit code', () => {
    const lines = block('mtg-rules validate bad.jsonl')
    const rows = [{ number: '100.1', text: 'Rule.', examples: [], index: 0 }, { number: '100.1', text: 'Example: a rule that is an example.', examples: [], index: 2 }]
    writeFileSync(join(tmp, 'bad.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n') + '\n')
    const r = run(['validate', 'bad.jsonl'], tmp)
    const [status] = lines.splice(lines.indexOf('$ echo $?'), 2).slice(1)
    expect([String(r.status), r.lines.join('\n').trimEnd()]).toEqual([status, lines.join('\n').trimEnd()])
  })

  it('site of the dataset make dataset builds (the newest release)', () => {
    const site = join(tmp, 'site')
    const seconds = (s: string) => s.replace(/ in [\d.]+ s /, ' in N s ')
    const expected = seconds(block('make dataset && node dist/bin/cli.js site').join('\n').trimEnd()).replaceAll('site', site).replace(`${site}: wrote`, 'site: wrote')
    const r = run(['site', builtDataset('2026-08-07'), '--out', site], REPO)
    expect([r.status, seconds(r.lines.join('\n').trimEnd())]).toEqual([0, expected])
  })

  it('diff | head -3', () => {
    const expected = block('mtg-rules diff').slice(0, 3).join('\n')
    const r = run(['diff', 'MagicCompRules 20260619.txt', 'MagicCompRules 20260807.txt'], RULES_ARCHIVE)
    expect(r.lines.slice(0, 3).join('\n')).toBe(expected)
  })
})

describe('the README’s list of commands', () => {
  it('is every command’s usage line, as its help prints it (the no-op --exact left out)', () => {
    const readme = readFileSync(join(REPO, 'README.md'), 'utf8')
    const listed = [...readme.matchAll(/^mtg-rules ([a-z]+)( .*?)?(?: +#.*)?$/gm)].map((m) => `mtg-rules ${m[1]}${m[2] ?? ''}`)
    const help = spawnSync(process.execPath, [CLI, '--help'], { encoding: 'utf8' }).stdout
    const commands = [...help.matchAll(/^ {2}([a-z]+)\b/gm)].map((m) => m[1]!)
    expect(listed.map((l) => l.split(' ')[1]).sort()).toEqual([...commands].sort())
    for (const line of listed) {
      const usage = spawnSync(process.execPath, [CLI, 'help', line.split(' ')[1]!], { encoding: 'utf8' }).stdout.split('\n')[0]!
      expect(line, line).toBe(usage.replace(/^Usage: /, '').replace(' [--exact]', ''))
    }
  })
})
