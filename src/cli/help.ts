import { EXPORT_EXTENSIONS_SAID } from '../validate/validate-export.js'

/** What each command takes: printed by `mtg-rules CMD --help`, `mtg-rules help CMD`, and after a usage mistake. */
export const COMMAND_HELP = {
  build: `Usage: mtg-rules build FILE [--out DIR] [--allow-errors] [--strict] [--arrow] [--force] [--timings]

Build the rules, glossary, rules_meta and references tables (Parquet, JSONL, CSV; Arrow IPC with
--arrow), the dataset card, report.json and manifest.json from a Comprehensive Rules text.

Options:
  --out DIR         output folder (default out); replaced as a whole, atomically
  --allow-errors    write the dataset even when validation finds errors (exit 1 all the same)
  --strict          count warnings as errors
  --arrow           also write <table>.arrow (Arrow IPC file) for every table
  --force           replace the folder whole even when it holds what this tool cannot prove it
                    wrote: every file and folder in it is removed (without --force, only what the
                    folder's .mtg-rules-etl.json marker lists is replaced)
  --timings         print on stderr where the time went, stage by stage, from the process's start
  --debug           print a stack trace on an internal error`,
  validate: `Usage: mtg-rules validate PATH... [--json | --format text|json|github] [--strict] [--rules RULES_FILE] [--recursive] [--exact]

Check CR text (.txt), exports of any table (${EXPORT_EXTENSIONS_SAID}; JSONL and CSV
also gzip-compressed, .jsonl.gz; a .json file given by its path is read as JSON Lines, as Hugging
Face datasets reads it), or a dataset folder (every table in it, companions against the
rules beside them, manifest.json verified); - reads standard input, its format told by its first
bytes. Every row of a file goes through every check once; the row schemas in schemas/ decide what
a valid row is.

Options:
  --json            the report as JSON (several paths: an array of reports)
  --format FORMAT   text (default), json, or github (each file's verdict line, then Actions
                    annotations; a job summary is written to $GITHUB_STEP_SUMMARY when set;
                    paths relative to $GITHUB_WORKSPACE)
  --strict          count warnings as errors
  --rules FILE      the rules export the companion files given are checked against (default: the
                    rules.* beside each; a folder's own rules, never this, check its companions)
  --recursive       a folder's dataset folders too, at any depth (a history folder's releases);
                    without it, those are named on stderr as not checked
  --exact           no effect (kept for scripts of earlier releases: every run checks every row)`,
  site: `Usage: mtg-rules site DIR [--out DIR] [--force]

Write a static website of a dataset folder (as build writes it) or a history folder (as history
writes it): home, a page per chapter and per section (every rule an anchor, every citation a
link), the glossary and search; from a history folder also each rule's timeline, a page per
release, a chart and a compare page. Relative links only: it works from file:// and any host.

Options:
  --out DIR         output folder (default site); replaced as a whole, atomically
  --force           replace the folder whole even when it holds what this tool cannot prove it
                    wrote: every file and folder in it is removed`,
  diff: `Usage: mtg-rules diff OLD NEW [--json] [--out FILE] [--exit-code]

Compare two releases (CR texts, rules exports, or dataset folders: their rules export): unchanged,
typography-only, edited, added, removed and moved (renumbered) rules, and between CR texts the
glossary, as a Markdown changelog (or JSON). Two glossary exports give the glossary's terms added,
removed and changed.

Options:
  --json            the diff as JSON
  --out FILE        write there instead of standard output
  --exit-code       exit 1 when the releases differ (as git diff --exit-code)`,
  history: `Usage: mtg-rules history DIR [--out DIR] [--arrow] [--force]

Build and validate every CR text in DIR (oldest first by effective date, on every core); print a
table (with each build's seconds) and write history.json, history.csv (the same table without the
seconds: the same archive gives the same bytes), each release's folder and the rules_history table
with its card and manifest, switched in as one set.

Options:
  --out DIR         output folder (default out-history); replaced as a whole, atomically
  --arrow           also write Arrow IPC files (rules_history.arrow, each release's tables)
  --force           replace the folder whole even when it holds what this tool cannot prove it
                    wrote: every file and folder in it is removed`,
  lineage: `Usage: mtg-rules lineage HISTORY_DIR NUMBER [--at DATE] [--json]

What rule NUMBER said in every release and when it changed, following it through renumbering: the
rule is NUMBER as numbered in the newest release on or before DATE (default: the newest). Reads the
rules_history table that mtg-rules history writes.

Options:
  --at DATE         YYYY-MM-DD: the release whose numbering NUMBER uses
  --json            the versions as JSON`,
  previous: `Usage: mtg-rules previous DIR FILE

Print the path of the release before FILE (a CR text) in DIR (a folder of CR texts, such as raw/):
for a same-date re-issue, cached as "MagicCompRules YYYYMMDD <hash>.txt", the first issue of that
date; else the newest release whose effective date is before FILE's. Print nothing when there is
none. Dates are read from the texts.`,
  fetch: `Usage: mtg-rules fetch [--url PAGE | --from DIR] [--dest DIR] [--timeout MS] [--retries N]

Download the newest CR text from the rules page (default https://magic.wizards.com/en/rules), or copy
the newest release of a folder, into the raw/ cache as MagicCompRules YYYYMMDD.txt (by its effective
date, its sha256 in raw/index.json); prints its path. A different text with a date already cached is
kept beside it, never written over.

Options:
  --url PAGE        the rules page, or the .txt itself
  --from DIR        copy the newest release of DIR instead of downloading
  --dest DIR        the cache folder (default raw)
  --timeout MS      per request, in milliseconds (default 30000; at most 2147483647)
  --retries N       further tries after a network error, a time-out or a 5xx answer (default 3, at most 100)`,
  help: `Usage: mtg-rules help [COMMAND]

Print the usage of a command (as mtg-rules COMMAND --help does), or of the tool.`,
}

