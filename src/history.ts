import type { BuildResult } from './build.js'
import { csvField } from './write-csv.js'

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

export function historyRowOf(file: string, outcome: BuildResult | Error, seconds: number): HistoryRow {
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
    failure: validation.valid ? null : `${validation.errors} validation errors`,
  }
}

const COLUMNS = ['effectiveDate', 'file', 'ok', 'rules', 'examples', 'glossary', 'errors', 'warnings', 'seconds', 'failure'] as const

/** A plain-text table, one line per release, columns aligned. */
export function renderHistoryTable(rows: HistoryRow[]): string {
  const head = ['effective', 'file', 'status', 'rules', 'examples', 'glossary', 'errors', 'warnings', 'seconds']
  const body = rows.map((r) => [
    r.effectiveDate ?? '-',
    r.file,
    r.ok ? 'ok' : 'FAILED',
    ...[r.rules, r.examples, r.glossary, r.errors, r.warnings].map((n) => (n === null ? '-' : String(n))),
    r.seconds.toFixed(2),
  ])
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)))
  const line = (cells: string[]) => cells.map((c, i) => (i >= 3 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ').trimEnd()
  const failures = rows.filter((r) => !r.ok).map((r) => `${r.file}: ${r.failure}`)
  return [line(head), ...body.map(line), ...failures].join('\n')
}

export function historyCsv(rows: HistoryRow[]): Uint8Array {
  const lines = [COLUMNS.join(','), ...rows.map((r) => COLUMNS.map((c) => (r[c] === null ? '' : csvField(String(r[c])))).join(','))]
  return Buffer.from(lines.map((l) => l + '\r\n').join(''), 'utf8')
}
