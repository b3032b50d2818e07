#!/usr/bin/env node
// make bench: speed and memory of the CLI against the targets, on this machine. Not a test: it
// prints a table and writes out-bench/bench.json (beside out/: a build owns out/ whole). Usage: node scripts/bench.mjs [--runs N] [--rows N]
import { spawnSync } from 'node:child_process'
import { closeSync, copyFileSync, fstatSync, fsyncSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, readSync, rmSync, writeFileSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { parquetMetadata } from 'hyparquet'

const { values } = parseArgs({ options: { runs: { type: 'string', default: '7' }, rows: { type: 'string', default: '300000' }, large: { type: 'string', default: '3000000' } } })
const RUNS = Number(values.runs)
const ROWS = Number(values.rows)
// The scale case: 0 skips it (it takes minutes).
const LARGE = Number(values.large)
const repo = resolve(import.meta.dirname, '..')
const archive = resolve(repo, process.env.RULES_ARCHIVE ?? '../shared/rules')
const cr = join(archive, 'MagicCompRules 20250207.txt')
const cli = join(repo, 'dist/bin/cli.js')
const hook = join(repo, 'scripts/rss-hook.mjs')
const tmp = mkdtempSync(join(tmpdir(), 'bench-'))
// The synthetic exports and histories come to gigabytes: they go when the bench ends, however it ends.
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }))
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => process.exit(130))
const MiB = 1024 * 1024
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

/** Run the CLI as a user would: wall seconds and peak RSS in MiB. */
function runCli(args, nodeFlags = []) {
  const started = performance.now()
  const run = spawnSync(process.execPath, [...nodeFlags, '--import', hook, cli, ...args], { encoding: 'utf8', maxBuffer: 256 * MiB })
  const seconds = (performance.now() - started) / 1000
  const kb = Number(/BENCH_MAXRSS_KB=(\d+)/.exec(run.stderr)?.[1] ?? NaN)
  if (run.status !== 0 && run.status !== 1) throw new Error(`bench: mtg-rules ${args.join(' ')} exited ${run.status}: ${run.stderr.trim()}`)
  return { seconds, rssMiB: kb / 1024, status: run.status }
}

function passes(run) {
  try {
    return run().status === 0
  } catch {
    return false
  }
}

function repeat(args, runs = RUNS) {
  runCli(args) // warm-up: file cache, compiled code cache
  const results = Array.from({ length: runs }, () => runCli(args))
  return { seconds: median(results.map((r) => r.seconds)), rssMiB: Math.max(...results.map((r) => r.rssMiB)) }
}

const lib = await import(join(repo, 'dist/src/index.js'))
const tables = await import(join(repo, 'dist/src/core/tables.js'))

/**
 * Where a whole-process build spends its time, stage by stage, cold (as every `build` runs): the
 * medians over RUNS runs of `build --timings`, in seconds.
 */
function coldBuildStages() {
  const runs = Array.from({ length: RUNS }, () => {
    const run = spawnSync(process.execPath, [cli, 'build', cr, '--out', join(tmp, 'out-timed'), '--timings'], { encoding: 'utf8' })
    return [...run.stderr.matchAll(/^ {2}(.+?)\s+([\d.]+) ms$/gm)].map((m) => [m[1], Number(m[2]) / 1000])
  })
  return runs[0].map(([stage], i) => [stage, median(runs.map((r) => r[i][1]))])
}

/** Time each stage in-process (median of RUNS, after a warm-up). */
function stages() {
  const bytes = new Uint8Array(readFileSync(cr))
  const timings = {}
  const time = (name, fn) => {
    fn()
    const xs = Array.from({ length: RUNS }, () => {
      const t = performance.now()
      fn()
      return performance.now() - t
    })
    timings[name] = median(xs) / 1000
  }
  let decoded, doc, rows, result
  time('read (decode)', () => (decoded = lib.decode(bytes)))
  let lines
  time('parse', () => (doc = lib.parseDocument((lines = lib.splitLines(decoded.text)))))
  time('normalize', () => (rows = lib.normalizeRules(doc.rules)))
  time('check (all checks, coverage included)', () => lib.checkDocument(lines, doc, rows, decoded))
  const plain = rows.map((r) => r.row)
  time('write rules.parquet', () => lib.writeParquet(tables.RULES_TABLE, plain, 'bench'))
  time('write rules.jsonl', () => lib.writeJsonl(tables.RULES_TABLE, plain))
  time('write rules.csv', () => lib.writeCsv(tables.RULES_TABLE, plain))
  time('whole build in memory (4 tables × 3 formats, card, manifest)', () => (result = lib.buildDataset('bench.txt', bytes)))
  return timings
}

