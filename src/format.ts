import type { Report } from './report.js'
import type { Diagnostic } from './types.js'

function place(d: Diagnostic): string {
  const parts: string[] = []
  if (d.number !== undefined) parts.push(d.number)
  if (d.line !== undefined) parts.push(`line ${d.line}`)
  if (d.position !== undefined) parts.push(`row ${d.position}`)
  return parts.join(' ')
}

/** One line per diagnostic: `warning source-format 119.1d line 1050: …`. */
export function formatDiagnostics(list: Diagnostic[]): string {
  return list.map((d) => `${d.severity} ${d.code}${place(d) ? ' ' + place(d) : ''}: ${d.message}`).join('\n')
}

/** A summary for people: verdict, counts by code, the first diagnostics. */
export function formatReport(report: Report, limit = 20): string {
  const { errors, warnings, byCode } = report.counts
  const codes = Object.entries(byCode).map(([code, n]) => `${n} ${code}`).join(', ')
  const verdict = report.valid ? 'valid' : 'INVALID'
  const lines = [`${report.source.file}: ${verdict}, ${report.source.rows} rows, ${errors} errors, ${warnings} warnings${codes ? ` (${codes})` : ''}${report.strict ? ' [strict]' : ''}`]
  for (const note of report.notes) lines.push(`note: ${note}`)
  // Errors first: they are what a reader must see even when warnings run to hundreds.
  const shown = [...report.diagnostics.filter((d) => d.severity === 'error'), ...report.diagnostics.filter((d) => d.severity !== 'error')]
  if (shown.length > 0) lines.push(formatDiagnostics(shown.slice(0, limit)))
  const more = report.diagnostics.length - limit
  if (more > 0) lines.push(`… and ${more} more (--json lists them all)`)
  return lines.join('\n')
}

// GitHub workflow commands: data escapes %, CR, LF; property values also escape : and ,
const escapeData = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')
const escapeProperty = (s: string) => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C')

/** GitHub Actions annotations, one per diagnostic: `::error file=…,line=…,title=…::message`. */
export function formatGithub(report: Report): string {
  return report.diagnostics
    .map((d) => {
      const level = d.severity === 'error' || report.strict ? 'error' : 'warning'
      const props = [`file=${escapeProperty(report.source.file)}`]
      if (d.line !== undefined) props.push(`line=${d.line}`)
      props.push(`title=${escapeProperty(`${d.code}${d.number ? ' ' + d.number : ''}`)}`)
      return `::${level} ${props.join(',')}::${escapeData(d.message)}`
    })
    .join('\n')
}
