import { spawnSync } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { MAX_ROW_CHARS } from '../src/core/limits.js'
import { decode } from '../src/text/decode.js'
import { validateText } from '../src/validate/validate.js'
import { builtDataset, builtHistory, datasetCopy } from './helpers/built.js'
import { CLI, readBytes, release } from './helpers/shared.js'

// Small inputs that kept the tool busy, stuck or wrong (#24): each run is a whole process under a
// heap cap and a time limit, as a user's would be.
const tmp = mkdtempSync(join(tmpdir(), 'small-'))
const run = (args: string[], seconds = 30) => {
  const started = Date.now()
  const r = spawnSync(process.execPath, ['--max-old-space-size=512', CLI, ...args], { encoding: 'utf8', timeout: seconds * 1000, killSignal: 'SIGKILL' })
  return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr, seconds: (Date.now() - started) / 1000 }
}

describe('decoding is linear in the bad bytes', () => {
  it('2 MiB that are neither UTF-8 nor Windows-1252: refused in one line, at once', () => {
    // 0xC3 0x28 is no UTF-8, and 0x81 is undefined in Windows-1252: every pair is a bad byte.
    const bytes = new Uint8Array(2 * 1024 * 1024)
    for (let i = 0; i < bytes.length; i += 4) bytes.set([0xc3, 0x28, 0x81, 0x20], i)
    const file = join(tmp, 'neither.txt')
    writeFileSync(file, bytes)
    const r = run(['validate', file], 20)
    expect([r.status, r.signal]).toEqual([2, null])
    expect(r.stderr).toBe(`read: ${file} is neither UTF-8 (invalid byte 0xc3 at offset 0) nor Windows-1252 (byte 0x81 at offset 2 is undefined there)\n`)
    expect(r.seconds).toBeLessThan(15)
  })

  it('a real Windows-1252 release eight times over (7.8 MB) decodes as Windows-1252, fast', () => {
    const one = readBytes(release('2016-07-22').path)
    const eight = new Uint8Array(one.length * 8)
    for (let k = 0; k < 8; k++) eight.set(one, k * one.length)
    const started = Date.now()
    const decoded = decode(eight)
    expect(decoded.encoding).toBe('windows-1252')
    expect(decoded.text.length).toBe(decode(one).text.length * 8)
    // Quadratic, it took 37 s; linear, well under a second (the bound leaves room for a busy host).
    expect(Date.now() - started).toBeLessThan(10_000)
  })

  it('1,500 bad bytes in a UTF-8 text: 1,500 encoding errors counted, 1,000 listed, 500 omitted', () => {
    const text = new TextDecoder().decode(readBytes(release('2026-08-07').path))
    const bytes = Buffer.from(text, 'utf8')
    // Bad bytes (0xFF) put in place of 1,500 spaces of the rules body.
    let put = 0
    for (let i = 5_000; i < bytes.length && put < 1_500; i++) if (bytes[i] === 0x20) (bytes[i] = 0xff), put++
    const report = validateText('bad-bytes.txt', bytes)
    expect(report.counts.byCode.encoding).toBe(1_500)
    expect(report.diagnostics.filter((d) => d.code === 'encoding')).toHaveLength(1_000)
    expect(report.omitted).toMatchObject({ encoding: 500 })
  })
})

describe('locks that cannot be taken end in one line, never a spin or a long wait', () => {
  const newest = release('2026-08-07').path

  it.each([
    ['a folder', (lock: string) => mkdirSync(lock), 'a folder'],
    ['a dangling link', (lock: string) => symlinkSync(join(tmp, 'nowhere'), lock), 'a link'],
  ] as const)('a lock path that is %s: exit 2 at once', (_, plant, what) => {
    const parent = mkdtempSync(join(tmp, 'lock-'))
    plant(join(parent, '.out.lock'))
    const r = run(['build', newest, '--out', join(parent, 'out')], 20)
    expect([r.status, r.signal]).toEqual([2, null])
    expect(r.stderr).toBe(`write: cannot write to ${join(parent, 'out')}: its lock ${join(parent, '.out.lock')} is ${what}, not a lock file (remove it)\n`)
    expect(r.seconds).toBeLessThan(10)
  })

  it('an empty lock left by a run on a full disk is stale after a few seconds: the build goes on', () => {
    const parent = mkdtempSync(join(tmp, 'lock-'))
    const lock = join(parent, '.out.lock')
    writeFileSync(lock, '')
    const old = new Date(Date.now() - 60_000)
    utimesSync(lock, old, old)
    const r = run(['build', newest, '--out', join(parent, 'out')], 20)
    expect(r.status, r.stderr).toBe(0)
    expect(r.seconds).toBeLessThan(10)
  })
})

