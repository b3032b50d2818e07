import { EtlError } from '../core/errors.js'
import { parseDocument } from '../text/parse.js'
import { decode, splitLines } from '../text/decode.js'

/** Where Wizards of the Coast publishes the rules. */
export const RULES_PAGE = 'https://magic.wizards.com/en/rules'

export interface FetchOptions {
  /** The rules page, or the .txt itself (default RULES_PAGE). */
  url?: string
  /** Per request, in milliseconds (default 30000). */
  timeoutMs?: number
  /** Further tries after a network error, time-out or 5xx answer (default 3). */
  retries?: number
  /** First back-off delay in milliseconds, doubled at each retry (default 500). */
  backoffMs?: number
  /** Largest body accepted (default 16 MiB; a CR is about 1 MB). */
  maxBytes?: number
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    url: string,
  ) {
    super(`${url} answered HTTP ${status}`)
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A release as downloaded: its bytes, its effective date (checked: a whole CR text) and where it came from. */
export interface DownloadedRelease {
  bytes: Uint8Array
  effectiveDate: string
  url: string
}

/**
 * Download the newest CR text: read the rules page, follow its link to the .txt and check the text
 * is a whole Comprehensive Rules document with a real effective date (io/files.ts storeRelease then
 * keeps it in the cache). Every failure is an EtlError FETCH_FAILED.
 */
export async function downloadRelease(options: FetchOptions = {}): Promise<DownloadedRelease> {
  const url = options.url ?? RULES_PAGE
  checkUrl(url)
  const get = (target: string) => getWithRetries(target, options)
  const first = await get(url)
  let textUrl = url
  let body = first.body
  if (!looksLikeText(first.contentType, url)) {
    const link = findTextLink(new TextDecoder().decode(first.body), url)
    if (!link) throw new EtlError('FETCH_FAILED', `fetch: no link to a .txt file on ${url}`)
    textUrl = link
    body = (await get(link)).body
  }
  let effectiveDate: string | null
  try {
    const doc = parseDocument(splitLines(decode(body, textUrl).text), textUrl)
    const missing = doc.diagnostics.filter((d) => d.code === 'structure').map((d) => d.message)
    if (missing.length > 0) throw new EtlError('FETCH_FAILED', `fetch: ${textUrl} is not a whole Comprehensive Rules text: ${missing.join('; ')}`)
    effectiveDate = doc.effectiveDate
  } catch (e) {
    if (e instanceof EtlError && e.code !== 'FETCH_FAILED') throw new EtlError('FETCH_FAILED', `fetch: ${textUrl} did not give a Comprehensive Rules text (${e.message})`)
    throw e
  }
  if (!effectiveDate) throw new EtlError('FETCH_FAILED', `fetch: ${textUrl} has no "These rules are effective as of …" line with a real date`)
  return { bytes: body, effectiveDate, url: textUrl }
}

// A URL that can never work is refused at once, not retried.
function checkUrl(url: string) {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new EtlError('FETCH_FAILED', `fetch: ${url} is not a URL`)
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new EtlError('FETCH_FAILED', `fetch: ${url}: only http and https are supported, not ${parsed.protocol}`)
}

const decodeLoosely = (s: string) => {
  try {
    return decodeURIComponent(s)
  } catch {
    // A bad %-escape in a link on the page: compare the link as written.
    return s
  }
}

function looksLikeText(contentType: string, url: string): boolean {
  return contentType.startsWith('text/plain') || /\.txt(?:[?#]|$)/i.test(url)
}

/**
 * The first http(s) link to a .txt on a page, the rules text preferred, resolved against the page
 * URL (a `file:` or `data:` link on a page is never followed).
 */
export function findTextLink(html: string, pageUrl: string): string | null {
  const links = [...html.matchAll(/href\s*=\s*["']([^"']+\.txt(?:\?[^"']*)?)["']/gi)]
    .map((m) => m[1]!.replace(/&amp;/g, '&'))
    .flatMap((l) => {
      try {
        const url = new URL(l, pageUrl)
        return url.protocol === 'http:' || url.protocol === 'https:' ? [{ written: l, href: url.href }] : []
      } catch {
        return []
      }
    })
  return (links.find((l) => /MagicCompRules/i.test(decodeLoosely(l.written))) ?? links[0])?.href ?? null
}

async function getWithRetries(url: string, options: FetchOptions): Promise<{ body: Uint8Array; contentType: string }> {
  const retries = options.retries ?? 3
  let lastError: Error = new Error('no attempt')
  let tries = 0
  for (let attempt = 0; attempt <= retries; attempt++) {
    if (attempt > 0) await sleep((options.backoffMs ?? 500) * 2 ** (attempt - 1))
    tries++
    try {
      return await getOnceOrStale(url, options)
    } catch (e) {
      lastError = e as Error
      // A 4xx answer will not change on retry, and an oversized body is refused at once.
      if ((e instanceof HttpError && e.status < 500) || e instanceof EtlError) break
    }
  }
  if (lastError instanceof EtlError) throw lastError
  throw new EtlError('FETCH_FAILED', `fetch: ${lastError.message}${tries > 1 ? ` (after ${tries} tries)` : ''}`)
}

// A kept-alive socket the server has closed fails the next request with a reset before any answer:
// that is no answer from the server, so it is tried again at once, without using up a retry.
async function getOnceOrStale(url: string, options: FetchOptions) {
  try {
    return await getOnce(url, options)
  } catch (e) {
    if (e instanceof ResetBeforeAnswer) return getOnce(url, options)
    throw e
  }
}

class ResetBeforeAnswer extends Error {}
const RESET = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'ECONNABORTED'])

async function getOnce(url: string, options: FetchOptions): Promise<{ body: Uint8Array; contentType: string }> {
  const timeoutMs = options.timeoutMs ?? 30_000
  const maxBytes = options.maxBytes ?? 16 * 1024 * 1024
  let response: Response
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: 'follow' })
  } catch (e) {
    const code = (e as { cause?: { code?: string } }).cause?.code
    if (code !== undefined && RESET.has(code)) throw new ResetBeforeAnswer(describeFetchError(url, e, timeoutMs))
    throw new Error(describeFetchError(url, e, timeoutMs))
  }
  if (!response.ok) {
    await response.body?.cancel()
    throw new HttpError(response.status, url)
  }
  // Content-Length counts the bytes on the wire: with Content-Encoding (gzip, br), fetch hands over
  // more bytes than that, so the length check applies to unencoded bodies only.
  const encoded = (response.headers.get('content-encoding') ?? 'identity').toLowerCase() !== 'identity'
  const declared = encoded ? NaN : Number(response.headers.get('content-length') ?? NaN)
  if (declared > maxBytes) {
    // Refused before its first byte: the connection is closed, not drained.
    await response.body?.cancel()
    throw new EtlError('FETCH_FAILED', `fetch: ${url} is ${declared} bytes, more than the ${maxBytes} allowed`)
  }
  const chunks: Uint8Array[] = []
  let size = 0
  try {
    for await (const chunk of response.body ?? []) {
      size += chunk.length
      if (size > maxBytes) throw new EtlError('FETCH_FAILED', `fetch: ${url} is more than the ${maxBytes} bytes allowed`)
      chunks.push(chunk)
    }
  } catch (e) {
    if (e instanceof EtlError) throw e
    throw new Error(describeFetchError(url, e, timeoutMs, size))
  }
  if (Number.isFinite(declared) && size !== declared) throw new Error(`${url} was cut short: ${size} of ${declared} bytes`)
  const body = new Uint8Array(size)
  let at = 0
  for (const c of chunks) {
    body.set(c, at)
    at += c.length
  }
  return { body, contentType: response.headers.get('content-type') ?? '' }
}

function describeFetchError(url: string, e: unknown, timeoutMs: number, received?: number): string {
  const err = e as Error & { cause?: { code?: string; message?: string } }
  if (err.name === 'TimeoutError' || err.name === 'AbortError') return `${url} did not answer within ${timeoutMs} ms`
  const cause = err.cause?.code ?? err.cause?.message ?? err.message
  return received === undefined ? `${url} could not be reached (${cause})` : `${url} was cut short after ${received} bytes (${cause})`
}