/**
 * A deterministic synthetic export of `n` rows in CR order, texts taken from the real rules with
 * their citations pointed at 100.1, so that they resolve as in a real release.
 */
const cite = (s) => s.replace(/\b\d{3}(\.\d+[a-z]{0,2})?\b/g, '100.1')

function syntheticRows(n) {
  // Cited once per real row, shared by every synthetic row made from it (3M rows must fit in memory).
  const real = lib.buildDataset('x.txt', new Uint8Array(readFileSync(cr))).rows.map((r) => ({ text: cite(r.text), examples: r.examples.map(cite) }))
  const letters = lib.SUBRULE_LETTERS
  const rows = []
  // Enough rules per section for n rows: 900 sections, each rule with 24 subrules.
  const perSection = Math.max(14, Math.ceil(n / (900 * (letters.length + 1))))
  for (let section = 100; rows.length < n && section <= 999; section++) {
    for (let rule = 1; rows.length < n && rule <= perSection; rule++) {
      for (let sub = -1; rows.length < n && sub < letters.length; sub++) {
        const source = real[rows.length % real.length]
        rows.push({ number: `${section}.${rule}${sub < 0 ? '' : letters[sub]}`, text: source.text, examples: source.examples, index: rows.length })
      }
    }
  }
  return rows
}

// DuckDB doing the duplicate, order and index checks on the same file, in a process of its own (as a
// CI job would run it): GROUP BY for duplicates, a window for order, the row position for index. For
// rules_history the same checks within each release (PARTITION BY release), as validate runs them.
const duckScript = join(tmp, 'duck-checks.mjs')
writeFileSync(
  duckScript,
  `import { DuckDBInstance } from ${JSON.stringify(join(repo, 'node_modules/@duckdb/node-api/lib/index.js'))}
const [file, format, table] = process.argv.slice(2)
const history = table === 'rules_history'
const types = { ...(history ? { release: 'VARCHAR' } : {}), number: 'VARCHAR', text: 'VARCHAR', examples: format === 'jsonl' ? 'VARCHAR[]' : 'VARCHAR', index: 'BIGINT', ...(history ? { rule_id: 'VARCHAR', previous_number: 'VARCHAR', change: 'VARCHAR' } : {}) }
const cols = '{' + Object.entries(types).map(([k, v]) => \`\${k}: '\${v}'\`).join(', ') + '}'
const source = format === 'parquet' ? \`read_parquet('\${file}')\` : format === 'jsonl' ? \`read_json('\${file}', columns = \${cols})\` : \`read_csv('\${file}', header = true, columns = \${cols})\`
// The rules' query is the one earlier rounds timed; the history's adds the release to each clause.
const by = history ? 'PARTITION BY release ' : ''
const db = await DuckDBInstance.create(':memory:')
const c = await db.connect()
await c.run(\`CREATE TEMP TABLE t AS SELECT \${history ? 'release, ' : ''}number, index, row_number() OVER () - 1 AS pos FROM \${source}\`)
const r = await c.runAndReadAll(\`WITH k AS (SELECT pos, \${history ? 'row_number() OVER (PARTITION BY release ORDER BY pos) - 1 AS place, release, ' : ''}index, number, TRY_CAST(split_part(number, '.', 1) AS INT) s, TRY_CAST(regexp_extract(split_part(number, '.', 2), '^[0-9]+') AS INT) r, regexp_extract(number, '[a-z]*$') l FROM t),
o AS (SELECT *, lag(s) OVER w ps, lag(r) OVER w pr, lag(l) OVER w pl FROM k WINDOW w AS (\${by}ORDER BY pos))
SELECT (SELECT count(*) FROM (SELECT number FROM t GROUP BY \${history ? 'release, ' : ''}number HAVING count(*) > 1)) dups,
 (SELECT count(*) FROM o WHERE ps IS NOT NULL AND (ps, pr, length(pl), pl) > (s, r, length(l), l)) order_errors,
 (SELECT count(*) FROM \${history ? 'k WHERE index <> place' : 't WHERE index <> pos'}) index_errors\`)
console.log(JSON.stringify(r.getRowObjectsJson()[0]))
`,
)