describe('output folders keep the usual modes', () => {
  it('a new folder gets what the umask gives (0755 with 022), its files 0644; a replaced one keeps its mode', () => {
    const out = join(mkdtempSync(join(tmp, 'modes-')), 'out')
    const newest = release('2026-08-07').path
    expect(run(['build', newest, '--out', out]).status).toBe(0)
    const umask = process.umask()
    expect((statSync(out).mode & 0o777).toString(8)).toBe((0o777 & ~umask).toString(8))
    expect((statSync(join(out, 'rules.parquet')).mode & 0o777).toString(8)).toBe((0o666 & ~umask).toString(8))
    spawnSync('chmod', ['0750', out])
    expect(run(['build', newest, '--out', out]).status).toBe(0)
    expect((statSync(out).mode & 0o777).toString(8)).toBe('750')
  })
})

describe('a Parquet file that claims many rows', () => {
  it('10 million rows in a small file (DuckDB, one value repeated): refused before decoding, at once', async () => {
    const { duck, lit } = await import('./helpers/duckdb.js')
    const file = join(tmp, 'ten-million.parquet')
    await duck(`COPY (SELECT '100.1' AS number, 'Rule.' AS text, []::VARCHAR[] AS examples, 0::BIGINT AS index FROM range(10000000)) TO ${lit(file)} (FORMAT parquet)`)
    const size = statSync(file).size
    expect(size).toBeLessThan(10_000_000)
    const r = run(['validate', file], 30)
    expect([r.status, r.signal]).toEqual([2, null])
    expect(r.stderr).toBe(`read: ${file} is not a readable Parquet file (it claims 10000000 rows in ${size} bytes: more rows than bytes, which no export of these tables has)\n`)
    expect(r.seconds).toBeLessThan(20)
  }, 60_000)
})

describe('a dense text under the 64 MiB cap', () => {
  it('60,000 one-line rules: refused in one line under a 512 MiB heap, never a crash', () => {
    const text = new TextDecoder().decode(readBytes(release('2026-08-07').path))
    const dense = Array.from({ length: 60_000 }, (_, i) => `${100 + (i % 800)}.${Math.floor(i / 800) + 1000}. R`).join('\n')
    const file = join(tmp, 'dense.txt')
    writeFileSync(file, text.replace('\n100.1. ', `\n${dense}\n100.1. `))
    const r = run(['build', file, '--out', join(tmp, 'dense-out')], 60)
    expect([r.status, r.signal]).toEqual([2, null])
    expect(r.stderr).toBe('parse: the text holds more than 50,000 numbered rules (a published release has about 3,200); refused\n')
  }, 90_000)

  // A row the build writes must be one the readers take: a rule of 3.5 million words was written
  // to rules.jsonl as a line that validate then refused (longer than MAX_JSONL_LINE).
  it('a line, a rule or a glossary entry over MAX_ROW_CHARS: refused; just under, built and valid in every format', () => {
    const text = new TextDecoder().decode(readBytes(release('2026-08-07').path))
    const words = (chars: number) => 'word '.repeat(Math.ceil(chars / 5)).slice(0, chars).trim() + '.'
    const cases: [string, string, RegExp][] = [
      ['long-line.txt', text.replace('\n100.2. ', `\n100.1z. ${words(MAX_ROW_CHARS + 10)}\n\n100.2. `), /^parse: line \d+ holds more than 1,000,000 characters \(a published rule has at most about 3,000\): no export reader would take its row; refused\n$/],
      ['long-rule.txt', text.replace('\n100.2. ', `\n100.1z. Start.\n\n${Array(4).fill(words(MAX_ROW_CHARS / 3)).join('\n\n')}\n\n100.2. `), /^parse: rule 100\.1z \(line \d+\) holds more than 1,000,000 characters /],
      ['long-entry.txt', `${text.slice(0, text.lastIndexOf('\nCredits'))}\nLong Term\n${Array(4).fill(words(MAX_ROW_CHARS / 3)).join('\n')}\n${text.slice(text.lastIndexOf('\nCredits'))}`, /^parse: the glossary entry on line \d+ holds more than 1,000,000 characters /],
    ]
    for (const [name, body, said] of cases) {
      const file = join(tmp, name)
      writeFileSync(file, body)
      const r = run(['build', file, '--out', join(tmp, `${name}-out`)])
      expect([name, r.status, r.signal]).toEqual([name, 2, null])
      expect(r.stderr).toMatch(said)
    }
    const file = join(tmp, 'long-but-under.txt')
    writeFileSync(file, text.replace('\n100.2. ', `\n100.1z. ${words(MAX_ROW_CHARS - 10)}\n\n100.2. `))
    const out = join(tmp, 'long-but-under-out')
    expect(run(['build', file, '--out', out]).status).toBe(0)
    const validate = run(['validate', out])
    expect(validate.status, validate.stdout.slice(0, 2000)).toBe(0)
  }, 90_000)

  it('30,000 glossary entries: refused in one line by build and validate', () => {
    const text = new TextDecoder().decode(readBytes(release('2026-08-07').path))
    const credits = text.lastIndexOf('\nCredits')
    const terms = Array.from({ length: 30_000 }, (_, i) => `Crafted Term ${i}\nA crafted definition ${i}.\n`).join('\n')
    const file = join(tmp, 'long-glossary.txt')
    writeFileSync(file, `${text.slice(0, credits)}\n${terms}${text.slice(credits)}`)
    for (const args of [['build', file, '--out', join(tmp, 'long-glossary-out')], ['validate', file]]) {
      const r = run(args)
      expect([r.status, r.signal, r.stderr]).toEqual([2, null, 'parse: the glossary holds more than 20,000 entries (a published release has about 740); refused\n'])
    }
  })
})

