import { boundedDiagnostics } from '../core/bounded.js'
import { diagnostics } from '../core/diagnostics.js'
import { whereOf, type Check, type CheckRow } from './types.js'

// What a text of the dataset is (rule.schema.json describes it; a schema cannot say all of it): NFC,
// trimmed, holding a visible character, well-formed UTF-16 (a lone surrogate has no UTF-8 form),
// without control characters but the newline that joins paragraphs. A build writes texts so; an
// export from elsewhere may not. Control characters are warnings, as in CR text; the rest errors.

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/
const VISIBLE = /[^\s\p{Cc}\p{Cf}\p{Zs}\p{Zl}\p{Zp}]/u
// Characters that are NFC whatever surrounds them (no combining mark, no singleton such as U+2000,
// U+2126 or U+2329), well-formed and not controls, the newline aside: Latin, the general
// punctuation of curly quotes and dashes, symbols. A text of only these needs no normalizing.
const STABLE = /^[\n\x20-\x7e\u00a0-\u02ff\u2002-\u20cf\u2100-\u2125\u2127-\u2129\u212c-\u2328\u232b-\u2bff]*$/
const SPACE = /\s/

/** What is wrong with one text, or null. */
function problemOf(text: string): { problem: string; severity: 'error' | 'warning' } | null {
  if (text.length === 0) return null
  if (STABLE.test(text)) {
    if (!VISIBLE.test(text)) return { problem: 'holds only invisible characters', severity: 'error' }
    return SPACE.test(text[0]!) || SPACE.test(text[text.length - 1]!) ? { problem: 'starts or ends with white space', severity: 'error' } : null
  }
  const surrogate = LONE_SURROGATE.exec(text)
  if (surrogate) return { problem: `holds a lone surrogate U+${surrogate[0].charCodeAt(0).toString(16).toUpperCase()} at character ${surrogate.index + 1}: it has no UTF-8 form`, severity: 'error' }
  if (!VISIBLE.test(text)) return { problem: 'holds only invisible characters', severity: 'error' }
  if (text !== text.trim()) return { problem: 'starts or ends with white space', severity: 'error' }
  if (text.normalize('NFC') !== text) return { problem: 'is not in Unicode normalization form NFC', severity: 'error' }
  const control = CONTROL.exec(text)
  if (control) return { problem: `holds the control character U+${control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')} at character ${control.index + 1}`, severity: 'warning' }
  return null
}

/** `text`: every rule text and example of an export keeps the dataset's text contract. */
export const textContractCheck: Check = {
  code: 'text',
  start() {
    const out = boundedDiagnostics()
    const check = (row: CheckRow, path: string, value: unknown) => {
      if (typeof value !== 'string') return
      const found = problemOf(value)
      if (found) out.push(diagnostics.textContract(path, found.problem, found.severity, whereOf(row)))
    }
    return {
      visit(row) {
        check(row, '/text', row.record.text)
        const examples = row.record.examples
        if (Array.isArray(examples)) examples.forEach((e, i) => check(row, `/examples/${i}`, e))
      },
      finish: () => out,
    }
  },
}
