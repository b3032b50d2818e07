import { plural } from '../core/words.js'
import type { WordChanges } from '../history/row-keys.js'
import { html, scriptJson, type Markup } from './html.js'
import type { Page } from './page.js'
import { ruleUrl, timelineUrl } from './release-pages.js'
import type { HistoryRow, RuleLink } from './site-input.js'

// From a history folder: each rule's timeline (every release where it changed, newest first), a page
// per release with what changed in it, the releases with a chart, and a compare page over any two
// releases (computed in the browser from a file per release).

interface Step {
  release: string
  row: HistoryRow
  previous: HistoryRow | null
}

/** A history's rows: the releases in order (and each one's place), each release's rows and each rule_id's, in release order. */
export interface HistoryIndex {
  releases: string[]
  position: Map<string, number>
  byRelease: Map<string, HistoryRow[]>
  byId: Map<string, HistoryRow[]>
}

// Every page is made from these groups, never by a pass over all the rows per release or per rule:
// a history's pages cost time in proportion to its rows, however many releases it has.
export function lineages(rows: HistoryRow[]): HistoryIndex {
  const byRelease = groupBy(rows, (r) => r.release)
  const releases = [...byRelease.keys()].sort()
  const byId = groupBy(rows, (r) => r.rule_id)
  for (const list of byId.values()) list.sort((a, b) => (a.release < b.release ? -1 : 1))
  return { releases, position: new Map(releases.map((r, i) => [r, i])), byRelease, byId }
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>()
  for (const item of items) {
    const list = out.get(key(item))
    if (list) list.push(item)
    else out.set(key(item), [item])
  }
  return out
}

/** A text's edit as markup: words removed struck (del), words added marked (ins); `changes` is the site's bounded word diff. */
export function wordDiff(before: string, after: string, changes: WordChanges): Markup {
  return html`${(changes(before, after) ?? [{ op: 'equal', text: after }]).map((part) => (part.op === 'insert' ? html`<ins>${part.text}</ins>` : part.op === 'delete' ? html`<del>${part.text}</del>` : part.text))}`
}

const fullText = (r: HistoryRow) => [r.text, ...r.examples.map((e) => `Example: ${e}`)].join('\n')

function stepOf({ release, row, previous }: Step, changes: WordChanges): Markup {
  const at = html`<h2 id="r${release}">${release}: ${row.change}${row.change === 'moved' && previous ? ` from ${previous.number} to ${row.number}` : ''}</h2>`
  if (row.change === 'added') return html`${at}<p class="muted">Added as ${row.number}, with this wording:</p><blockquote>${paragraphs(fullText(row))}</blockquote>`
  if (!previous) return at
  const moved = previous.number !== row.number ? html`<p>Renumbered: ${previous.number} → ${row.number}.</p>` : ''
  const edited = fullText(previous) !== fullText(row) ? html`<blockquote>${wordDiff(fullText(previous), fullText(row), changes)}</blockquote>` : ''
  return html`${at}${moved}${edited}`
}

const paragraphs = (text: string) => html`${text.split('\n').map((p) => html`<p>${p}</p>`)}`

/** A rule's timeline: every release where it changed, newest first (its removal, if removed, on top). */
export function timelinePage(ruleId: string, rows: HistoryRow[], history: HistoryIndex, links: { text: string; url: string | null }[], changes: WordChanges): Page {
  const steps: Step[] = rows.map((row, i) => ({ release: row.release, row, previous: i > 0 ? rows[i - 1]! : null }))
  const changed = steps.filter((s) => s.row.change !== 'unchanged')
  const last = rows.at(-1)!
  const newest = history.releases.at(-1)!
  const after = history.releases[history.position.get(last.release)! + 1]
  const current = last.release === newest
  return {
    path: timelineUrl(ruleId),
    title: `History of ${last.number}`,
    body: html`<h1>History of ${current ? html`<a href="../${ruleUrl(last.number)}">${last.number}</a>` : last.number}</h1>
<p class="muted">Followed through ${rows.length} ${plural(rows.length, 'release')} as one rule (rule_id ${ruleId}); numbers held: ${[...new Set(rows.map((r) => r.number))].join(', ')}.</p>
${links.length ? html`<h2 id="links">Split and merged</h2><ul class="rules">${links.map((l) => html`<li>${l.url ? html`<a href="../${l.url}">${l.text}</a>` : l.text}</li>\n`)}</ul>` : ''}
${!current && after ? html`<h2 id="r${after}">${after}: removed</h2><p>${last.number} is not in the rules from ${after} on.</p>` : ''}
${[...changed].reverse().map((step) => stepOf(step, changes))}`,
  }
}

/** Each release's rules with the row each continues (null when added), and the rules its previous release held last. */
export interface ReleaseChanges {
  here: Map<string, { row: HistoryRow; before: HistoryRow | null }[]>
  removed: Map<string, HistoryRow[]>
}

