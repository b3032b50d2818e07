import { makeReport, type Report } from '../core/report.js'
import type { Diagnostic } from '../core/types.js'
import { EXPORT_FILE } from './validate-export.js'

/** What verifying a dataset folder's manifest needs to know of one file in it. */
export interface FolderFile {
  name: string
  bytes: number
  /** Its sha256, computed when asked (a file whose size already disagrees is never read). */
  sha256: () => Promise<string>
}

// An export is a table file; other files (the card, report.json, history.json, a changelog) are not listed.
// history writes this table of its runs beside rules_history: not an export of the dataset.
const NOT_EXPORTS = new Set(['history.csv'])

interface ListedExport {
  path: string
  bytes: number
  rows: number
  sha256: string
}

const isListedExport = (e: unknown): e is ListedExport => {
  const x = e as Partial<ListedExport> | null
  return typeof x === 'object' && x !== null && !Array.isArray(x) && typeof x.path === 'string' && Number.isSafeInteger(x.bytes) && Number.isSafeInteger(x.rows) && typeof x.sha256 === 'string'
}

/**
 * Check a dataset folder against its manifest: every listed export exists with its bytes and sha256
 * (rows are checked when each export is validated), and every export (table file) present is listed.
 */
export async function verifyManifest(path: string, manifestText: string, files: FolderFile[], rowsOf: Map<string, number>): Promise<Report> {
  const out: Diagnostic[] = []
  const problem = (message: string, params: Record<string, unknown>) => out.push({ code: 'manifest', severity: 'error', message, params })
  let manifest: unknown
  try {
    manifest = JSON.parse(manifestText)
  } catch (e) {
    problem(`manifest.json is not JSON: ${(e as Error).message}`, {})
    return makeReport({ file: path, kind: 'manifest', table: 'manifest', rows: 0 }, out)
  }
  if (manifest === null || typeof manifest !== 'object' || Array.isArray(manifest)) {
    problem('manifest.json is not a JSON object', {})
    return makeReport({ file: path, kind: 'manifest', table: 'manifest', rows: 0 }, out)
  }
  const exports = (manifest as { exports?: unknown }).exports
  if (!Array.isArray(exports)) problem('manifest.json lists no exports', {})
  const listed: ListedExport[] = []
  ;(Array.isArray(exports) ? exports : []).forEach((e: unknown, i) => {
    if (isListedExport(e)) listed.push(e)
    else problem(`manifest.json exports[${i}] is not an export (an object with a path, bytes, rows and sha256)`, { entry: i })
  })
  const present = new Map(files.map((f) => [f.name, f]))
  for (const e of listed) {
    const f = present.get(e.path)
    if (!f) {
      problem(`${e.path} is listed in manifest.json but missing`, { path: e.path })
      continue
    }
    if (f.bytes !== e.bytes) problem(`${e.path} has ${f.bytes} bytes, manifest.json says ${e.bytes}`, { path: e.path, bytes: f.bytes, expected: e.bytes })
    else if ((await f.sha256()) !== e.sha256) problem(`${e.path} does not match its sha256 in manifest.json`, { path: e.path })
    const rows = rowsOf.get(e.path)
    if (rows !== undefined && rows !== e.rows) problem(`${e.path} has ${rows} rows, manifest.json says ${e.rows}`, { path: e.path, rows, expected: e.rows })
  }
  const names = new Set(listed.map((e) => e.path))
  for (const f of files) if (!names.has(f.name) && EXPORT_FILE.test(f.name) && !NOT_EXPORTS.has(f.name)) problem(`${f.name} is in the folder but not listed in manifest.json`, { path: f.name })
  return makeReport({ file: path, kind: 'manifest', table: 'manifest', rows: listed.length }, out)
}
