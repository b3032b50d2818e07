import { boundedWordChanges, WORD_DIFF_WORK, wordsWarning, type WordChange, type WordChanges } from '../history/row-keys.js'
import { html } from './html.js'
import { COMPARE_SCRIPT, comparePage, lineages, linksByRule, releaseChanges, releaseDataScript, releasePage, releasesPage, timelinePage } from './history-pages.js'
import { CSS, renderPage, type Page } from './page.js'
import { chapterPage, chaptersOf, glossaryPage, homePage, linkTargetsOf, sectionPage, timelineUrl } from './release-pages.js'
import { SEARCH_BOX_SCRIPT, SEARCH_PAGE_SCRIPT, searchIndexScript, searchPage } from './search.js'
import type { HistoryRow, SiteFile, SiteInput } from './site-input.js'

const encoder = new TextEncoder()

/**
 * The word-level changes of a site's pages (timelines, release pages) share one bound that grows
 * with the history: WORD_DIFF_WORK, and this many characters × edits for each character of its
 * texts. The shared history (9 releases, each pair an era jump) needs 15.5 a character; 130
 * releases that are all era jumps 16.6; 130 close ones 1.3. Past it, a text is shown replaced
 * whole, and buildSite warns.
 */
export const SITE_WORDS_PER_CHARACTER = 32

const charactersOf = (rows: HistoryRow[]) => rows.reduce((sum, r) => r.examples.reduce((n, e) => n + e.length, sum + r.text.length), 0)

export interface SiteOptions {
  /** The bound of the word-level changes (else the one that grows with the history, above). */
  wordWork?: number
}

/**
 * The static site of a release (and, from a history folder, of its history): every page and asset,
 * in path order. Pure: the same input gives the same bytes; every link is relative, nothing is
 * loaded from another origin.
 */
export function buildSite(input: SiteInput, options: SiteOptions = {}): { files: SiteFile[]; warnings: string[] } {
  const { release } = input
  const chapters = chaptersOf(release)
  const sections = chapters.flatMap((c) => c.sections)
  const history = input.history ? lineages(input.history) : null
  // The newest release's rules, each with its timeline (from a history whose newest release is this one).
  const timelines = new Map<string, string>()
  if (history && input.history) for (const r of input.history) if (r.release === release.effective) timelines.set(r.number, timelineUrl(r.rule_id))
  const targetsAt = linkTargetsOf(release, chapters)
  const pages: Page[] = [
    homePage(release, chapters, history ? html`<h2>History</h2><p><a href="releases/index.html">${history.releases.length} releases</a>, from ${history.releases[0]} to ${history.releases.at(-1)}; <a href="compare.html">compare any two</a>.</p>` : null),
    ...chapters.map(chapterPage),
    ...sections.map((s, i) => sectionPage(targetsAt, s, sections[i - 1] ?? null, sections[i + 1] ?? null, history ? timelines : null)),
    glossaryPage(release, targetsAt),
    searchPage(),
  ]
  const files: SiteFile[] = [
    { path: 'assets/site.css', bytes: encoder.encode(CSS) },
    { path: 'assets/minisearch.js', bytes: encoder.encode(input.searchLibrary) },
    { path: 'assets/search-index.js', bytes: encoder.encode(searchIndexScript(release)) },
    { path: 'assets/search.js', bytes: encoder.encode(SEARCH_BOX_SCRIPT) },
    { path: 'assets/search-page.js', bytes: encoder.encode(SEARCH_PAGE_SCRIPT) },
  ]
  const wordWork = options.wordWork ?? WORD_DIFF_WORK + SITE_WORDS_PER_CHARACTER * charactersOf(input.history ?? [])
  const words = boundedWordChanges(wordWork)
  // A rule's edit is shown on its timeline and on its release's page: diffed once.
  const diffed = new Map<string, WordChange[] | null>()
  const changes: WordChanges = (a, b) => {
    const key = `${a}\u0000${b}`
    if (!diffed.has(key)) diffed.set(key, words.changes(a, b))
    return diffed.get(key)!
  }
  if (history && input.history) {
    const rows = input.history
    pages.push(releasesPage(history), comparePage(history.releases))
    const changesOf = releaseChanges(history)
    history.releases.forEach((r, i) => pages.push(releasePage(r, history.releases[i - 1] ?? null, changesOf, changes)))
    const links = linksByRule(input.links ?? [], rows)
    for (const [id, list] of history.byId) pages.push(timelinePage(id, list, history, links.get(id) ?? [], changes))
    files.push({ path: 'assets/compare.js', bytes: encoder.encode(COMPARE_SCRIPT) })
    for (const r of history.releases) files.push({ path: `assets/releases/${r}.js`, bytes: encoder.encode(releaseDataScript(r, history.byRelease.get(r)!)) })
  }
  const title = `Comprehensive Rules ${release.effective}`
  for (const page of pages) files.push({ path: page.path, bytes: encoder.encode(renderPage(page, title)) })
  const warning = wordsWarning(wordWork, words.whole())
  return { files: files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)), warnings: warning === null ? [] : [warning] }
}
