import { spawnSync } from 'node:child_process'
import { cpSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { builtDataset } from './helpers/built.js'
import { inProcess } from './helpers/cli.js'
import { isIsoDate } from '../src/core/calendar.js'
import { release, releases, REPO } from './helpers/shared.js'

// The JSON Schemas in schemas/ decide what a valid row is: a copy of the toolkit built with an edited
// schema (a maxLength on a rule's text, a new value of rules_history's change) gives other verdicts
// on the same files, and the toolkit as it is keeps its own.
describe('the schemas decide', () => {
  const copy = mkdtempSync(join(tmpdir(), 'schema-edit-'))
  for (const part of ['src', 'schemas', 'scripts', 'package.json', 'tsconfig.json']) cpSync(join(REPO, part), join(copy, part), { recursive: true })
  symlinkSync(join(REPO, 'node_modules'), join(copy, 'node_modules'))
  const edit = (file: string, change: (schema: { properties: Record<string, Record<string, unknown>> }) => void) => {
    const path = join(copy, 'schemas', file)
    const schema = JSON.parse(readFileSync(path, 'utf8'))
    change(schema)
    writeFileSync(path, JSON.stringify(schema, null, 2))
  }
  edit('rule.schema.json', (s) => void (s.properties.text!.maxLength = 20000))
  edit('rules-history.schema.json', (s) => void (s.properties.change!.enum as string[]).push('renamed'))

  const data = mkdtempSync(join(tmpdir(), 'schema-rows-'))
  const rule = (number: string, text: string, index: number) => ({ number, text, examples: [], index })
  const rules = join(data, 'rules.jsonl')
  // Lengths in code points: 30,000 and 50,000 letters are over a maxLength of 20,000 (the second
  // past twice it); 15,000 emoji are 30,000 UTF-16 units but 15,000 code points, within it.
  writeFileSync(rules, [rule('100.1', 'A rule.', 0), rule('100.2', 'x'.repeat(30_000), 1), rule('100.3', 'x'.repeat(50_000), 2), rule('100.4', '😀'.repeat(15_000), 3)].map((r) => JSON.stringify(r)).join('\n') + '\n')
  const history = join(data, 'rules_history.jsonl')
  const historyRow = { release: '2026-08-07', ...rule('100.1', 'A rule.', 0), rule_id: '2026-08-07:100.1', previous_number: null, change: 'renamed' }
  writeFileSync(history, JSON.stringify(historyRow) + '\n')

  const schemaOf = (stdout: string): string[] => JSON.parse(stdout).diagnostics.filter((d: { code: string }) => d.code === 'schema').map((d: { number: string; message: string }) => `${d.number}: ${d.message}`)
  const schemaFindings = (cliPath: string, file: string) => {
    const run = spawnSync(process.execPath, [cliPath, 'validate', file, '--json'], { encoding: 'utf8', timeout: 60_000 })
    return { status: run.status, schema: schemaOf(run.stdout) }
  }

  it('as built: texts of 30,000 and 50,000 characters are valid, a change "renamed" is not', () => {
    expect(schemaFindings(join(REPO, 'dist/bin/cli.js'), rules)).toEqual({ status: 0, schema: [] })
    const h = schemaFindings(join(REPO, 'dist/bin/cli.js'), history)
    expect(h.status).toBe(1)
    expect(h.schema).toEqual([expect.stringMatching(/^100\.1: .*\/change.*must be equal to one of the allowed values/)])
  })

  it('compiled from the edited schemas: the long text is refused by its maxLength, "renamed" is accepted', async () => {
    // The build's first step (make build then compiles and bundles what it wrote; a whole build of
    // the copy took ~10 s of the suite), then the copy's own validate command, run in this process.
    const compiled = spawnSync(process.execPath, ['scripts/compile-schemas.mjs'], { cwd: copy, encoding: 'utf8', timeout: 60_000 })
    expect(compiled.status, compiled.stderr).toBe(0)
    const { installNodeHost } = await import(join(copy, 'src/io/node-host.ts'))
    installNodeHost()
    const { runCommand } = (await import(join(copy, 'src/cli/cli.ts'))) as typeof import('../src/cli/cli.js')
    const edited = async (file: string) => {
      const run = await runCommand(['validate', file, '--json'])
      return { status: run.exitCode, schema: schemaOf(run.stdout) }
    }
    const r = await edited(rules)
    expect(r.status).toBe(1)
    expect(r.schema).toEqual([expect.stringMatching(/^100\.2: .*\/text.*must NOT have more than 20000 characters/), expect.stringMatching(/^100\.3: .*\/text.*must NOT have more than 20000 characters/)])
    expect(await edited(history)).toMatchObject({ schema: [] })
    // The toolkit as it is still answers as before.
    expect((await inProcess(['validate', rules])).status).toBe(0)
  }, 240_000)
})

// The rule-number grammar is the rule schema's pattern (src/core/rule-number.ts reads it from there).
// Every other pattern in schemas/ that names a rule number must say yes and no as that one does.
describe('every schema names rule numbers with the rule schema’s grammar', () => {
  const schemas = readdirSync(join(REPO, 'schemas')).filter((f) => f.endsWith('.json'))
  const grammar = new RegExp(JSON.parse(readFileSync(join(REPO, 'schemas/rule.schema.json'), 'utf8')).properties.number.pattern)
  /** Every `pattern` of a schema with the subrule letters in it, by its path in the schema. */
  const numberPatterns = (node: unknown, path: string, out: [string, RegExp][] = []): [string, RegExp][] => {
    if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key === 'pattern' && typeof value === 'string' && value.includes('a-km-np-z')) out.push([path, new RegExp(value)])
        else numberPatterns(value, `${path}/${key}`, out)
      }
    }
    return out
  }

  it('on every number of the newest release and on numbers the CR never writes', () => {
    const numbers = readFileSync(join(builtDataset('2026-08-07'), 'rules.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l).number as string)
    const wrong = ['100.1l', '100.1o', '100.0', '099.1', '100.01', '100.1abc', '1000.1', '100.1A', '100.1.', '100.1a ', ' 100.1', '100.', '.1']
    const found = schemas.flatMap((file) => numberPatterns(JSON.parse(readFileSync(join(REPO, 'schemas', file), 'utf8')), file))
    expect(found.map(([path]) => path)).toContain('rules-history.schema.json/properties/rule_id')
    for (const [path, pattern] of found) {
      // A rule_id is <release>:<number>; every other such pattern takes the number itself (a glossary's
      // see and a reference's target take sections and chapters too: only strings with a period are compared).
      const value = path.endsWith('/rule_id') ? (n: string) => `2026-08-07:${n}` : (n: string) => n
      for (const n of [...numbers, ...wrong].filter((n) => n.includes('.'))) expect(pattern.test(value(n)), `${path}: ${n}`).toBe(grammar.test(n))
    }
  })
})

