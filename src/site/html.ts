// The one escaping helper of the site: every value put into a page goes through `html` (or `escapeHtml`),
// and only markup made by `html` itself is passed through as it is.

/** Markup already escaped: made by `html`, or `raw` for what the site writes itself. */
export class Markup {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value
  }
}

/** Trusted markup the site writes itself (never data). */
export const raw = (value: string) => new Markup(value)

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/**
 * Text or an attribute value as HTML: `& < > " '` as entities; a control character (which HTML does
 * not allow) as its visible picture (U+2400 + code, ␡ for DEL), a C1 control as U+FFFD; tab and
 * newline kept.
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']|[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, (c) => {
    const entity = ENTITIES[c]
    if (entity) return entity
    const code = c.charCodeAt(0)
    if (code < 0x20) return String.fromCharCode(0x2400 + code)
    return code === 0x7f ? '\u2421' : '\ufffd'
  })
}

type Part = Markup | string | number | null | undefined | false | readonly Part[]

function render(part: Part): string {
  if (part === null || part === undefined || part === false) return ''
  if (part instanceof Markup) return part.value
  if (Array.isArray(part)) return part.map(render).join('')
  return escapeHtml(String(part))
}

/** A template of markup: every interpolated value escaped, but Markup (and arrays of it) kept. */
export function html(strings: TemplateStringsArray, ...values: Part[]): Markup {
  let out = strings[0]!
  for (let i = 0; i < values.length; i++) out += render(values[i]!) + strings[i + 1]!
  return new Markup(out)
}

/** A JSON value for a <script> element: `<`, U+2028 and U+2029 escaped, so no text can close the element. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029')
}
