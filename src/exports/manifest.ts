import { createHash } from 'node:crypto'
import type { DecodedText } from '../core/types.js'
import { lineEndingLabel } from '../text/decode.js'

export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

export type ExportFormat = 'parquet' | 'jsonl' | 'csv' | 'arrow'

export interface ExportEntry {
  path: string
  /** The table the file holds: rules, glossary, rules_meta or references. */
  table: string
  format: ExportFormat
  bytes: number
  rows: number
  sha256: string
}

/** What a build made, from what: no timestamps, so the same input gives the same bytes. */
export interface Manifest {
  tool: { name: string; version: string }
  source: {
    file: string
    bytes: number
    sha256: string
    encoding: string
    bom: boolean
    lineEndings: string
    lineEndingCounts: { crlf: number; cr: number; lf: number }
    effectiveDate: string | null
  }
  counts: { rules: number; examples: number; glossary: number; references: number; unresolvedReferences: number; bodyWords: number; wordsKept: number }
  validation: { valid: boolean; errors: number; warnings: number; report: string }
  exports: ExportEntry[]
}

export interface ManifestInput {
  tool: { name: string; version: string }
  sourceName: string
  sourceBytes: Uint8Array
  decoded: DecodedText
  effectiveDate: string | null
  counts: Manifest['counts']
  validation: Manifest['validation']
  exports: { path: string; table: string; format: ExportFormat; bytes: Uint8Array; rows: number }[]
}

export function makeManifest(input: ManifestInput): Manifest {
  return {
    tool: input.tool,
    source: {
      file: input.sourceName,
      bytes: input.sourceBytes.length,
      sha256: sha256(input.sourceBytes),
      encoding: input.decoded.encoding,
      bom: input.decoded.bom,
      lineEndings: lineEndingLabel(input.decoded.lineEndings),
      lineEndingCounts: input.decoded.lineEndings,
      effectiveDate: input.effectiveDate,
    },
    counts: input.counts,
    validation: input.validation,
    exports: input.exports.map((e) => ({ path: e.path, table: e.table, format: e.format, bytes: e.bytes.length, rows: e.rows, sha256: sha256(e.bytes) })),
  }
}
