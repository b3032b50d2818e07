import type { GlossaryEntry, LocatedRow, ParsedRule } from '../core/types.js'

const nfc = (s: string) => s.normalize('NFC').trim()

/**
 * Turn parsed rules into dataset rows in document order: text lines joined with `\n`, every
 * string NFC-normalized and trimmed, `index` 0..n-1. Rows keep their source line for diagnostics.
 */
export function normalizeRules(rules: ParsedRule[]): LocatedRow[] {
  return rules.map((rule, index) => ({
    row: {
      number: rule.number,
      text: nfc(rule.textLines.join('\n')),
      examples: rule.examples.map(nfc),
      index,
    },
    line: rule.line,
  }))
}

/** NFC-normalize glossary terms and definitions. */
export function normalizeGlossary(entries: GlossaryEntry[]): GlossaryEntry[] {
  return entries.map((e) => ({ term: nfc(e.term), definition: nfc(e.definition), line: e.line }))
}
