import { toYaml } from './yaml-emit.js'
import type { TableSpec } from '../core/tables.js'

/** The history folder's dataset card: the rules_history config, the releases it holds, how lineage is made. */
export function renderHistoryCard(table: TableSpec, size: { rows: number; inMemoryBytes: number }, parquet: { path: string; bytes: number }, releases: { release: string; file: string; rules: number }[]): string {
  const header = {
    pretty_name: 'Magic: The Gathering Comprehensive Rules, every release, with rule lineage',
    language: ['en'],
    license: 'other',
    license_name: 'wizards-of-the-coast-fan-content',
    license_link: 'https://company.wizards.com/en/legal/fancontentpolicy',
    task_categories: ['text-retrieval', 'question-answering', 'text-generation'],
    tags: ['magic-the-gathering', 'rules', 'game-rules', 'tabular', 'time-series'],
    source_datasets: ['original'],
    dataset_info: [
      {
        config_name: table.name,
        features: table.columns.map((c) => (c.type === 'list<string>' ? { name: c.name, sequence: 'string' } : { name: c.name, dtype: c.type === 'int64' ? 'int64' : c.type === 'bool' ? 'bool' : 'string' })),
        splits: [{ name: 'train', num_bytes: size.inMemoryBytes, num_examples: size.rows }],
        download_size: parquet.bytes,
        dataset_size: size.inMemoryBytes,
      },
    ],
    configs: [{ config_name: table.name, default: true, data_files: [{ split: 'train', path: parquet.path }] }],
  }
  const body = [
    `# ${header.pretty_name}`,
    '',
    `${size.rows} rows: every numbered rule of ${releases.length} releases of the Comprehensive Rules (${releases[0]?.release ?? '—'} to ${releases.at(-1)?.release ?? '—'}), oldest first, one row per rule per release.`,
    '',
    '| column | what |',
    '|---|---|',
    '| `release` | effective date of the release (`YYYY-MM-DD`) |',
    '| `number`, `text`, `examples`, `index` | the rule as in that release’s `rules` table |',
    '| `rule_id` | `<first release>:<first number>`: the same while the rule stays unchanged, edited or moved (renumbered) from release to release |',
    '| `previous_number` | its number in the previous release (null when added) |',
    '| `change` | `added`, `edited`, `moved`, `unchanged` or `typography` (only quotes, dashes or spaces changed) since the previous release |',
    '',
    'Lineage comes from `mtg-rules diff` between consecutive releases: rows are matched by number and text, then the same text under another number, then text whose citations were renumbered, then near matches within the section the old one became (a subrule only under the rule its parent became).',
    '',
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
