import { diagnostics } from '../core/diagnostics.js'
import { EtlError } from '../core/errors.js'
import { MAX_TEXT_GLOSSARY } from '../core/limits.js'
import { thousands } from '../core/words.js'
import type { SourceLine } from './source-lines.js'
import type { Diagnostic, GlossaryEntry } from '../core/types.js'

/**
 * Glossary entries: blocks separated by blank lines, the first line the term, the rest its
 * definition, one paragraph per line (`\n`). In a hard-wrapped text the lines of a paragraph join
 * with a space, and an indented line (or U+2028) starts the next paragraph.
 */
export function parseGlossary(lines: SourceLine[], wrapped: boolean, diags: Diagnostic[]): GlossaryEntry[] {
  const entries: GlossaryEntry[] = []
  let block: SourceLine[] = []
  const flush = () => {
    const [head, ...rest] = block
    block = []
    if (!head) return
    if (rest.length === 0) {
      diags.push(diagnostics.sourceFormat('glossary-entry-without-definition', `glossary entry “${head.text}” has no definition`, { line: head.line, number: `glossary:${head.text}` }))
    }
    let definition = ''
    rest.forEach((sl, k) => {
      const join = k === 0 ? '' : wrapped && !sl.indented && !sl.afterBreak ? ' ' : '\n'
      definition += join + sl.text
    })
    if (entries.length === MAX_TEXT_GLOSSARY) throw new EtlError('INPUT_TOO_LARGE', `parse: the glossary holds more than ${thousands(MAX_TEXT_GLOSSARY)} entries (a published release has about 740); refused`)
    entries.push({ term: head.text, definition, line: head.line })
  }
  for (const sl of lines) {
    if (sl.text === '') flush()
    else block.push(sl)
  }
  flush()
  return entries
}
