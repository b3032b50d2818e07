import type { RuleRow } from './types.js'

/** JSON Lines: one object per row, keys number, text, examples, index; UTF-8, `\n` after each. */
export function writeJsonl(rows: RuleRow[]): Uint8Array {
  let out = ''
  for (const r of rows) out += JSON.stringify({ number: r.number, text: r.text, examples: r.examples, index: r.index }) + '\n'
  return new TextEncoder().encode(out)
}