/** DuckDB's checks on a file (`table` rules or rules_history): seconds and peak RSS; a finding in a file known clean is a bench error. */
function runDuck(file, format, table = 'rules') {
  const started = performance.now()
  const run = spawnSync(process.execPath, ['--import', hook, duckScript, file, format, table], { encoding: 'utf8' })
  if (run.status !== 0) throw new Error(`bench: DuckDB checks on ${file} failed: ${run.stderr}`)
  const found = JSON.parse(run.stdout)
  if (Object.values(found).some((n) => n !== '0')) throw new Error(`bench: DuckDB's checks find ${run.stdout.trim()} in ${file}, which is clean of them`)
  return { seconds: (performance.now() - started) / 1000, rssMiB: Number(/BENCH_MAXRSS_KB=(\d+)/.exec(run.stderr)?.[1] ?? NaN) / 1024 }
}

/**
 * Reading alone (scripts/read-floor.mjs, whole process): hyparquet's parquetRead of every column, or
 * JSON.parse of every line, with nothing checked: the least any validate of the file through those
 * libraries takes. None for CSV (our tokenizer is the fastest reader there is of it here).
 */
function runFloor(file, format) {
  const started = performance.now()
  const run = spawnSync(process.execPath, ['--import', hook, join(repo, 'scripts/read-floor.mjs'), file, format], { encoding: 'utf8' })
  if (run.status !== 0) throw new Error(`bench: reading ${file} alone failed: ${run.stderr}`)
  return { seconds: (performance.now() - started) / 1000, rssMiB: Number(/BENCH_MAXRSS_KB=(\d+)/.exec(run.stderr)?.[1] ?? NaN) / 1024 }
}
const hasFloor = (format) => format === 'parquet' || format === 'jsonl'

/** Ours, DuckDB's checks and reading alone on one file, interleaved after a warm-up of each: medians of `runs`. */
function againstDuck(file, format, table, runs) {
  const floors = hasFloor(format) ? [] : null
  runCli(['validate', file])
  runDuck(file, format, table)
  if (floors) runFloor(file, format)
  const ours = []
  const ducks = []
  for (let i = 0; i < runs; i++) {
    ours.push(runCli(['validate', file]))
    ducks.push(runDuck(file, format, table))
    floors?.push(runFloor(file, format))
  }
  return {
    seconds: median(ours.map((r) => r.seconds)),
    rssMiB: Math.max(...ours.map((r) => r.rssMiB)),
    duckdb: { seconds: median(ducks.map((d) => d.seconds)), rssMiB: Math.max(...ducks.map((d) => d.rssMiB)) },
    floor: floors && { seconds: median(floors.map((d) => d.seconds)), rssMiB: Math.max(...floors.map((d) => d.rssMiB)) },
  }
}

/** The row of reading alone under a validate row: its ratio to DuckDB is the least the validate row's can be. */
const floorRow = (r, f) =>
  r.floor ? [row(`  reading alone, no check (${f === 'parquet' ? "hyparquet's parquetRead" : 'JSON.parse a line'})`, r.floor.seconds, r.floor.rssMiB, `ratio to DuckDB ${(r.floor.seconds / r.duckdb.seconds).toFixed(2)}: the least validate's can be`)] : []

/**
 * The 3,022 rules of the release written as rules 100.1 … 999.333 (299,700 rows), texts and examples
 * copied in order: their citations of lettered subrules dangle (45,889 warnings, no error), as in a
 * real export with findings.
 */
function rowsWithWarnings() {
  const real = lib.buildDataset('x.txt', new Uint8Array(readFileSync(cr))).rows
  const rows = []
  for (let section = 100; section <= 999; section++) {
    for (let k = 1; k <= 333; k++) {
      const source = real[rows.length % real.length]
      rows.push({ number: `${section}.${k}`, text: source.text, examples: source.examples, index: rows.length })
    }
  }
  return rows
}

