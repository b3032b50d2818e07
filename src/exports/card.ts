import { toYaml } from './yaml-emit.js'
import type { Manifest } from './manifest.js'
import type { Report } from '../core/report.js'
import type { ColumnSpec, TableRow, TableSpec } from '../core/tables.js'

const HF_DTYPE: Record<ColumnSpec['type'], string> = { string: 'string', int64: 'int64', bool: 'bool', 'list<string>': 'string' }

function features(table: TableSpec) {
  return table.columns.map((c) => (c.type === 'list<string>' ? { name: c.name, sequence: 'string' } : { name: c.name, dtype: HF_DTYPE[c.type] }))
}

const sizeCategory = (n: number) => (n < 1000 ? 'n<1K' : n < 10000 ? '1K<n<10K' : n < 100000 ? '10K<n<100K' : '100K<n<1M')

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
    if (c.type === 'int64') bytes += 8 * rows.length
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
const DUCKDB_TYPE: Record<ColumnSpec['type'], string> = { string: 'VARCHAR', int64: 'BIGINT', bool: 'BOOLEAN', 'list<string>': 'VARCHAR' }
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
  const header = {
    pretty_name: `Magic: The Gathering Comprehensive Rules (${manifest.source.effectiveDate ?? 'undated'})`,
    language: ['en'],
    license: 'other',
    license_name: 'wizards-of-the-coast-fan-content',
    license_link: 'https://company.wizards.com/en/legal/fancontentpolicy',
    task_categories: ['text-retrieval', 'question-answering', 'text-generation'],
    tags: ['magic-the-gathering', 'rules', 'game-rules', 'tabular'],
    size_categories: [sizeCategory(manifest.counts.rules)],
    source_datasets: ['original'],
    dataset_info: tables.map(({ spec, rows }) => {
      const file = parquetOf(spec)
      const inMemory = inMemoryBytes(spec, rows)
      return {
        config_name: spec.name,
        features: features(spec),
        splits: [{ name: 'train', num_bytes: inMemory, num_examples: file.rows }],
        download_size: file.bytes,
        dataset_size: inMemory,
      }
    }),
    configs: tables.map(({ spec }) => ({
      config_name: spec.name,
      ...(spec.name === 'rules' ? { default: true } : {}),
      data_files: [{ split: 'train', path: parquetOf(spec).path }],
    })),
  }
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
    `| \`references\` | ${c.references} | one row per citation: \`source\`, \`target\`, \`kind\`, \`resolved\`, \`span\` |`,
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
    'With pandas or pyarrow:',
    '',
    '```python',
    'import pandas as pd',
    'rules = pd.read_parquet("rules.parquet")   # number, text, examples (list of str), index (int64)',
    '```',
    '',
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
    `${report.valid ? 'Valid' : 'INVALID'}: ${v.errors} errors, ${v.warnings} warnings${codes ? ` (${codes})` : ''}. ${c.unresolvedReferences} citation${c.unresolvedReferences === 1 ? '' : 's'} point${c.unresolvedReferences === 1 ? 's' : ''} to a rule that does not exist in this release. The full report is \`report.json\`.`,
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
