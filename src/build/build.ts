import { requireNamedBytes } from '../core/errors.js'
import { renderDatasetCard } from '../exports/card.js'
import { checkDocument, checkInputOf } from '../checks/run-checks.js'
import { collectReferences, type CheckRow } from '../checks/index.js'
import type { Reference } from '../core/citations.js'
import { glossaryRows, referenceRows, rulesMetaRows } from './companions.js'
import { makeManifest, type ExportFormat, type Manifest } from '../exports/manifest.js'
import { normalizeRules } from '../text/normalize.js'
import { parseDocument } from '../text/parse.js'
import { decode, splitLines } from '../text/decode.js'
import { makeReport, type Report } from '../core/report.js'
import { GLOSSARY_TABLE, REFERENCES_TABLE, RULES_META_TABLE, RULES_TABLE, type TableRow, type TableSpec } from '../core/tables.js'
import type { CrDocument, DecodedText, RuleRow } from '../core/types.js'
import { TOOL } from '../core/version.js'
import { writeCsv } from '../exports/csv-write.js'
import { writeJsonl } from '../exports/jsonl-write.js'
import { writeParquet } from '../exports/parquet-write.js'

/** A file a build wants written: a name inside the output folder and its bytes. */
export interface OutputFile {
  name: string
  bytes: Uint8Array
}

/** Writes a table in a format the core does not load itself (Arrow IPC). */
export type TableWriter = (table: TableSpec, rows: TableRow[]) => Uint8Array

export interface BuildOptions {
  /** Count warnings as errors (default false). */
  strict?: boolean
  /** Also write every table as Arrow IPC (`<table>.arrow`) with this writer (default: no Arrow files). */
  arrow?: TableWriter
  /** Called as each stage ends, with its name (`make bench` times a cold build stage by stage). */
  mark?: (stage: string) => void
  /**
   * Make the files only when the report is valid (else `files` is empty and the manifest lists no
   * export): for a caller that writes nothing from a failed build.
   */
  onlyIfValid?: boolean
}

export interface BuildResult {
  decoded: DecodedText
  document: CrDocument
  rows: RuleRow[]
  tables: { spec: TableSpec; rows: TableRow[] }[]
  report: Report
  manifest: Manifest
  /** Exports, report.json, the dataset card README.md and manifest.json, manifest last. */
  files: OutputFile[]
}

const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value, null, 2) + '\n')

/**
 * The whole pipeline in memory: read → parse → normalize → check → emit. Pure: the caller
 * supplies the bytes and writes the files. Throws EtlError only for unusable input.
 */
export function buildDataset(sourceName: string, bytes: Uint8Array, options: BuildOptions = {}): BuildResult {
  requireNamedBytes('buildDataset', sourceName, bytes)
  const mark = options.mark ?? (() => {})
  const decoded = decode(bytes, sourceName)
  mark('read: decode')
  const lines = splitLines(decoded.text)
  const document = parseDocument(lines, sourceName)
  mark('parse')
  const located = normalizeRules(document.rules)
  const rows = located.map((r) => r.row)
  mark('normalize')
  const input = checkInputOf(document, located)
  const citations = new Map<CheckRow, Reference[]>()
  const references = collectReferences(input, citations)
  const { diagnostics, coverage } = checkDocument(lines, document, located, decoded, { ...input, citations })
  const report = makeReport({ file: sourceName, kind: 'cr-text', table: 'rules', rows: rows.length }, diagnostics, options.strict ?? false)
  mark('check (coverage included)')

  const tables = [
    { spec: RULES_TABLE, rows: rows as unknown as TableRow[] },
    { spec: GLOSSARY_TABLE, rows: glossaryRows(document.glossary) },
    { spec: RULES_META_TABLE, rows: rulesMetaRows(document, located) },
    { spec: REFERENCES_TABLE, rows: referenceRows(references) },
  ]
  mark('companion tables')
  const createdBy = `${TOOL.name} version ${TOOL.version}`
  const exports: { path: string; table: string; format: ExportFormat; bytes: Uint8Array; rows: number }[] = []
  const makeFiles = report.valid || !options.onlyIfValid
  for (const { spec, rows: tableRows } of makeFiles ? tables : []) {
    const add = (format: ExportFormat, out: Uint8Array) => exports.push({ path: `${spec.name}.${format}`, table: spec.name, format, bytes: out, rows: tableRows.length })
    add('parquet', writeParquet(spec, tableRows, createdBy))
    mark(`write ${spec.name}.parquet`)
    add('jsonl', writeJsonl(spec, tableRows))
    mark(`write ${spec.name}.jsonl`)
    add('csv', writeCsv(spec, tableRows))
    mark(`write ${spec.name}.csv`)
    if (options.arrow) add('arrow', options.arrow(spec, tableRows))
  }

  const reportFile = { name: 'report.json', bytes: json(report) }
  const manifest = makeManifest({
    tool: TOOL,
    sourceName,
    sourceBytes: bytes,
    decoded,
    effectiveDate: document.effectiveDate,
    counts: {
      rules: rows.length,
      examples: rows.reduce((n, r) => n + r.examples.length, 0),
      glossary: document.glossary.length,
      references: references.length,
      unresolvedReferences: references.filter((r) => !r.resolved).length,
      bodyWords: coverage.bodyWords,
      wordsKept: coverage.wordsKept,
    },
    validation: { valid: report.valid, errors: report.counts.errors, warnings: report.counts.warnings, report: reportFile.name },
    exports,
  })
  mark('manifest (sha256 of every export)')
  if (!makeFiles) return { decoded, document, rows, tables, report, manifest, files: [] }
  const card = { name: 'README.md', bytes: new TextEncoder().encode(renderDatasetCard(tables, manifest, report)) }
  mark('dataset card')
  const files = [...exports.map((e) => ({ name: e.path, bytes: e.bytes })), reportFile, card, { name: 'manifest.json', bytes: json(manifest) }]
  return { decoded, document, rows, tables, report, manifest, files }
}