function validateExports(n, runs = Math.min(RUNS, 5), warnings = false) {
  const rows = warnings ? rowsWithWarnings() : syntheticRows(n)
  const dir = join(tmp, `synthetic-${n}${warnings ? '-warnings' : ''}`)
  mkdirSync(dir)
  const results = {}
  for (const [format, write] of [['parquet', (r) => lib.writeParquet(tables.RULES_TABLE, r, 'bench')], ['jsonl', (r) => lib.writeJsonl(tables.RULES_TABLE, r)], ['csv', (r) => lib.writeCsv(tables.RULES_TABLE, r)]]) {
    const file = join(dir, `rules.${format}`)
    if (format === 'parquet') writeFileSync(file, write(rows))
    else {
      // In slices: 3M rows as one string would pass V8's string length limit.
      const fd = openSync(file, 'w')
      const header = format === 'csv' ? write([]).length : 0
      for (let at = 0; at < rows.length; at += 100_000) {
        const bytes = write(rows.slice(at, at + 100_000))
        writeSync(fd, at === 0 ? bytes : bytes.subarray(header))
      }
      closeSync(fd)
    }
    // On disk before any timing: the kernel's writeback of a fresh 250 MB file took CPU from the
    // runs measured first (ours), not from the ones after.
    const synced = openSync(file, 'r+')
    fsyncSync(synced)
    closeSync(synced)
    // Warm-ups (file cache, compiled code), then the two interleaved: the host's drift hits both alike.
    results[format] = againstDuck(file, format, 'rules', runs)
    // The same rows as one row group, as pyarrow writes up to 1Mi rows (64Mi before version 13)
    // (read in slices of 100,000 rows: docs/performance.md): with an offset index for each column,
    // as ours and pyarrow's write_page_index=True have, and without one, as pyarrow writes by default
    // (the same file, its offset indexes zeroed: the frame check then does not use them).
    if (format === 'parquet' && n === LARGE) {
      const oneGroup = join(dir, 'one-group.parquet')
      const bytes = lib.writeParquet(tables.RULES_TABLE, rows, 'bench', { rowGroupSize: rows.length })
      writeFileSync(oneGroup, bytes)
      results.oneGroup = repeat(['validate', oneGroup], 1)
      for (const c of parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length)).row_groups[0].columns) {
        if (c.offset_index_offset !== undefined) bytes.fill(0, Number(c.offset_index_offset), Number(c.offset_index_offset) + c.offset_index_length)
      }
      const unindexed = join(dir, 'one-group-unindexed.parquet')
      writeFileSync(unindexed, bytes)
      results.oneGroupUnindexed = repeat(['validate', unindexed], 1)
    }
    // Peak RSS mostly shows how lazily V8 collects; a capped heap shows what validation really keeps.
    if (format !== 'parquet') results[format].cappedHeap = passes(() => runCli(['validate', file], ['--max-old-space-size=64']))
    // An export with one finding, in its last row: the clean proof reads it all, then every check runs.
    if (format === 'jsonl' && !warnings) {
      const flawed = join(dir, 'flawed.jsonl')
      copyFileSync(file, flawed)
      // The last digit of the last row's index, changed in place (the file is too large for one string).
      const fd = openSync(flawed, 'r+')
      const at = fstatSync(fd).size - 3 // …N}\n
      const digit = Buffer.alloc(1)
      readSync(fd, digit, 0, 1, at)
      writeSync(fd, Buffer.from(String((digit[0] - 48 + 1) % 10)), 0, 1, at)
      closeSync(fd)
      results.flawed = repeat(['validate', flawed], runs)
    }
  }
  return results
}

/** Diff two releases in-process: median seconds of RUNS, after a warm-up. */
async function diffPair(oldDate, newDate) {
  const sideOf = async (date) => {
    const path = join(archive, `MagicCompRules ${date.replace(/-/g, '')}.txt`)
    return lib.diffSideOf(path, new Uint8Array(readFileSync(path)))
  }
  const a = await sideOf(oldDate)
  const b = await sideOf(newDate)
  lib.diffReleases(a, b)
  const xs = Array.from({ length: RUNS }, () => {
    const t = performance.now()
    lib.diffReleases(a, b)
    return (performance.now() - t) / 1000
  })
  return median(xs)
}

