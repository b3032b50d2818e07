import { spawnSync } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { tableFromIPC } from 'apache-arrow'
import { beforeAll, describe, expect, it } from 'vitest'
import { buildDataset, type BuildResult } from '../src/build/build.js'
import { knownRulesOf } from '../src/checks/companion.js'
import { parseDocument } from '../src/text/parse.js'
import { splitLines } from '../src/text/decode.js'
import { normalizeRules } from '../src/text/normalize.js'
import { rulesMetaRows } from '../src/build/companions.js'
import { RULES_TABLE, TABLES, type ColumnType } from '../src/core/tables.js'
import { validateSource } from '../src/validate/validate.js'
import { validateFolder } from '../src/io/validate-folder.js'
import { writeArrow } from '../src/exports/arrow-write.js'
import { writeCsv } from '../src/exports/csv-write.js'
import { duck, lit } from './helpers/duckdb.js'
import { inProcess } from './helpers/cli.js'
import { readBytes, release, releases } from './helpers/shared.js'

const rowsOf = (b: BuildResult, table: string) => b.tables.find((t) => t.spec.name === table)!.rows

describe('companions on every published release', () => {
  it.each(releases().map((r) => [r.file, r] as const))('%s: glossary rows as the README counts, unresolved edges = dangling-reference warnings', (_, r) => {
    const b = buildDataset(r.file, readBytes(r.path))
    expect(rowsOf(b, 'glossary')).toHaveLength(r.glossary)
    expect(rowsOf(b, 'rules_meta')).toHaveLength(r.rules)
    const unresolved = rowsOf(b, 'references').filter((x) => x.resolved === false)
    expect(unresolved).toHaveLength(b.report.diagnostics.filter((d) => d.code === 'dangling-reference').length)
    expect(b.manifest.counts.unresolvedReferences).toBe(unresolved.length)
  })
})

