import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { buildDataset } from '../src/build.js'
import { ByteView } from '../src/clean-view.js'
import { extractReferences } from '../src/references.js'
import { readBytes, releases } from './helpers/shared.js'

const RUNS = Math.max(200, Math.round(Number(process.env.FUZZ_RUNS ?? 2000)))

/** What the view says of each text, laid out one after another as the proofs read them. */
function citingOf(texts: string[]): string[] {
  const bytes = Buffer.from(texts.join('\n'), 'utf8')
  const view = new ByteView()
  view.load(bytes, 0, bytes.length)
  let at = 0
  return texts.map((t) => {
    const end = at + Buffer.byteLength(t)
    const out = view.citing(at, end)
    at = end + 1
    return out
  })
}

// ByteView.citing keeps a text from being decoded and searched when it cannot cite: it must never
// say so of a text that does (the proof would then miss a dangling citation).
describe('the view gives every text that cites for its citations', () => {
  it('in every text and example of every release', () => {
    let citing = 0
    let skipped = 0
    for (const r of releases()) {
      const rows = buildDataset(r.file, readBytes(r.path)).rows
      const texts = rows.flatMap((row) => [row.text, ...row.examples])
      const seen = citingOf(texts)
      texts.forEach((t, i) => {
        if (extractReferences(t, 'x').length > 0) {
          citing++
          expect(seen[i]).toBe(t)
        } else if (seen[i] === '') skipped++
      })
    }
    // Most texts that cite nothing are not decoded at all (the point of it).
    expect(citing).toBeGreaterThan(4000)
    expect(skipped).toBeGreaterThan(citing)
  })

  it('in texts made of keywords, spaces of every kind, digits and letters, in any case', () => {
    const pieces = ['rule', 'Rules', 'RULE', 'sEe', 'section', 'Sections', 'xsee', 'rulez', 'ru', 'le', ' ', '  ', '\t', '\n', '\u00a0', '\u2009', '\u3000', '\ufeff', 'é', '—', '1', '100.1', '7', '.', ',', '_', 'a', '-', '–']
    fc.assert(
      fc.property(fc.array(fc.array(fc.constantFrom(...pieces), { maxLength: 8 }).map((p) => p.join('')), { minLength: 1, maxLength: 6 }), (texts) => {
        const seen = citingOf(texts)
        texts.forEach((t, i) => {
          if (extractReferences(t, 'x').length > 0) expect(seen[i]).toBe(t)
        })
      }),
      { numRuns: RUNS },
    )
  })

  it('names the ones it leaves out', () => {
    expect(citingOf(['deals 3 damage', 'See rule 100.1.', 'xsee 100.1', 'RULES\u00a0 701.2', 'sections 1 and 2', 'rule_ 7'])).toEqual(['', 'See rule 100.1.', '', 'RULES\u00a0 701.2', 'sections 1 and 2', ''])
  })
})
