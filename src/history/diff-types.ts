import type { RuleRow } from '../core/types.js'
import type { ExampleChange, WordChange } from './row-keys.js'

export type { ExampleChange, WordChange } from './row-keys.js'

/** One release's rules, as the diff sees them. */
export interface DiffSide {
  label: string
  rows: RuleRow[]
  /** Section titles by number ("100" → "General"), when the side is CR text. */
  sectionTitles: Map<string, string>
  /** The glossary's terms and definitions, when the side is CR text or a dataset folder (the changelog compares them). */
  glossary?: { term: string; definition: string; obsolete?: boolean }[]
  /** What the side holds: the rules (default), or only a glossary (a glossary export). */
  table?: 'rules' | 'glossary'
}


export interface EditedRule {
  number: string
  /** Positions of the rule in OLD and NEW (0-based row order). */
  oldIndex: number
  newIndex: number
  text: WordChange[] | null
  examples: ExampleChange[] | null
  /** The text differs only because the numbers it cites were renumbered. */
  referencesRenumbered: boolean
}

export interface MovedRule {
  from: string
  to: string
  oldIndex: number
  newIndex: number
  /** Word similarity of the texts, 0..1 (1: the same words). */
  similarity: number
  text: WordChange[] | null
  examples: ExampleChange[] | null
  referencesRenumbered: boolean
  /** The text differs only in quotes, dashes or white space. */
  typographyOnly: boolean
}

export interface TypographyChange {
  number: string
  oldIndex: number
  newIndex: number
}

/** What became of each row: positions on both sides, so duplicates of a number are told apart. */
export type RowChange = 'unchanged' | 'typography' | 'edited' | 'moved'

export interface ReleaseDiff {
  old: string
  new: string
  /** unchanged + typography + edited + moved + added = new; … + removed = old. */
  counts: { old: number; new: number; unchanged: number; typography: number; edited: number; added: number; removed: number; moved: number }
  /** Duplicate numbers on either side (they are matched by position and text); the matcher's or the word-level changes' bound reached. */
  warnings: string[]
  added: RuleRow[]
  removed: RuleRow[]
  edited: EditedRule[]
  typography: TypographyChange[]
  moved: MovedRule[]
  /** For each NEW row (by position): the OLD position it comes from and how, or null when added. */
  lineage: ({ old: number; change: RowChange; similarity: number } | null)[]
}

export interface DiffOptions {
  /** Below this similarity, a rule under the same number is a replacement, not an edit (default 0.5). */
  editThreshold?: number
  /** From this similarity up, a removed and an added rule are one moved rule (default 0.8). */
  moveThreshold?: number
  /** Word-level changes of edited and moved rules (default true); history needs only the lineage. */
  wordChanges?: boolean
  /** The words the matcher's pair tests may compare (default MATCH_WORK): past it, the rows left free stay added and removed, with a warning. */
  matchWork?: number
  /** The characters × edits the word-level changes may cost together (default WORD_DIFF_WORK): past it, a change is given whole, with a warning. */
  wordWork?: number
}