describe('companions of CR 2025-02-07', () => {
  const r = release('2025-02-07')
  let b: BuildResult
  let dir: string
  beforeAll(() => {
    b = buildDataset(r.file, readBytes(r.path), { arrow: writeArrow })
    dir = mkdtempSync(join(tmpdir(), 'companions-'))
    for (const f of b.files) writeFileSync(join(dir, f.name), f.bytes)
  })
  const glossary = () => new Map(rowsOf(b, 'glossary').map((g) => [g.term as string, g]))

  it('glossary: a multi-line definition, an obsolete term, comma headwords', () => {
    expect(glossary().get('Ability')).toMatchObject({ see: ['113', '6'], obsolete: false })
    expect((glossary().get('Ability')!.definition as string).split('\n')).toHaveLength(3)
    expect(glossary().get('Bury')).toMatchObject({ obsolete: true, see: [] })
    expect(glossary().has('Bury (Obsolete)')).toBe(false)
    expect(glossary().get('Control, Controller')!.index).toBeGreaterThan(0)
    expect(glossary().get('Banding, “Bands with Other”')).toMatchObject({ see: ['702.22'] })
  })

  it('references: the glossary "Map" cites 110.10, which is unresolved', () => {
    const map = rowsOf(b, 'references').filter((x) => x.source === 'glossary:Map')
    expect(map).toContainEqual({ source: 'glossary:Map', target: '110.10', kind: 'rule', resolved: false, span: '110.10', location: 'definition' })
    expect(rowsOf(b, 'references')).toContainEqual({ source: '100.1b', target: '8', kind: 'chapter', resolved: true, span: '8', location: 'text' })
  })

  it('rules_meta: the parent by number structure, never by string prefix', () => {
    const meta = new Map(rowsOf(b, 'rules_meta').map((m) => [m.number as string, m]))
    expect(meta.get('702.10a')).toMatchObject({ parent: '702.10', depth: 2, section: '702', section_title: 'Keyword Abilities', chapter: '7', chapter_title: 'Additional Rules' })
    expect(meta.get('702.1a')).toMatchObject({ parent: '702.1', depth: 2 })
    expect(meta.get('702.10')).toMatchObject({ parent: null, depth: 1 })
    expect(meta.get('100.1')).toMatchObject({ line: 183, section_title: 'General', chapter_title: 'Game Concepts' })
  })

  it('rules_meta: multi-letter subrules belong to the rule, not to a lettered subrule', () => {
    const text = readFileSync(join(import.meta.dirname, 'fixtures/mini-cr.txt'), 'utf8')
    const doc = parseDocument(splitLines(text))
    const meta = new Map(rulesMetaRows(doc, normalizeRules(doc.rules)).map((m) => [m.number, m]))
    expect(meta.get('101.1aa')).toMatchObject({ parent: '101.1', depth: 2 })
    expect(meta.get('101.1a')).toMatchObject({ parent: '101.1', depth: 2 })
  })

  const DUCK: Record<ColumnType, string> = { string: 'VARCHAR', int64: 'BIGINT', bool: 'BOOLEAN', 'list<string>': 'VARCHAR[]' }
  const companions = TABLES.filter((t) => t.name !== 'rules')

  it.each(companions.map((t) => [t.name, t] as const))('%s: DuckDB reads Parquet, JSONL and CSV with the declared types and equal rows', async (name, table) => {
    const expected = table.columns.map((c) => [c.name, DUCK[c.type]])
    // CSV carries no types: read it with the declared ones (as the README says).
    const csvColumns = `{${table.columns.map((c) => `'${c.name}': '${DUCK[c.type] === 'VARCHAR[]' ? 'VARCHAR' : DUCK[c.type]}'`).join(', ')}}`
    const sources = {
      parquet: lit(join(dir, `${name}.parquet`)),
      jsonl: `read_json(${lit(join(dir, `${name}.jsonl`))}, columns = {${table.columns.map((c) => `'${c.name}': '${DUCK[c.type]}'`).join(', ')}})`,
      csv: `read_csv(${lit(join(dir, `${name}.csv`))}, columns = ${csvColumns}, header = true)`,
    }
    for (const [format, from] of Object.entries(sources)) {
      const types = await duck<{ column_name: string; column_type: string }>(`DESCRIBE SELECT * FROM ${from}`)
      if (format !== 'csv') expect(types.map((t) => [t.column_name, t.column_type]), format).toEqual(expected)
      const rows = await duck<Record<string, unknown>>(`SELECT * FROM ${from}`)
      const normalized = rows.map((x) =>
        Object.fromEntries(table.columns.map((c) => {
          const v = x[c.name]
          if (c.type === 'int64') return [c.name, Number(v)]
          if (c.type === 'list<string>' && typeof v === 'string') return [c.name, JSON.parse(v)]
          return [c.name, v ?? null]
        })),
      )
      expect(normalized, format).toEqual(rowsOf(b, name))
    }
  })

  it('rules.arrow reads back equal to the JSONL rows', () => {
    const table = tableFromIPC(readFileSync(join(dir, 'rules.arrow')))
    expect(table.schema.fields.map((f) => `${f.name}:${f.type}`)).toEqual(['number:Utf8', 'text:Utf8', 'examples:List<Utf8>', 'index:Int64'])
    const jsonl = readFileSync(join(dir, 'rules.jsonl'), 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l))
    const arrowRows = table.toArray().map((row) => {
      const o = row.toJSON()
      return { number: o.number, text: o.text, examples: [...o.examples], index: Number(o.index) }
    })
    expect(arrowRows).toEqual(jsonl)
  })

  it('validate checks a companion file against its schema and the rules beside it', async () => {
    const meta = readFileSync(join(dir, 'rules_meta.jsonl'), 'utf8').split('\n')
    meta[1] = meta[1]!.replace('"number":"100.1a"', '"number":"100.1z"').replace('"depth":2', '"depth":7')
    const known = knownRulesOf(b.rows.map((x) => x.number))
    const report = await validateSource('rules_meta.jsonl', new TextEncoder().encode(meta.join('\n')), { knownRules: known })
    expect(report.valid).toBe(false)
    expect(report.diagnostics.map((d) => [d.code, d.number, d.line, d.message])).toEqual([
      ['schema', '100.1z', 2, '/depth must be equal to one of the allowed values'],
      ['unknown-number', '100.1z', 2, 'number 100.1z is not a rule in the rules table'],
    ])
    const clean = await validateSource('references.parquet', readFileSync(join(dir, 'references.parquet')), { knownRules: known })
    expect(clean.valid).toBe(true)
    expect(clean.diagnostics.map((d) => d.message)).toEqual(['glossary:Map cites 110.10 (“110.10”), which does not exist'])
  })
  it('validate DIR checks the companions against rules.jsonl, or the next rules file when it cannot be read', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'companions-folder-'))
    cpSync(dir, folder, { recursive: true })
    const rules = readFileSync(join(dir, 'rules.jsonl'), 'utf8').split('\n')
    // rules.jsonl without 100.2a: the companions that name it (100.4a and the glossary's Constructed cite it) are checked against this file.
    writeFileSync(join(folder, 'rules.jsonl'), rules.filter((l) => !l.startsWith('{"number":"100.2a"')).join('\n'))
    const summary = (reports: { source: { file: string }; notes: string[]; diagnostics: { code: string; number?: string }[] }[]) =>
      reports
        .filter((x) => /\/(rules_meta|references|glossary)\.jsonl$/.test(x.source.file))
        .map((x) => [x.source.file.slice(folder.length + 1), x.notes.some((n) => n.startsWith('no rules table given')), x.diagnostics.filter((d) => d.code === 'unknown-number').map((d) => d.number)])
    const against = summary(await validateFolder(folder, { strict: false }))
    expect(against).toEqual([
      ['glossary.jsonl', false, []],
      ['references.jsonl', false, ['100.2a', '100.4a', 'glossary:Constructed']],
      ['rules_meta.jsonl', false, ['100.2a']],
    ])
    // rules.jsonl cut inside a row: unreadable, and the companions are checked against rules.csv (which holds 100.2a).
    writeFileSync(join(folder, 'rules.jsonl'), rules.join('\n').slice(0, 5000))
    const reports = await validateFolder(folder, { strict: false })
    expect(reports.find((x) => x.source.file.endsWith('rules.jsonl'))!.diagnostics.map((d) => d.code)).toEqual(['unreadable'])
    expect(summary(reports)).toEqual([
      ['glossary.jsonl', false, []],
      ['references.jsonl', false, []],
      ['rules_meta.jsonl', false, []],
    ])
  })

  it('validate --rules FILE: the companions given are checked against it, read once; a folder, a missing file or another table is refused; a file it does not apply to says so', async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'companions-rules-'))
    const rules = join(elsewhere, 'some-rules.jsonl')
    writeFileSync(rules, readFileSync(join(dir, 'rules.jsonl'), 'utf8').split('\n').filter((l) => !l.startsWith('{"number":"100.2a"')).join('\n'))
    const run = (...args: string[]) => inProcess(['validate', ...args])
    const checked = await run(join(dir, 'rules_meta.jsonl'), join(dir, 'references.csv'), join(dir, 'rules.jsonl'), '--rules', rules, '--json')
    expect(checked.status).toBe(1)
    const reports = JSON.parse(checked.stdout) as { source: { table: string }; notes: string[]; diagnostics: { code: string; number?: string }[] }[]
    expect(reports.map((r) => [r.source.table, r.diagnostics.filter((d) => d.code === 'unknown-number').map((d) => d.number)])).toEqual([
      ['rules_meta', ['100.2a']],
      ['references', ['100.2a', '100.4a', 'glossary:Constructed']],
      ['rules', []],
    ])
    expect(reports[2]!.notes).toEqual([`--rules ${rules} was not used: this file holds the rules table (--rules is for glossary, rules_meta, references)`])
    const folder = await run(dir, '--rules', rules)
    expect([folder.status, folder.stderr.split(' (usage')[0]]).toEqual([2, "mtg-rules validate: --rules is for companion files given one by one; a folder's companions are checked against the rules in it"])
    expect((await run(join(dir, 'glossary.jsonl'), '--rules', join(elsewhere, 'missing.jsonl'))).stderr).toBe(`read: cannot open ${join(elsewhere, 'missing.jsonl')}: no such file or directory (the --rules file)\n`)
    expect((await run(join(dir, 'glossary.jsonl'), '--rules', join(dir, 'glossary.csv'))).stderr).toMatch(/^mtg-rules validate: --rules .*glossary\.csv holds the glossary table, not the rules \(usage/)
  })

  it('a folder of .ndjson and .feather files (the other names of JSONL and Arrow) checks its companions against its rules too', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'companions-other-names-'))
    const rules = readFileSync(join(dir, 'rules.jsonl'), 'utf8').split('\n')
    writeFileSync(join(folder, 'rules.ndjson'), rules.filter((l) => !l.startsWith('{"number":"100.2a"')).join('\n'))
    cpSync(join(dir, 'rules_meta.jsonl'), join(folder, 'rules_meta.ndjson'))
    const unknown = (reports: { source: { file: string }; notes: string[]; diagnostics: { code: string; number?: string }[] }[]) =>
      reports.filter((x) => !/rules\.\w+$/.test(x.source.file)).map((x) => [x.source.file.slice(folder.length + 1), x.notes.some((n) => n.startsWith('no rules table given')), x.diagnostics.filter((d) => d.code === 'unknown-number').map((d) => d.number)])
    expect(unknown(await validateFolder(folder, { strict: false }))).toEqual([['rules_meta.ndjson', false, ['100.2a']]])
    // A companion given alone finds the rules beside it in any format: here only rules.feather.
    const alone = mkdtempSync(join(tmpdir(), 'companions-alone-'))
    writeFileSync(join(alone, 'rules.feather'), writeArrow(RULES_TABLE, rules.filter((l) => l !== '' && !l.startsWith('{"number":"100.2a"')).map((l) => JSON.parse(l))))
    cpSync(join(dir, 'rules_meta.jsonl'), join(alone, 'rules_meta.jsonl'))
    const run = await inProcess(['validate', join(alone, 'rules_meta.jsonl'), '--json'])
    expect(run.status).toBe(1)
    expect(JSON.parse(run.stdout).diagnostics.filter((d: { code: string }) => d.code === 'unknown-number').map((d: { number: string }) => d.number)).toEqual(['100.2a'])
  })

  it('a companion given alone whose rules beside it cannot be read: checked against the next rules file, or without, and said so (it was exit 2 about the rules file)', async () => {
    const alone = mkdtempSync(join(tmpdir(), 'companions-broken-rules-'))
    const rules = readFileSync(join(dir, 'rules.jsonl'), 'utf8').split('\n')
    writeFileSync(join(alone, 'rules.jsonl'), rules.join('\n').slice(0, 5000))
    writeFileSync(join(alone, 'rules.csv'), writeCsv(RULES_TABLE, rules.filter((l) => l !== '' && !l.startsWith('{"number":"100.2a"')).map((l) => JSON.parse(l))))
    cpSync(join(dir, 'rules_meta.jsonl'), join(alone, 'rules_meta.jsonl'))
    const broken = (await inProcess(['validate', join(alone, 'rules.jsonl')])).stderr.trimEnd()
    const report = async () => JSON.parse((await inProcess(['validate', join(alone, 'rules_meta.jsonl'), '--json'])).stdout) as { valid: boolean; notes: string[]; diagnostics: { code: string; number: string }[] }
    const against = await report()
    expect([against.valid, against.diagnostics.filter((d) => d.code === 'unknown-number').map((d) => d.number), against.notes]).toEqual([false, ['100.2a'], [`the rules beside it, ${join(alone, 'rules.jsonl')}, could not be read (${broken}): checked against ${join(alone, 'rules.csv')}`]])
    rmSync(join(alone, 'rules.csv'))
    const without = await report()
    expect([without.valid, without.notes]).toEqual([true, [`the rules beside it, ${join(alone, 'rules.jsonl')}, could not be read (${broken})`, 'no rules table given: the numbers it names were not checked against the rules']])
  })
})

