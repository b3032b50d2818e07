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
  /** Each use of a term in `text`, left to right, never overlapping (see glossaryLinks). */
  uses(text: string): Generator<{ index: number; text: string }>
  urlOf(term: string): string | undefined
}

/** A name longer than this is not linked (the longest of the shared releases has 33 characters). */
const MAX_LINKED_NAME = 200

// A term is used where it stands as whole words: no letter, digit, `_` or `-` on either side.
const isWordChar = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 45

/**
 * The glossary's terms and their anchors. A use is the longest name (any case) that stands as whole
 * words at the first place one does; the search goes on after it. The names are a trie of their
 * characters, walked from each place a word starts: the work grows with the text, not with the
 * number of terms (one pattern of every name cost the square of a crafted glossary's size). The
 * trie is one map of edges (node and code point → node), not an object per node: a glossary of
 * 80,000 crafted terms took 128 MB that way.
 */
export function glossaryLinks(terms: { names: string[]; url: string }[]): GlossaryLinks {
  const urls = new Map<string, string>()
  for (const t of terms) for (const name of t.names) if (!urls.has(name.toLowerCase())) urls.set(name.toLowerCase(), t.url)
  const edges = new Map<number, number>()
  const ends = new Set<number>()
  // Node 0 is the root; a code point is below 0x110000.
  const edge = (node: number, codePoint: number) => node * 0x110000 + codePoint
  let nodes = 1
  for (const name of urls.keys()) {
    if (name.length === 0 || name.length > MAX_LINKED_NAME) continue
    let node = 0
    for (const ch of name) {
      const key = edge(node, ch.codePointAt(0)!)
      let child = edges.get(key)
      if (child === undefined) edges.set(key, (child = nodes++))
      node = child
    }
    ends.add(node)
  }
  function* uses(text: string): Generator<{ index: number; text: string }> {
    for (let at = 0; at < text.length; ) {
      let end = -1
      if (at === 0 || !isWordChar(text.charCodeAt(at - 1))) {
        let node: number | undefined = 0
        for (let j = at; node !== undefined && j < text.length; ) {
          const ch = String.fromCodePoint(text.codePointAt(j)!)
          for (const lower of ch.toLowerCase()) node = node === undefined ? undefined : edges.get(edge(node, lower.codePointAt(0)!))
          j += ch.length
          if (node !== undefined && ends.has(node) && (j === text.length || !isWordChar(text.charCodeAt(j)))) end = j
        }
      }
      if (end > at && urls.has(text.slice(at, end).toLowerCase())) {
        yield { index: at, text: text.slice(at, end) }
        at = end
      } else at++
    }
  }
  return { uses, urlOf: (term) => urls.get(term.toLowerCase()) }
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
  const parts: (Markup | string)[] = []
  let at = 0
  for (const m of glossary.uses(text)) {
    const url = glossary.urlOf(m.text)
    const key = m.text.toLowerCase()
    if (url === undefined || linked.has(url) || key === ownTerm?.toLowerCase()) continue
    linked.add(url)
    parts.push(text.slice(at, m.index), html`<a class="term" href="${url}">${m.text}</a>`)
    at = m.index + m.text.length
  }
  parts.push(text.slice(at))
  return parts
}
