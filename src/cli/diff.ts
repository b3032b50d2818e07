import { readFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { parseArgs } from 'node:util'
import { renderChangelog, renderGlossaryChangelog } from '../history/changelog.js'
import { glossaryChanges } from '../history/changelog-parts.js'
import { diffReleases, type DiffSide } from '../history/diff.js'
import { diffSideOf, diffSideOfFolder } from '../history/diff-input.js'
import { isIsoDate } from '../core/calendar.js'
import { EtlError } from '../core/errors.js'
import { safeText, terminalSafe } from '../core/report-format.js'
import { isFolder, MAX_EXPORT_BYTES, MAX_TEXT_BYTES, readInputFile, tableFile } from '../io/files.js'
import { refuseInputs } from '../io/output-ownership.js'
import { writeFilesAtomically } from '../io/release-files.js'
import { EXPORT_EXTENSIONS_SAID, sourceKindOf } from '../validate/validate-export.js'
import { ok, type CommandResult } from './_shared.js'

/** mtg-rules diff */
export async function run(args: string[]): Promise<CommandResult> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { json: { type: 'boolean', default: false }, out: { type: 'string' }, 'exit-code': { type: 'boolean', default: false } },
  })
  if (positionals.length !== 2) throw new EtlError('USAGE', `mtg-rules diff: expected OLD and NEW, got ${positionals.length} files`)
  const [oldGiven, newGiven] = positionals as [string, string]
  const [oldFiles, newFiles] = [filesOf(oldGiven), filesOf(newGiven)]
  // --out replaces its file whole: never one of the files this run reads.
  if (values.out !== undefined) refuseInputs(values.out, [...oldFiles, ...newFiles].filter((f) => f !== null), 'output file')
  const [oldSide, newSide] = [await sideOf(oldFiles), await sideOf(newFiles)]
  if ((oldSide.table === 'glossary') !== (newSide.table === 'glossary')) {
    const [glossary, rules] = oldSide.table === 'glossary' ? [oldGiven, newGiven] : [newGiven, oldGiven]
    throw new EtlError('USAGE', `mtg-rules diff: ${glossary} holds a glossary and ${rules} rules: compare a glossary with a glossary, rules with rules`)
  }
  if (oldSide.table === 'glossary') return glossaryDiff(oldSide, newSide, values)
  const result = diffReleases(oldSide, newSide)
  const text = values.json ? JSON.stringify(result, null, 2) + '\n' : renderChangelog(result, newSide, oldSide)
  const c = result.counts
  // --exit-code: 1 when the releases differ, as git diff --exit-code does.
  const exitCode = values['exit-code'] && (c.unchanged !== c.old || c.unchanged !== c.new) ? 1 : 0
  const warnings = result.warnings.map((w) => `diff: warning: ${w}\n`).join('')
  if (values.out === undefined) return ok(text, warnings, exitCode)
  // The file is an output too: no control character from the data in it either.
  await writeFilesAtomically(dirname(values.out), [{ name: basename(values.out), bytes: new TextEncoder().encode(terminalSafe(text)) }])
  return ok('', `${warnings}diff: wrote ${safeText(values.out)} (${c.edited} edited, ${c.typography} typography only, ${c.added} added, ${c.moved} moved, ${c.removed} removed)\n`, exitCode)
}

/** Two glossary exports: their terms added, removed and changed (JSON: the lists). */
async function glossaryDiff(oldSide: DiffSide, newSide: DiffSide, values: { json: boolean; out?: string; 'exit-code': boolean }): Promise<CommandResult> {
  const changes = glossaryChanges(oldSide, newSide)!
  const text = values.json ? JSON.stringify({ old: oldSide.label, new: newSide.label, ...changes }, null, 2) + '\n' : renderGlossaryChangelog(oldSide, newSide)
  const differ = changes.added.length + changes.removed.length + changes.changed.length > 0
  const exitCode = values['exit-code'] && differ ? 1 : 0
  const warnings = changes.warnings.map((w) => `diff: warning: ${w}\n`).join('')
  if (values.out === undefined) return ok(text, warnings, exitCode)
  await writeFilesAtomically(dirname(values.out), [{ name: basename(values.out), bytes: new TextEncoder().encode(terminalSafe(text)) }])
  return ok('', `${warnings}diff: wrote ${safeText(values.out)} (${changes.added.length} terms added, ${changes.removed.length} removed, ${changes.changed.length} changed)\n`, exitCode)
}

/**
 * What a side is read from: a file as given; of a dataset folder, its rules export (its manifest
 * then gives the release's date), rules_meta and glossary exports (null where it has none).
 */
function filesOf(given: string): [string] | [string, string | null, string | null] {
  if (!isFolder(given)) return [given]
  const file = tableFile(given, 'rules')
  if (file === null) throw new EtlError('USAGE', `mtg-rules diff: ${given} is a folder that holds no rules export (rules ending in ${EXPORT_EXTENSIONS_SAID}): give a CR text, a rules export or a dataset folder`)
  return [file, tableFile(given, 'rules_meta'), tableFile(given, 'glossary')]
}

async function sideOf([file, meta, glossary]: ReturnType<typeof filesOf>): Promise<DiffSide> {
  const read = async (f: string) => ({ name: f, bytes: await readInputFile(f, sourceKindOf(f) === 'cr-text' ? MAX_TEXT_BYTES : MAX_EXPORT_BYTES) })
  const rules = await read(file)
  if (meta === undefined) return diffSideOf(file, rules.bytes, releaseDateBeside(file))
  return diffSideOfFolder(rules, releaseDateBeside(file), meta === null ? null : await read(meta), glossary === null || glossary === undefined ? null : await read(glossary))
}

/** The effective date the manifest beside an export gives (a dataset folder of ours), if any. */
function releaseDateBeside(file: string): string | undefined {
  if (sourceKindOf(file) === 'cr-text') return undefined
  try {
    const manifest = JSON.parse(readFileSync(join(dirname(file), 'manifest.json'), 'utf8')) as { tool?: { name?: unknown }; source?: { effectiveDate?: unknown } }
    const date = manifest.tool?.name === 'mtg-rules-etl' ? manifest.source?.effectiveDate : undefined
    return typeof date === 'string' && isIsoDate(date) ? date : undefined
  } catch {
    return undefined
  }
}