describe('validate reads the Arrow file too', () => {
  it('valid, with the rules table and the declared types', async () => {
    const r = release('2026-06-19')
    const b = buildDataset(r.file, readBytes(r.path), { arrow: writeArrow })
    const arrow = b.files.find((f) => f.name === 'rules.arrow')!.bytes
    const report = await validateSource('rules.arrow', arrow)
    expect(report).toMatchObject({ valid: true, source: { kind: 'arrow', table: 'rules', rows: r.rules }, diagnostics: [] })
    // A duplicated row found through the Arrow reader as through the others.
    const withDuplicate = writeArrow(RULES_TABLE, [...b.rows, { ...b.rows[3]!, index: b.rows.length }] as never)
    const bad = await validateSource('rules.arrow', withDuplicate)
    expect(bad.diagnostics.map((d) => [d.code, d.number, d.position])).toEqual([
      ['duplicate-number', b.rows[3]!.number, r.rules],
      ['order', b.rows[3]!.number, r.rules],
    ])
  })
})

describe('the dataset card’s typed read_csv lines', () => {
  it('load every CSV table in DuckDB with the declared types (parent 702.10 stays a string)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'card-'))
    const r = release('2025-02-07')
    const { files } = buildDataset(r.file, readBytes(r.path))
    for (const f of files) writeFileSync(join(dir, f.name), f.bytes)
    const card = readFileSync(join(dir, 'README.md'), 'utf8')
    const statements = card.split('\n').filter((l) => l.startsWith('SELECT * FROM read_csv('))
    expect(statements).toHaveLength(4)
    for (const sql of statements) {
      const rows = await duck(sql.replace(/read_csv\('([^']+)'/, (_, f) => `read_csv(${lit(join(dir, f))}`))
      expect(rows.length).toBeGreaterThan(0)
    }
    const meta = await duck<{ parent: string }>(statements.find((s) => s.includes('rules_meta'))!.replace(/read_csv\('([^']+)'/, (_, f) => `read_csv(${lit(join(dir, f))}`).replace('SELECT *', 'SELECT parent').replace(/;$/, " WHERE number = '702.10a';"))
    expect(meta).toEqual([{ parent: '702.10' }])
  })
})

describe('the dataset cards’ pandas lines, run by pandas (Debian’s python3-pandas, installed by make test)', () => {
  const pandas = (code: string, dir: string) => {
    const run = spawnSync('/usr/bin/python3', ['-c', code], { cwd: dir, encoding: 'utf8', timeout: 120_000 })
    if (run.status !== 0) throw new Error(run.stderr)
    return run.stdout
  }
  // (Debian has no pyarrow: the read_parquet lines are left out, and JSONL is the typed reference.)
  const pythonOf = (card: string) =>
    /```python\nimport json\nimport pandas as pd\n([^]*?)```/
      .exec(card)![0]
      .replace(/^```python\n|```$/g, '')
      .split('\n')
      .filter((l) => !l.includes('read_parquet'))
      .join('\n')

  it('read every table of a release, CSV typed as Parquet is: rules_meta.parent 702.10 and 702.100 stay apart', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pandas-'))
    const r = release('2025-02-07')
    const { files } = buildDataset(r.file, readBytes(r.path))
    for (const f of files) writeFileSync(join(dir, f.name), f.bytes)
    const code = pythonOf(readFileSync(join(dir, 'README.md'), 'utf8'))
    const out = pandas(
      code +
        [
          'import sys',
          'm = rules_meta.set_index("number")',
          'print(m.loc["702.10a", "parent"], m.loc["702.100a", "parent"], m.loc["100.1", "parent"] is pd.NA)',
          'print(len(rules), rules.examples.map(len).sum(), len(glossary), len(references))',
          'for t in ["rules", "glossary", "rules_meta", "references"]:',
          '    csv, jsonl = globals()[t], pd.read_json(t + ".jsonl", lines=True, dtype=False)',
          '    same = all([None if v is pd.NA else v for v in csv[c].tolist()] == [None if v is None or v != v else v for v in jsonl[c].tolist()] for c in jsonl.columns)',
          '    print(t, same, list(csv.columns) == list(jsonl.columns))',
        ].join('\n'),
      dir,
    )
    expect(out.split('\n')[0]).toBe('702.10 702.100 True')
    expect(out.split('\n')[1]).toBe(`${r.rules} ${r.examples} ${r.glossary} ${files.length > 0 ? JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')).counts.references : 0}`)
    for (const t of ['rules', 'glossary', 'rules_meta', 'references']) expect(out).toContain(`${t} True True`)
    // The card's JSONL line keeps rule numbers as text; pandas' default reads rules_meta's parent 702.10 as the float 702.1.
    const jsonl = /`(pd\.read_json\("rules\.jsonl", lines=True, dtype=False\))`/.exec(readFileSync(join(dir, 'README.md'), 'utf8'))![1]!.replace('rules.jsonl', 'rules_meta.jsonl')
    const parent = 'print(m.loc[m.number == "702.10a", "parent"].tolist(), m.loc[m.number == "702.1a", "parent"].tolist())'
    expect(pandas(`import pandas as pd\nm = ${jsonl}\n${parent}`, dir)).toBe("['702.10'] ['702.1']\n")
    expect(pandas(`import pandas as pd\nm = pd.read_json("rules_meta.jsonl", lines=True)\n${parent}`, dir)).toBe('[702.1] [702.1]\n')
  })

  it('a rules.csv written by pandas to_csv (lists as Python reprs) is told apart from bad data: one columns finding with the count and the first line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pandas-csv-'))
    const r = release('2025-02-07')
    for (const f of buildDataset(r.file, readBytes(r.path)).files) writeFileSync(join(dir, f.name), f.bytes)
    const count = pandas(
      ['import pandas as pd', 'r = pd.read_json("rules.jsonl", lines=True, dtype=False)', 'r.to_csv("pandas.csv", index=False)', 'print(sum(repr(x).startswith("[\'") for x in r.examples))'].join('\n'),
      dir,
    )
    const report = await validateSource('rules.csv', readFileSync(join(dir, 'pandas.csv')))
    const finding = report.diagnostics.find((d) => d.code === 'columns')!
    expect(Number(count)).toBeGreaterThan(100)
    expect([finding.params?.pythonLists, report.counts.byCode.schema]).toEqual([Number(count), Number(count)])
    const firstLine = readFileSync(join(dir, 'pandas.csv'), 'utf8').split('\n').findIndex((l) => l.includes(",\"['") || l.includes(",['")) + 1
    expect(finding.message).toBe(`column examples holds ${Number(count)} values written as Python lists (['…'], as pandas to_csv and DuckDB's COPY write them), not JSON arrays, the first on line ${firstLine}: write lists as JSON (Python's json.dumps, DuckDB's to_json)`)
  })

  it('a references.csv written by pandas to_csv (booleans as True and False) reads as pandas and DuckDB read it: one warning of it, no error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pandas-bool-'))
    const r = release('2025-02-07')
    const { files } = buildDataset(r.file, readBytes(r.path))
    for (const f of files) writeFileSync(join(dir, f.name), f.bytes)
    const rows = pandas('import pandas as pd\nr = pd.read_json("references.jsonl", lines=True, dtype=False)\nr.to_csv("pandas.csv", index=False)\nprint(len(r), r.resolved.sum())', dir).trim().split(' ').map(Number)
    const known = knownRulesOf(files.find((f) => f.name === 'rules.jsonl')!.bytes.toString().trim().split('\n').map((l) => JSON.parse(l).number))
    const report = await validateSource('references.csv', readFileSync(join(dir, 'pandas.csv')), { knownRules: known })
    expect(readFileSync(join(dir, 'pandas.csv'), 'utf8')).toMatch(/^source,target,kind,resolved,span,location\r?\n[^\n]*,(True|False),/)
    // (2025-02-07's glossary entry "Map" cites the missing rule 110.10: a warning of its own.)
    expect([report.source.rows, report.counts.errors, report.counts.byCode]).toEqual([rows[0], 0, { columns: 1, 'dangling-reference': 1 }])
    expect(report.diagnostics.find((d) => d.code === 'columns')!.message).toBe(`column resolved writes ${rows[0]} booleans as True or False, or TRUE or FALSE (as pandas to_csv and spreadsheets do), the first on line 2: read as true and false, as pandas and DuckDB read them; the dataset writes true and false`)
    // As a spreadsheet saves it: TRUE and FALSE, read alike.
    const upper = readFileSync(join(dir, 'pandas.csv'), 'utf8').replace(/,(True|False),/g, (_, b: string) => `,${b.toUpperCase()},`)
    const spreadsheet = await validateSource('references.csv', new TextEncoder().encode(upper), { knownRules: known })
    expect(spreadsheet.diagnostics).toEqual(report.diagnostics)
  })
})

