import { toYaml } from './yaml-emit.js'
import type { Manifest } from './manifest.js'
import type { Report } from '../core/report.js'
import type { ColumnSpec, TableRow, TableSpec } from '../core/tables.js'
import { RULE_LINKS_TABLE } from '../core/tables.js'
import { plural } from '../core/words.js'

const HF_DTYPE: Record<ColumnSpec['type'], string> = { string: 'string', int64: 'int64', double: 'float64', bool: 'bool', 'list<string>': 'string' }

function features(table: TableSpec) {
  return table.columns.map((c) => (c.type === 'list<string>' ? { name: c.name, sequence: 'string' } : { name: c.name, dtype: HF_DTYPE[c.type] }))
}

const sizeCategory = (n: number) => (n < 1000 ? 'n<1K' : n < 10000 ? '1K<n<10K' : n < 100000 ? '10K<n<100K' : n < 1_000_000 ? '100K<n<1M' : '1M<n<10M')

const utf8Length = (s: string) => Buffer.byteLength(s, 'utf8')

/**
 * The table's size in memory as Arrow holds it (what `datasets` reports as num_bytes): string data
 * plus 4-byte offsets, 8 bytes per int64, a bit per bool, list offsets, and validity bitmaps of
 * nullable columns.
 */
export function inMemoryBytes(table: TableSpec, rows: TableRow[]): number {
  let bytes = 0
  const bitmap = Math.ceil(rows.length / 8)
  for (const c of table.columns) {
    if (c.nullable) bytes += bitmap
    if (c.type === 'int64' || c.type === 'double') bytes += 8 * rows.length
    else if (c.type === 'bool') bytes += bitmap
    else if (c.type === 'string') {
      bytes += 4 * (rows.length + 1)
      for (const r of rows) bytes += typeof r[c.name] === 'string' ? utf8Length(r[c.name] as string) : 0
    } else {
      bytes += 4 * (rows.length + 1)
      let elements = 0
      for (const r of rows) {
        const list = (r[c.name] as string[] | null) ?? []
        elements += list.length
        for (const e of list) bytes += utf8Length(e)
      }
      bytes += 4 * (elements + 1)
    }
  }
  return bytes
}

// DuckDB's read_csv types for each table's CSV: auto-detection would read rules_meta.parent `702.10` as the number 702.1.
const DUCKDB_TYPE: Record<ColumnSpec['type'], string> = { string: 'VARCHAR', int64: 'BIGINT', double: 'DOUBLE', bool: 'BOOLEAN', 'list<string>': 'VARCHAR' }
const csvColumns = (t: TableSpec) => `{${t.columns.map((c) => `'${c.name}': '${DUCKDB_TYPE[c.type]}'`).join(', ')}}`

const CITATION = `@misc{mtg_comprehensive_rules_dataset,
  title        = {Magic: The Gathering Comprehensive Rules, as a dataset},
  author       = {{Wizards of the Coast} and {mtg-rules-etl contributors}},
  howpublished = {Built with mtg-rules-etl from the published Comprehensive Rules text},
  note         = {Rules text (c) Wizards of the Coast LLC; unofficial Fan Content}
}`

/**
 * A Hugging Face dataset card (README.md): YAML header with features, splits and one config per
 * table (named as the table; rules is the default), then what the data is, how to load it, where it
 * came from and how it was checked.
 */
