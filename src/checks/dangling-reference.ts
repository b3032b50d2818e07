import { boundedDiagnostics } from '../core/bounded.js'
import { append, diagnostics } from '../core/diagnostics.js'
import { EtlError } from '../core/errors.js'
import { MAX_TEXT_CITATIONS } from '../core/limits.js'
import { extractReferences, forEachReference, type Reference, type ReferenceKind } from '../core/citations.js'
import type { Check, CheckEnv, CheckInput, CheckRow } from './types.js'

export type ResolvedReference = Reference & { resolved: boolean }

/** The rules, sections and chapters that exist. */
class KnownTargets {
  /** The rule numbers: a set of their own, or the map every check shares while rows stream. */
  private readonly rules: { has(n: string): boolean }
  private readonly own: Set<string> | null
  private readonly sections = new Set<string>()
  private readonly chapters = new Set<string>()
  private lastSection = ''
  constructor(sections: { number: string }[], shared?: { has(n: string): boolean }) {
    this.own = shared ? null : new Set<string>()
    this.rules = shared ?? this.own!
    for (const s of sections) this.addSection(s.number)
  }
  addRule(number: string) {
    this.own?.add(number)
    // Rows come section by section: add a section once, not once per rule.
    if (!number.startsWith(this.lastSection) || this.lastSection === '') this.addSection(number.slice(0, 3))
  }
  private addSection(section: string) {
    this.lastSection = section + '.'
    this.sections.add(section)
    this.chapters.add(section.slice(0, 1))
  }
  has(ref: Pick<Reference, 'kind' | 'target'>): boolean {
    return this.hasTarget(ref.target, ref.kind)
  }
  hasTarget(target: string, kind: ReferenceKind): boolean {
    const set = kind === 'rule' ? this.rules : kind === 'section' ? this.sections : this.chapters
    return set.has(target)
  }
}

// A row shorter than this holds a few hundred citations at most.
const LONG_ROW = 4096

function rowReferences(row: CheckRow): Reference[] {
  if (row.number === null) return []
  const refs: Reference[] = []
  const number = row.number
  const located = (text: string, location: string) => extractReferences(text, number, row.line).map((r) => ({ ...r, location }))
  append(refs, located(row.text ?? '', 'text'))
  row.examples.forEach((e, i) => append(refs, located(e, `example ${i + 1}`)))
  return refs
}

/**
 * Every citation in rule text, examples and glossary definitions, each marked resolved or not:
 * the rows of the references table. The check below finds the same citations the same way, or takes
 * them from `citations` (filled here, row by row) rather than finding them twice.
 */
export function collectReferences(input: CheckInput, citations?: Map<CheckRow, Reference[]>): ResolvedReference[] {
  const known = new KnownTargets(input.sections)
  for (const row of input.rows) if (row.number !== null) known.addRule(row.number)
  const refs: Reference[] = []
  // The references table is made of these (every format in memory, ~1.6 KB a row): refused past the
  // limit while they are found, before they fill the memory. A long row's are counted before they
  // are made (one row of a crafted text held a million).
  const tooMany = () => new EtlError('INPUT_TOO_LARGE', `references: the text cites rules more than ${MAX_TEXT_CITATIONS.toLocaleString('en-US')} times (a published release has about 2,100): its references table is refused (validate checks the text)`)
  for (const row of input.rows) {
    if (row.number !== null && (row.text?.length ?? 0) + row.examples.reduce((n, e) => n + e.length, 0) > LONG_ROW) {
      let count = refs.length
      for (const text of [row.text ?? '', ...row.examples]) forEachReference(text, () => void count++)
      if (count > MAX_TEXT_CITATIONS) throw tooMany()
    }
    const found = rowReferences(row)
    citations?.set(row, found)
    append(refs, found)
    if (refs.length > MAX_TEXT_CITATIONS) throw tooMany()
  }
  for (const entry of input.glossary) append(refs, extractReferences(entry.definition, `glossary:${entry.term}`, entry.line).map((r) => ({ ...r, location: 'definition' })))
  return refs.map((r) => ({ ...r, resolved: known.has(r) }))
}

/** `dangling-reference`: a citation whose target rule, section or chapter does not exist. */
export const danglingReferenceCheck: Check = {
  code: 'dangling-reference',
  start(context: CheckEnv) {
    const known = new KnownTargets(context.sections, context.numbers)
    // A citation may point forward, so those not yet resolved wait for the end of the rows.
    const pending: { ref: Reference; position?: number }[] = []
    return {
      visit(row) {
        const number = row.number
        if (number === null) return
        known.addRule(number)
        const wait = (ref: Reference) => pending.push(row.position === undefined ? { ref } : { ref, position: row.position })
        const found = context.citations?.get(row)
        if (found) {
          for (const ref of found) if (!known.has(ref)) wait(ref)
          return
        }
        // Found as rowReferences finds them, but only a citation not yet resolved becomes an object.
        const cite = (target: string, kind: ReferenceKind, span: string) => {
          if (!known.hasTarget(target, kind)) wait(row.line === undefined ? { source: number, target, kind, span } : { source: number, target, kind, span, line: row.line })
        }
        if (row.text !== null) forEachReference(row.text, cite)
        for (const example of row.examples) forEachReference(example, cite)
      },
      finish() {
        const out = boundedDiagnostics()
        for (const entry of context.glossary) for (const ref of extractReferences(entry.definition, `glossary:${entry.term}`, entry.line)) pending.push({ ref })
        for (const { ref, position } of pending) {
          if (known.has(ref)) continue
          const where: { number: string; line?: number; position?: number } = { number: ref.source }
          if (ref.line !== undefined) where.line = ref.line
          if (position !== undefined) where.position = position
          out.push(diagnostics.danglingReference(ref.target, ref.span, where))
        }
        return out
      },
    }
  },
}
