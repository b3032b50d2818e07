import type { Diagnostic, DiagnosticCode, Severity } from './types.js'
import { plural } from './words.js'

interface Where {
  number?: string
  line?: number
  position?: number
}

function make(code: DiagnosticCode, severity: Severity, message: string, where: Where, params?: Record<string, unknown>): Diagnostic {
  const d: Diagnostic = { code, severity, message }
  if (where.number !== undefined) d.number = where.number
  if (where.line !== undefined) d.line = where.line
  if (where.position !== undefined) d.position = where.position
  if (params !== undefined) d.params = params
  return d
}

export type SourceFormatKind =
  | 'subrule-with-period'
  | 'rule-without-period'
  | 'no-space-after-number'
  | 'unclassified-line'
  | 'example-without-rule'
  | 'control-character'
  | 'glossary-entry-without-definition'
  | 'number-with-space'
  | 'rule-inside-paragraph'
  | 'heading-differs'
  | 'heading-not-in-contents'
  | 'suspect-character'
  | 'citation-comma'
  | 'formula-like'
  | 'heading-without-blank-line'

/** One factory per diagnostic code: the only place each code's message is written. */
export const diagnostics = {
  sourceFormat(kind: SourceFormatKind, detail: string, where: Where): Diagnostic {
    return make('source-format', 'warning', detail, where, { kind })
  },
  /** A missing part of the document: an error when it means the text is cut short. */
  structure(detail: string, severity: Severity, where: Where = {}): Diagnostic {
    return make('structure', severity, detail, where)
  },
  schema(instancePath: string, ajvMessage: string, where: Where): Diagnostic {
    const field = instancePath === '' ? 'row' : instancePath
    return make('schema', 'error', `${field} ${ajvMessage}`, where, { instancePath })
  },
  /** One per duplicated number, at its second occurrence: the count and the first few places. */
  duplicateNumber(number: string, count: number, occurrences: Where[], where: Where): Diagnostic {
    const more = count > occurrences.length ? `, … ${count - occurrences.length} more` : ''
    const list = occurrences.map(describeWhere).join(', ') + more
    return make('duplicate-number', 'error', `rule ${number} occurs ${count} times (${list})`, where, { count, occurrences })
  },
  order(previous: string, where: Where & { number: string }): Diagnostic {
    return make('order', 'error', `rule ${where.number} comes after ${previous}, but CR order puts it before`, where, { previous })
  },
  index(expected: number, got: unknown, where: Where): Diagnostic {
    // A text is quoted: an empty CSV cell reads `index is ""`, not `index is ,`.
    return make('index', 'error', `index is ${typeof got === 'string' ? JSON.stringify(got) : String(got)}, expected ${expected} (row position)`, where, { expected, got: String(got) })
  },
  gap(previous: string | null, missing: string, where: Where & { number: string }): Diagnostic {
    const after = previous === null ? 'at the start of its section' : `after ${previous}`
    return make('gap', 'warning', `rule ${where.number} comes ${after}: ${missing} is missing`, where, { previous, missing })
  },
  missingRule(previous: string, where: Where & { number: string }): Diagnostic {
    const rule = where.number.replace(/[a-z]+$/, '')
    return make('gap', 'warning', `rule ${rule} is missing: subrule ${where.number} comes after ${previous} with no rule above it`, where, { previous, missing: rule })
  },
  danglingReference(target: string, span: string, where: Where & { number: string }): Diagnostic {
    return make('dangling-reference', 'warning', `${where.number} cites ${target} (“${span}”), which does not exist`, where, { target, span })
  },
  /** A text of an export outside the dataset's text contract (NFC, trimmed, visible, no controls). */
  textContract(path: string, problem: string, severity: Severity, where: Where): Diagnostic {
    return make('text', severity, `${path} ${problem}`, where, { instancePath: path })
  },
  exampleAsRow(reason: string, where: Where & { number: string }): Diagnostic {
    return make('example-as-row', 'error', `row ${where.number} reads as an example, not a rule: ${reason}`, where, { reason })
  },
  unknownNumber(field: string, value: string, where: Where): Diagnostic {
    return make('unknown-number', 'error', `${field} ${value} is not a rule in the rules table`, where, { field, value })
  },
  resolvedMismatch(target: string, resolved: boolean, where: Where): Diagnostic {
    const truth = resolved ? 'does not exist' : 'exists'
    return make('unknown-number', 'error', `reference to ${target} says resolved: ${resolved}, but ${target} ${truth} in the rules table`, where, { target, resolved })
  },
  /** A line that begins with a number that cannot be read with confidence: kept, and left to a maintainer. */
  badNumber(written: string, keptWith: string | null, where: Where): Diagnostic {
    const kept = keptWith === null ? 'it has no rule above it and is in no row' : `its text was kept as a paragraph of rule ${keptWith}`
    return make('bad-number', 'error', `line ${where.line} begins with “${written}”, which is not a rule number: ${kept}; fix the number in the source`, where, { written })
  },
  /** Words of the rules body that no row holds: a parser bug or a line the parser could not place. */
  textLost(words: string[], count: number, where: Where): Diagnostic {
    const shown = words.slice(0, 12).join(' ') + (words.length > 12 ? ' …' : '')
    return make('text-lost', 'error', `line ${where.line}: ${count} ${plural(count, 'word')} of the rules body in no row (“${shown}”)`, where, { words: words.slice(0, 50), count })
  },
  /** A JSONL export that begins with a byte order mark: JSON forbids one, and Python's json and pandas.read_json refuse the file. */
  byteOrderMark(): Diagnostic {
    return make('encoding', 'error', 'the file begins with a UTF-8 byte order mark, which a JSON text must not have (RFC 8259): Python\'s json and pandas.read_json refuse the file', { line: 1 })
  },
  /** A byte that is not UTF-8 in a text that otherwise is: damaged, read as U+FFFD. */
  invalidByte(byte: number, offset: number, line: number): Diagnostic {
    return make('encoding', 'error', `byte 0x${byte.toString(16).padStart(2, '0')} at offset ${offset} is not UTF-8 (read as U+FFFD) in a text that otherwise is`, { line }, { byte, offset })
  },
  /** rules_history: a lineage that does not hold (previous_number, change, rule_id). */
  lineage(detail: string, where: Where): Diagnostic {
    return make('lineage', 'error', detail, where)
  },
  /** rules_history: releases out of date order, or one release in two runs. */
  historyOrder(detail: string, where: Where): Diagnostic {
    return make('order', 'error', detail, where)
  },
  /** A file of a dataset folder that could not be read as data (why, in the tool's words, never the file's). */
  unreadable(detail: string): Diagnostic {
    return make('unreadable', 'error', detail, {})
  },
  columns(detail: string, params: Record<string, unknown>, severity: Severity = 'error'): Diagnostic {
    return make('columns', severity, detail, {}, params)
  },
}

