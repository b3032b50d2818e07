import { html } from './html.js'
import { COMPARE_SCRIPT, comparePage, lineages, linksByRule, releaseDataScript, releasePage, releasesPage, timelinePage } from './history-pages.js'
import { CSS, renderPage, type Page } from './page.js'
import { chapterPage, chaptersOf, glossaryPage, homePage, sectionPage, timelineUrl } from './release-pages.js'
import { SEARCH_BOX_SCRIPT, SEARCH_PAGE_SCRIPT, searchIndexScript, searchPage } from './search.js'
import type { SiteFile, SiteInput } from './site-input.js'

const encoder = new TextEncoder()

/**
 * The static site of a release (and, from a history folder, of its history): every page and asset,
 * in path order. Pure: the same input gives the same bytes; every link is relative, nothing is
 * loaded from another origin.
 */
export function buildSite(input: SiteInput): SiteFile[] {
  const { release } = input
  const chapters = chaptersOf(release)
  const sections = chapters.flatMap((c) => c.sections)
  const history = input.history ? lineages(input.history) : null
  // The newest release's rules, each with its timeline (from a history whose newest release is this one).
  const timelines = new Map<string, string>()
  if (history && input.history) for (const r of input.history) if (r.release === release.effective) timelines.set(r.number, timelineUrl(r.rule_id))
  const pages: Page[] = [
    homePage(release, chapters, history ? html`<h2>History</h2><p><a href="releases/index.html">${history.releases.length} releases</a>, from ${history.releases[0]} to ${history.releases.at(-1)}; <a href="compare.html">compare any two</a>.</p>` : null),
    ...chapters.map(chapterPage),
    ...sections.map((s, i) => sectionPage(release, chapters, s, sections[i - 1] ?? null, sections[i + 1] ?? null, history ? timelines : null)),
    glossaryPage(release, chapters),
    searchPage(),
  ]
  const files: SiteFile[] = [
    { path: 'assets/site.css', bytes: encoder.encode(CSS) },
    { path: 'assets/minisearch.js', bytes: encoder.encode(input.searchLibrary) },
    { path: 'assets/search-index.js', bytes: encoder.encode(searchIndexScript(release)) },
    { path: 'assets/search.js', bytes: encoder.encode(SEARCH_BOX_SCRIPT) },
    { path: 'assets/search-page.js', bytes: encoder.encode(SEARCH_PAGE_SCRIPT) },
  ]
  if (history && input.history) {
    const rows = input.history
    pages.push(releasesPage(history.releases, rows), comparePage(history.releases))
    history.releases.forEach((r, i) => pages.push(releasePage(r, history.releases[i - 1] ?? null, history.byId)))
    const links = linksByRule(input.links ?? [], rows)
    for (const [id, list] of history.byId) pages.push(timelinePage(id, list, history.releases, links.get(id)))
    files.push({ path: 'assets/compare.js', bytes: encoder.encode(COMPARE_SCRIPT) })
    for (const r of history.releases) files.push({ path: `assets/releases/${r}.js`, bytes: encoder.encode(releaseDataScript(r, rows)) })
  }
  const title = `Comprehensive Rules ${release.effective}`
  for (const page of pages) files.push({ path: page.path, bytes: encoder.encode(renderPage(page, title)) })
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
}
