import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { SAMPLES } from './shared.js'

/** A row of the public Hugging Face export as its web viewer shows it. */
export interface HfRow {
  number: string
  text: string
  examples: string[]
  __index_level_0__: number
}

const NUMBER = /^\d{3}\.\d+[a-z]*$/
const INDEX = /^\d[\d,]*$/

function parseExamples(s: string): string[] | null {
  if (!s.startsWith('[')) return null
  try {
    const v: unknown = JSON.parse(s)
    return Array.isArray(v) && v.every((x) => typeof x === 'string') ? v : null
  } catch {
    return null
  }
}

/**
 * Parse a viewer page: the tab-separated table when the page has one, else the one-field-per-line
 * listing (number, text lines, examples as JSON, index with thousands separators).
 */
export function parseViewerPage(text: string): HfRow[] {
  const lines = text.split(/\r?\n/)
  const tabbed = lines.map((l) => l.split('\t')).filter((f) => f.length === 4 && NUMBER.test(f[0]!))
  if (tabbed.length > 0) {
    return tabbed.map(([number, text, examples, index]) => ({ number: number!, text: text!, examples: parseExamples(examples!)!, __index_level_0__: Number(index) }))
  }
  const rows: HfRow[] = []
  const content = lines.filter((l) => l.trim() !== '')
  let i = content.findIndex((l) => NUMBER.test(l))
  while (i >= 0 && i < content.length) {
    const number = content[i++]!
    const textLines: string[] = []
    while (i < content.length && parseExamples(content[i]!) === null) textLines.push(content[i++]!)
    const examples = parseExamples(content[i++] ?? '')
    const index = content[i++] ?? ''
    if (!NUMBER.test(number) || examples === null || !INDEX.test(index)) throw new Error(`viewer page: cannot read the row at ${number}`)
    rows.push({ number, text: textLines.join('\n'), examples, __index_level_0__: Number(index.replace(/,/g, '')) })
  }
  return rows
}

export const SAMPLE_PAGES = ['hf-viewer-rows-400-499.txt', 'hf-viewer-rows-2200-2299.txt']

/** Both sample pages, in viewer order (rows 400–499, then 2200–2299). */
export function sampleRows(): HfRow[] {
  return SAMPLE_PAGES.flatMap((p) => parseViewerPage(readFileSync(join(SAMPLES, p), 'utf8')))
}
