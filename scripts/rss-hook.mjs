// Loaded with `node --import`: reports the process's peak resident set size when it exits.
process.on('exit', () => process.stderr.write(`\nBENCH_MAXRSS_KB=${process.resourceUsage().maxRSS}\n`))