// site and diff hold a release's tables in memory: a table longer than a CR text can give is refused
// as it is read (a 300,000-row rules export took 3.7 GB in site, 1.1 GB in diff), under a 512 MiB heap.
describe('what site and diff hold is bounded as a CR text is', () => {
  // 110,000 rules: over the 50,000 a release may hold, and two Parquet row groups (of 100,000).
  const LONG = 110_000
  const rules = Array.from({ length: LONG }, (_, i) => ({ number: `${100 + Math.floor(i / 300)}.${(i % 300) + 1}`, text: `Rule ${i} of a crafted export.`, examples: [] as string[], index: i }))
  const jsonl = join(tmp, 'held-rules.jsonl')
  const parquet = join(tmp, 'held-rules.parquet')
  beforeAll(async () => {
    const { writeParquet } = await import('../src/exports/parquet-write.js')
    const { RULES_TABLE } = await import('../src/core/tables.js')
    writeFileSync(jsonl, rules.map((r) => JSON.stringify(r)).join('\n') + '\n')
    writeFileSync(parquet, writeParquet(RULES_TABLE, rules, 'test'))
  })
  const held = (command: string, file: string, table: string, limit: string) => `${command}: ${file} holds more than ${limit} rows of the ${table} table, more than ${command} holds in memory (validate checks a table of any size)\n`

  it('site of a dataset folder whose rules (110,000 rows) or glossary (30,000) is longer: exit 2, one line', () => {
    const glossary = Array.from({ length: 30_000 }, (_, i) => JSON.stringify({ term: `Term ${i}`, definition: `Definition ${i}.`, index: i, see: [], obsolete: false })).join('\n') + '\n'
    for (const [table, rows, limit] of [['rules', readFileSync(jsonl, 'utf8'), '50,000'], ['glossary', glossary, '20,000']] as const) {
      const dir = datasetCopy('2026-08-07', mkdtempSync(join(tmp, 'held-')))
      // The site reads a table's JSONL first.
      writeFileSync(join(dir, `${table}.jsonl`), rows)
      const r = run(['site', dir, '--out', join(tmp, `held-site-${table}`)])
      expect([r.status, r.signal, r.stderr]).toEqual([2, null, held('site', join(dir, `${table}.jsonl`), table, limit)])
    }
  }, 60_000)

  it('diff of a rules export of 110,000 rows, in JSONL or Parquet: exit 2, one line; validate checks it', () => {
    const published = join(builtDataset('2026-08-07'), 'rules.jsonl')
    for (const file of [jsonl, parquet]) {
      const r = run(['diff', published, file])
      expect([r.status, r.signal, r.stderr]).toEqual([2, null, held('diff', file, 'rules', '50,000')])
    }
    expect(run(['validate', jsonl]).status).toBe(0)
  }, 60_000)

  // A reader that leaves a Parquet file in its first row group, or before reading any row, stops
  // its decoding worker: each of these printed its error line and then never exited.
  it('a file of several Parquet row groups refused before its end (wrong table, wrong columns, a refused row): exit 2 at once', async () => {
    const dir = mkdtempSync(join(tmp, 'groups-'))
    const history = join(dir, 'history')
    mkdirSync(history)
    copyFileSync(parquet, join(history, 'rules_history.parquet'))
    const dataset = datasetCopy('2026-08-07', mkdtempSync(join(tmp, 'groups-set-')))
    for (const ext of ['jsonl', 'csv', 'parquet', 'arrow']) rmSync(join(dataset, `rules_meta.${ext}`), { force: true })
    copyFileSync(parquet, join(dataset, 'rules_meta.parquet'))
    const glossary = join(builtDataset('2026-08-07'), 'glossary.jsonl')
    // A rules_history whose sixth row its schema refuses.
    const { writeParquet } = await import('../src/exports/parquet-write.js')
    const { RULES_HISTORY_TABLE } = await import('../src/core/tables.js')
    const real = readFileSync(join(builtHistory().out, 'rules_history.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l))
    const rows = Array.from({ length: LONG }, (_, i) => real[i % real.length])
    rows[5] = { ...rows[5], text: '' }
    const refused = join(dir, 'refused-row')
    mkdirSync(refused)
    writeFileSync(join(refused, 'rules_history.parquet'), writeParquet(RULES_HISTORY_TABLE, rows, 'test'))
    const cases: [string[], string][] = [
      [['lineage', history, '100.1'], `lineage: ${join(history, 'rules_history.parquet')}: missing columns: release, rule_id, previous_number, change (validate it for the whole report)\n`],
      [['site', dataset, '--out', join(dir, 'site')], `site: ${join(dataset, 'rules_meta.parquet')}: missing columns: chapter, chapter_title, section, section_title, parent, depth, line (validate it for the whole report)\n`],
      [['validate', glossary, '--rules', join(history, 'rules_history.parquet')], `mtg-rules validate: --rules ${join(history, 'rules_history.parquet')} holds the rules_history table, not the rules (usage: `],
      [['lineage', refused, '100.1'], `lineage: ${join(refused, 'rules_history.parquet')}: row 5: /text must NOT have fewer than 1 characters (validate it for the whole report)\n`],
    ]
    for (const [args, said] of cases) {
      const r = run(args)
      expect([args[0], r.status, r.signal, r.stderr.startsWith(said)], r.stderr).toEqual([args[0], 2, null, true])
    }
  }, 90_000)
})

describe('a previous set that cannot be removed after the switch', () => {
  it('the new set is in place: exit 0, one line about what was left, swept by the next run', () => {
    const parent = mkdtempSync(join(tmp, 'leftover-'))
    const out = join(parent, 'out')
    const newest = release('2026-08-07').path
    expect(run(['build', newest, '--out', out]).status).toBe(0)
    // An immutable file: removing the folder aside fails (EPERM), as an I/O error would.
    const pinned = join(out, 'rules.csv')
    expect(spawnSync('chattr', ['+i', pinned]).status).toBe(0)
    let aside = ''
    try {
      const r = run(['build', release('2026-06-19').path, '--out', out])
      expect(r.status, r.stderr).toBe(0)
      const line = r.stderr.split('\n').find((l) => l.includes('could not be removed'))!
      expect(line).toMatch(/^write: .*out holds the new set; the previous one, moved aside to .*\.out\.old-\d+-\w+, could not be removed \(.*\): the next run removes it$/)
      aside = /moved aside to (.*), could not/.exec(line)![1]!
      expect(JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')).source.effectiveDate).toBe('2026-06-19')
    } finally {
      spawnSync('chattr', ['-i', aside ? join(aside, 'rules.csv') : pinned])
    }
    expect(run(['build', newest, '--out', out]).status).toBe(0)
    expect(readdirSync(parent).filter((n) => n.startsWith('.out.'))).toEqual([])
  })
})

describe('no control character reaches a terminal', () => {
  // OSC 52 (set the clipboard), a bell, and the C1 CSI that some terminals obey.
  const hostile = 'See rule 100.1.\u001b]52;c;cm0gLXJmIH4=\u0007 \u009b31m'
  const controls = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/

  it('diff of exports whose text holds escape sequences: printed and written escaped', () => {
    const row = (text: string, i: number, n: string) => JSON.stringify({ number: n, text, examples: [], index: i })
    const before = join(tmp, 'before.jsonl')
    const after = join(tmp, 'after.jsonl')
    writeFileSync(before, [row('Plain.', 0, '100.1'), row('Second.', 1, '100.2')].join('\n') + '\n')
    writeFileSync(after, [row('Plain.', 0, '100.1'), row(hostile, 1, '100.2')].join('\n') + '\n')
    for (const args of [[], ['--json']]) {
      const r = run(['diff', before, after, ...args])
      expect(r.status, r.stderr).toBe(0)
      expect(r.stdout).not.toMatch(controls)
      expect(r.stdout).toMatch(/\\u001b\\?\]52;c;cm0gLXJmIH4=\\u0007/)
    }
    const file = join(tmp, 'changes.md')
    expect(run(['diff', before, after, '--out', file]).status).toBe(0)
    expect(readFileSync(file, 'utf8')).not.toMatch(controls)
    expect(readFileSync(file, 'utf8')).toContain('\\u009b31m')
  })

  it('a path holding a control character is escaped in the error line', () => {
    const r = run(['validate', join(tmp, 'no\u001b[2Jsuch.jsonl')])
    expect(r.status).toBe(2)
    expect(r.stderr).toBe(`read: cannot open ${join(tmp, 'no\\u001b[2Jsuch.jsonl')}: no such file or directory\n`)
  })
})

describe('a rule text that a spreadsheet would run', () => {
  it('kept byte-faithful in rules.csv, and reported as formula-like', () => {
    const text = new TextDecoder().decode(readBytes(release('2026-08-07').path))
    const formula = '=HYPERLINK("http://example.invalid","Click")'
    const file = join(tmp, 'formula.txt')
    writeFileSync(file, text.replace('\n100.1. These Magic rules', `\n100.1. ${formula} These Magic rules`))
    const out = join(tmp, 'formula-out')
    const r = run(['build', file, '--out', out])
    expect(r.status, r.stderr).toBe(0)
    expect(r.stdout).toMatch(/^warning source-format 100\.1 line \d+: text of rule 100\.1 begins with “=”, which a spreadsheet opening the CSV would run as a formula$/m)
    expect(readFileSync(join(out, 'rules.csv'), 'utf8')).toContain(`100.1,"${formula.replace(/"/g, '""')} These Magic rules`)
  })
})

describe('Parquet columns of other types that readers see otherwise', () => {
  it.each([
    ['an unsigned index', "index::UBIGINT AS index", 'column index has type uint64, expected int64'],
    ['a decimal index', "index::DECIMAL(18,0) AS index", 'column index has type int64 (decimal), expected int64'],
    ['a JSON number', "to_json(number) AS number", 'column number has type byte_array (json), expected string'],
  ])('%s: a columns error', async (_, column, message) => {
    const { duck, lit } = await import('./helpers/duckdb.js')
    const out = builtDataset('2026-08-07')
    const file = join(tmp, `typed-${_.replace(/\W/g, '-')}.parquet`)
    const others = ['number', 'text', 'examples', 'index'].filter((c) => !column.endsWith(` AS ${c}`))
    await duck(`COPY (SELECT ${[...others, column].join(', ')} FROM read_parquet(${lit(join(out, 'rules.parquet'))})) TO ${lit(file)} (FORMAT parquet)`)
    const r = run(['validate', file, '--json'])
    expect(r.status).toBe(1)
    expect(JSON.parse(r.stdout).diagnostics.filter((d: { code: string }) => d.code === 'columns').map((d: { message: string }) => d.message)).toEqual([message])
  })
})

describe('library functions given the wrong types', () => {
  it.each([
    ['buildDataset', async () => (await import('../src/build/build.js')).buildDataset('x.txt', 'not bytes' as unknown as Uint8Array), 'buildDataset: the bytes of x.txt must be a Uint8Array (a Buffer is one), not string'],
    ['validateSource', async () => (await import('../src/validate/validate.js')).validateSource(42 as unknown as string, new Uint8Array(1)), 'validateSource: the name must be a non-empty string, not number'],
    ['validateText', async () => (await import('../src/validate/validate.js')).validateText('x.txt', [1, 2] as unknown as Uint8Array), 'validateText: the bytes of x.txt must be a Uint8Array (a Buffer is one), not an array'],
    ['readExportFile', async () => (await import('../src/validate/validate.js')).readExportFile('x.jsonl', null as unknown as Uint8Array), 'readExportFile: the bytes of x.jsonl must be a Uint8Array (a Buffer is one), not null'],
  ])('%s: an EtlError USAGE naming the function, not a TypeError', async (_, call, message) => {
    const { EtlError } = await import('../src/core/errors.js')
    const error = await call().then(() => null, (e: unknown) => e)
    expect(error).toBeInstanceOf(EtlError)
    expect([(error as InstanceType<typeof EtlError>).code, (error as Error).message]).toEqual(['USAGE', message])
  })
})