export function renderDatasetCard(tables: { spec: TableSpec; rows: TableRow[] }[], manifest: Manifest, report: Report): string {
  const parquetOf = (t: TableSpec) => manifest.exports.find((e) => e.table === t.name && e.format === 'parquet')!
  const header = cardHeader(
    `Magic: The Gathering Comprehensive Rules (${manifest.source.effectiveDate ?? 'undated'})`,
    [],
    manifest.counts.rules,
    tables.map(({ spec, rows }) => {
      const file = parquetOf(spec)
      return { spec, inMemoryBytes: inMemoryBytes(spec, rows), parquet: file, rows: file.rows }
    }),
  )
  const c = manifest.counts
  const v = report.counts
  const codes = Object.entries(v.byCode).map(([code, n]) => `${n} ${code}`).join(', ')
  const body = [
    `# ${header.pretty_name}`,
    '',
    `Every numbered rule and subrule of the *Magic: The Gathering Comprehensive Rules* effective ${manifest.source.effectiveDate ?? '(no date in the text)'}, one row each, in document order, with the glossary, where each rule sits, and which rules cite which.`,
    '',
    '| table | rows | what |',
    '|---|---:|---|',
    `| \`rules\` (default) | ${c.rules} | \`number\`, \`text\`, \`examples\` (list of the rule's Example: lines), \`index\` (document order) |`,
    `| \`glossary\` | ${c.glossary} | \`term\`, \`definition\`, \`index\`, \`see\` (cited rules), \`obsolete\` |`,
    `| \`rules_meta\` | ${c.rules} | chapter, section and their titles, \`parent\` rule, \`depth\`, source \`line\` |`,
    `| \`references\` | ${c.references} | one row per citation: \`source\`, \`target\`, \`kind\`, \`resolved\`, \`span\`, \`location\` (\`text\`, \`example N\` or \`definition\`: where it stands) |`,
    '',
    '## Source',
    '',
    `- File: \`${manifest.source.file}\` (${manifest.source.bytes} bytes, ${manifest.source.encoding}${manifest.source.bom ? ' with BOM' : ''}, ${manifest.source.lineEndings} line endings)`,
    `- sha256: \`${manifest.source.sha256}\``,
    `- Built by ${manifest.tool.name} ${manifest.tool.version}; the same source always gives the same bytes.`,
    '',
    '## How the rows were made',
    '',
    '- The rules body is read between the chapter headings after the Contents and the Glossary; section headers are not rows; title-only rules (e.g. `702.81. Retrace`) are.',
    '- `text` is as published (Unicode quotes and dashes kept), NFC, trimmed; continuation paragraphs are joined with `\\n`.',
    '- `examples` holds the `Example:` lines under a rule, prefix removed, in order. Rows are in CR order (100.1, 100.1a, …, 100.2), never sorted as strings, and every number occurs once.',
    '- Typos in the source numbering (such as `119.1d.` or `901.4.All`) are normalized and reported, never silently.',
    '',
    '## How to load',
    '',
    'With Hugging Face `datasets` (from the Hub, or this folder on disk):',
    '',
    '```python',
    'from datasets import load_dataset',
    'rules = load_dataset("path/or/hub-id", "rules", split="train")       # the default config',
    'glossary = load_dataset("path/or/hub-id", "glossary", split="train")',
    '```',
    '',
    ...pandasSection(tables.map((t) => t.spec)),
    'With DuckDB (Parquet and JSONL carry their types; CSV does not, so give them):',
    '',
    '```sql',
    "SELECT number, text FROM 'rules.parquet' WHERE number LIKE '704.5%' ORDER BY index;",
    ...tables.map(({ spec }) => `SELECT * FROM read_csv('${spec.name}.csv', header = true, columns = ${csvColumns(spec)});`),
    '```',
    '',
    'In CSV, lists are JSON arrays in one field (`from_json(examples, \'["VARCHAR"]\')` in DuckDB, `json.loads` in Python).',
    '',
    '## Validation',
    '',
    `${report.valid ? 'Valid' : 'INVALID'}: ${v.errors} ${plural(v.errors, 'error')}, ${v.warnings} ${plural(v.warnings, 'warning')}${codes ? ` (${codes})` : ''}. ${c.unresolvedReferences} ${plural(c.unresolvedReferences, 'citation points', 'citations point')} to a rule that does not exist in this release. The full report is \`report.json\`.`,
    '',
    '## Licence',
    '',
    'The Comprehensive Rules text is © Wizards of the Coast LLC and is included here as published, under the Wizards of the Coast Fan Content Policy; this dataset is unofficial and not approved or endorsed by Wizards. Magic: The Gathering is a trademark of Wizards of the Coast LLC. The tooling that builds it (mtg-rules-etl) is MIT-licensed.',
    '',
    '## Citation',
    '',
    '```bibtex',
    CITATION,
    '```',
  ]
  return `---\n${toYaml(header)}---\n\n${body.join('\n')}\n`
}