// A date in a schema (a release, an effective date, a rule_id's first release) has one grammar: a day
// of the Gregorian calendar, the same days core/calendar.ts takes (leap years counted).
describe('every schema names dates with one grammar', () => {
  const datePatterns = (node: unknown, path: string, out: [string, RegExp][] = []): [string, RegExp][] => {
    if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key === 'pattern' && typeof value === 'string' && /\{4\}-/.test(value)) out.push([path, new RegExp(value)])
        else datePatterns(value, `${path}/${key}`, out)
      }
    }
    return out
  }

  it('takes every shared release’s date and exactly the days core/calendar.ts takes (not 2026-02-30, not 2100-02-29)', () => {
    const found = readdirSync(join(REPO, 'schemas')).filter((f) => f.endsWith('.json')).flatMap((file) => datePatterns(JSON.parse(readFileSync(join(REPO, 'schemas', file), 'utf8')), file))
    expect(found.map(([path]) => path).sort()).toEqual([
      'manifest.schema.json/properties/source/properties/effectiveDate',
      'rule-links.schema.json/properties/previous_release',
      'rule-links.schema.json/properties/release',
      'rules-history.schema.json/properties/release',
      'rules-history.schema.json/properties/rule_id',
    ])
    const dates = releases().map((r) => r.effective)
    expect(dates).toContain('2001-07-23')
    for (const [path, pattern] of found) {
      const value = path.endsWith('/rule_id') ? (d: string) => `${d}:100.1` : (d: string) => d
      for (const d of dates) expect(pattern.test(value(d)), `${path}: ${d}`).toBe(true)
      for (const d of ['2026-13-01', '2026-00-10', '2026-01-32', '2026-01-00', '26-01-01', '2026-1-01', '2026-01-1', '２０２６-01-01']) expect(pattern.test(value(d)), `${path}: ${d}`).toBe(false)
      // Every month 00–13 and day 00–32 of leap and common years, centuries included, as the calendar has them:
      expect(['0000-02-29', '1900-02-29', '2000-02-29', '2024-02-29', '2026-02-29', '2026-04-31', '2026-12-31'].map(isIsoDate)).toEqual([true, false, true, true, false, false, true])
      for (const year of ['0000', '1900', '2000', '2024', '2026', '2100', '2400', '9999']) {
        for (let month = 0; month <= 13; month++) {
          for (let day = 0; day <= 32; day++) {
            const d = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`
            expect(pattern.test(value(d)), `${path}: ${d}`).toBe(isIsoDate(d))
          }
        }
      }
    }
  })
})
