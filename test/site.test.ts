import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Browser, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { extractReferences } from '../src/core/citations.js'
import { launchChromium, watch } from './helpers/browser.js'
import { builtDataset, builtHistory } from './helpers/built.js'
import { inProcess } from './helpers/cli.js'
import { REPO, releases } from './helpers/shared.js'

// The website, tested in headless Chromium against the site of the newest shared release and the
// site of the history of every shared release. Every expected value is read from the data.

const SCREENSHOTS = join(REPO, 'node_modules/.cache/mtg-rules-etl/screenshots')
const root = mkdtempSync(join(tmpdir(), 'site-'))
const newest = releases().at(-1)!
const jsonl = (path: string) => readFileSync(path, 'utf8').trim().split('\n').map((l) => JSON.parse(l))

async function make(args: string[]) {
  const run = await inProcess(args)
  if (run.status !== 0) throw new Error(`mtg-rules ${args.join(' ')}: exit ${run.status}: ${run.stderr}`)
  return run
}

const walk = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]))
/** A page's file:// address, with its query (?q=…) kept. */
const url = (site: string, path: string) => {
  const [file, query] = path.split('?') as [string, string | undefined]
  return pathToFileURL(join(site, file)).href + (query === undefined ? '' : `?${query}`)
}

let browser: Browser
// The dataset folders and the history, as the CLI builds them (built once for the test run).
let dataset = ''
let history = ''
// The release with rule citations of rules that do not exist (602.1i, 405.3c).
let danglingDataset = ''
const site = join(root, 'site')
const historySite = join(root, 'history-site')
const danglingSite = join(root, 'site-2009')

beforeAll(async () => {
  dataset = builtDataset(newest.effective)
  history = builtHistory().out
  danglingDataset = builtDataset('2009-07-11')
  await make(['site', dataset, '--out', site])
  await make(['site', history, '--out', historySite])
  await make(['site', danglingDataset, '--out', danglingSite])
  browser = await launchChromium()
}, 240_000)

afterAll(async () => {
  await browser?.close()
})

// Each test's pages closed after it: open ones stay in Chromium, a renderer each, to the end of the run.
afterEach(async () => {
  await Promise.all(browser?.contexts().map((c) => c.close()) ?? [])
})

/** A page opened in a fresh context (phone or desktop width), watched for problems. */
async function open(target: string, width = 1280): Promise<{ page: Page; problems: string[] }> {
  const context = await browser.newContext({ viewport: { width, height: width > 600 ? 800 : 844 } })
  const page = await context.newPage()
  const problems = watch(page)
  await page.goto(target)
  return { page, problems }
}

describe('the site of the newest release', () => {
  it('chapter 100 lists exactly the chapter’s rules, in order, with their count, each cut at about 120 characters', async () => {
    const meta = jsonl(join(dataset, 'rules_meta.jsonl'))
    const rules = new Map(jsonl(join(dataset, 'rules.jsonl')).map((r) => [r.number, r.text]))
    const expected = meta.filter((m) => m.chapter === '1').map((m) => m.number)
    const { page, problems } = await open(url(site, 'chapters/100.html'))
    expect(await page.textContent('h1')).toBe(`100. ${meta.find((m) => m.chapter === '1').chapter_title}`)
    expect(await page.textContent('.count')).toBe(`${expected.length} rules in this chapter`)
    const lines = await page.$$eval('ul.chapter li', (items) => items.map((li) => li.textContent!))
    expect(lines.map((l) => l.split(' — ')[0])).toEqual(expected)
    for (const line of lines) {
      const [number, shown] = [line.split(' — ')[0]!, line.slice(line.indexOf(' — ') + 3)]
      const text = rules.get(number)!.replace(/\s+/g, ' ')
      if ([...text].length <= 120) expect(shown).toBe(text)
      else expect([shown.endsWith('…'), text.startsWith(shown.slice(0, -1)), [...shown].length <= 121]).toEqual([true, true, true])
    }
    expect(problems).toEqual([])
  })

  it('a citation in a 704 rule’s text lands on the cited rule’s anchor', async () => {
    const rules = jsonl(join(dataset, 'rules.jsonl'))
    const citing = rules.find((r) => r.number.startsWith('704.') && extractReferences(r.text, r.number).some((ref) => ref.kind === 'rule'))
    const target = extractReferences(citing.text, citing.number).find((ref) => ref.kind === 'rule')!
    const { page, problems } = await open(`${url(site, "rules/704.html")}#${citing.number}`)
    await page.click(`[id="${citing.number}"] p a:text-is("${target.span}")`)
    await page.waitForURL(`**/rules/${target.target.slice(0, 3)}.html#${target.target}`)
    expect(await page.evaluate(() => document.querySelector(':target')?.id)).toBe(target.target)
    expect(problems).toEqual([])
  })

  it('a citation of a rule that does not exist is marked with its diagnostic (2009-07-11)', async () => {
    const report = JSON.parse(readFileSync(join(danglingDataset, 'report.json'), 'utf8'))
    const dangling = report.diagnostics.filter((d: { code: string; number?: string }) => d.code === 'dangling-reference' && /^\d/.test(d.number ?? ''))
    expect(dangling.length).toBeGreaterThan(0)
    for (const d of dangling) {
      const { page } = await open(url(danglingSite, `rules/${d.number.slice(0, 3)}.html`))
      const marks = await page.$$eval(`[id="${d.number}"] .dangling`, (els) => els.map((e) => [e.textContent, e.getAttribute('title')]))
      expect(marks).toContainEqual([d.params.span, d.message])
    }
  })

  it('searching trample lists 702.19 first; typing 704.5a jumps to it', async () => {
    const { page, problems } = await open(url(site, 'index.html'))
    await page.fill('#q', 'trample')
    await page.press('#q', 'Enter')
    await page.waitForSelector('#rule-results li')
    expect((await page.textContent('#rule-results li'))!.split(' — ')[0]).toBe('702.19')
    expect(await page.$$eval('#term-results li a', (as) => as.map((a) => a.textContent))).toContain('Trample')
    await page.fill('#q', '704.5a')
    await page.press('#q', 'Enter')
    await page.waitForURL('**/rules/704.html#704.5a')
    expect(await page.evaluate(() => document.querySelector(':target')?.id)).toBe('704.5a')
    expect(problems).toEqual([])
  })

  it('works by keyboard, fits a phone’s width, and follows the dark colour scheme', async () => {
    for (const path of ['index.html', 'chapters/700.html', 'rules/702.html']) {
      const { page } = await open(url(site, path), 390)
      expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(390)
    }
    const { page } = await open(url(site, 'chapters/700.html'), 390)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content')
    for (let i = 0; i < 3; i++) await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('q')
    const light = await page.evaluate(() => getComputedStyle(document.body).backgroundColor)
    await page.emulateMedia({ colorScheme: 'dark' })
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).not.toBe(light)
  })
})