function describeWhere(w: Where): string {
  if (w.line !== undefined) return `line ${w.line}`
  if (w.position !== undefined) return `row ${w.position}`
  return 'unknown place'
}

const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/** Diagnostics in a stable order: by line or row, then code, then message (code-point order, not locale). */
export function sortDiagnostics(list: Diagnostic[]): Diagnostic[] {
  const place = (d: Diagnostic) => d.line ?? d.position ?? -1
  return [...list].sort((a, b) => place(a) - place(b) || byCodePoint(a.code, b.code) || byCodePoint(a.message, b.message))
}

/** Counts of diagnostics by severity and by code, codes sorted; a BoundedDiagnostics marker counts as what it left out. */
export function countDiagnostics(list: Diagnostic[]): { errors: number; warnings: number; byCode: Record<string, number> } {
  const byCode: Record<string, number> = {}
  let errors = 0
  let warnings = 0
  for (const d of list) {
    const n = d.omitted ?? 1
    byCode[d.code] = (byCode[d.code] ?? 0) + n
    if (d.severity === 'error') errors += n
    else warnings += n
  }
  const sorted: Record<string, number> = {}
  for (const k of Object.keys(byCode).sort()) sorted[k] = byCode[k]!
  return { errors, warnings, byCode: sorted }
}

/**
 * Append `items` to `target` in place. Unlike `target.push(...items)` it works for any length: a
 * damaged row can carry hundreds of thousands of problems, more arguments than a call may take.
 */
export function append<T>(target: T[], items: readonly T[]): void {
  for (let i = 0; i < items.length; i++) target.push(items[i]!)
}
