import { plural } from '../core/words.js'
import { html, type Markup } from './html.js'
import { glossaryLinks, linkedText, type LinkTargets } from './linked-text.js'
import { rootOf, type Page } from './page.js'
import type { GlossaryEntry, SiteRelease } from './site-input.js'

// The pages of one release: home, a page per chapter (its rules cut to a line each), a page per
// section (its rules whole, an anchor each), the glossary. Paths: chapters/100.html,
// rules/702.html#702.19b, glossary.html#<term>.

/** A rule's page and anchor, from the site's root. */
export const ruleUrl = (number: string) => `rules/${number.slice(0, 3)}.html#${number}`
export const sectionUrl = (section: string) => `rules/${section}.html`
export const chapterUrl = (chapter: string) => `chapters/${chapter}00.html`
/**
 * A rule's timeline page. A rule_id is <release>:<number>[~<index>] (its schema's pattern): the
 * colon and tilde become underscores, one name per id. Also the compare page's (its source is sent).
 */
export const timelineUrl = (ruleId: string) => `timeline/${ruleId.replace(/[:~]/g, '_')}.html`

/** A glossary term's anchor: its words in lower case, joined by dashes. */
export const termAnchor = (term: string) => `term-${term.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')}`

/** The line a chapter page gives a rule: its text cut at about 120 characters with "…". */
export function cutText(text: string, max = 120): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  // Code points counted up to the cut, not the whole text spread into an array.
  let end = 0
  let count = 0
  for (const ch of flat) {
    if (count === max) return `${flat.slice(0, end).trimEnd()}…`
    end += ch.length
    count++
  }
  return flat
}

export interface Chapter {
  chapter: string
  title: string
  sections: Section[]
  ruleCount: number
}

export interface Section {
  section: string
  title: string
  rules: SiteRelease['rules']
}

/** The release's rules grouped by chapter and section, in document order. */
export function chaptersOf(release: SiteRelease): Chapter[] {
  const chapters: Chapter[] = []
  for (const rule of release.rules) {
    const place = release.places.get(rule.number)
    const chapter = place?.chapter ?? rule.number[0]!
    const section = place?.section ?? rule.number.slice(0, 3)
    let c = chapters.at(-1)
    if (c?.chapter !== chapter) chapters.push((c = { chapter, title: place?.chapter_title ?? '', sections: [], ruleCount: 0 }))
    let s = c.sections.at(-1)
    if (s?.section !== section) c.sections.push((s = { section, title: place?.section_title ?? '', rules: [] }))
    s.rules.push(rule)
    c.ruleCount++
  }
  return chapters
}

/**
 * The glossary terms linked where a text uses them: names of two words or more ("mana ability"), and
 * keyword abilities and actions (a term whose entry cites a rule of 701 or 702: "Trample"). A single
 * common word ("Card", "If", "Your") would make a link of most words.
 */
export function linkedTerms(glossary: GlossaryEntry[]): GlossaryEntry[] {
  return glossary.filter((g) => !g.obsolete && (/\s/.test(g.term) || g.see.some((n) => /^70[12]\./.test(n))))
}

/**
 * How a page at a path links citations and glossary terms of this release. What it looks up (the
 * rule numbers, sections, dangling citations, the glossary's names) is made once for the release,
 * not once a page: a release of many sections would pay the square of its rules.
 */
export function linkTargetsOf(release: SiteRelease, chapters: Chapter[]): (path: string) => LinkTargets {
  const numbers = new Set(release.rules.map((r) => r.number))
  const sections = new Set(chapters.flatMap((c) => c.sections.map((s) => s.section)))
  const chapterSet = new Set(chapters.map((c) => c.chapter))
  const dangling = new Map<string, string>()
  for (const d of release.report.diagnostics) {
    // A target is a rule number (the schema leaves params open: anything else is not one).
    const target = d.params?.target
    if (d.code === 'dangling-reference' && d.number && typeof target === 'string') dangling.set(`${d.number} ${target}`, d.message)
  }
  const terms = glossaryLinks(linkedTerms(release.glossary).map((g) => ({ names: g.term.split(/,\s*/), url: `glossary.html#${termAnchor(g.term)}` })))
  return (path) => {
    const root = rootOf(path)
    return {
      urlOf(target, kind) {
        if (kind === 'rule') return numbers.has(target) ? root + ruleUrl(target) : null
        if (kind === 'section') return sections.has(target) ? root + sectionUrl(target) : null
        return chapterSet.has(target) ? root + chapterUrl(target) : null
      },
      danglingWhy: (source, target) => dangling.get(`${source} ${target}`) ?? null,
      glossary: {
        uses: terms.uses,
        urlOf: (term) => {
          const url = terms.urlOf(term)
          return url === undefined ? undefined : root + url
        },
      },
    }
  }
}

function summary(release: SiteRelease): Markup {
  const { counts, diagnostics } = release.report
  const byCode = Object.entries(counts.byCode ?? {}).sort(([a], [b]) => (a < b ? -1 : 1))
  const numbers = new Set(release.rules.map((r) => r.number))
  return html`<h2>Validation</h2>
<p>${counts.errors} ${plural(counts.errors, 'error')}, ${counts.warnings} ${plural(counts.warnings, 'warning')}${byCode.length ? html` (${byCode.map(([code, n], i) => html`${i ? ', ' : ''}${n} ${code}`)})` : ''}.</p>
${diagnostics.length ? html`<ul>${diagnostics.slice(0, 200).map((d) => html`<li><strong>${d.severity}</strong> ${d.code}: ${d.number && numbers.has(d.number) ? html`<a href="${ruleUrl(d.number)}">${d.number}</a> ` : ''}${d.message}</li>\n`)}</ul>` : ''}`
}