const PANDAS_DTYPE: Record<ColumnSpec['type'], string> = { string: 'string', int64: 'Int64', double: 'float64', bool: 'boolean', 'list<string>': 'object' }

/**
 * How to read the tables with pandas, typed: Parquet carries its types; CSV does not, and read
 * untyped a column such as rules_meta's `parent` becomes a float (702.10a and 702.100a would both
 * get parent 702.1). Lists are JSON in one CSV field; a null is an empty field.
 */
function pandasSection(specs: TableSpec[]): string[] {
  const read = (spec: TableSpec) => {
    const dtype = spec.columns.filter((c) => c.type !== 'list<string>').map((c) => `"${c.name}": "${PANDAS_DTYPE[c.type]}"`)
    const lists = spec.columns.filter((c) => c.type === 'list<string>').map((c) => `"${c.name}": json.loads`)
    const nulls = spec.columns.filter((c) => c.nullable).map((c) => `"${c.name}": [""]`)
    return `${spec.name} = pd.read_csv("${spec.name}.csv", dtype={${dtype.join(', ')}}${lists.length > 0 ? `, converters={${lists.join(', ')}}` : ''}, keep_default_na=False, na_values={${nulls.join(', ')}})`
  }
  return [
    `With pandas (Parquet carries its types; CSV and JSONL do not: untyped, a rule number such as \`702.10\` becomes the float 702.1. Give CSV the types below, and read JSONL as written: \`pd.read_json("${specs[0]!.name}.jsonl", lines=True, dtype=False)\`):`,
    '',
    '```python',
    'import json',
    'import pandas as pd',
    ...specs.map((spec) => `${spec.name} = pd.read_parquet("${spec.name}.parquet")`),
    ...specs.map(read),
    '```',
    '',
    'In JavaScript, hyparquet reads the Parquet files (GZIP) when given `compressors` from hyparquet-compressors.',
    '',
  ]
}

/** One config of a card: a table, its size in memory, its Parquet file and rows. */
interface CardConfig {
  spec: TableSpec
  inMemoryBytes: number
  parquet: { path: string; bytes: number }
  rows: number
}

/** The YAML header every dataset card has (the first config is the default). */
function cardHeader(prettyName: string, extraTags: string[], rows: number, configs: CardConfig[]) {
  return {
    pretty_name: prettyName,
    language: ['en'],
    license: 'other',
    license_name: 'wizards-of-the-coast-fan-content',
    license_link: 'https://company.wizards.com/en/legal/fancontentpolicy',
    task_categories: ['text-retrieval', 'question-answering', 'text-generation'],
    tags: ['magic-the-gathering', 'rules', 'game-rules', 'tabular', ...extraTags],
    size_categories: [sizeCategory(rows)],
    source_datasets: ['original'],
    dataset_info: configs.map((c) => ({
      config_name: c.spec.name,
      features: features(c.spec),
      splits: [{ name: 'train', num_bytes: c.inMemoryBytes, num_examples: c.rows }],
      download_size: c.parquet.bytes,
      dataset_size: c.inMemoryBytes,
    })),
    configs: configs.map((c, i) => ({
      config_name: c.spec.name,
      ...(i === 0 ? { default: true } : {}),
      data_files: [{ split: 'train', path: c.parquet.path }],
    })),
  }
}

