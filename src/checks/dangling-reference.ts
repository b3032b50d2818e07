import { diagnostics } from '../diagnostics.js'
import { extractReferences, type Reference } from '../references.js'
import type { Diagnostic } from '../types.js'
import type { Check, CheckInput } from './types.js'

const collected = new WeakMap<CheckInput, (Reference & { resolved: boolean })[]>()

/**
 * Every citation in rule text, examples and glossary definitions, each marked resolved or not.
 * Computed once per input: the check and the references table share it.
 */
export function collectReferences(input: CheckInput): (Reference & { resolved: boolean })[] {
  let refs = collected.get(input)
  if (!refs) {
    refs = extractAll(input)
    collected.set(input, refs)
  }
  return refs
}

function extractAll(input: CheckInput): (Reference & { resolved: boolean })[] {
  const known = knownTargets(input)
  const refs: Reference[] = []
  for (const row of input.rows) {
    if (row.number === null) continue
    for (const text of [row.text ?? '', ...row.examples]) refs.push(...extractReferences(text, row.number, row.line))
  }
  for (const entry of input.glossary) refs.push(...extractReferences(entry.definition, `glossary:${entry.term}`, entry.line))
  return refs.map((r) => ({ ...r, resolved: known.has(`${r.kind}:${r.target}`) }))
}

function knownTargets({ rows, sections }: CheckInput): Set<string> {
  const known = new Set<string>()
  const addSection = (section: string) => {
    known.add(`section:${section}`)
    known.add(`chapter:${section[0]}`)
  }
  for (const s of sections) addSection(s.number)
  for (const row of rows) {
    if (row.number === null) continue
    known.add(`rule:${row.number}`)
    addSection(row.number.slice(0, 3))
  }
  return known
}

/** `dangling-reference`: a citation whose target rule, section or chapter does not exist. */
export const danglingReferenceCheck: Check = {
  code: 'dangling-reference',
  run(input) {
    const out: Diagnostic[] = []
    const positions = new Map<string, number>()
    for (const r of input.rows) if (r.number !== null && r.position !== undefined && !positions.has(r.number)) positions.set(r.number, r.position)
    for (const ref of collectReferences(input)) {
      if (ref.resolved) continue
      const where: { number: string; line?: number } = { number: ref.source }
      if (ref.line !== undefined) where.line = ref.line
      const position = positions.get(ref.source)
      out.push(diagnostics.danglingReference(ref.target, ref.span, position === undefined ? where : { ...where, position }))
    }
    return out
  },
}