export function homePage(release: SiteRelease, chapters: Chapter[], extra: Markup | null): Page {
  return {
    path: 'index.html',
    title: `Comprehensive Rules, effective ${release.effective}`,
    body: html`<h1>Comprehensive Rules, effective ${release.effective}</h1>
<p class="muted">Source: ${release.sourceFile} (sha256 <code>${release.sha256}</code>)</p>
<p>${release.rules.length} rules and subrules, ${release.rules.reduce((n, r) => n + r.examples.length, 0)} examples, <a href="glossary.html">${release.glossary.length} glossary entries</a>.</p>
<h2>Chapters</h2>
<ul class="rules">${chapters.map((c) => html`<li><a href="${chapterUrl(c.chapter)}">${c.chapter}00. ${c.title}</a> <span class="count">${c.ruleCount} rules in this chapter</span></li>\n`)}</ul>
${extra ?? ''}
${summary(release)}`,
  }
}

export function chapterPage(c: Chapter): Page {
  const rules = c.sections.flatMap((s) => s.rules)
  return {
    path: chapterUrl(c.chapter),
    title: `${c.chapter}00. ${c.title}`,
    body: html`<h1>${c.chapter}00. ${c.title}</h1>
<p class="count">${c.ruleCount} rules in this chapter</p>
<ul class="rules chapter">${rules.map((r) => html`<li><a href="../${ruleUrl(r.number)}">${r.number}</a> — ${cutText(r.text)}</li>\n`)}</ul>`,
  }
}

/** A section's page: every rule whole, paragraphs as paragraphs, examples apart, links in the text. */
export function sectionPage(targetsAt: (path: string) => LinkTargets, s: Section, prev: Section | null, next: Section | null, timelines: Map<string, string> | null): Page {
  const path = sectionUrl(s.section)
  const targets = targetsAt(path)
  // A glossary term is linked at its first use on the page: every use would make a link of most words.
  const linked = new Set<string>()
  return {
    path,
    title: `${s.section}. ${s.title}`,
    body: html`<h1>${s.section}. ${s.title}</h1>
${s.rules.map((r) => {
  const timeline = timelines?.get(r.number)
  return html`<div class="rule" id="${r.number}"><a class="num" href="#${r.number}">${r.number}</a>${timeline ? html` <a class="muted" href="../${timeline}">history</a>` : ''}
${r.text.split('\n').map((p) => html`<p>${linkedText(p, r.number, targets, linked)}</p>`)}
${r.examples.map((e) => html`<p class="example">Example: ${linkedText(e, r.number, targets, linked)}</p>`)}</div>\n`
})}
<nav class="pager" aria-label="Sections">${prev ? html`<a href="${prev.section}.html">← ${prev.section}. ${prev.title}</a>` : html`<span></span>`}${next ? html`<a href="${next.section}.html">${next.section}. ${next.title} →</a>` : ''}</nav>`,
  }
}

// The rules a glossary entry names as using it (the first ones): the page stays under 500 KB.
const USES_SHOWN = 6

/** The glossary: each term with its anchor, its definition with links, and the rules that use it. */
export function glossaryPage(release: SiteRelease, targetsAt: (path: string) => LinkTargets): Page {
  const targets = targetsAt('glossary.html')
  const usedBy = termUses(release)
  const linked = new Set<string>()
  return {
    path: 'glossary.html',
    title: 'Glossary',
    body: html`<h1>Glossary</h1>
<dl>${release.glossary.map((g) => {
  const uses = usedBy.get(g.term) ?? []
  return html`<dt id="${termAnchor(g.term)}">${g.term}${g.obsolete ? html` <span class="muted">(Obsolete)</span>` : ''}</dt>
<dd>${g.definition.split('\n').map((p) => html`<p>${linkedText(p, `glossary:${g.term}`, targets, linked, g.term)}</p>`)}${uses.length ? html`<p class="muted">Used in ${uses.slice(0, USES_SHOWN).map((n, i) => html`${i ? ', ' : ''}<a href="${ruleUrl(n)}">${n}</a>`)}${uses.length > USES_SHOWN ? ` and ${uses.length - USES_SHOWN} more rules` : ''}</p>` : ''}</dd>\n`
})}</dl>`,
  }
}

/** The rules whose text uses each glossary term (as the rule pages link it), in document order. */
function termUses(release: SiteRelease): Map<string, string[]> {
  const terms = linkedTerms(release.glossary)
  const links = glossaryLinks(terms.map((g) => ({ names: g.term.split(/,\s*/), url: g.term })))
  const uses = new Map<string, string[]>()
  for (const r of release.rules) {
    const seen = new Set<string>()
    for (const m of links.uses(`${r.text}\n${r.examples.join('\n')}`)) {
      const term = links.urlOf(m.text)
      if (term === undefined || seen.has(term)) continue
      seen.add(term)
      const list = uses.get(term)
      if (list) list.push(r.number)
      else uses.set(term, [r.number])
    }
  }
  return uses
}

export type { GlossaryEntry }
