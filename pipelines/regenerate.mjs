#!/usr/bin/env node
// A maintainer's rules update: fetch the newest release (or take it from --from DIR), build and
// validate it, and write the changelog against the previous release: the one before it in the raw/
// cache, else in the --from folder, else the rules of the dataset out/ held before this build.
//   node pipelines/regenerate.mjs [--from DIR | --url PAGE] [--raw DIR] [--out DIR]
import { $, argv, fs, os, path } from 'zx'

const cli = 'dist/bin/cli.js'
// Only these options, each with a value: a mistyped one (--form) would otherwise fetch from the web.
const OPTIONS = ['from', 'url', 'raw', 'out']
const wrong = [...Object.keys(argv).filter((k) => k !== '_' && !OPTIONS.includes(k)).map((k) => `--${k}`), ...argv._.map(String)]
// (minimist reads a value that looks like a number as one, and an option with no value as true.)
const empty = OPTIONS.filter((k) => k in argv && (typeof argv[k] === 'boolean' || String(argv[k]) === ''))
if (wrong.length > 0 || empty.length > 0 || (argv.from && argv.url)) {
  const why = wrong.length > 0 ? `unknown ${wrong.join(', ')}` : empty.length > 0 ? `--${empty[0]} takes a value` : 'give --from or --url, not both'
  console.error(`regenerate: ${why} (usage: regenerate.mjs [--from DIR | --url PAGE] [--raw DIR] [--out DIR])`)
  process.exit(2)
}
const raw = String(argv.raw ?? 'raw')
const out = String(argv.out ?? 'out')
$.verbose = false

async function step(args, { capture = false } = {}) {
  const run = await $({ nothrow: true, stdio: capture ? ['inherit', 'pipe', 'inherit'] : 'inherit' })`node ${cli} ${args}`
  if (run.exitCode !== 0) process.exit(run.exitCode ?? 2)
  return run.stdout.trim()
}

const source = argv.from ? ['--from', String(argv.from)] : argv.url ? ['--url', String(argv.url)] : []
const release = await step(['fetch', ...source, '--dest', raw], { capture: true })
let previous = await step(['previous', raw, release], { capture: true })
if (!previous && argv.from) previous = await step(['previous', String(argv.from), release], { capture: true })
// The dataset out/ holds now, when it is of an older release: its rules are kept aside before the
// build replaces the folder.
if (!previous) previous = await olderDataset()
await step(['build', release, '--out', out, '--arrow'])
// The folder as published: every table in every format, and its manifest.
await step(['validate', out])
if (previous) {
  await step(['diff', previous, release, '--out', `${out}/CHANGELOG.md`])
  await step(['diff', previous, release, '--json', '--out', `${out}/changes.json`])
} else {
  const looked = [raw, argv.from, `${out}/ (no dataset of an older release there)`].filter(Boolean).join(', ')
  console.error(`regenerate: no release older than ${release} in ${looked}: no changelog written`)
}

async function olderDataset() {
  const dated = /(\d{4})(\d{2})(\d{2})/.exec(path.basename(release))
  let manifest
  try {
    manifest = JSON.parse(await fs.readFile(`${out}/manifest.json`, 'utf8'))
  } catch {
    return ''
  }
  const held = manifest?.source?.effectiveDate
  if (!dated || typeof held !== 'string' || held >= `${dated[1]}-${dated[2]}-${dated[3]}` || !fs.existsSync(`${out}/rules.parquet`)) return ''
  const aside = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'previous-dataset-')), 'rules.parquet')
  await fs.copyFile(`${out}/rules.parquet`, aside)
  return aside
}
