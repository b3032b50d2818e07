#!/usr/bin/env node
// Build the dataset from the default CR text: the newest release in RULES_ARCHIVE (copied into the
// raw/ cache first), or RULES=path. Logic lives in src/; this only chains CLI commands.
import { $ } from 'zx'

const cli = 'dist/bin/cli.js'
const archive = process.env.RULES_ARCHIVE || '../shared/rules'
const out = process.env.OUT || 'out'
const raw = process.env.RAW || 'raw'
$.verbose = false

async function step(args, { capture = false } = {}) {
  const run = await $({ nothrow: true, stdio: capture ? ['inherit', 'pipe', 'inherit'] : 'inherit' })`node ${cli} ${args}`
  if (run.exitCode !== 0) process.exit(run.exitCode ?? 2)
  return run.stdout.trim()
}

const rules = process.env.RULES || (await step(['fetch', '--from', archive, '--dest', raw], { capture: true }))
await step(['build', rules, '--out', out, '--arrow'])
