// Loaded with `node --import`: reports the process's peak resident set size when it exits. VmHWM of
// /proc/self/status, not getrusage's maxRSS: Linux carries maxRSS over from the process that spawned
// this one (the bench, at 1.3 GB after making 3M rows), VmHWM starts afresh with the program.
import { readFileSync } from 'node:fs'

function peakKb() {
  try {
    const hwm = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'))
    if (hwm) return Number(hwm[1])
  } catch {}
  return process.resourceUsage().maxRSS
}

process.on('exit', () => process.stderr.write(`\nBENCH_MAXRSS_KB=${peakKb()}\n`))
