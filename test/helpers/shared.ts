import { readFileSync, readdirSync } from 'node:fs'
import { join, resolve } from 'node:path'

export const REPO = resolve(import.meta.dirname, '../..')
/** The CLI as users run it: the bundle `make build` writes (scripts/bundle-cli.mjs). */
export const CLI = join(REPO, 'dist/bin/cli.js')
/** Published CR texts, read in place (never copied into the repository). */
export const RULES_ARCHIVE = resolve(REPO, process.env.RULES_ARCHIVE ?? '../shared/rules')
export const SAMPLES = resolve(REPO, '../shared/samples')

export interface ReleaseFacts {
  file: string
  path: string
  /** YYYY-MM-DD */
  effective: string
  encoding: string
  lineEndings: string
  rules: number
  examples: number
  glossary: number
}

/**
 * The releases and their independently computed counts, read from the table in the archive's
 * README, so a release added there is tested too.
 */
export function releases(): ReleaseFacts[] {
  const readme = readFileSync(join(RULES_ARCHIVE, 'README.md'), 'utf8')
  const facts: ReleaseFacts[] = []
  for (const line of readme.split('\n')) {
    const cells = line.split('|').map((c) => c.trim())
    const m = /^(MagicCompRules (\d{4})(\d{2})(\d{2})\.txt)$/.exec(cells[1] ?? '')
    if (!m) continue
    facts.push({
      file: m[1]!,
      path: join(RULES_ARCHIVE, m[1]!),
      effective: `${m[2]}-${m[3]}-${m[4]}`,
      encoding: cells[3]!,
      lineEndings: cells[4]!,
      rules: Number(cells[5]),
      examples: Number(cells[6]),
      glossary: Number(cells[7]),
    })
  }
  if (facts.length === 0) throw new Error(`no release table found in ${RULES_ARCHIVE}/README.md`)
  const onDisk = readdirSync(RULES_ARCHIVE).filter((n) => n.endsWith('.txt'))
  if (onDisk.length !== facts.length) throw new Error(`README lists ${facts.length} releases, ${RULES_ARCHIVE} holds ${onDisk.length}`)
  return facts
}

export function release(date: string): ReleaseFacts {
  const r = releases().find((x) => x.effective === date)
  if (!r) throw new Error(`no release effective ${date} in ${RULES_ARCHIVE}`)
  return r
}

export const readBytes = (path: string) => new Uint8Array(readFileSync(path))

const NUMBER_WORDS = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve']

/**
 * How many chapters the rules body of a release has, read from the archive README's "Chapters:"
 * paragraph ("five from 2001 …, six from 2005-08-01 …, eight in 2009-07-11 …, nine since
 * 2009-09-04"): the era that began last on or before the release's date.
 */
export function chapterCount(effective: string): number {
  const readme = readFileSync(join(RULES_ARCHIVE, 'README.md'), 'utf8')
  const paragraph = /^- Chapters:[^]*?(?=\n- |\n\n|(?![^]))/m.exec(readme)?.[0]
  if (!paragraph) throw new Error(`no "Chapters:" paragraph in ${RULES_ARCHIVE}/README.md`)
  const eras = [...paragraph.matchAll(/\b([a-z]+)\s+(?:from|in|since)\s+(\d{4}(?:-\d{2}-\d{2})?)\b/g)]
    .map((m) => ({ count: NUMBER_WORDS.indexOf(m[1]!) + 1, from: m[2]! }))
    .filter((e) => e.count > 0)
    .sort((a, b) => a.from.localeCompare(b.from))
  const era = eras.filter((e) => e.from <= effective).at(-1)
  if (!era) throw new Error(`the README's "Chapters:" paragraph names no era for ${effective}`)
  return era.count
}
