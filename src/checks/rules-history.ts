import { boundedDiagnostics } from '../core/bounded.js'
import { toCheckRow } from './run-checks.js'
import { append, diagnostics } from '../core/diagnostics.js'
import type { ExportRecord } from '../core/types.js'
import type { Diagnostic } from '../core/types.js'
import { danglingReferenceCheck } from './dangling-reference.js'
import { duplicateNumberCheck } from './duplicate-number.js'
import { exampleAsRowCheck } from './example-as-row.js'
import { gapCheck } from './gap.js'
import { indexCheck } from './index-sequence.js'
import { startChecks } from './index.js'
import { orderCheck } from './order.js'
import { schemaDiagnostics } from './schema.js'
import { textContractCheck } from './text-contract.js'

// The rules checks that apply to each release of the history on its own (the row schema is the history's).
const PER_RELEASE = [duplicateNumberCheck, orderCheck, indexCheck, gapCheck, danglingReferenceCheck, exampleAsRowCheck, textContractCheck]

/**
 * Check a rules_history export as it streams: every row against its schema; each release (rows of
 * one `release`, which must come in date order, each once) with the rules checks; and the lineage:
 * every `previous_number` is a rule of the previous release, `change` agrees with it, and a
 * `rule_id` names one row of its release.
 */
export function startHistoryChecks(reportedColumns?: ReadonlySet<string>) {
  const out = boundedDiagnostics()
  let release: string | null = null
  // Where the current release's rows begin: each finding names its release and its row within it.
  let releaseStart = 0
  const tagged = (list: readonly Diagnostic[]) => list.map((d) => inRelease(d, release, releaseStart))
  let session: ReturnType<typeof startChecks> | null = null
  let previousNumbers = new Set<string>()
  let numbers = new Set<string>()
  let ids = new Set<string>()
  // The rule_ids each number has in the release before and in this one (one id, or the ids of a
  // number two rules hold): a continued rule keeps its id.
  let previousIds = new Map<string, string | string[]>()
  let idsOfNumber = new Map<string, string | string[]>()
  const seenReleases = new Set<string>()
  const closeRelease = () => {
    if (session) append(out, tagged(session.finish()))
    previousNumbers = numbers
    numbers = new Set()
    ids = new Set()
    previousIds = idsOfNumber
    idsOfNumber = new Map()
  }
  return {
    visit({ record, position, line }: ExportRecord) {
      const where: { position: number; line?: number; number?: string } = { position }
      if (line !== undefined) where.line = line
      if (typeof record.number === 'string') where.number = record.number
      const row = toCheckRow(record, where)
      const rel = typeof record.release === 'string' ? record.release : null
      if (rel !== release) {
        closeRelease()
        releaseStart = position
        if (rel !== null && release !== null && rel < release) out.push(diagnostics.historyOrder(`release ${rel} comes after ${release}: releases must be oldest first`, where))
        if (rel !== null && seenReleases.has(rel)) out.push(diagnostics.historyOrder(`release ${rel} appears in two runs of rows`, where))
        if (rel !== null) seenReleases.add(rel)
        if (release === null) [previousNumbers, previousIds] = [new Set(), new Map()]
        release = rel
        session = startChecks({ glossary: [], sections: [] }, PER_RELEASE)
      }
      const invalid = schemaDiagnostics('rules_history', record, where, reportedColumns)
      if (invalid.length > 0) append(out, tagged(invalid))
      const at = out.length
      session!.visit(row)
      const number = typeof record.number === 'string' ? record.number : null
      if (number !== null) numbers.add(number)
      const id = typeof record.rule_id === 'string' ? record.rule_id : null
      const prev = record.previous_number
      const change = record.change
      if (id !== null) {
        if (ids.has(id)) out.push(diagnostics.lineage(`rule_id ${id} names two rows of release ${rel}`, where))
        ids.add(id)
        if (number !== null) {
          const held = idsOfNumber.get(number)
          if (held === undefined) idsOfNumber.set(number, id)
          else if (typeof held === 'string') idsOfNumber.set(number, [held, id])
          else held.push(id)
        }
        if (prev === null && number !== null && !isOwnId(id, `${rel}`, number, record.index)) out.push(diagnostics.lineage(`rule_id ${id} of an added rule is not ${rel}:${number} (its release and number)`, where))
        const before = typeof prev === 'string' ? previousIds.get(prev) : undefined
        if (before !== undefined && (typeof before === 'string' ? before !== id : !before.includes(id))) {
          out.push(diagnostics.lineage(`rule_id ${id} is not the rule_id of ${prev} in the release before (${[before].flat().slice(0, 3).join(', ')})`, where))
        }
      }
      if (typeof prev === 'string' && !previousNumbers.has(prev)) out.push(diagnostics.lineage(`previous_number ${prev} is not a rule of the release before ${rel}`, where))
      if (prev === null && change !== 'added' && typeof change === 'string') out.push(diagnostics.lineage(`change is ${change} but previous_number is null (only an added rule has none)`, where))
      if (typeof prev === 'string' && change === 'added') out.push(diagnostics.lineage(`change is added but previous_number is ${prev}`, where))
      if (typeof prev === 'string' && change === 'unchanged' && prev !== number) out.push(diagnostics.lineage(`change is unchanged but the number was ${prev}`, where))
      for (let i = at; i < out.length; i++) if (out[i]!.omitted === undefined) out[i] = inRelease(out[i]!, release, releaseStart)
    },
    finish(): Diagnostic[] {
      closeRelease()
      return out
    },
  }
}

/**
 * Whether `id` is an added rule's own: `{release}:{number}`, or `{release}:{number}~{index}` for a
 * number two rules hold (compared in place: no string is made per row).
 */
function isOwnId(id: string, release: string, number: string, index: unknown): boolean {
  const end = release.length + 1 + number.length
  if (id.length < end || !id.startsWith(release) || id.charCodeAt(release.length) !== 58 || !id.startsWith(number, release.length + 1)) return false
  return id.length === end || id.slice(end) === `~${index}`
}

/** A finding of one release's rows, naming the release and the row within it (from 0, as `position` counts the file's). */
function inRelease(d: Diagnostic, release: string | null, releaseStart: number): Diagnostic {
  if (release === null || d.position === undefined || d.omitted !== undefined) return d
  const row = d.position - releaseStart
  return { ...d, message: `release ${release}, row ${row}: ${d.message}`, params: { ...d.params, release, releaseRow: row } }
}
