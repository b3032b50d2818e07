import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { REPO, RULES_ARCHIVE } from './helpers/shared.js'

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