const targets = { buildSeconds: 0.4, buildRssMiB: 120, validateRatioToDuckDB: 1, diffConsecutiveSeconds: 0.3, diffFarSeconds: 2, historyRssMiB: 500 }
const build = repeat(['build', cr, '--out', join(tmp, 'out')])
const coldStages = coldBuildStages()
const stageTimes = stages()
const small = validateExports(Math.round(ROWS / 10))
const large = validateExports(ROWS)
const huge = LARGE > 0 ? validateExports(LARGE, 1) : null
const withWarnings = validateExports(299_700, Math.min(RUNS, 5), true)
// A dataset folder as make dataset writes it, whole process (the GitHub Action's main use).
const folder = repeat(['validate', join(tmp, 'out')])
const history = repeat(['history', archive, '--out', join(tmp, 'history')], 1)

// The scale of the real history: ~130 releases. The archive's texts stand in for the published ones,
// re-dated one every 60 days from 2001 (so that each is a release of its own), in date order, each
// text for a run of about 19 releases. Within a run each copy edits a few more rules (a clause
// appended to every 97th rule), so that consecutive releases differ a little, as published ones do,
// and six pairs are jumps between eras. A second set, where every pair is an era jump (each text
// in turn), shows the worst case of the diffs.
const RELEASES = 130
const texts = readdirSync(archive)
  .filter((n) => n.endsWith('.txt'))
  .sort()
  .map((n) => lib.decode(new Uint8Array(readFileSync(join(archive, n)))).text)
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']
function syntheticHistory(dir, textOf) {
  mkdirSync(dir)
  for (let i = 0; i < RELEASES; i++) {
    const d = new Date(Date.UTC(2001, 0, 1 + 60 * i))
    const date = `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()}`
    const text = textOf(i).replace(/(effective|current) as of [A-Z][a-z]+ \d{1,2}, \d{4}/g, `$1 as of ${date}`)
    writeFileSync(join(dir, `MagicCompRules ${d.toISOString().slice(0, 10).replace(/-/g, '')}.txt`), text)
  }
}
const synthetic = join(tmp, 'archive-130')
syntheticHistory(synthetic, (i) => {
  const t = Math.floor((i * texts.length) / RELEASES)
  const copy = i - Math.ceil((t * RELEASES) / texts.length)
  let seen = 0
  return texts[t].replace(/^(\d{3}\.\d+[a-z]?\.? .*?)\.$/gm, (line, body) => (copy > 0 && ++seen % 97 === copy % 97 ? `${body} (revised ${copy}).` : line))
})
const worstCase = join(tmp, 'archive-130-far')
syntheticHistory(worstCase, (i) => texts[i % texts.length])
const history130 = repeat(['history', synthetic, '--out', join(tmp, 'history-130')], 3)
const history130Far = repeat(['history', worstCase, '--out', join(tmp, 'history-130-far')], 1)
// Validating the history's rules_history exports: what a CI job on the history pays.
const historyValidate = Object.fromEntries(['parquet', 'jsonl', 'csv'].map((f) => [f, againstDuck(join(tmp, 'history-130', `rules_history.${f}`), f, 'rules_history', 3)]))
// What a rules historian runs on that history: one rule's versions, now and as of a date (whole process).
const lineageNow = repeat(['lineage', join(tmp, 'history-130'), '704.5a'])
const lineageAt = repeat(['lineage', join(tmp, 'history-130'), '100.1', '--at', '2008-06-01', '--json'])
// The website of that history (a timeline page per rule), as `make site SITE_FROM=out-history` builds it.
const site130 = repeat(['site', join(tmp, 'history-130'), '--out', join(tmp, 'site-130')], 1)
const diffConsecutive = await diffPair('2026-06-19', '2026-08-07')
const diffFar = await diffPair('2016-07-22', '2025-02-07')

