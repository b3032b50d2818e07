import { checkDocument } from './check.js'
import { makeManifest, type Manifest } from './manifest.js'
import { normalizeRules } from './normalize.js'
import { parseDocument } from './parse.js'
import { decode, splitLines } from './read.js'
import { makeReport, type Report } from './report.js'
import type { CrDocument, DecodedText, RuleRow } from './types.js'
import { TOOL } from './version.js'
import { writeCsv } from './write-csv.js'
import { writeJsonl } from './write-jsonl.js'
import { writeParquet } from './write-parquet.js'

/** A file a build wants written: a name inside the output folder and its bytes. */
export interface OutputFile {
  name: string
  bytes: Uint8Array
}

export interface BuildOptions {
  /** Count warnings as errors (default false). */
  strict?: boolean
}

export interface BuildResult {
  decoded: DecodedText
  document: CrDocument
  rows: RuleRow[]
  report: Report
  manifest: Manifest
  /** Exports, report.json and manifest.json, manifest last. */
  files: OutputFile[]
}

const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value, null, 2) + '\n')

/**
 * The whole pipeline in memory: read → parse → normalize → check → emit. Pure: the caller
 * supplies the bytes and writes the files. Throws EtlError only for unusable input.
 */
export function buildDataset(sourceName: string, bytes: Uint8Array, options: BuildOptions = {}): BuildResult {
  const decoded = decode(bytes, sourceName)
  const document = parseDocument(splitLines(decoded.text), sourceName)
  const located = normalizeRules(document.rules)
  const rows = located.map((r) => r.row)
  const report = makeReport(sourceName, 'cr-text', rows.length, checkDocument(document, located), options.strict ?? false)

  const createdBy = `${TOOL.name} version ${TOOL.version}`
  const exports = [
    { path: 'rules.parquet', format: 'parquet' as const, bytes: writeParquet(rows, createdBy), rows: rows.length },
    { path: 'rules.jsonl', format: 'jsonl' as const, bytes: writeJsonl(rows), rows: rows.length },
    { path: 'rules.csv', format: 'csv' as const, bytes: writeCsv(rows), rows: rows.length },
  ]
  const reportFile = { name: 'report.json', bytes: json(report) }
  const manifest = makeManifest({
    tool: TOOL,
    sourceName,
    sourceBytes: bytes,
    decoded,
    effectiveDate: document.effectiveDate,
    counts: { rules: rows.length, examples: rows.reduce((n, r) => n + r.examples.length, 0), glossary: document.glossary.length },
    validation: { valid: report.valid, errors: report.counts.errors, warnings: report.counts.warnings, report: reportFile.name },
    exports,
  })
  const files = [...exports.map((e) => ({ name: e.path, bytes: e.bytes })), reportFile, { name: 'manifest.json', bytes: json(manifest) }]
  return { decoded, document, rows, report, manifest, files }
}
