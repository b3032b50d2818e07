import type { Manifest } from '../exports/manifest.js'
import { csvField } from '../exports/csv-write.js'
import { safeText } from '../core/report-format.js'
import { plural } from '../core/words.js'

/** One release in a history run: its counts when it built, or why it failed. */
export interface HistoryRow {
  file: string
  effectiveDate: string | null
  ok: boolean
  rules: number | null
  examples: number | null
  glossary: number | null
  errors: number | null
  warnings: number | null
  seconds: number
  /** Why the release failed: the error line, or the validation error count. */
  failure: string | null
}

export function historyRowOf(file: string, outcome: { manifest: Manifest; errorCodes?: Record<string, number> } | Error, seconds: number): HistoryRow {
  const rounded = Math.round(seconds * 1000) / 1000
  if (outcome instanceof Error) {
    return { file, effectiveDate: null, ok: false, rules: null, examples: null, glossary: null, errors: null, warnings: null, seconds: rounded, failure: outcome.message }
  }
  const { counts, source, validation } = outcome.manifest
  return {
    file,
    effectiveDate: source.effectiveDate,
    ok: validation.valid,
    rules: counts.rules,
    examples: counts.examples,
    glossary: counts.glossary,
    errors: validation.errors,
    warnings: validation.warnings,
    seconds: rounded,
    failure: validation.valid ? null : failureOf(validation.errors, outcome.errorCodes ?? {}),
  }
}

/** Why a release did not validate: its error codes and counts, most first ("2 validation errors: 1 duplicate-number, 1 gap"). */
function failureOf(errors: number, codes: Record<string, number>): string {
  const byCode = Object.entries(codes).sort(([a, m], [b, n]) => n - m || (a < b ? -1 : 1))
  return `${errors} validation ${plural(errors, 'error')}${byCode.length ? `: ${byCode.map(([code, n]) => `${n} ${code}`).join(', ')}` : ''}`
}

/**
 * What history.json and history.csv keep of a release: all but its build's seconds, which belong to
 * the run, not to the data (the same archive gives the same bytes; the run's table and progress
 * lines show the seconds).
 */
export type RecordedRow = Omit<HistoryRow, 'seconds'>
export const recordedRow = ({ seconds: _, ...row }: HistoryRow): RecordedRow => row

const COLUMNS = ['effectiveDate', 'file', 'ok', 'rules', 'examples', 'glossary', 'errors', 'warnings', 'failure'] as const

/** A plain-text table, one line per release, columns aligned. */
export function renderHistoryTable(rows: HistoryRow[]): string {
  const head = ['effective', 'file', 'status', 'rules', 'examples', 'glossary', 'errors', 'warnings', 'seconds']
  const body = rows.map((r) => [
    r.effectiveDate ?? '-',
    // One line per release whatever its file is named (a line break shown as \n).
    safeText(r.file),
    r.ok ? 'ok' : 'FAILED',
    ...[r.rules, r.examples, r.glossary, r.errors, r.warnings].map((n) => (n === null ? '-' : String(n))),
    r.seconds.toFixed(2),
  ])
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)))
  const line = (cells: string[]) => cells.map((c, i) => (i >= 3 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ').trimEnd()
  const failures = rows.filter((r) => !r.ok).map((r) => safeText(`${r.file}: ${r.failure}`))
  return [line(head), ...body.map(line), ...failures].join('\n')
}

export function historyCsv(rows: RecordedRow[]): Uint8Array {
  const lines = [COLUMNS.join(','), ...rows.map((r) => COLUMNS.map((c) => (r[c] === null ? '' : csvField(String(r[c])))).join(','))]
  return Buffer.from(lines.map((l) => l + '\r\n').join(''), 'utf8')
}

/**
 * The output folder of each release, in the same order: its effective date. Two texts with the same
 * date (a re-issue) are kept apart: the later file name (code-point order) is the release and gets
 * the date's folder, each earlier one `<date>~<file name without .txt>`. A text without a date gets
 * its file name.
 */
export function historyFolders(releases: { name: string; effectiveDate: string | null }[]): string[] {
  const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
  const winner = new Map<string, string>()
  for (const r of releases) {
    if (r.effectiveDate === null) continue
    const held = winner.get(r.effectiveDate)
    if (held === undefined || byCodePoint(held, r.name) < 0) winner.set(r.effectiveDate, r.name)
  }
  const stem = (name: string) => name.replace(/\.txt$/i, '')
  return releases.map((r) => {
    if (r.effectiveDate === null) return stem(r.name)
    return winner.get(r.effectiveDate) === r.name ? r.effectiveDate : `${r.effectiveDate}~${stem(r.name)}`
  })
}