// A crafted pair of exports the matcher would take hours over without its bound: 16,000 rules written
// from a dozen words, each new text a third reworded and two rows down (every row a candidate for
// every other). Whole process, as `mtg-rules diff` runs.
function craftedDiff() {
  const words = 'the a player card spell target creature land mana ability cost turn step phase'.split(' ')
  let seed = 7
  const pick = () => words[(seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) % words.length]
  const letters = ['', ...lib.SUBRULE_LETTERS]
  const number = (i) => `${100 + Math.floor(i / 2500)}.${Math.floor((i % 2500) / 25) + 1}${letters[i % 25]}`
  const olds = Array.from({ length: 16_000 }, (_, i) => ({ number: number(i), text: Array.from({ length: 20 }, pick).join(' ') + '.', examples: [], index: i }))
  const news = olds.map((r, i) => ({ ...r, number: number(i + 2), text: r.text.split(' ').map((w, k) => (k % 3 === 0 ? pick() : w)).join(' ') }))
  const [a, b] = [join(tmp, 'crafted-old.jsonl'), join(tmp, 'crafted-new.jsonl')]
  writeFileSync(a, lib.writeJsonl(tables.RULES_TABLE, olds))
  writeFileSync(b, lib.writeJsonl(tables.RULES_TABLE, news))
  return repeat(['diff', a, b], 1)
}
const crafted = craftedDiff()