/** What each release page lists, from one pass over the lineages (in their order: the pages' ties keep it). */
export function releaseChanges(history: HistoryIndex): ReleaseChanges {
  const here: ReleaseChanges['here'] = new Map(history.releases.map((r) => [r, []]))
  const removed: ReleaseChanges['removed'] = new Map(history.releases.map((r) => [r, []]))
  for (const rows of history.byId.values()) {
    rows.forEach((row, i) => {
      // A rule's first row of a release; its predecessor only when held in the release just before.
      if (i > 0 && rows[i - 1]!.release === row.release) return
      const previous = history.releases[history.position.get(row.release)! - 1]
      here.get(row.release)!.push({ row, before: i > 0 && rows[i - 1]!.release === previous ? rows[i - 1]! : null })
    })
    const after = history.releases[history.position.get(rows.at(-1)!.release)! + 1]
    if (after !== undefined) removed.get(after)!.push(rows.at(-1)!)
  }
  return { here, removed }
}

/** What changed in one release, against the one before. */
export function releasePage(release: string, previous: string | null, changesOf: ReleaseChanges, changes: WordChanges): Page {
  const here = changesOf.here.get(release) ?? []
  const removed = [...(changesOf.removed.get(release) ?? [])]
  const byIndex = (a: { row: HistoryRow }, b: { row: HistoryRow }) => a.row.index - b.row.index
  const of = (change: string) => here.filter((h) => h.row.change === change).sort(byIndex)
  const link = (r: HistoryRow) => html`<a href="../${timelineUrl(r.rule_id)}">${r.number}</a>`
  const list = (title: string, items: Markup[]) => html`<h2>${title} (${items.length})</h2>${items.length ? html`<ul class="rules">${items.map((i) => html`<li>${i}</li>\n`)}</ul>` : ''}`
  return {
    path: `releases/${release}.html`,
    title: `Release ${release}`,
    body: html`<h1>Release ${release}</h1>
<p>${here.length} rules${previous ? html`; compared with <a href="${previous}.html">${previous}</a>` : ', the first release of the history'}.</p>
${list('Added', of('added').map((h) => html`${link(h.row)} — ${h.row.text.slice(0, 120)}`))}
${list('Removed', removed.sort((a, b) => a.index - b.index).map((r) => html`${link(r)} — ${r.text.slice(0, 120)}`))}
${list('Moved', of('moved').map((h) => html`${h.before?.number ?? h.row.previous_number ?? '?'} → ${link(h.row)}`))}
${list('Edited', of('edited').map((h) => html`${link(h.row)}: ${h.before ? wordDiff(h.before.text, h.row.text, changes) : h.row.text}`))}
${list('Typography only', of('typography').map((h) => link(h.row)))}`,
  }
}

/** The releases, with one chart (SVG, no script): rules per release, and changes per release. */
export function releasesPage(history: HistoryIndex): Page {
  const stats = history.releases.map((release) => {
    const here = history.byRelease.get(release)!
    return { release, rules: here.length, changes: here.filter((r) => r.change !== 'unchanged').length }
  })
  return {
    path: 'releases/index.html',
    title: 'Releases',
    body: html`<h1>Releases</h1>
<p><a href="../compare.html">Compare any two releases</a></p>
${chart(stats)}
<table><thead><tr><th>Release</th><th>Rules</th><th>Changed or added</th></tr></thead><tbody>
${stats.map((s) => html`<tr><td><a href="${s.release}.html">${s.release}</a></td><td>${s.rules}</td><td>${s.changes}</td></tr>\n`)}</tbody></table>`,
  }
}

function chart(stats: { release: string; rules: number; changes: number }[]): Markup {
  const width = 640
  const height = 220
  const left = 44
  const bottom = 40
  const max = Math.max(1, ...stats.map((s) => s.rules))
  const step = (width - left) / Math.max(1, stats.length)
  const y = (n: number) => Math.round(height - bottom - ((height - bottom - 10) * n) / max)
  const title = `Rules per release, from ${stats[0]?.rules ?? 0} (${stats[0]?.release ?? ''}) to ${stats.at(-1)?.rules ?? 0} (${stats.at(-1)?.release ?? ''}); darker: rules changed or added in that release.`
  return html`<figure><svg role="img" aria-label="${title}" viewBox="0 0 ${width} ${height}" width="100%" style="max-width:${width}px">
<title>${title}</title>
<text x="0" y="${y(max) + 4}">${max}</text><text x="0" y="${height - bottom + 4}">0</text>
${stats.map((s, i) => {
  const x = Math.round(left + i * step + step * 0.15)
  const w = Math.max(2, Math.round(step * 0.7))
  return html`<rect x="${x}" y="${y(s.rules)}" width="${w}" height="${height - bottom - y(s.rules)}" fill="#7aa7d6"><title>${s.release}: ${s.rules} rules</title></rect><rect x="${x}" y="${y(s.changes)}" width="${w}" height="${height - bottom - y(s.changes)}" fill="#1f4e85"><title>${s.release}: ${s.changes} changed or added</title></rect><text x="${x}" y="${height - bottom + 14}" transform="rotate(30 ${x} ${height - bottom + 14})">${s.release}</text>\n`
})}</svg><figcaption class="muted">${title}</figcaption></figure>`
}

