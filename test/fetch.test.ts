import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCommand } from '../src/cli/cli.js'
import { findTextLink } from '../src/fetch/fetch-release.js'
import { snapshot, inProcess } from './helpers/cli.js'
import { readBytes, release } from './helpers/shared.js'

const cr = readBytes(release('2025-02-07').path)
const older = readBytes(release('2024-03-08').path)
const cut = cr.subarray(0, Math.floor(cr.length / 2))
const crText = new TextDecoder().decode(cr)
const reissue = new TextEncoder().encode(crText.replace('Example:', 'Example :'))
const impossible = new TextEncoder().encode(crText.replaceAll('effective as of February 7, 2025', 'effective as of February 30, 2099'))
// Bytes compared by their digest: toEqual walks a megabyte element by element (seconds a test).
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')
let server: Server
let base: string
let hits: Record<string, number> = {}
let hugeClosed: Promise<number> = Promise.resolve(0)

// A stand-in for the rules website on 127.0.0.1: a page with a link, the text, and what goes wrong.
beforeAll(async () => {
  server = createServer((req, res) => {
    let path = req.url ?? ''
    try {
      path = decodeURIComponent(path)
    } catch {
      // a bad %-escape: served as written (a 404)
    }
    hits[path] = (hits[path] ?? 0) + 1
    // No kept-alive sockets: one test's connection is never reused, half-closed, by the next.
    res.setHeader('connection', 'close')
    const page = (href: string) => `<!doctype html><html><body><a href="/en/rules.pdf">PDF</a> <a href="${href}">TXT</a></body></html>`
    switch (path) {
      case '/en/rules':
        return res.writeHead(200, { 'content-type': 'text/html' }).end(page('/downloads/MagicCompRules%2020250207.txt'))
      case '/downloads/MagicCompRules 20250207.txt':
        return res.writeHead(200, { 'content-type': 'text/plain', 'content-length': cr.length }).end(cr)
      case '/html-instead':
        return res.writeHead(200, { 'content-type': 'text/html' }).end(page('/error-page.txt'))
      case '/error-page.txt':
        return res.writeHead(200, { 'content-type': 'text/plain' }).end('<html><body><h1>Service unavailable</h1></body></html>')
      case '/truncated.txt':
        res.writeHead(200, { 'content-type': 'text/plain', 'content-length': cr.length })
        res.write(cut)
        return setTimeout(() => res.socket?.destroy(), 20)
      case '/half-a-text.txt':
        return res.writeHead(200, { 'content-type': 'text/plain' }).end(cut)
      case '/slow.txt':
        return setTimeout(() => res.writeHead(200).end(cr), 3000)
      case '/flaky.txt':
        if (hits[path] === 1) return res.writeHead(503).end('try later')
        return res.writeHead(200, { 'content-type': 'text/plain' }).end(cr)
      case '/gzip.txt': {
        const packed = gzipSync(cr)
        return res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip', 'content-length': packed.length }).end(packed)
      }
      case '/reset-once.txt':
        if (hits[path] === 1) return req.socket.destroy()
        return res.writeHead(200, { 'content-type': 'text/plain' }).end(cr)
      case '/bad-escape':
        return res.writeHead(200, { 'content-type': 'text/html' }).end(page('/downloads/MagicCompRules%ZZ.txt'))
      case '/impossible-date.txt':
        return res.writeHead(200, { 'content-type': 'text/plain' }).end(impossible)
      case '/reissue.txt':
        return res.writeHead(200, { 'content-type': 'text/plain' }).end(reissue)
      case '/file-link':
        return res.writeHead(200, { 'content-type': 'text/html' }).end(page('file:///etc/MagicCompRules.txt'))
      case '/huge.txt':
        // Says 3 GB, then trickles: a refused body must close the connection, not drain it.
        res.writeHead(200, { 'content-type': 'text/plain', 'content-length': 3_000_000_000 })
        res.write(cut)
        hugeClosed = new Promise((resolve) => res.on('close', () => resolve(Date.now())))
        return
      case '/older.txt':
        return res.writeHead(200, { 'content-type': 'text/plain' }).end(older)
      default:
        return res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not Found</h1>')
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

const fetchInto = (dest: string, url: string, ...more: string[]) => runCommand(['fetch', '--url', url, '--dest', dest, '--retries', '1', ...more])

describe('mtg-rules fetch --url (against a local server)', () => {
  it('follows the page to the text and stores it by its effective date, with its sha256', async () => {
    const dest = mkdtempSync(join(tmpdir(), 'raw-'))
    const run = await fetchInto(dest, `${base}/en/rules`)
    expect(run).toEqual({ exitCode: 0, stdout: join(dest, 'MagicCompRules 20250207.txt') + '\n', stderr: '' })
    expect(sha256(readBytes(join(dest, 'MagicCompRules 20250207.txt')))).toBe(sha256(cr))
    const index = JSON.parse(readFileSync(join(dest, 'index.json'), 'utf8'))
    expect(index['MagicCompRules 20250207.txt']).toEqual({
      sha256: snapshot(dest)['MagicCompRules 20250207.txt'],
      bytes: cr.length,
      effectiveDate: '2025-02-07',
      from: `${base}/downloads/MagicCompRules%2020250207.txt`,
    })
  })

  it('retries a 5xx answer', async () => {
    hits = {}
    const run = await fetchInto(mkdtempSync(join(tmpdir(), 'raw-')), `${base}/flaky.txt`)
    expect([run.exitCode, hits['/flaky.txt']]).toEqual([0, 2])
  })

  it('tries a connection reset again, like any network error', async () => {
    hits = {}
    const run = await runCommand(['fetch', '--url', `${base}/reset-once.txt`, '--dest', mkdtempSync(join(tmpdir(), 'raw-')), '--retries', '0'])
    expect([run.exitCode, hits['/reset-once.txt']]).toEqual([0, 2])
  })

  it('reads a gzip-encoded answer (Content-Length counts the packed bytes)', async () => {
    const dest = mkdtempSync(join(tmpdir(), 'raw-'))
    const run = await fetchInto(dest, `${base}/gzip.txt`)
    expect(run.exitCode).toBe(0)
    expect(sha256(readBytes(join(dest, 'MagicCompRules 20250207.txt')))).toBe(sha256(cr))
  })

  it('keeps both texts when a different one has the same date, and says so', async () => {
    const dest = mkdtempSync(join(tmpdir(), 'raw-'))
    await fetchInto(dest, `${base}/en/rules`)
    const run = await fetchInto(dest, `${base}/reissue.txt`)
    expect(run.exitCode).toBe(0)
    expect(run.stderr).toMatch(/^fetch: .* already holds a different text effective 2025-02-07 \(MagicCompRules 20250207\.txt\); kept both, this one as MagicCompRules 20250207 [0-9a-f]{8}\.txt\n$/)
    const index = JSON.parse(readFileSync(join(dest, 'index.json'), 'utf8'))
    expect(Object.keys(index)).toHaveLength(2)
    expect(sha256(readBytes(join(dest, 'MagicCompRules 20250207.txt')))).toBe(sha256(cr))
  })

  it.each([
    ['missing', null],
    ['damaged', '{"MagicCompRules 20250207.txt": '],
    ['not an object', '[]'],
    ['wrong about a text', JSON.stringify({ 'MagicCompRules 20250207.txt': { sha256: '0'.repeat(64), bytes: 1, effectiveDate: '2025-02-07', from: 'x' } })],
  ] as const)('an index.json %s: the texts are indexed from the files, none replaced, no entry lost', async (_, index) => {
    const dest = mkdtempSync(join(tmpdir(), 'raw-'))
    await fetchInto(dest, `${base}/en/rules`)
    await fetchInto(dest, `${base}/older.txt`)
    if (index === null) rmSync(join(dest, 'index.json'))
    else writeFileSync(join(dest, 'index.json'), index)
    const run = await fetchInto(dest, `${base}/reissue.txt`)
    expect(run.exitCode).toBe(0)
    expect(run.stderr).toMatch(/kept both, this one as MagicCompRules 20250207 [0-9a-f]{8}\.txt\n$/)
    expect(sha256(readBytes(join(dest, 'MagicCompRules 20250207.txt')))).toBe(sha256(cr))
    const rebuilt = JSON.parse(readFileSync(join(dest, 'index.json'), 'utf8'))
    expect(Object.keys(rebuilt)).toHaveLength(3)
    expect(Object.keys(rebuilt)).toEqual(expect.arrayContaining(['MagicCompRules 20240308.txt', 'MagicCompRules 20250207.txt', expect.stringMatching(/^MagicCompRules 20250207 [0-9a-f]{8}\.txt$/)]))
    expect(rebuilt['MagicCompRules 20240308.txt']).toMatchObject({ effectiveDate: '2024-03-08', bytes: older.length })
    // Fetched again, a text already cached is found by its bytes, under whatever name it has.
    const again = await fetchInto(dest, `${base}/reissue.txt`)
    expect([again.exitCode, again.stderr]).toEqual([0, ''])
    expect(readdirSync(dest).filter((n) => n.endsWith('.txt'))).toHaveLength(3)
  })

  it('a body that says 3 GB is refused before it is read, and its connection closed', async () => {
    const dest = mkdtempSync(join(tmpdir(), 'raw-'))
    const refused = await fetchInto(dest, `${base}/huge.txt`)
    const at = Date.now()
    expect([refused.exitCode, refused.stderr]).toEqual([2, `fetch: ${base}/huge.txt is 3000000000 bytes, more than the 16777216 allowed\n`])
    expect((await hugeClosed) - at).toBeLessThan(2_000)
    // Written apart from its value, a dash is one line too.
    const dashed = await runCommand(['fetch', '--retries', '-1'])
    expect(dashed.exitCode).toBe(2)
    expect(dashed.stderr.split('\n')).toEqual([expect.stringMatching(/^mtg-rules fetch: --retries takes a value, and one that starts with a dash is written --retries=VALUE \(usage: /), ''])
  })

  it('loses no index entry when two fetches run at once', async () => {
    const dest = mkdtempSync(join(tmpdir(), 'raw-'))
    const runs = await Promise.all([fetchInto(dest, `${base}/en/rules`), fetchInto(dest, `${base}/older.txt`)])
    expect(runs.map((r) => r.exitCode)).toEqual([0, 0])
    expect(Object.keys(JSON.parse(readFileSync(join(dest, 'index.json'), 'utf8')))).toEqual(['MagicCompRules 20240308.txt', 'MagicCompRules 20250207.txt'])
  })

  const failures: [string, string, string[], RegExp][] = [
    ['a 404', '/gone', [], /^fetch: http:\/\/127\.0\.0\.1:\d+\/gone answered HTTP 404$/],
    ['an HTML page instead of the text', '/html-instead', [], /^fetch: http:\/\/127\.0\.0\.1:\d+\/error-page\.txt did not give a Comprehensive Rules text \(parse: .* is not a Comprehensive Rules text/],
    ['a truncated body', '/truncated.txt', [], /^fetch: http:\/\/127\.0\.0\.1:\d+\/truncated\.txt was cut short/],
    ['half a text, whole as far as HTTP knows', '/half-a-text.txt', [], /^fetch: .*half-a-text\.txt is not a whole Comprehensive Rules text: no "Glossary" after the rules body/],
    ['a slow server', '/slow.txt', ['--timeout', '300'], /^fetch: http:\/\/127\.0\.0\.1:\d+\/slow\.txt did not answer within 300 ms \(after 2 tries\)$/],
    ['a link with a bad %-escape', '/bad-escape', [], /^fetch: http:\/\/127\.0\.0\.1:\d+\/downloads\/MagicCompRules%ZZ\.txt answered HTTP 404$/],
    ['a page whose only .txt link is a file: link', '/file-link', [], /^fetch: no link to a \.txt file on http:\/\/127\.0\.0\.1:\d+\/file-link$/],
    ['a time-out past what a timer holds', '/en/rules', ['--timeout', '3000000000'], /^mtg-rules fetch: --timeout takes a whole number from 0 to 2147483647, not "3000000000" \(usage: /],
    ['a negative number of retries', '/en/rules', ['--retries=-1'], /^mtg-rules fetch: --retries takes a whole number from 0 to 100, not "-1" \(usage: /],
    ['an impossible effective date (February 30)', '/impossible-date.txt', [], /^fetch: .*impossible-date\.txt has no "These rules are effective as of …" line with a real date$/],
  ]
  it.each(failures)('%s: exit 2, one line, the cache unchanged', async (_, path, more, message) => {
    const dest = mkdtempSync(join(tmpdir(), 'raw-'))
    await fetchInto(dest, `${base}/en/rules`)
    const before = snapshot(dest)
    const run = await fetchInto(dest, `${base}${path}`, ...more)
    expect(run.exitCode).toBe(2)
    expect(run.stderr.trimEnd()).toMatch(message)
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1)
    expect(snapshot(dest)).toEqual(before)
  })
})

describe('mtg-rules fetch refuses what can never work, without retrying', () => {
  it('an unsupported scheme', async () => {
    const run = await runCommand(['fetch', '--url', 'ftp://example.invalid/MagicCompRules.txt', '--dest', mkdtempSync(join(tmpdir(), 'raw-'))])
    expect(run).toEqual({ exitCode: 2, stdout: '', stderr: 'fetch: ftp://example.invalid/MagicCompRules.txt: only http and https are supported, not ftp:\n' })
  })
})

describe('findTextLink', () => {
  it('prefers the rules text and resolves it against the page', () => {
    const html = '<a href="notes.txt">x</a><a href=\'https://media.example/2026/MagicCompRules 20260619.txt\'>y</a>'
    expect(findTextLink(html, 'https://magic.example/en/rules')).toBe('https://media.example/2026/MagicCompRules%2020260619.txt')
    expect(findTextLink('<a href="a/b.txt?x=1&amp;y=2">', 'https://h/en/rules')).toBe('https://h/en/a/b.txt?x=1&y=2')
    expect(findTextLink('<p>no links</p>', 'https://h/')).toBeNull()
  })
})

describe('a same-date re-issue (another file, the same effective date)', () => {
  it('is diffed against the first issue of its date, and its dataset names the publisher’s file, not the cache’s', async () => {
    const { cli } = await import('./helpers/cli.js')
    const archive = mkdtempSync(join(tmpdir(), 'reissue-archive-'))
    const raw = mkdtempSync(join(tmpdir(), 'reissue-raw-'))
    // The first issue of 2025-02-07, then the publisher re-issues the same date under a later file name.
    writeFileSync(join(archive, 'MagicCompRules 20240308.txt'), older)
    writeFileSync(join(archive, 'MagicCompRules 20250207.txt'), cr)
    expect((await inProcess(['fetch', '--from', archive, '--dest', raw])).status).toBe(0)
    rmSync(join(archive, 'MagicCompRules 20250207.txt'))
    writeFileSync(join(archive, 'MagicCompRules 20250214.txt'), reissue)
    const fetched = await inProcess(['fetch', '--from', archive, '--dest', raw])
    expect(fetched.status).toBe(0)
    const cached = fetched.stdout.trim()
    expect(cached).toMatch(/MagicCompRules 20250207 [0-9a-f]{8}\.txt$/)
    writeFileSync(join(raw, 'MagicCompRules 20240308.txt'), older)
    // The release before the re-issue is the first issue of its date, not 2024-03-08.
    expect((await inProcess(['previous', raw, cached])).stdout).toBe(`${join(raw, 'MagicCompRules 20250207.txt')}\n`)
    expect((await inProcess(['previous', raw, join(raw, 'MagicCompRules 20250207.txt')])).stdout).toBe(`${join(raw, 'MagicCompRules 20240308.txt')}\n`)
    // Built from the cache, the dataset names the file the publisher gave.
    const out = join(mkdtempSync(join(tmpdir(), 'reissue-out-')), 'out')
    expect((await inProcess(['build', cached, '--out', out])).status).toBe(0)
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'))
    expect([manifest.source.file, manifest.source.effectiveDate]).toEqual(['MagicCompRules 20250214.txt', '2025-02-07'])
    expect(readFileSync(join(out, 'README.md'), 'utf8')).not.toContain(cached.split('/').pop())
  })
})

describe('fetch --from into the folder it copies from', () => {
  it('is refused (exit 2, one line), the archive as it was: --dest is the archive, or a folder inside it', async () => {
    const { cli } = await import('./helpers/cli.js')
    const archive = mkdtempSync(join(tmpdir(), 'self-archive-'))
    // Named as another archive may name its texts: a copy into the archive would be a second file.
    writeFileSync(join(archive, 'cr-2025-02-07.txt'), cr)
    const before = snapshot(archive)
    for (const dest of [archive, join(archive, '.'), join(archive, 'raw')]) {
      const run = await inProcess(['fetch', '--from', archive, '--dest', dest])
      expect([run.status, run.stdout], dest).toEqual([2, ''])
      expect(run.stderr).toMatch(/^mtg-rules fetch: --dest .* is the folder --from reads, or inside it: choose another cache folder \(the default is raw\) \(usage: /)
      expect(snapshot(archive)).toEqual(before)
      expect(readdirSync(archive)).toEqual(['cr-2025-02-07.txt'])
    }
    // Through a link to the archive, to a folder not made yet: still inside it.
    const { symlinkSync } = await import('node:fs')
    const link = join(archive, '..', `${archive.split('/').pop()}-link`)
    symlinkSync(archive, link)
    const linked = await inProcess(['fetch', '--from', archive, '--dest', join(link, 'raw')])
    expect([linked.status, linked.stdout]).toEqual([2, ''])
    expect(readdirSync(archive)).toEqual(['cr-2025-02-07.txt'])
    // Beside it, or above it: copied as always.
    const beside = join(archive, '..', `${archive.split('/').pop()}-raw`)
    expect((await inProcess(['fetch', '--from', archive, '--dest', beside])).stdout).toBe(`${join(beside, 'MagicCompRules 20250207.txt')}\n`)
  })
})
