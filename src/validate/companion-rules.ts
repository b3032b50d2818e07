import type { KnownRules } from '../checks/companion.js'
import { EtlError } from '../core/errors.js'
import { RULES_TABLE, TABLES, tableNamed } from '../core/tables.js'
import { EXPORT_EXTENSIONS, GZIP_EXTENSIONS } from './validate-export.js'

/**
 * The rules exports a companion file (glossary.jsonl, …) given alone may be checked against, beside
 * it: its own format first (`.jsonl`, `.jsonl.gz`), then the quickest to read, then the
 * gzip-compressed ones. None for a file of no companion table.
 */
export function rulesFilesBeside(file: string): string[] {
  const name = /[^/\\]*$/.exec(file)![0]
  const table = tableNamed(name.toLowerCase())
  if (table === undefined || table === RULES_TABLE || !TABLES.includes(table)) return []
  const folder = file.slice(0, file.length - name.length)
  const extensions = new Set([name.slice(table.name.length), ...EXPORT_EXTENSIONS.map(([ext]) => `.${ext}`), ...GZIP_EXTENSIONS.map((ext) => `.${ext}`)])
  return [...extensions].map((ext) => `${folder}rules${ext}`)
}

/**
 * The rule numbers of the first of `files` that `read` can give, as a folder's companions pass over
 * a rules file that cannot be read: each one that could not is said in a note, with the one used instead.
 */
export async function firstReadableRules(files: string[], read: (file: string) => Promise<KnownRules>): Promise<{ known?: KnownRules; notes: string[] }> {
  const notes: string[] = []
  for (const file of files) {
    try {
      const known = await read(file)
      if (notes.length > 0) notes.push(`${notes.pop()}: checked against ${file}`)
      return { known, notes }
    } catch (e) {
      if (!(e instanceof EtlError)) throw e
      notes.push(`the rules beside it, ${file}, could not be read (${e.message})`)
    }
  }
  return { notes }
}