/** assets/releases/<date>.js: a release's rules (`rows`, its own) for the compare page (rule_id, number, text). */
export function releaseDataScript(release: string, rows: HistoryRow[]): string {
  const data = rows.map((r) => [r.rule_id, r.number, r.text])
  return `(window.RELEASES = window.RELEASES || {})[${scriptJson(release)}] = ${scriptJson(data)};\n`
}

export function comparePage(releases: string[]): Page {
  const options = (selected: string) => releases.map((r) => html`<option value="${r}"${r === selected ? html` selected` : ''}>${r}</option>`)
  return {
    path: 'compare.html',
    title: 'Compare releases',
    scripts: ['assets/compare.js'],
    body: html`<h1>Compare two releases</h1>
<p>Everything that changed since the rules you last knew: pick the two releases.</p>
<form id="compare"><label>From <select id="from" name="from">${options(releases.at(-2) ?? releases[0]!)}</select></label>
<label>to <select id="to" name="to">${options(releases.at(-1)!)}</select></label> <button type="submit">Compare</button></form>
<div id="result" aria-live="polite"></div>`,
  }
}

/**
 * assets/compare.js: loads the two releases' files (as scripts: a page from file:// may not fetch)
 * and lists the rules added, removed, moved and edited between them, matched by rule_id.
 */
export const COMPARE_SCRIPT = `(function () {
  var form = document.getElementById('compare');
  var out = document.getElementById('result');
  function load(release, done) {
    if (window.RELEASES && window.RELEASES[release]) return done();
    var s = document.createElement('script');
    s.src = 'assets/releases/' + release + '.js';
    s.onload = done;
    document.body.appendChild(s);
  }
  var timeline = ${timelineUrl.toString()};
  function section(title, items) {
    var h = document.createElement('h2');
    h.textContent = title + ' (' + items.length + ')';
    out.appendChild(h);
    var ul = document.createElement('ul');
    ul.className = 'rules';
    items.forEach(function (item) {
      var li = document.createElement('li');
      var a = document.createElement('a');
      a.href = timeline(item.id);
      a.textContent = item.label;
      li.appendChild(a);
      if (item.text) li.appendChild(document.createTextNode(' \\u2014 ' + item.text));
      ul.appendChild(li);
    });
    out.appendChild(ul);
  }
  function compare(from, to) {
    var a = new Map(window.RELEASES[from].map(function (r) { return [r[0], r]; }));
    var b = new Map(window.RELEASES[to].map(function (r) { return [r[0], r]; }));
    var added = [], removed = [], moved = [], edited = [];
    b.forEach(function (r, id) {
      var old = a.get(id);
      if (!old) added.push({ id: id, label: r[1], text: r[2].slice(0, 120) });
      else {
        if (old[1] !== r[1]) moved.push({ id: id, label: old[1] + ' \\u2192 ' + r[1] });
        if (old[2] !== r[2]) edited.push({ id: id, label: r[1], text: r[2].slice(0, 120) });
      }
    });
    a.forEach(function (r, id) { if (!b.has(id)) removed.push({ id: id, label: r[1], text: r[2].slice(0, 120) }); });
    out.textContent = '';
    var p = document.createElement('p');
    p.textContent = 'From ' + from + ' to ' + to + ':';
    out.appendChild(p);
    section('Added', added);
    section('Removed', removed);
    section('Moved', moved);
    section('Edited', edited);
  }
  form.addEventListener('submit', function (event) {
    event.preventDefault();
    var from = form.from.value, to = form.to.value;
    load(from, function () { load(to, function () { compare(from, to); }); });
  });
})();
`

/**
 * Each rule's splits and merges, as lines of its timeline: "2026-06-19: 500.5 merged-from 500.4 of
 * 2025-02-07", each linked to the other rule's timeline; on both rules' timelines.
 */
export function linksByRule(links: RuleLink[], rows: HistoryRow[]): Map<string, { text: string; url: string | null }[]> {
  const idOf = new Map(rows.map((r) => [`${r.release} ${r.number}`, r.rule_id]))
  const out = new Map<string, { text: string; url: string | null }[]>()
  const add = (id: string | undefined, text: string, other: string | undefined) => {
    if (id === undefined) return
    const line = { text, url: other === undefined ? null : timelineUrl(other) }
    const list = out.get(id)
    if (list) list.push(line)
    else out.set(id, [line])
  }
  for (const l of links) {
    const text = `${l.release}: ${l.number} ${l.relation} ${l.previous_number} of ${l.previous_release} (similarity ${l.similarity})`
    const here = idOf.get(`${l.release} ${l.number}`)
    const there = idOf.get(`${l.previous_release} ${l.previous_number}`)
    add(here, text, there)
    add(there, text, here)
  }
  return out
}