const row = (what, seconds, rss, target) => ({ what, seconds: Math.round(seconds * 1000) / 1000, rssMiB: rss === null ? null : Math.round(rss), target })
const table = [
  row(`build CR 2025-02-07 (whole process, median of ${RUNS})`, build.seconds, build.rssMiB, `≤ ${targets.buildSeconds} s, ≤ ${targets.buildRssMiB} MiB: ${build.seconds <= targets.buildSeconds ? 'met' : 'NOT met'} / ${build.rssMiB <= targets.buildRssMiB ? 'met' : 'NOT met'}`),
  ...coldStages.map(([stage, s]) => row(`  cold, as run: ${stage}`, s, null, '')),
  ...Object.entries(stageTimes).map(([stage, s]) => row(`  in-process, warm: ${stage}`, s, null, '')),
  ...[[ROWS, large], ...(huge ? [[LARGE, huge]] : [])].flatMap(([n, results]) =>
    ['parquet', 'jsonl', 'csv'].flatMap((f) => {
      const r = results[f]
      const ratio = r.seconds / r.duckdb.seconds
      const grows = r.rssMiB / large[f].rssMiB
      const flat = n === ROWS ? '' : `; peak ×${grows.toFixed(2)} of ${ROWS} rows' (target ≤ 1.5, ≤ 1024 MiB: ${grows <= 1.5 && r.rssMiB <= 1024 ? 'met' : 'NOT met'})`
      return [
        row(`validate ${n} synthetic rows, ${f}`, r.seconds, r.rssMiB, `ratio to DuckDB ${ratio.toFixed(2)} (≤ 1.0: ${ratio <= 1 ? 'met' : 'NOT met'})${flat}`),
        row(`  DuckDB duplicate + order + index checks, ${f}`, r.duckdb.seconds, r.duckdb.rssMiB, ''),
        ...floorRow(r, f),
        ...(f === 'parquet' && results.oneGroup ? [row(`  the same as one row group (as pyarrow writes up to 1Mi rows), with offset indexes`, results.oneGroup.seconds, results.oneGroup.rssMiB, `peak ≤ 1024 MiB: ${results.oneGroup.rssMiB <= 1024 ? 'met' : 'NOT met'}`)] : []),
        ...(f === 'parquet' && results.oneGroupUnindexed ? [row(`  the same without offset indexes (pyarrow's default)`, results.oneGroupUnindexed.seconds, results.oneGroupUnindexed.rssMiB, `peak ≤ 1024 MiB: ${results.oneGroupUnindexed.rssMiB <= 1024 ? 'met' : 'NOT met'}`)] : []),
        ...(f === 'jsonl' && results.flawed ? [row(`  the same with one finding in its last row`, results.flawed.seconds, results.flawed.rssMiB, `ratio to DuckDB ${(results.flawed.seconds / r.duckdb.seconds).toFixed(2)} (≤ 1.0: ${results.flawed.seconds <= r.duckdb.seconds ? 'met' : 'NOT met'})`)] : []),
      ]
    }),
  ),
  ...['parquet', 'jsonl', 'csv'].flatMap((f) => {
    const r = withWarnings[f]
    const ratio = r.seconds / r.duckdb.seconds
    return [
      row(`validate 299,700 rows with 45,889 warnings, ${f}`, r.seconds, r.rssMiB, `ratio to DuckDB ${ratio.toFixed(2)} (≤ 1.0: ${ratio <= 1 ? 'met' : 'NOT met'})`),
      row(`  DuckDB duplicate + order + index checks, ${f}`, r.duckdb.seconds, r.duckdb.rssMiB, ''),
      ...floorRow(r, f),
    ]
  }),
  row(`validate a dataset folder as make dataset writes it (whole process, median of ${RUNS})`, folder.seconds, folder.rssMiB, `≤ 0.5 s: ${folder.seconds <= 0.5 ? 'met' : 'NOT met'}`),
  row('diff of a consecutive pair, in process (2026-06-19 → 2026-08-07)', diffConsecutive, null, `≤ 0.3 s: ${diffConsecutive <= 0.3 ? 'met' : 'NOT met'}`),
  row('diff of a far pair, in process (2016-07-22 → 2025-02-07)', diffFar, null, `≤ 2 s: ${diffFar <= 2 ? 'met' : 'NOT met'}`),
  row('diff of a crafted pair of exports, 16,000 rules of a dozen words (whole process)', crafted.seconds, crafted.rssMiB, `bounded, ≤ 15 s: ${crafted.seconds <= 15 ? 'met' : 'NOT met'}`),
  row('history of every release in the archive (builds, diffs, rules_history)', history.seconds, history.rssMiB, ''),
  row(`history of ${RELEASES} releases (the archive's texts re-dated, consecutive ones close; median of 3)`, history130.seconds, history130.rssMiB, `≤ 15 s, ≤ 500 MiB: ${history130.seconds <= 15 ? 'met' : 'NOT met'} / ${history130.rssMiB <= 500 ? 'met' : 'NOT met'}`),
  row(`  worst case: every consecutive pair an era jump`, history130Far.seconds, history130Far.rssMiB, ''),
  row(`lineage of one rule on that history (whole process, median of ${RUNS})`, lineageNow.seconds, lineageNow.rssMiB, `≤ 0.3 s: ${lineageNow.seconds <= 0.3 ? 'met' : 'NOT met'}`),
  row(`  with --at DATE --json`, lineageAt.seconds, lineageAt.rssMiB, `≤ 0.3 s: ${lineageAt.seconds <= 0.3 ? 'met' : 'NOT met'}`),
  row(`site of that history (whole process)`, site130.seconds, site130.rssMiB, ''),
  ...['parquet', 'jsonl', 'csv'].flatMap((f) => {
    const r = historyValidate[f]
    return [
      row(`validate the ${RELEASES} releases' rules_history, ${f} (every check; median of 3)`, r.seconds, r.rssMiB, `ratio to DuckDB ${(r.seconds / r.duckdb.seconds).toFixed(2)} (≤ 1.0: ${r.seconds <= r.duckdb.seconds ? 'met' : 'NOT met'})`),
      row(`  DuckDB duplicate + order + index checks within each release, ${f}`, r.duckdb.seconds, r.duckdb.rssMiB, ''),
      ...floorRow(r, f),
    ]
  }),
]

const width = Math.max(...table.map((r) => r.what.length))
console.log(`${'what'.padEnd(width)}  ${'seconds'.padStart(8)}  ${'peak MiB'.padStart(8)}  target`)
for (const r of table) console.log(`${r.what.padEnd(width)}  ${r.seconds.toFixed(3).padStart(8)}  ${String(r.rssMiB ?? '').padStart(8)}  ${r.target}`)
mkdirSync(join(repo, 'out-bench'), { recursive: true })
writeFileSync(join(repo, 'out-bench/bench.json'), JSON.stringify({ node: process.version, runs: RUNS, rows: ROWS, targets, results: table, validateSmall: small }, null, 2) + '\n')
console.log('bench: wrote out-bench/bench.json')
