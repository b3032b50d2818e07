import { existsSync, lstatSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { EtlError } from '../core/errors.js'
import { safeText } from '../core/report-format.js'
import { isWithin, realPath as real } from './files.js'

// Which entries of an existing output folder this tool may replace: what it can prove it wrote.

/** Which entries of an existing output folder this tool may replace. */
export type Ownership = (name: string, isDirectory: boolean) => boolean

/**
 * The file every output folder holds: the tool's name and the entries it wrote, sorted (no time, so
 * the same run gives the same bytes). A folder without it was not written by this tool, or by a
 * version before it: its entries are never removed unless `--force`.
 */
export const MARKER = '.mtg-rules-etl.json'
const TOOL_NAME = 'mtg-rules-etl'

export const markerOf = (entries: string[]) => JSON.stringify({ tool: TOOL_NAME, entries }, null, 2) + '\n'

/** A small JSON file of the folder, read only when it is a regular file (never through a link). */
function ownJson(folder: string, name: string): Record<string, unknown> | null {
  const path = join(folder, name)
  try {
    const st = lstatSync(path)
    if (!st.isFile() || st.size > 1024 * 1024) return null
    const value: unknown = JSON.parse(readFileSync(path, 'utf8'))
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null
  } catch {
    return null
  }
}

/**
 * The entries of an existing folder this tool can prove it wrote: those its marker lists, or, in a
 * dataset folder of a version that wrote no marker, those its manifest lists (with the manifest, the
 * card and the report). Null: no proof at all.
 */
function provablyOurs(target: string): Set<string> | null {
  const marker = ownJson(target, MARKER)
  if (marker?.tool === TOOL_NAME && Array.isArray(marker.entries)) return new Set(marker.entries.filter((e): e is string => typeof e === 'string'))
  const manifest = ownJson(target, 'manifest.json')
  const tool = manifest?.tool as { name?: unknown } | undefined
  if (tool?.name !== TOOL_NAME || !Array.isArray(manifest!.exports) || !manifest!.source) return null
  const listed = (manifest!.exports as unknown[]).map((e) => (e as { path?: unknown } | null)?.path).filter((p): p is string => typeof p === 'string')
  return new Set([...listed, 'manifest.json', 'README.md', 'report.json'])
}

export function refuseForeign(target: string, owned: Ownership, force: boolean) {
  if (!existsSync(target)) return
  if (!statSync(target).isDirectory()) throw new EtlError('OUTPUT_NOT_OURS', `write: ${target} exists and is not a folder`)
  if (force) return
  const entries = readdirSync(target, { withFileTypes: true }).filter((e) => e.name !== MARKER)
  if (entries.length === 0) return
  const ours = provablyOurs(target)
  // Listed by the proof, or (in a folder proved ours) a file the tool's commands add to it.
  const foreign = entries.filter((e) => ours === null || !(ours.has(e.name) || (!e.isDirectory() && owned(e.name, false)))).map((e) => e.name)
  if (foreign.length > 0) {
    const shown = foreign.slice(0, 3).join(', ') + (foreign.length > 3 ? `, … ${foreign.length - 3} more` : '')
    const why = ours === null ? 'it holds no sign that this tool wrote it' : 'this tool did not write them'
    throw new EtlError('OUTPUT_NOT_OURS', `write: ${target} holds files this tool cannot replace (${shown}): ${why}; choose an empty folder, or pass --force to replace it whole`)
  }
}


// A run's own input is never in its output folder: replacing the folder (with --force) would delete it.
export function refuseInputs(target: string, inputs: readonly string[], output = 'output folder') {
  const folder = real(target)
  const inside = inputs.find((input) => isWithin(folder, real(input)))
  if (inside === undefined) return
  const what = real(inside) === folder ? 'is' : `holds ${safeText(inside)},`
  throw new EtlError('OUTPUT_NOT_OURS', `write: ${safeText(target)} ${what} what this run reads; choose another ${output}`)
}

// The folder a run starts in, or one above it, is never an output folder: `--out .` would replace the repository.
export function refuseHomeOfTheRun(target: string) {
  if (isWithin(target, resolve('.'))) {
    throw new EtlError('OUTPUT_NOT_OURS', `write: ${target} holds the current folder; choose an output folder of its own (such as out)`)
  }
  if (existsSync(join(target, '.git'))) throw new EtlError('OUTPUT_NOT_OURS', `write: ${target} is a git repository; choose an output folder of its own`)
}
