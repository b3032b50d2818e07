import MiniSearch from 'minisearch'
import { html } from './html.js'
import type { Page } from './page.js'
import { ruleUrl, termAnchor } from './release-pages.js'
import type { SiteRelease } from './site-input.js'
import { scriptJson } from './html.js'

// Search: an index of every rule's text and every glossary term, built when the site is made
// (minisearch) and loaded by the search page as a script (a page opened from file:// may not fetch).

/** The options the index is built and loaded with: the same on both sides. */
export const SEARCH_OPTIONS = {
  fields: ['title', 'text'],
  storeFields: ['title', 'kind', 'url', 'snippet', 'heading'],
  searchOptions: { boost: { title: 3 }, prefix: true, fuzzy: 0.15, combineWith: 'AND' },
} as const

/**
 * The characters of a rule (its examples included) or a definition that the index holds: the
 * longest rule of the shared releases has ~2,900. minisearch's index of one crafted 15 MB rule took
 * ~450 MB; its words past this are not searched.
 */
const INDEXED_CHARACTERS = 20_000

/** assets/search-index.js: the serialised index and each rule number's page. */
export function searchIndexScript(release: SiteRelease): string {
  const index = new MiniSearch({ fields: [...SEARCH_OPTIONS.fields], storeFields: [...SEARCH_OPTIONS.storeFields] })
  const indexed = (text: string) => text.slice(0, INDEXED_CHARACTERS)
  index.addAll([
    ...release.rules.map((r, i) => ({ id: i, kind: 'rule', title: r.number, text: indexed([r.text, ...r.examples].join('\n')), url: ruleUrl(r.number), snippet: snippetOf(r.text), heading: headingOf(r.text) })),
    ...release.glossary.map((g, i) => ({ id: release.rules.length + i, kind: 'term', title: g.term, text: indexed(g.definition), url: `glossary.html#${termAnchor(g.term)}`, snippet: snippetOf(g.definition) })),
  ])
  const options = { fields: SEARCH_OPTIONS.fields, storeFields: SEARCH_OPTIONS.storeFields }
  const rules = Object.fromEntries(release.rules.map((r) => [r.number, ruleUrl(r.number)]))
  return `window.SEARCH = { index: ${scriptJson(JSON.stringify(index))}, options: ${scriptJson(options)}, search: ${scriptJson(SEARCH_OPTIONS.searchOptions)}, rules: ${scriptJson(rules)} };\n`
}

/**
 * A rule whose whole text is a name ("Trample", "Cast", "Mulligan") heads the rules about it: the
 * search page ranks it first among the rules whose words match (its words, in lower case).
 */
const headingOf = (text: string) => (text.length <= 40 && !/[.:;]/.test(text) ? text.toLowerCase() : undefined)

const snippetOf = (text: string) => {
  const flat = text.replace(/\s+/g, ' ')
  return flat.length > 160 ? `${flat.slice(0, 160)}…` : flat
}

export function searchPage(): Page {
  return {
    path: 'search.html',
    title: 'Search',
    scripts: ['assets/minisearch.js', 'assets/search-index.js', 'assets/search-page.js'],
    body: html`<h1>Search</h1>
<p id="status" class="muted" role="status">Type a rule number (704.5a) or words (trample) in the box above.</p>
<h2 id="rules-heading" hidden>Rules</h2>
<ol id="rule-results" class="rules"></ol>
<h2 id="terms-heading" hidden>Glossary</h2>
<ol id="term-results" class="rules"></ol>`,
  }
}

/**
 * assets/search.js, on every page: a rule number typed in the box goes straight to the rule (its
 * section page and anchor); anything else is searched on the search page.
 */
export const SEARCH_BOX_SCRIPT = `(function () {
  var form = document.querySelector('form.search');
  if (!form) return;
  var NUMBER = /^\\s*(\\d{3})(\\.\\d+[a-z]{0,2})?\\.?\\s*$/;
  form.addEventListener('submit', function (event) {
    var m = NUMBER.exec(form.q.value);
    if (!m) return;
    event.preventDefault();
    var root = form.getAttribute('action').replace(/search\\.html$/, '');
    var number = m[1] + (m[2] || '');
    location.href = root + 'rules/' + m[1] + '.html' + (m[2] ? '#' + number : '');
  });
})();
`

/** assets/search-page.js: the results of ?q= on the search page, rules first, then glossary terms. */
export const SEARCH_PAGE_SCRIPT = `(function () {
  var q = new URLSearchParams(location.search).get('q') || '';
  var box = document.getElementById('q');
  if (box) box.value = q;
  if (!q.trim()) return;
  var status = document.getElementById('status');
  var number = /^\\s*(\\d{3}(?:\\.\\d+[a-z]{0,2})?)\\.?\\s*$/.exec(q);
  if (number) {
    var url = window.SEARCH.rules[number[1]] || (/^\\d{3}$/.test(number[1]) ? 'rules/' + number[1] + '.html' : null);
    if (url) { location.replace(url); return; }
    status.textContent = 'There is no rule ' + number[1] + ' in this release.';
    return;
  }
  var index = MiniSearch.loadJSON(window.SEARCH.index, window.SEARCH.options);
  var options = Object.assign({}, window.SEARCH.search, {
    boostDocument: function (id, term, stored) { return stored && stored.heading && stored.heading.split(/\\W+/).indexOf(term) >= 0 ? 4 : 1; }
  });
  var results = index.search(q, options);
  var rules = results.filter(function (r) { return r.kind === 'rule'; });
  var terms = results.filter(function (r) { return r.kind === 'term'; });
  status.textContent = results.length ? rules.length + ' rules and ' + terms.length + ' glossary terms match \\u201c' + q + '\\u201d.' : 'Nothing matches \\u201c' + q + '\\u201d.';
  function show(list, id, heading) {
    var ol = document.getElementById(id);
    document.getElementById(heading).hidden = list.length === 0;
    list.slice(0, 100).forEach(function (r) {
      var li = document.createElement('li');
      var a = document.createElement('a');
      a.href = r.url;
      a.textContent = r.title;
      li.appendChild(a);
      li.appendChild(document.createTextNode(' \\u2014 ' + r.snippet));
      ol.appendChild(li);
    });
  }
  show(rules, 'rule-results', 'rules-heading');
  show(terms, 'term-results', 'terms-heading');
})();
`
