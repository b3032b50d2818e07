import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { chromium, type Browser, type Page } from 'playwright-core'

/**
 * Headless Chromium from Debian's package (make test installs it when missing), driven by
 * playwright-core: no browser is downloaded. CHROMIUM names another binary.
 */
export async function launchChromium(): Promise<Browser> {
  const found = process.env.CHROMIUM ?? ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p)) ?? which('chromium')
  if (!found) throw new Error('Chromium is missing: make test installs it (apt-get install chromium); or set CHROMIUM to its path')
  return chromium.launch({ executablePath: found, args: ['--no-sandbox', '--allow-file-access-from-files'] })
}

function which(name: string): string | undefined {
  try {
    return execFileSync('which', [name], { encoding: 'utf8' }).trim() || undefined
  } catch {
    return undefined
  }
}

/** What went wrong on a page while it was open: console errors, page errors, failed requests, requests to another origin. */
export function watch(page: Page): string[] {
  const problems: string[] = []
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`)
  })
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`))
  page.on('requestfailed', (r) => problems.push(`failed: ${r.url()} (${r.failure()?.errorText})`))
  page.on('request', (r) => {
    if (!r.url().startsWith('file://')) problems.push(`request to another origin: ${r.url()}`)
  })
  return problems
}
