import { describe, expect, it } from 'vitest'
import { escapeHtml, html, raw } from '../src/site/html.js'
import { buildSite } from '../src/site/build-site.js'
import type { HistoryRow, SiteInput } from '../src/site/site-input.js'
import { WORD_DIFF_WORK } from '../src/history/row-keys.js'
import { lineages, releaseChanges } from '../src/site/history-pages.js'
import { glossaryLinks } from '../src/site/linked-text.js'

const hostile = '<script>alert("x")</script> & \'q\' "r" \u0001\u0007\u007f\u0085 rule 100.1'

describe('the site’s one escaping helper', () => {
  it('escapes every byte of text that HTML gives a meaning to, and shows control characters', () => {
    expect(escapeHtml(hostile)).toBe('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39; &quot;r&quot; \u2401\u2407\u2421\ufffd rule 100.1')
    expect(escapeHtml('tab\tand\nnewline')).toBe('tab\tand\nnewline')
    expect(html`<p title="${hostile}">${hostile}</p>`.value).toBe(`<p title="${escapeHtml(hostile)}">${escapeHtml(hostile)}</p>`)
    // Markup made by html (and lists of it) is kept; only raw() passes a string through.
    expect(html`<ul>${['a<', 'b'].map((x) => html`<li>${x}</li>`)}</ul>`.value).toBe('<ul><li>a&lt;</li><li>b</li></ul>')
    expect(html`${raw('<br>')}${'<br>'}`.value).toBe('<br>&lt;br&gt;')
  })

  it('no text of a dataset reaches a page unescaped: rule text, examples, glossary, source file name, diagnostics', () => {
    const input: SiteInput = {
      release: {
        effective: '2026-08-07',
        sourceFile: `Magic<script>.txt`,
        sha256: '"><script>',
        rules: [
          { number: '100.1', text: hostile, examples: [hostile], index: 0 },
          { number: '100.1a', text: `See rule 100.1 and rule 999.9. ${hostile}`, examples: [], index: 1 },
        ],
        places: new Map([
          ['100.1', { chapter: '1', chapter_title: 'Game <b>Concepts</b>', section: '100', section_title: 'General & more' }],
          ['100.1a', { chapter: '1', chapter_title: 'Game <b>Concepts</b>', section: '100', section_title: 'General & more' }],
        ]),
        glossary: [{ term: '<img src=x>', definition: hostile, see: [], obsolete: false }],
        report: {
          valid: true,
          strict: false,
          source: { file: 'x', kind: 'cr-text', table: 'rules', rows: 2 },
          notes: [],
          counts: { errors: 0, warnings: 1, byCode: { 'dangling-reference': 1 } },
          diagnostics: [{ code: 'dangling-reference', severity: 'warning', message: `100.1a cites 999.9 (“999.9”), which does not exist <script>`, number: '100.1a', params: { target: '999.9', span: '999.9' } }],
        } as unknown as SiteInput['release']['report'],
      },
      searchLibrary: '/* minisearch */',
    }
    const files = [...buildSite(input).files]
    const text = (path: string) => new TextDecoder().decode(files.find((f) => f.path === path)!.bytes)
    for (const f of files.filter((f) => f.path.endsWith('.html'))) {
      const page = new TextDecoder().decode(f.bytes)
      expect(page, f.path).not.toMatch(/<script>|<img|<b>|[\u0001\u0007\u007f\u0085]/)
      // Every <script> element the site writes loads a file of its own.
      expect([...page.matchAll(/<script[^>]*>/g)].every((m) => /^<script src="[^"]+">$/.test(m[0])), f.path).toBe(true)
    }
    const section = text('rules/100.html')
    expect(section).toContain('<a href="../rules/100.html#100.1">100.1</a>')
    expect(section).toContain('<span class="dangling" title="100.1a cites 999.9 (“999.9”), which does not exist &lt;script&gt;">999.9</span>')
    // The search index is a script: no text in it can close the element.
    expect(text('assets/search-index.js')).not.toContain('</script')
  })
})

describe('the word-level changes of a history’s pages', () => {
  // Three rules of 300 words, every other word changed in the second release.
  const text = (edited: boolean, r = 2) => `Rule ${r}: ${Array.from({ length: 300 }, (_, k) => (edited && k % 2 === 0 ? `new${k}` : `w${k}`)).join(' ')}`
  const rows: HistoryRow[] = ['2025-01-01', '2026-01-01'].flatMap((release, i) =>
    [1, 2, 3].map((r) => ({ release, rule_id: `id${r}`, number: `100.${r}`, text: text(i === 1, r), examples: [], index: r - 1, previous_number: i === 1 ? `100.${r}` : null, change: i === 1 ? 'edited' : 'added' })),
  )
  const input: SiteInput = {
    release: {
      effective: '2026-01-01',
      sourceFile: 'MagicCompRules 20260101.txt',
      sha256: '0',
      rules: rows.filter((r) => r.release === '2026-01-01'),
      places: new Map(['100.1', '100.2', '100.3'].map((n) => [n, { chapter: '1', chapter_title: 'Game Concepts', section: '100', section_title: 'General' }])),
      glossary: [],
      report: { valid: true, strict: false, source: { file: 'x', kind: 'cr-text', table: 'rules', rows: 3 }, notes: [], counts: { errors: 0, warnings: 0, byCode: {} }, diagnostics: [] } as unknown as SiteInput['release']['report'],
    },
    history: rows,
    searchLibrary: '/* minisearch */',
  }
  const page = (files: { path: string; bytes: Uint8Array }[], path: string) => new TextDecoder().decode(files.find((f) => f.path === path)!.bytes)
  const count = (s: string, tag: string) => s.split(`<${tag}>`).length - 1

  it('share one bound: past it a text is shown replaced whole, and buildSite says how many', () => {
    const built = buildSite(input)
    const open = { files: [...built.files], warnings: built.warnings() }
    expect(open.warnings).toEqual([])
    // Each changed word marked, on the rule's timeline and on its release's page.
    expect(count(page(open.files, 'timeline/id1.html'), 'ins')).toBe(150)
    expect(count(page(open.files, 'releases/2026-01-01.html'), 'ins')).toBe(450)
    const builtTight = buildSite(input, { wordWork: WORD_DIFF_WORK / 1e6 })
    const tight = { files: [...builtTight.files], warnings: builtTight.warnings() }
    // Each rule's edit is diffed once for both of its pages: three texts, each given whole.
    expect(tight.warnings).toEqual(['the word-level changes stopped at their bound of 500 characters × edits: 3 changed texts are given whole, the old deleted and the new inserted'])
    const timeline = page(tight.files, 'timeline/id2.html')
    expect([count(timeline, 'del'), count(timeline, 'ins')]).toEqual([1, 1])
    expect(timeline).toContain(`<del>${text(false)}</del><ins>${text(true)}</ins>`)
    expect(count(page(tight.files, 'releases/2026-01-01.html'), 'ins')).toBe(3)
  })
})

describe('the search index', () => {
  it('holds the first 20,000 characters of a rule: a word before them is found, one past them is not', async () => {
    const { default: MiniSearch } = await import('minisearch')
    const { searchIndexScript, SEARCH_OPTIONS } = await import('../src/site/search.js')
    const text = `alphaword ${'filler '.repeat(4000)}omegaword`
    const release = { effective: '2026-01-01', sourceFile: 'x', sha256: '0', rules: [{ number: '100.1', text, examples: [], index: 0 }], places: new Map(), glossary: [], report: {} } as unknown as SiteInput['release']
    const script = searchIndexScript(release)
    const window: { SEARCH?: { index: string } } = {}
    new Function('window', script)(window)
    const index = MiniSearch.loadJSON(window.SEARCH!.index, { fields: [...SEARCH_OPTIONS.fields], storeFields: [...SEARCH_OPTIONS.storeFields] })
    expect(index.search('alphaword').map((r) => r.id)).toEqual([0])
    expect(index.search('omegaword')).toEqual([])
  })
})

describe('glossary terms in a text', () => {
  it('the longest name that stands as whole words, any case, at the first place one does; never overlapping', () => {
    const links = glossaryLinks([
      { names: ['Mana Ability', 'Mana'], url: 'm' },
      { names: ['Ability'], url: 'a' },
      { names: ['first strike', 'x'.repeat(201)], url: 'f' },
    ])
    const text = `Mana abilities, a mana ability; first-strike and First Strike. MANA-ish ${'x'.repeat(201)} ability`
    expect([...links.uses(text)].map((u) => `${u.index}:${u.text}`)).toEqual(['0:Mana', '18:mana ability', '49:First Strike', `${text.length - 7}:ability`])
    expect(links.urlOf('MANA ABILITY')).toBe('m')
    // 201 characters: past the longest name linked (the shared releases' longest has 33).
    expect([...glossaryLinks([{ names: ['x'.repeat(201)], url: 'x' }]).uses('x'.repeat(201))]).toEqual([])
  })
})

describe('what each release page lists, from the lineages grouped once', () => {
  it('a rule continued, one removed, one absent for a release and back: each under the right release', () => {
    const row = (release: string, id: string, change: string): HistoryRow => ({ release, rule_id: id, number: `100.${id.length}`, text: `${id} ${release}`, examples: [], index: 0, previous_number: null, change })
    const history = lineages([row('2001', 'x', 'added'), row('2001', 'yy', 'added'), row('2001', 'zzz', 'added'), row('2002', 'x', 'unchanged'), row('2003', 'x', 'edited'), row('2003', 'zzz', 'added')])
    const { here, removed } = releaseChanges(history)
    const shown = (list: { row: HistoryRow; before: HistoryRow | null }[]) => list.map((h) => `${h.row.rule_id}@${h.row.release}<${h.before?.release ?? '-'}`)
    expect(history.releases).toEqual(['2001', '2002', '2003'])
    expect(shown(here.get('2002')!)).toEqual(['x@2002<2001'])
    // zzz is back in 2003, not continued from 2001: no "before". Removed are the lineages that end
    // in the release before (a history's lineages have no gap: a rule that comes back is a new one).
    expect(shown(here.get('2003')!)).toEqual(['x@2003<2002', 'zzz@2003<-'])
    expect(removed.get('2002')!.map((r) => `${r.rule_id}@${r.release}`)).toEqual(['yy@2001'])
    expect(removed.get('2003')).toEqual([])
  })
})

describe('mtg-rules site with a folder it cannot use', () => {
  it('exits 2 with one line, and writes nothing: no dataset, a report that is a folder or not a report', async () => {
    const { mkdtempSync, mkdirSync, readFileSync, writeFileSync, existsSync, rmSync } = await import('node:fs')
    const { tmpdir } = await import('node:os')
    const { join } = await import('node:path')
    const { cli, inProcess } = await import('./helpers/cli.js')
    const { datasetCopy } = await import('./helpers/built.js')
    const root = mkdtempSync(join(tmpdir(), 'site-bad-'))
    const dataset = datasetCopy('2026-08-07', root)
    const out = join(root, 'site')
    const run = (dir: string) => {
      const r = cli(['site', dir, '--out', out])
      return [r.status, r.stderr.trim().split('\n').length, existsSync(out)]
    }
    const empty = join(root, 'empty')
    mkdirSync(empty)
    expect(run(empty)).toEqual([2, 1, false])
    expect((await inProcess(['site', empty, '--out', out])).stderr).toMatch(/^site: .*manifest\.json is missing: not a dataset folder/)
    rmSync(join(dataset, 'report.json'))
    mkdirSync(join(dataset, 'report.json'))
    expect(run(dataset)).toEqual([2, 1, false])
    rmSync(join(dataset, 'report.json'), { recursive: true })
    writeFileSync(join(dataset, 'report.json'), '{"valid": true}')
    expect(run(dataset)).toEqual([2, 1, false])
    expect((await inProcess(['site', dataset, '--out', out])).stderr).toMatch(/is not a validation report/)
    // The report's schema decides: a count nested 200,000 arrays deep is refused by it (its text,
    // made for the page, overflowed the stack: exit 3); params, which the schema leaves open, may
    // hold anything, and only a string target is read.
    const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`
    const report = (counts: string, params: string) => `{"valid":true,"strict":false,"source":{"file":"x","kind":"cr-text","table":"rules","rows":1},"notes":[],"counts":{"errors":0,"warnings":1,"byCode":{"dangling-reference":${counts}}},"diagnostics":[{"code":"dangling-reference","severity":"warning","message":"m","number":"100.1","params":${params}}]}`
    writeFileSync(join(dataset, 'report.json'), report(deep, '{}'))
    expect(run(dataset)).toEqual([2, 1, false])
    expect((await inProcess(['site', dataset, '--out', out])).stderr).toMatch(/report\.json is not a validation report \(\/counts\/byCode\/dangling-reference must be integer\)\n$/)
    writeFileSync(join(dataset, 'report.json'), report('1', `{"target":${deep}}`))
    expect((await inProcess(['site', dataset, '--out', out])).status).toBe(0)
    rmSync(out, { recursive: true })
    // So does each table's row schema: a rule's text that is a number, or examples nested 200,000
    // arrays deep (its text for the page overflowed the stack: exit 3), are refused, naming the row.
    const rules = readFileSync(join(dataset, 'rules.jsonl'), 'utf8').trimEnd().split('\n')
    const withRow5 = (row: string) => writeFileSync(join(dataset, 'rules.jsonl'), [...rules.slice(0, 5), row, ...rules.slice(6)].join('\n') + '\n')
    const number = JSON.parse(rules[5]!).number
    withRow5(`{"number":"${number}","text":5,"examples":[],"index":5}`)
    expect(run(dataset)).toEqual([2, 1, false])
    expect((await inProcess(['site', dataset, '--out', out])).stderr).toBe(`site: ${join(dataset, 'rules.jsonl')}: row 5: /text must be string (validate it for the whole report)\n`)
    withRow5(`{"number":"${number}","text":"x","examples":${deep},"index":5}`)
    expect((await inProcess(['site', dataset, '--out', out])).stderr).toBe(`site: ${join(dataset, 'rules.jsonl')}: row 5: /examples/0 must be string (validate it for the whole report)\n`)
  }, 60_000)
})

describe('an interrupted site', () => {
  it('SIGINT while its pages are written: the previous site intact, no staging folder left, exit 130', async () => {
    const { spawn } = await import('node:child_process')
    const { createHash } = await import('node:crypto')
    const { mkdtempSync, readdirSync, readFileSync } = await import('node:fs')
    const { tmpdir } = await import('node:os')
    const { join, relative } = await import('node:path')
    const { builtDataset } = await import('./helpers/built.js')
    const { cli, inProcess } = await import('./helpers/cli.js')
    const { CLI } = await import('./helpers/shared.js')
    const parent = mkdtempSync(join(tmpdir(), 'site-interrupted-'))
    const site = join(parent, 'site')
    expect((await inProcess(['site', builtDataset('2026-08-07'), '--out', site])).status).toBe(0)
    const files = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]))
    const digest = () => Object.fromEntries(files(site).map((f) => [relative(site, f), createHash('sha256').update(readFileSync(f)).digest('hex')]))
    const before = digest()
    // Written again, from the 2009-07-11 release, a pause after each batch of pages: interrupted once
    // the staging folder holds pages.
    const child = spawn(process.execPath, [CLI, 'site', builtDataset('2009-07-11'), '--out', site], { env: { ...process.env, MTG_RULES_TEST_WRITE_DELAY_MS: '200' }, stdio: 'ignore' })
    const staging = () => readdirSync(parent).filter((n) => n.startsWith('.site.staging-'))
    const writing = () => staging().some((s) => files(join(parent, s)).length > 1)
    for (let i = 0; i < 400 && !writing(); i++) await new Promise((res) => setTimeout(res, 25))
    expect(writing()).toBe(true)
    child.kill('SIGINT')
    expect(await new Promise<number | null>((res) => child.on('exit', (c) => res(c)))).toBe(130)
    expect(readdirSync(parent).filter((n) => n.startsWith('.'))).toEqual([])
    expect(digest()).toEqual(before)
  }, 60_000)
})
