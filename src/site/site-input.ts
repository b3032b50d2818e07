import type { Report } from '../core/report.js'
import type { RuleRow } from '../core/types.js'
import type { RuleLink } from '../history/rule-links.js'

/** Where a rule stands: its chapter and section, with their titles (a rules_meta row). */
export interface RulePlace {
  chapter: string
  chapter_title: string
  section: string
  section_title: string
}

export interface GlossaryEntry {
  term: string
  definition: string
  see: string[]
  obsolete: boolean
}

/** One release as a dataset folder holds it. */
export interface SiteRelease {
  effective: string
  sourceFile: string
  sha256: string
  rules: RuleRow[]
  places: Map<string, RulePlace>
  glossary: GlossaryEntry[]
  /** The release's validation report (report.json). */
  report: Report
}

/** A row of rules_history. */
export interface HistoryRow extends RuleRow {
  release: string
  rule_id: string
  previous_number: string | null
  change: string
}

export type { RuleLink }

/** What the site is made from: a release, and from a history folder also every release's rows. */
export interface SiteInput {
  release: SiteRelease
  history?: HistoryRow[]
  /** The history's splits and merges (rule_links but its `continues` rows). */
  links?: RuleLink[]
  /** The client-side search library's script (minisearch's browser build), shipped in the site. */
  searchLibrary: string
}

/** A file of the site: its path relative to the site's root, and its bytes. */
export interface SiteFile {
  path: string
  bytes: Uint8Array
}
