#!/usr/bin/env node
// make bench: speed and memory of the CLI against the targets, on this machine. Not a test: it
// prints a table and writes out/bench.json. Usage: node scripts/bench.mjs [--runs N] [--rows N]
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'

const { values } = parseArgs({ options: { runs: { type: 'string', default: '7' }, rows: { type: 'string', default: '300000' } } })
const RUNS = Number(values.runs)
const ROWS = Number(values.rows)
const repo = resolve(import.meta.dirname, '..')
const archive = resolve(repo, process.env.RULES_ARCHIVE ?? '../shared/rules')
const cr = join(archive, 'MagicCompRules 20250207.txt')
const cli = join(repo, 'dist/src/cli.js')
const hook = join(repo, 'scripts/rss-hook.mjs')
const tmp = mkdtempSync(join(tmpdir(), 'bench-'))
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
const tables = await import(join(repo, 'dist/src/tables.js'))

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
  time('parse', () => (doc = lib.parseDocument(lib.splitLines(decoded.text))))
  time('normalize', () => (rows = lib.normalizeRules(doc.rules)))
  time('check (all checks)', () => lib.checkDocument(doc, rows))
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
  const real = lib.buildDataset('x.txt', new Uint8Array(readFileSync(cr))).rows
  const letters = lib.SUBRULE_LETTERS
  const rows = []
  for (let section = 100; rows.length < n && section <= 999; section++) {
    for (let rule = 1; rows.length < n && rule <= 14; rule++) {
      for (let sub = -1; rows.length < n && sub < letters.length; sub++) {
        const source = real[rows.length % real.length]
        rows.push({ number: `${section}.${rule}${sub < 0 ? '' : letters[sub]}`, text: cite(source.text), examples: source.examples.map(cite), index: rows.length })
      }
    }
  }
  return rows
}

function validateExports(n) {
  const rows = syntheticRows(n)
  const dir = join(tmp, `synthetic-${n}`)
  mkdirSync(dir)
  const results = {}
  for (const [format, write] of [['parquet', (r) => lib.writeParquet(tables.RULES_TABLE, r, 'bench')], ['jsonl', (r) => lib.writeJsonl(tables.RULES_TABLE, r)], ['csv', (r) => lib.writeCsv(tables.RULES_TABLE, r)]]) {
    const file = join(dir, `rules.${format}`)
    writeFileSync(file, write(rows))
    results[format] = repeat(['validate', file], Math.min(RUNS, 3))
    // Peak RSS mostly shows how lazily V8 collects; a capped heap shows what validation really keeps.
    if (format !== 'parquet') results[format].cappedHeap = passes(() => runCli(['validate', file], ['--max-old-space-size=64']))
  }
  return results
}

const targets = { buildSeconds: 0.25, buildRssMiB: 120, validateSeconds: 3 }
const build = repeat(['build', cr, '--out', join(tmp, 'out')])
const stageTimes = stages()
const small = validateExports(Math.round(ROWS / 10))
const large = validateExports(ROWS)
const history = repeat(['history', archive, '--out', join(tmp, 'history')], 1)

const row = (what, seconds, rss, target) => ({ what, seconds: Math.round(seconds * 1000) / 1000, rssMiB: rss === null ? null : Math.round(rss), target })
const table = [
  row(`build CR 2025-02-07 (whole process, median of ${RUNS})`, build.seconds, build.rssMiB, `≤ ${targets.buildSeconds} s, ≤ ${targets.buildRssMiB} MiB: ${build.seconds <= targets.buildSeconds ? 'met' : 'NOT met'} / ${build.rssMiB <= targets.buildRssMiB ? 'met' : 'NOT met'}`),
  ...Object.entries(stageTimes).map(([stage, s]) => row(`  in-process: ${stage}`, s, null, '')),
  ...['parquet', 'jsonl', 'csv'].map((f) => {
    const grows = large[f].rssMiB / small[f].rssMiB
    const memory = f === 'parquet' ? '' : `; peak RSS ×${grows.toFixed(1)} from ${Math.round(ROWS / 10)} rows; ${large[f].cappedHeap ? 'passes' : 'FAILS'} with a 64 MiB heap cap`
    return row(`validate ${ROWS} synthetic rows, ${f}`, large[f].seconds, large[f].rssMiB, `≤ ${targets.validateSeconds} s: ${large[f].seconds <= targets.validateSeconds ? 'met' : 'NOT met'}${memory}`)
  }),
  row('history of every release in the archive', history.seconds, history.rssMiB, ''),
]

const width = Math.max(...table.map((r) => r.what.length))
console.log(`${'what'.padEnd(width)}  ${'seconds'.padStart(8)}  ${'peak MiB'.padStart(8)}  target`)
for (const r of table) console.log(`${r.what.padEnd(width)}  ${r.seconds.toFixed(3).padStart(8)}  ${String(r.rssMiB ?? '').padStart(8)}  ${r.target}`)
mkdirSync(join(repo, 'out'), { recursive: true })
writeFileSync(join(repo, 'out/bench.json'), JSON.stringify({ node: process.version, runs: RUNS, rows: ROWS, targets, results: table, validateSmall: small }, null, 2) + '\n')
console.log('bench: wrote out/bench.json')