describe('Arrow IPC for every table', () => {
  it('has the same columns, types and rows as the other exports', () => {
    const r = release('2026-08-07')
    const result = buildDataset(r.file, readBytes(r.path), { arrow: writeArrow })
    const arrows = result.manifest.exports.filter((e) => e.format === 'arrow')
    expect(arrows.map((e) => e.table)).toEqual(['rules', 'glossary', 'rules_meta', 'references'])
    for (const { spec, rows } of result.tables) {
      const table = tableFromIPC(result.files.find((f) => f.name === `${spec.name}.arrow`)!.bytes)
      expect(table.schema.fields.map((f) => f.name)).toEqual(spec.columns.map((c) => c.name))
      expect(table.numRows).toBe(rows.length)
      const listColumn = spec.columns.find((c) => c.type === 'list<string>')
      if (listColumn) expect(String(table.schema.fields.find((f) => f.name === listColumn.name)!.type)).toBe('List<Utf8>')
    }
  })
})

describe('references say where a citation stands', () => {
  it.each(releases().map((r) => [r.effective, r] as const))('%s: each citation is in the text, the example or the definition its location names', (_, r) => {
    const b = buildDataset(r.file, readBytes(r.path))
    const rules = new Map(b.rows.map((x) => [x.number, x]))
    const glossary = new Map(b.document.glossary.map((g) => [`glossary:${g.term}`, g.definition.normalize('NFC')]))
    const refs = rowsOf(b, 'references') as { source: string; span: string; location: string }[]
    for (const ref of refs) {
      const example = /^example (\d+)$/.exec(ref.location)
      const where = ref.location === 'definition' ? glossary.get(ref.source) : ref.location === 'text' ? rules.get(ref.source)?.text : example ? rules.get(ref.source)?.examples[Number(example[1]) - 1] : undefined
      expect(where, `${ref.source} ${ref.location}`).toContain(ref.span)
    }
    expect(new Set(refs.map((x) => x.location.replace(/\d+$/, 'N')))).toEqual(new Set(['text', 'definition', ...(refs.some((x) => x.location.startsWith('example')) ? ['example N'] : [])]))
  })
})

