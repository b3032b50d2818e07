import type { Report } from './report.js'
import type { Diagnostic } from './types.js'
import { thousands } from './words.js'

// Control characters (line breaks and escape sequences included) from the data are shown escaped, so
// that one diagnostic is one line and no terminal or CI runner ever acts on them.
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029]/g
const escapeControl = (c: string) => (c === '\n' ? '\\n' : c === '\r' ? '\\r' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)

/** `s` with every control character written as an escape (`\n`, `\u001b`). */
export function safeText(s: string): string {
  return s.replace(CONTROL, escapeControl)
}

// The same characters but the line breaks and tabs that lay out a whole output.
const CONTROL_IN_OUTPUT = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g

/**
 * A whole output (a report, a changelog, an error line naming a path) as a terminal or CI log may
 * show it: every C0 and C1 control but newline and tab written as an escape (`\u001b`, `\u009b`),
 * so that no escape sequence from the data (OSC 52 writes the clipboard) ever reaches a terminal.
 */
export function terminalSafe(s: string): string {
  return s.replace(CONTROL_IN_OUTPUT, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

function place(d: Diagnostic): string {
  const parts: string[] = []
  // An empty number (a CSV cell left empty) is no place to show.
  if (d.number) parts.push(d.number)
  if (d.line !== undefined) parts.push(`line ${d.line}`)
  if (d.position !== undefined) parts.push(`row ${d.position}`)
  return parts.join(' ')
}

/** One line per diagnostic: `warning source-format 119.1d line 1050: …`. */
export function formatDiagnostics(list: Diagnostic[]): string {
  return list.map((d) => safeText(`${d.severity} ${d.code}${place(d) ? ' ' + place(d) : ''}: ${d.message}`)).join('\n')
}

/** Errors before warnings, each group in report order. */
export function errorsFirst(list: Diagnostic[]): Diagnostic[] {
  return [...list.filter((d) => d.severity === 'error'), ...list.filter((d) => d.severity !== 'error')]
}


const omittedTotal = (report: Report) => Object.values(report.omitted ?? {}).reduce((a, b) => a + b, 0)

/** A report's first lines, in every format for people: its file, verdict and counts by code, then its notes. */
function reportHead(report: Report): string[] {
  const { errors, warnings, byCode } = report.counts
  const codes = Object.entries(byCode).map(([code, n]) => `${n} ${code}`).join(', ')
  const verdict = report.valid ? 'valid' : 'INVALID'
  const lines = [safeText(`${report.source.file}: ${verdict}, ${report.source.rows} rows, ${errors} errors, ${warnings} warnings${codes ? ` (${codes})` : ''}${report.strict ? ' [strict]' : ''}`)]
  for (const note of report.notes) lines.push(safeText(`note: ${note}`))
  return lines
}

/** A summary for people: verdict, counts by code, the first diagnostics. */
export function formatReport(report: Report, limit = 20): string {
  const lines = reportHead(report)
  // Errors first: they are what a reader must see even when warnings run to hundreds.
  const shown = errorsFirst(report.diagnostics)
  if (shown.length > 0) lines.push(formatDiagnostics(shown.slice(0, limit)))
  const more = Math.max(0, report.diagnostics.length - limit) + omittedTotal(report)
  if (more > 0) lines.push(`… and ${thousands(more)} more (--json lists up to 1,000 of each code, with exact counts)`)
  return lines.join('\n')
}

// GitHub workflow commands: data escapes %, CR, LF; property values also escape : and ,
const escapeData = (s: string) => safeText(s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A'))
const escapeProperty = (s: string) => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C')

export interface GithubOptions {
  /** GITHUB_WORKSPACE: file paths in annotations are made relative to it. */
  workspace?: string
}

/** A path as GitHub wants it in an annotation: relative to the workspace when inside it. */
export function workspacePath(file: string, workspace: string | undefined): string {
  if (!workspace) return file
  const root = workspace.endsWith('/') ? workspace : workspace + '/'
  return file.startsWith(root) ? file.slice(root.length) : file
}

/**
 * For a GitHub Actions log: the report's verdict line and notes, then its annotations, errors first
 * (`::error file=…,line=…,title=…::message`). A row of a binary export (no line) is named in the
 * title; diagnostics beyond the cap end in one summary line.
 */
export function formatGithub(report: Report, options: GithubOptions = {}): string {
  const file = escapeProperty(workspacePath(report.source.file, options.workspace))
  // The log shows what the text format starts with (a valid file too, which has no annotation), as
  // plain lines: GitHub acts only on lines that start with `::`.
  const head = reportHead({ ...report, source: { ...report.source, file: workspacePath(report.source.file, options.workspace) } }).map(plainLogLine)
  // Standard input (`-`) is no file of the repository: its annotations name none, and a line is said in the title.
  const inFile = report.source.file !== '-'
  const lines = errorsFirst(report.diagnostics).map((d) => {
    const level = d.severity === 'error' || report.strict ? 'error' : 'warning'
    const props = inFile ? [`file=${file}`] : []
    if (d.line !== undefined && inFile) props.push(`line=${d.line}`)
    const at = d.line !== undefined ? (inFile ? '' : ` line ${d.line}`) : d.position !== undefined ? ` row ${d.position}` : ''
    props.push(`title=${escapeProperty(`${d.code}${d.number ? ' ' + d.number : ''}${at}`)}`)
    return `::${level} ${props.join(',')}::${escapeData(d.message)}`
  })
  for (const [code, n] of Object.entries(report.omitted ?? {})) {
    lines.push(`::notice ${inFile ? `file=${file},` : ''}title=${escapeProperty(`${code}: ${n} more`)}::${n} more ${code} diagnostics are counted but not listed (validate --json lists up to 1,000 of each code)`)
  }
  return [...head, ...lines].join('\n')
}

// A line of the log that is not a workflow command, whatever the file's name: `::` at its start made safe.
const plainLogLine = (line: string) => (line.startsWith('::') ? ` ${line}` : line)

/** A Markdown job summary for `$GITHUB_STEP_SUMMARY`. */
export function formatSummaryMarkdown(reports: Report[]): string {
  const cell = (s: string) => safeText(s).replace(/\|/g, '\\|')
  const out = ['## mtg-rules validate', '', '| file | table | rows | verdict | errors | warnings |', '|---|---|---:|---|---:|---:|']
  for (const r of reports) out.push(`| ${cell(r.source.file)} | ${r.source.table} | ${r.source.rows} | ${r.valid ? '✅ valid' : '❌ invalid'} | ${r.counts.errors} | ${r.counts.warnings} |`)
  const first = reports.flatMap((r) => errorsFirst(r.diagnostics).slice(0, 10).map((d) => `- \`${cell(r.source.file)}\` ${d.severity} **${d.code}** ${cell(place(d))}: ${cell(d.message)}`))
  if (first.length > 0) out.push('', '### First diagnostics', '', ...first)
  return out.join('\n') + '\n'
}