export type CommandName = keyof typeof COMMAND_HELP

/** Each command in one line, for the tool's usage: a command without one does not compile. */
const SUMMARY: Record<CommandName, string> = {
  build: 'build the dataset from a CR text',
  validate: 'check CR text, exports or a dataset folder',
  site: 'write a static website of a dataset or history folder',
  diff: 'compare two releases',
  history: 'build and validate every release of a folder, and the rules_history table',
  lineage: 'what a rule said in every release',
  previous: 'the release before FILE',
  fetch: 'download (or copy) the newest release into raw/',
  help: "this text, or a command's",
}

/** A command and its operands, from its usage line: `site DIR`, `help [COMMAND]` (options left out). */
const synopsis = (name: CommandName) =>
  COMMAND_HELP[name]
    .split('\n')[0]!
    .replace(/^Usage: mtg-rules /, '')
    .replace(/ \[--.*$/, '')

const width = Math.max(...Object.keys(SUMMARY).map((n) => synopsis(n as CommandName).length)) + 2

export const USAGE = `Usage: mtg-rules <command> [options]

Commands:
${(Object.keys(SUMMARY) as CommandName[]).map((n) => `  ${synopsis(n).padEnd(width)}${SUMMARY[n]}`).join('\n')}

Options: -h, --help (also after a command), -V, --version, --debug (stack trace on an internal error)

Exit codes: 0 valid (warnings allowed), 1 validation errors, 2 unusable input or arguments,
3 internal error (a bug: please report it).`

/** Whether `name` is a command of the tool. */
export const isCommand = (name: string): name is CommandName => Object.hasOwn(COMMAND_HELP, name)

/** The command nearest to a mistyped one, if it is near enough to be a likely typo. */
export function nearestCommand(typed: string): string | null {
  return nearest(typed.toLowerCase(), Object.keys(COMMAND_HELP))
}

/** The option of `command` nearest a mistyped one (`--stirct` → `--strict`), from its usage line. */
export function nearestOption(command: CommandName, typed: string): string | null {
  return nearest(typed, COMMAND_HELP[command].split('\n')[0]!.match(/--[a-z][a-z-]*/g) ?? [])
}

function nearest(typed: string, names: string[]): string | null {
  let best: string | null = null
  let bestDistance = Infinity
  for (const name of names) {
    const d = editDistance(typed, name)
    if (d < bestDistance) [best, bestDistance] = [name, d]
  }
  return bestDistance <= Math.max(2, Math.floor(typed.length / 3)) ? best : null
}

function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const next = [i]
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
    row = next
  }
  return row[b.length]!
}