// What build writes, validate and site read: a text whose Glossary holds no entry and that cites no
// rule builds empty glossary and references tables (their JSONL 0 bytes), which validate called
// invalid and site refused, while build called the text valid.
describe('a text with no glossary entry and no citation', () => {
  it('builds; validate finds the folder valid, the two tables empty; site makes it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'empty-tables-'))
    const text = join(dir, 'MagicCompRules 20010105.txt')
    const lines = ['Magic: The Gathering Comprehensive Rules', '', 'These rules are effective as of January 5, 2001.', '', 'Contents', '', '1. Game Concepts', '100. General', 'Glossary', 'Credits', '', '1. Game Concepts', '', '100. General', '', '100.1. Rule one says a thing.', '', '100.2. Rule two says another thing.', '', 'Glossary', '', 'Credits', '', 'Someone']
    writeFileSync(text, lines.join('\n') + '\n')
    const out = join(dir, 'out')
    const build = await inProcess(['build', text, '--out', out, '--arrow'])
    expect(build.stderr).toMatch(/^build: wrote 19 files to .* \(2 rules, 0 examples, 0 glossary entries, /m)
    expect(readFileSync(join(out, 'glossary.jsonl'), 'utf8')).toBe('')
    const validate = await inProcess(['validate', out, '--json'])
    expect(validate.status, validate.stdout.slice(0, 3000)).toBe(0)
    const empty = JSON.parse(validate.stdout).filter((r: { source: { rows: number } }) => r.source.rows === 0)
    expect(empty.map((r: { valid: boolean; source: { table: string; kind: string } }) => `${r.source.table}.${r.source.kind} ${r.valid}`).sort()).toEqual(
      ['glossary', 'references'].flatMap((t) => ['arrow', 'csv', 'jsonl', 'parquet'].map((f) => `${t}.${f} true`)),
    )
    expect((await inProcess(['site', out, '--out', join(dir, 'site')])).status).toBe(0)
    // The rules table is never empty: an empty rules export is an error, as a header-only CSV is; an
    // empty file that no name tells the table of is refused.
    writeFileSync(join(dir, 'rules.jsonl'), '')
    writeFileSync(join(dir, 'rules.csv'), 'number,text,examples,index\r\n')
    for (const name of ['rules.jsonl', 'rules.csv']) {
      const empty = await inProcess(['validate', join(dir, name)])
      expect([empty.status, empty.stdout]).toEqual([1, `${join(dir, name)}: INVALID, 0 rows, 1 errors, 0 warnings (1 structure)\nerror structure: the export holds no rows\n`])
    }
    writeFileSync(join(dir, 'export.jsonl'), '')
    expect((await inProcess(['validate', join(dir, 'export.jsonl')])).stderr).toMatch(/^read: .*export\.jsonl is empty \(0 bytes\)\n$/)
  })
})