/** The history folder's dataset card: the rules_history config, the releases it holds, how lineage is made. */
export function renderHistoryCard(
  table: TableSpec,
  size: { rows: number; inMemoryBytes: number },
  parquet: { path: string; bytes: number },
  releases: { release: string; file: string; rules: number }[],
  links?: { rows: number; inMemoryBytes: number; parquet: { path: string; bytes: number } },
  incomplete: string[] = [],
): string {
  const header = cardHeader('Magic: The Gathering Comprehensive Rules, every release, with rule lineage', ['time-series'], size.rows, [
    { spec: table, inMemoryBytes: size.inMemoryBytes, parquet, rows: size.rows },
    ...(links ? [{ spec: RULE_LINKS_TABLE, ...links }] : []),
  ])
  const body = [
    `# ${header.pretty_name}`,
    '',
    `${size.rows} rows: every numbered rule of ${releases.length} releases of the Comprehensive Rules (${releases[0]?.release ?? '—'} to ${releases.at(-1)?.release ?? '—'}), oldest first, one row per rule per release.`,
    '',
    '| column | what |',
    '|---|---|',
    '| `release` | effective date of the release (`YYYY-MM-DD`) |',
    '| `number`, `text`, `examples`, `index` | the rule as in that release’s `rules` table |',
    '| `rule_id` | `<first release>:<first number>`: the same while the rule stays unchanged, edited or moved (renumbered) from release to release; a release that gives one number to two rules gives the second `<release>:<number>~<row>` (its row within that release, from 0) |',
    '| `previous_number` | its number in the previous release (null when added) |',
    '| `change` | since the previous release: `unchanged` (the same number and text); `typography` (the same number, only quotes, dashes, white space, `_italic_` marks or `(TM)`/`(R)` changed, and the `?` the ASCII texts of 2001–2009 wrote for quotes and dashes); `edited` (the same number, other words); `moved` (another number, the same or nearly the same text; or its text reworded at the same place: when its old number now holds another rule, under the rule its parent became, at its number in its renumbered section, or right after the row its predecessor became); `added` (no predecessor) |',
    '',
    ...(links
      ? [
          `\`rule_links\` (${links.rows} rows) links rules of consecutive releases, so that a rule can have several predecessors and several successors: \`release\`, \`number\`, \`previous_release\`, \`previous_number\`, \`relation\` (\`continues\`: the main link, the one \`previous_number\` gives; \`split-from\`: a new rule whose words nearly all come from a longer previous rule of its section; \`merged-from\`: a rule that ended, whose words nearly all stand in a longer rule of its section), \`similarity\` (0–1: word similarity for \`continues\`, the share of the smaller text the larger holds, words weighted by rarity, otherwise).`,
          '',
        ]
      : []),
    'Lineage comes from `mtg-rules diff` between consecutive releases (one matcher for both): rows are matched by number and text, then the same text under another number, then text whose citations were renumbered, then near matches within the section the old one became (a subrule only under the rule its parent became, the rule rewritten in its parent’s place, or a sibling raised to a rule), then nearly the same text in any other section (also with each word weighted by its rarity, so that templated sentences of two keywords are never linked; a long text may lose more of its rare words, as the 2009 rewrite renamed terms throughout), then a text reworded at the same place (at least 0.6 of its words: under the rule its parent became, at its number in its renumbered section, or right after the row its predecessor became), then a long text that kept three quarters of its words anywhere. A removed rule is one that no row of the next release continues.',
    '',
    '`lineage-index.json` says where each row of `rules_history.jsonl` is (its byte length), with its release, number and `rule_id`, and where the `split-from` and `merged-from` rows of `rule_links.jsonl` are: `mtg-rules lineage` reads the lines of one rule through it (and the whole table when the index does not match the files).',
    '',
    ...(incomplete.length > 0 ? ['## Incomplete lineage', '', 'The matcher stopped at its bound of work (a crafted or damaged text) between these releases:', '', ...incomplete.map((line) => `- ${line}`), ''] : []),
    '## Releases',
    '',
    '| release | file | rules |',
    '|---|---|---:|',
    ...releases.map((r) => `| ${r.release} | ${r.file} | ${r.rules} |`),
    '',
    '## How to load',
    '',
    '```python',
    'from datasets import load_dataset',
    'history = load_dataset("path/or/hub-id", "rules_history", split="train")',
    '```',
    '',
    ...pandasSection(links ? [table, RULE_LINKS_TABLE] : [table]),
    '```sql',
    "-- what rule 702.19b said in every release, by its lineage",
    "SELECT release, number, change, text FROM 'rules_history.parquet'",
    "WHERE rule_id = (SELECT rule_id FROM 'rules_history.parquet' WHERE number = '702.19b' ORDER BY release DESC LIMIT 1) ORDER BY release;",
    '```',
    '',
    '## Licence',
    '',
    'The Comprehensive Rules text is © Wizards of the Coast LLC, included as published under the Wizards of the Coast Fan Content Policy; unofficial, not approved or endorsed by Wizards. The tooling (mtg-rules-etl) is MIT-licensed.',
  ]
  return `---\n${toYaml(header)}---\n\n${body.join('\n')}\n`
}