describe('the site of the history of the shared releases', () => {
  it('the timeline of 701.5 shows it was 701.4 (moved), and when', async () => {
    const rows = jsonl(join(history, 'rules_history.jsonl'))
    const id = rows.find((r) => r.release === newest.effective && r.number === '701.5').rule_id
    const lineage = rows.filter((r) => r.rule_id === id)
    const moved = lineage.find((r, i) => i > 0 && r.number === '701.5' && lineage[i - 1].number === '701.4')
    expect(moved?.change).toBe('moved')
    const { page, problems } = await open(url(historySite, 'rules/701.html'))
    await page.click('[id="701.5"] a:text-is("history")')
    await page.waitForURL('**/timeline/**')
    const steps = await page.$$eval('h2', (hs) => hs.map((h) => h.textContent))
    expect(steps).toContain(`${moved.release}: moved from 701.4 to 701.5`)
    // Newest first, and its first wording shown.
    expect(steps).toEqual([...steps].sort().reverse())
    expect(await page.textContent('blockquote')).toContain(lineage[0].text.split('\n')[0].slice(0, 40))
    expect(problems).toEqual([])
  })

  it('a timeline shows the rules a rule was split from or merged with, each a link to its own timeline', async () => {
    const links = jsonl(join(history, 'rule_links.jsonl')).filter((l) => l.relation !== 'continues')
    const rows = jsonl(join(history, 'rules_history.jsonl'))
    const merge = links.find((l) => l.relation === 'merged-from')
    expect(merge).toBeDefined()
    const id = rows.find((r) => r.release === merge.release && r.number === merge.number).rule_id
    const { page, problems } = await open(url(historySite, `timeline/${id.replace(/[^0-9A-Za-z.-]/g, '_')}.html`))
    const text = `${merge.release}: ${merge.number} merged-from ${merge.previous_number} of ${merge.previous_release} (similarity ${merge.similarity})`
    await page.click(`#main li a:text-is("${text}")`)
    await page.waitForURL('**/timeline/**')
    expect(await page.textContent('h1')).toMatch(new RegExp(`^History of ${merge.previous_number.replace('.', '\\.')}$`))
    expect(problems).toEqual([])
  })

  it('the compare page lists what changed between two releases, from files the site wrote', async () => {
    const { page, problems } = await open(url(historySite, 'compare.html'))
    const releasesShown = await page.$$eval('#from option', (os) => os.map((o) => (o as HTMLOptionElement).value))
    expect(releasesShown).toEqual(releases().map((r) => r.effective))
    await page.selectOption('#from', '2025-02-07')
    await page.selectOption('#to', newest.effective)
    await page.click('#compare button')
    await page.waitForSelector('#result h2')
    const moved = await page.$$eval('#result ul', (uls) => uls.map((ul) => [...ul.querySelectorAll('a')].map((a) => a.textContent)))
    const headings = await page.$$eval('#result h2', (hs) => hs.map((h) => h.textContent!.replace(/ \(\d+\)$/, '')))
    expect(headings).toEqual(['Added', 'Removed', 'Moved', 'Edited'])
    expect(moved[2]).toContain('701.4 → 701.5')
    // Every rule listed links to its timeline page, named as the site named it.
    const links = await page.$$eval('#result a', (as) => as.map((a) => (a as HTMLAnchorElement).getAttribute('href')!))
    expect(links.length).toBe(moved.flat().length)
    expect(links.filter((href) => !existsSync(join(historySite, href)))).toEqual([])
    expect(problems).toEqual([])
  })

  it('opens its pages with no console error, no failed request and no request to another origin', async () => {
    const pages = ['index.html', 'glossary.html', 'search.html?q=mana+ability', 'releases/index.html', `releases/${newest.effective}.html`, 'compare.html', 'rules/100.html', 'rules/702.html']
    for (const chapter of readdirSync(join(historySite, 'chapters'))) pages.push(`chapters/${chapter}`)
    // One context, a new page for each (what a page's late requests do is never put on the next).
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    for (const path of pages) {
      const page = await context.newPage()
      const problems = watch(page)
      await page.goto(url(historySite, path))
      await page.waitForLoadState('load')
      expect(problems, path).toEqual([])
      await page.close()
    }
    await context.close()
  })

  it('axe-core finds no serious or critical violation on home, a chapter, a rule page, a timeline and search results', async () => {
    const timeline = readdirSync(join(historySite, 'timeline'))[0]!
    for (const path of ['index.html', 'chapters/100.html', 'rules/100.html', `timeline/${timeline}`, 'search.html?q=trample', 'releases/index.html']) {
      const { page } = await open(url(historySite, path))
      if (path.startsWith('search')) await page.waitForSelector('#rule-results li')
      await page.addScriptTag({ path: join(REPO, 'node_modules/axe-core/axe.min.js') })
      const violations = await page.evaluate(async () => {
        const result = await (window as unknown as { axe: { run: () => Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }> } }).axe.run()
        return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.nodes.length})`)
      })
      expect(violations, path).toEqual([])
      await page.context().close()
    }
  })

  it('writes screenshots of home, a chapter and a timeline, at desktop and phone widths', async () => {
    mkdirSync(SCREENSHOTS, { recursive: true })
    const rows = jsonl(join(history, 'rules_history.jsonl'))
    const cast = rows.find((r) => r.release === newest.effective && r.number === '701.5').rule_id
    const timeline = `timeline/${cast.replace(/[^0-9A-Za-z.-]/g, '_')}.html`
    for (const [name, path] of [['home', 'index.html'], ['chapter', 'chapters/100.html'], ['timeline', timeline]] as const) {
      for (const [width, label] of [[1280, 'desktop'], [390, 'phone']] as const) {
        const { page } = await open(url(historySite, path), width)
        const file = join(SCREENSHOTS, `${name}-${label}.png`)
        await page.screenshot({ path: file, fullPage: false })
        expect(statSync(file).size).toBeGreaterThan(1000)
        await page.context().close()
      }
    }
  })
})

describe('every site', () => {
  it('every internal link and script resolves, to a file and an anchor in it; no page is over 500 KB', () => {
    for (const dir of [site, historySite, danglingSite]) {
      const ids = new Map<string, Set<string>>()
      const idsOf = (file: string) => {
        if (!ids.has(file)) ids.set(file, new Set([...readFileSync(file, 'utf8').matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]!)))
        return ids.get(file)!
      }
      const broken: string[] = []
      const pages = walk(dir).filter((f) => f.endsWith('.html'))
      for (const file of pages) {
        const text = readFileSync(file, 'utf8')
        expect(text.length, relative(dir, file)).toBeLessThanOrEqual(500_000)
        for (const m of text.matchAll(/\s(?:href|src)="([^"]*)"/g)) {
          const link = m[1]!.replaceAll('&amp;', '&')
          expect(link, `${relative(dir, file)} links to another origin`).not.toMatch(/^[a-z]+:/i)
          const [path, fragment] = link.split('#') as [string, string | undefined]
          const target = path === '' ? file : resolve(dirname(file), path.split('?')[0]!)
          if (!target.startsWith(dir) || !existsSync(target)) broken.push(`${relative(dir, file)} → ${link}`)
          else if (fragment && target.endsWith('.html') && !idsOf(target).has(decodeURIComponent(fragment))) broken.push(`${relative(dir, file)} → ${link} (no such anchor)`)
        }
      }
      expect(broken, dir).toEqual([])
    }
  })

  it('the same folder gives the same bytes', async () => {
    const again = join(root, 'site-again')
    // One line: the history's word-level changes all within their bound (no warning).
    expect((await make(['site', history, '--out', again])).stderr).toMatch(/^site: wrote \d+ pages and \d+ assets to [^\n]*\n$/)
    const digest = (dir: string) => Object.fromEntries(walk(dir).filter((f) => !f.includes('.mtg-rules-etl')).map((f) => [relative(dir, f), createHash('sha256').update(readFileSync(f)).digest('hex')]))
    expect(digest(again)).toEqual(digest(historySite))
  }, 60_000)
})
