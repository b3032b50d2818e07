import { citationSpans } from '../core/citations.js'
import { append } from '../core/diagnostics.js'
import { html, type Markup } from './html.js'

/** What a text's links point at: the site's paths, relative to the page that shows the text. */
export interface LinkTargets {
  /** The page path of a rule's anchor, a section or a chapter; null when it does not exist. */
  urlOf(target: string, kind: 'rule' | 'section' | 'chapter'): string | null
  /** Why a citation that does not exist is marked (its diagnostic), if the report has one. */
  danglingWhy(source: string, target: string): string | null
  /** Glossary terms to link (longest first), each with its anchor's path. */
  glossary: GlossaryLinks
}

export interface GlossaryLinks {
  pattern: RegExp | null
  urlOf(term: string): string | undefined
}

/** The glossary's terms as one pattern (whole words, any case, longest first) and their anchors. */
export function glossaryLinks(terms: { names: string[]; url: string }[]): GlossaryLinks {
  const urls = new Map<string, string>()
  for (const t of terms) for (const name of t.names) if (!urls.has(name.toLowerCase())) urls.set(name.toLowerCase(), t.url)
  const names = [...urls.keys()].sort((a, b) => b.length - a.length || (a < b ? -1 : 1))
  const escaped = names.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
  return {
    pattern: names.length === 0 ? null : new RegExp(`(?<![\\w-])(?:${escaped.join('|')})(?![\\w-])`, 'giu'),
    urlOf: (term) => urls.get(term.toLowerCase()),
  }
}

/**
 * A rule's text (or an example, or a definition) as markup: every citation a link to its first
 * target (a range `601.2f–h` to 601.2f), a citation of nothing marked with why; each glossary term
 * linked at its first use among the texts sharing `linked`, never the text's own term.
 */
export function linkedText(text: string, source: string, targets: LinkTargets, linked: Set<string>, ownTerm?: string): Markup {
  const parts: (Markup | string)[] = []
  let at = 0
  const plain = (end: number) => {
    if (end > at) append(parts, glossaryParts(text.slice(at, end), targets.glossary, linked, ownTerm))
    at = end
  }
  for (const span of citationSpans(text)) {
    if (span.start < at) continue
    plain(span.start)
    const written = text.slice(span.start, span.end)
    const first = span.targets[0]!
    const url = targets.urlOf(first.target, first.kind)
    const missing = span.targets.find((t) => targets.urlOf(t.target, t.kind) === null)
    if (url !== null && !missing) parts.push(html`<a href="${url}">${written}</a>`)
    else {
      const why = targets.danglingWhy(source, (missing ?? first).target) ?? `${(missing ?? first).target} does not exist in this release`
      parts.push(url === null ? html`<span class="dangling" title="${why}">${written}</span>` : html`<a href="${url}">${written}</a><span class="dangling" title="${why}" aria-label="${why}">?</span>`)
    }
    at = span.end
  }
  plain(text.length)
  return html`${parts}`
}

function glossaryParts(text: string, glossary: GlossaryLinks, linked: Set<string>, ownTerm?: string): (Markup | string)[] {
  if (!glossary.pattern) return [text]
  const parts: (Markup | string)[] = []
  let at = 0
  for (const m of text.matchAll(glossary.pattern)) {
    const url = glossary.urlOf(m[0])
    const key = m[0].toLowerCase()
    if (url === undefined || linked.has(url) || key === ownTerm?.toLowerCase()) continue
    linked.add(url)
    parts.push(text.slice(at, m.index), html`<a class="term" href="${url}">${m[0]}</a>`)
    at = m.index + m[0].length
  }
  parts.push(text.slice(at))
  return parts
}
