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
const SITE_WORDS_PER_CHARACTER = 32

const charactersOf = (rows: HistoryRow[]) => rows.reduce((sum, r) => r.examples.reduce((n, e) => n + e.length, sum + r.text.length), 0)

export interface SiteOptions {
  /** The bound of the word-level changes (else the one that grows with the history, above). */
  wordWork?: number
}

/** A site being made: its files, each made as it is taken, and what the pages left out. */
export interface BuiltSite {
  /**
   * Every page and asset, made one at a time as the caller takes them (take them once): the site is
   * never whole in memory, only the input and the page at hand.
   */
  files: Generator<SiteFile>
  /** The warnings of the pages made so far (complete once every file is taken). */
  warnings(): string[]
}

/**
 * The static site of a release (and, from a history folder, of its history): every page and asset.
 * Pure: the same input gives the same bytes; every link is relative, nothing is loaded from another
 * origin.
 */
export function buildSite(input: SiteInput, options: SiteOptions = {}): BuiltSite {
  const { release } = input
  const chapters = chaptersOf(release)
  const sections = chapters.flatMap((c) => c.sections)
  const history = input.history ? lineages(input.history) : null
  // The newest release's rules, each with its timeline (from a history whose newest release is this one).
  const timelines = new Map<string, string>()
  if (history && input.history) for (const r of input.history) if (r.release === release.effective) timelines.set(r.number, timelineUrl(r.rule_id))
  const targetsAt = linkTargetsOf(release, chapters)
  const wordWork = options.wordWork ?? WORD_DIFF_WORK + SITE_WORDS_PER_CHARACTER * charactersOf(input.history ?? [])
  const words = boundedWordChanges(wordWork)
  // A rule's edit is shown on its release's page and on its timeline: diffed once (keyed by the
  // texts themselves, no string made of the two).
  const diffed = new Map<string, Map<string, WordChange[] | null>>()
  const changes: WordChanges = (a, b) => {
    let byNew = diffed.get(a)
    if (!byNew) diffed.set(a, (byNew = new Map()))
    if (!byNew.has(b)) byNew.set(b, words.changes(a, b))
    return byNew.get(b)!
  }
  const title = `Comprehensive Rules ${release.effective}`
  const asset = (path: string, text: string): SiteFile => ({ path, bytes: encoder.encode(text) })
  const page = (p: Page): SiteFile => ({ path: p.path, bytes: encoder.encode(renderPage(p, title)) })
  // The word-level changes are made in this order (release pages, then timelines): their bound is
  // spent the same way on the same input.
  function* files(): Generator<SiteFile> {
    yield asset('assets/site.css', CSS)
    yield asset('assets/minisearch.js', input.searchLibrary)
    yield asset('assets/search-index.js', searchIndexScript(release))
    yield asset('assets/search.js', SEARCH_BOX_SCRIPT)
    yield asset('assets/search-page.js', SEARCH_PAGE_SCRIPT)
    yield page(homePage(release, chapters, history ? html`<h2>History</h2><p><a href="releases/index.html">${history.releases.length} releases</a>, from ${history.releases[0]} to ${history.releases.at(-1)}; <a href="compare.html">compare any two</a>.</p>` : null))
    for (const c of chapters) yield page(chapterPage(c))
    for (const [i, s] of sections.entries()) yield page(sectionPage(targetsAt, s, sections[i - 1] ?? null, sections[i + 1] ?? null, history ? timelines : null))
    yield page(glossaryPage(release, targetsAt))
    yield page(searchPage())
    if (!history || !input.history) return
    yield page(releasesPage(history))
    yield page(comparePage(history.releases))
    const changesOf = releaseChanges(history)
    for (const [i, r] of history.releases.entries()) yield page(releasePage(r, history.releases[i - 1] ?? null, changesOf, changes))
    const links = linksByRule(input.links ?? [], input.history)
    for (const [id, list] of history.byId) yield page(timelinePage(id, list, history, links.get(id) ?? [], changes))
    yield asset('assets/compare.js', COMPARE_SCRIPT)
    for (const r of history.releases) yield asset(`assets/releases/${r}.js`, releaseDataScript(r, history.byRelease.get(r)!))
  }
  return {
    files: files(),
    warnings: () => {
      const warning = wordsWarning(wordWork, words.whole())
      return warning === null ? [] : [warning]
    },
  }
}
