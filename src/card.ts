import { stringify } from 'yaml'
import type { Manifest } from './manifest.js'
import type { Report } from './report.js'
import type { ColumnSpec, TableSpec } from './tables.js'

const HF_DTYPE: Record<ColumnSpec['type'], string> = { string: 'string', int64: 'int64', bool: 'bool', 'list<string>': 'string' }

function features(table: TableSpec) {
  return table.columns.map((c) => (c.type === 'list<string>' ? { name: c.name, sequence: 'string' } : { name: c.name, dtype: HF_DTYPE[c.type] }))
}

const sizeCategory = (n: number) => (n < 1000 ? 'n<1K' : n < 10000 ? '1K<n<10K' : n < 100000 ? '10K<n<100K' : '100K<n<1M')

/**
 * A Hugging Face dataset card (README.md): YAML header with features, splits and one config per
 * table (rules is the default), then what the data is, where it came from and how it was checked.
 */
export function renderDatasetCard(tables: TableSpec[], manifest: Manifest, report: Report): string {
  const parquetOf = (t: TableSpec) => manifest.exports.find((e) => e.table === t.name && e.format === 'parquet')!
  const header = {
    pretty_name: `Magic: The Gathering Comprehensive Rules (${manifest.source.effectiveDate ?? 'undated'})`,
    language: ['en'],
    license: 'other',
    license_name: 'wizards-of-the-coast-fan-content',
    license_link: 'https://company.wizards.com/en/legal/fancontentpolicy',
    tags: ['magic-the-gathering', 'rules', 'game-rules'],
    size_categories: [sizeCategory(manifest.counts.rules)],
    dataset_info: tables.map((t) => {
      const file = parquetOf(t)
      return {
        config_name: t.name === 'rules' ? 'default' : t.name,
        features: features(t),
        splits: [{ name: 'train', num_bytes: file.bytes, num_examples: file.rows }],
        download_size: file.bytes,
        dataset_size: file.bytes,
      }
    }),
    configs: tables.map((t) => ({
      config_name: t.name === 'rules' ? 'default' : t.name,
      ...(t.name === 'rules' ? { default: true } : {}),
      data_files: [{ split: 'train', path: parquetOf(t).path }],
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
    '## Validation',
    '',
    `${report.valid ? 'Valid' : 'INVALID'}: ${v.errors} errors, ${v.warnings} warnings${codes ? ` (${codes})` : ''}. ${c.unresolvedReferences} citation${c.unresolvedReferences === 1 ? '' : 's'} point${c.unresolvedReferences === 1 ? 's' : ''} to a rule that does not exist in this release. The full report is \`report.json\`.`,
    '',
    '## Licence',
    '',
    'The Comprehensive Rules text is © Wizards of the Coast LLC and is included here as published, under the Wizards of the Coast Fan Content Policy; this dataset is unofficial and not approved or endorsed by Wizards. Magic: The Gathering is a trademark of Wizards of the Coast LLC. The tooling that builds it (mtg-rules-etl) is MIT-licensed.',
  ]
  return `---\n${stringify(header, { lineWidth: 0 })}---\n\n${body.join('\n')}\n`
}
