import { html, type Markup } from './html.js'

/** A page of the site: its path (relative, `/`-separated) and its markup. */
export interface Page {
  path: string
  title: string
  body: Markup
  /** Scripts of the site this page loads, relative to the site's root. */
  scripts?: string[]
}

/** The relative path from a page to the site's root (`''`, `../`): every link is relative. */
export const rootOf = (path: string) => '../'.repeat(path.split('/').length - 1)

/** A page's whole document: the head, the header with the search box, the body. */
export function renderPage(page: Page, siteTitle: string): string {
  const root = rootOf(page.path)
  const scripts = ['assets/search.js', ...(page.scripts ?? [])]
  const document = html`<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${page.title} · ${siteTitle}</title>
<link rel="stylesheet" href="${root}assets/site.css">
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header>
<nav aria-label="Site"><a href="${root}index.html">${siteTitle}</a> <a href="${root}glossary.html">Glossary</a></nav>
<form class="search" role="search" action="${root}search.html" method="get">
<label for="q">Search rules</label>
<input id="q" name="q" type="search" placeholder="704.5a or trample" autocomplete="off">
<button type="submit">Search</button>
</form>
</header>
<main id="main">
${page.body}
</main>
${scripts.map((s) => html`<script src="${root}${s}"></script>\n`)}</body>
</html>
`
  return `<!doctype html>\n${document.value}`
}

export const CSS = `:root { color-scheme: light dark; --fg: #1b1b1b; --bg: #fdfdfc; --muted: #5b5b5b; --link: #0b57a4; --mark: #fff1b8; --line: #d9d9d9; --bad: #a4000f; }
@media (prefers-color-scheme: dark) { :root { --fg: #e8e8e8; --bg: #16181c; --muted: #a8a8a8; --link: #8cc4ff; --mark: #5a4a00; --line: #3a3d44; --bad: #ff8a8a; } }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 52rem; padding: 0 1rem 3rem; font: 1rem/1.55 system-ui, sans-serif; color: var(--fg); background: var(--bg); }
a { color: var(--link); }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible { outline: 3px solid var(--link); outline-offset: 2px; }
.skip { position: absolute; left: -999px; } .skip:focus { left: 1rem; top: 1rem; background: var(--bg); padding: .25rem .5rem; }
header { display: flex; flex-wrap: wrap; gap: .5rem 1.5rem; align-items: center; justify-content: space-between; padding: .75rem 0; border-bottom: 1px solid var(--line); }
header nav a { margin-right: 1rem; font-weight: 600; }
.search { display: flex; gap: .4rem; align-items: center; }
.search label { position: absolute; left: -999px; }
.search input { width: 14rem; max-width: 60vw; padding: .35rem .5rem; font: inherit; color: var(--fg); background: var(--bg); border: 1px solid var(--muted); border-radius: 4px; }
button, select { font: inherit; padding: .3rem .7rem; color: var(--fg); background: var(--bg); border: 1px solid var(--muted); border-radius: 4px; cursor: pointer; }
h1 { font-size: 1.6rem; line-height: 1.25; }
code { overflow-wrap: anywhere; }
.muted, .count { color: var(--muted); }
ul.rules { list-style: none; padding: 0; } ul.rules li { padding: .15rem 0; }
.rule { padding: .4rem 0 .6rem; border-bottom: 1px solid var(--line); scroll-margin-top: 1rem; }
.rule:target { background: var(--mark); }
.rule .num { font-weight: 700; margin-right: .4rem; }
.rule p { margin: .2rem 0; }
.example { margin: .3rem 0 .3rem 1.2rem; padding-left: .7rem; border-left: 3px solid var(--line); font-style: italic; }
.dangling { color: var(--bad); text-decoration: underline wavy; }
.pager { display: flex; justify-content: space-between; gap: 1rem; margin-top: 2rem; }
table { border-collapse: collapse; } td, th { padding: .2rem .6rem; border-bottom: 1px solid var(--line); text-align: left; }
ins { background: #c9f2c9; text-decoration: none; } del { background: #f6c7c7; }
@media (prefers-color-scheme: dark) { ins { background: #1f4d1f; } del { background: #5a1f1f; } }
svg text { fill: var(--fg); font-size: 11px; }
`
