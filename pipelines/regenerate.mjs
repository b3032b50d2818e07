#!/usr/bin/env node
// A maintainer's rules update: fetch the newest release (or take it from --from DIR), build and
// validate it, and write the changelog against the previous release in the raw/ cache.
//   node pipelines/regenerate.mjs [--from DIR | --url PAGE] [--raw DIR] [--out DIR]
import { $, argv } from 'zx'

const cli = 'dist/bin/cli.js'
const raw = argv.raw ?? 'raw'
const out = argv.out ?? 'out'
$.verbose = false

async function step(args, { capture = false } = {}) {
  const run = await $({ nothrow: true, stdio: capture ? ['inherit', 'pipe', 'inherit'] : 'inherit' })`node ${cli} ${args}`
  if (run.exitCode !== 0) process.exit(run.exitCode ?? 2)
  return run.stdout.trim()
}

const source = argv.from ? ['--from', argv.from] : argv.url ? ['--url', argv.url] : []
const release = await step(['fetch', ...source, '--dest', raw], { capture: true })
const previous = await step(['previous', raw, release], { capture: true })
await step(['build', release, '--out', out, '--arrow'])
await step(['validate', `${out}/rules.parquet`])
if (previous) {
  await step(['diff', previous, release, '--out', `${out}/CHANGELOG.md`])
  await step(['diff', previous, release, '--json', '--out', `${out}/changes.json`])
} else {
  console.error(`regenerate: no release older than ${release} in ${raw}: no changelog written`)
}
