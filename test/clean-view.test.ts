import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { buildDataset } from '../src/build/build.js'
import { ByteScan } from '../src/validate/proof/byte-scan.js'
import { ByteView } from '../src/validate/proof/clean-view.js'
import { extractReferences, forEachReference, forEachReferenceAfter, type ReferenceKind } from '../src/core/citations.js'
import { lettersAt } from '../src/core/rule-number.js'
import { readBytes, releases } from './helpers/shared.js'

const RUNS = Math.max(200, Math.round(Number(process.env.FUZZ_RUNS ?? 2000)))
// make test replays the same cases (a red CI must mean a real change); make fuzz draws new ones.
const SEED = process.env.FUZZ_RUNS === undefined ? { seed: 20261201 } : {}

/**
 * What the view says of each text, laid out one after another as the proofs read them; and that
 * the citations found from where it says they may start are all of them.
 */
function citingOf(texts: string[]): string[] {
  const bytes = Buffer.from(texts.join('\n'), 'utf8')
  const view = new ByteView()
  view.load(bytes, 0, bytes.length)
  let at = 0
  const found = (text: string, how: 'regex' | 'from' | 'keywords') => {
    const out: string[] = []
    const visit = (target: string, kind: string, span: string) => out.push(`${kind} ${target} ${span}`)
    if (how === 'keywords') forEachReferenceAfter(text, view.keywords, view.keywordCount, visit)
    else forEachReference(text, visit, false, how === 'from' ? view.citeFrom : 0)
    return out
  }
  return texts.map((t) => {
    const end = at + Buffer.byteLength(t)
    const out = view.citing(at, end)
    if (out !== '') {
      const all = found(t, 'regex')
      expect(found(out, 'from')).toEqual(all)
      // The keywords the view finds are exactly the pattern's matches, at their UTF-16 places.
      expect(found(out, 'keywords')).toEqual(all)
    }
    at = end + 1
    return out
  })
}

/** Every text and example of each release, in document order (each release built once for the file). */
let texts: string[][] | null = null
const releaseTexts = () => (texts ??= releases().map((r) => buildDataset(r.file, readBytes(r.path)).rows.flatMap((row) => [row.text, ...row.examples])))

// ByteView.citing keeps a text from being decoded and searched when it cannot cite: it must never
// say so of a text that does (the proof would then miss a dangling citation).
describe('the view gives every text that cites for its citations', () => {
  it('in every text and example of every release', () => {
    let citing = 0
    let skipped = 0
    for (const texts of releaseTexts()) {
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
    const pieces = ['rule', 'Rules', 'RULE', 'sEe', 'section', 'Sections', 'xsee', 'rulez', 'ru', 'le', ' and ', ' or ', ' through ', ', ', '601.2f', '-h', '7-9', ' ', '  ', '\t', '\n', '\u00a0', '\u2009', '\u3000', '\ufeff', '\u1680', '\u205f', '\u2028', '\u202f', '\u200b', '\u0085', '😀', '𝟙', 'é', '—', '1', '100.1', '7', '.', ',', '_', 'a', '-', '–']
    fc.assert(
      fc.property(fc.array(fc.array(fc.constantFrom(...pieces), { maxLength: 8 }).map((p) => p.join('')), { minLength: 1, maxLength: 6 }), (texts) => {
        const seen = citingOf(texts)
        texts.forEach((t, i) => {
          if (extractReferences(t, 'x').length > 0) expect(seen[i]).toBe(t)
        })
      }),
      { numRuns: RUNS, ...SEED },
    )
  })

  it('names the ones it leaves out', () => {
    expect(citingOf(['deals 3 damage', 'See rule 100.1.', 'xsee 100.1', 'RULES\u00a0 701.2', 'sections 1 and 2', 'rule_ 7'])).toEqual(['', 'See rule 100.1.', '', 'RULES\u00a0 701.2', 'sections 1 and 2', ''])
  })
})

/**
 * What citeBytes reads of each text, laid out one after another as the proofs read them: its
 * targets (as `kind target`, each once), or null where it leaves the text to the patterns.
 */
function bytesCitationsOf(texts: string[]): (string[] | null)[] {
  const bytes = Buffer.from(texts.join('\n'), 'utf8')
  const view = new ByteView()
  view.load(bytes, 0, bytes.length)
  let at = 0
  return texts.map((t) => {
    const end = at + Buffer.byteLength(t)
    const seen = new Set<string>()
    const sink = {
      citeRule: (section: number, rule: number, rank: number) => {
        // What a packed key holds (clean-proof.ts): else two numbers could share a key.
        expect([section >= 100 && section <= 999, rule >= 1 && rule <= 1023, Number.isInteger(rank) && rank >= 0 && rank <= 1023]).toEqual([true, true, true])
        seen.add(`rule ${section}.${rule}${lettersAt(rank)}`)
      },
      citeTarget: (target: string, kind: ReferenceKind) => void seen.add(`${kind} ${target}`),
    }
    const read = view.citeBytes(at, end, sink)
    at = end + 1
    return read ? [...seen].sort() : null
  })
}

const targetsOf = (text: string) => [...new Set(extractReferences(text, 'x').map((r) => `${r.kind} ${r.target}`))].sort()

// citeBytes spares the proofs decoding a text and running the patterns over it: where it says it
// read a text's citations, they must be exactly the patterns' (else a dangling one would be missed,
// or a good one reported).
describe('citations read from bytes are the patterns\' citations', () => {
  it('in every text and example of every release, nearly all read from bytes', () => {
    let read = 0
    let left = 0
    for (const all of releaseTexts()) {
      const texts = all.filter((t) => extractReferences(t, 'x').length > 0)
      bytesCitationsOf(texts).forEach((targets, i) => {
        if (targets === null) left++
        else {
          read++
          expect(targets).toEqual(targetsOf(texts[i]!))
        }
      })
    }
    expect(read).toBeGreaterThan(4900)
    // Only shapes the patterns would backtrack over, and comma typos, are left to them: hardly any.
    expect(left).toBeLessThan(read / 100)
  })

  it('in texts made of keywords, separators, numbers of every shape, ranges and spaces of every kind', () => {
    const pieces = ['rule ', 'Rules ', 'see ', 'section ', 'sections ', 'SECTION\u00a0', 'rule\u2009', 'xrule ', ' and ', ' or ', ' through ', ' and', ' through', ',and', ', ', ',', ', and ', ',or ', ' andy ', '  and  ', ' ', '\t', '\u00a0', '\u3000', 'é', '—', '–', '-', ' - ', '.', '. ', ',', ')', '"', '_', 'A', 'a', 'l', 'z', '\\', '100.1', '100.1a', '601.2f', '100.1a.5', '100.12.5', '419,8', '100.1a5', '100.01', '012.1', '100.1abc', '100.1l', '704.5ab', '100.99999', '100.1024', '100.1023', '1000', '100', '10', '7', '9.', '8-9', '1', '0', '–h', 'f–h', '-10', '–100.5a', '\u2013', ' – ', '-\u00a0', '-X', 'B', '3']
    fc.assert(
      fc.property(fc.array(fc.array(fc.constantFrom(...pieces), { maxLength: 10 }).map((p) => p.join('')), { minLength: 1, maxLength: 6 }), (texts) => {
        bytesCitationsOf(texts).forEach((targets, i) => {
          if (targets !== null) expect(targets).toEqual(targetsOf(texts[i]!))
        })
      }),
      { numRuns: RUNS, ...SEED },
    )
  })

  it('in ranges of every shape, with what may follow them', () => {
    const keyword = fc.constantFrom('rule ', 'rules ', 'see ', 'section ', 'sections ')
    const start = fc.constantFrom('100.1', '100.1a', '601.2f', '601.2h', '601.2zz', '100.01', '100', '012.1', '1', '100.1l', '100.1024')
    const dash = fc.constantFrom('-', '–', ' –', '– ', ' - ', '\u00a0–', '–\u2009', '  -', '—', '')
    const end = fc.constantFrom('100.5', '100.5a', '101.5', 'h', 'ab', 'l', 'a', 'f', 'zz', 'de', 'abc', 'zzz', '10', '100', '1000', '7', '1', '', '5a', '100.')
    const after = fc.constantFrom('', 'X', '_', ' ', '.', ',', 'a', 'B5', '5', ' and 100.2', ', 102.1', ')', '–h', 'é', '\u00a0')
    const citation = fc.tuple(keyword, start, dash, end, after).map((parts) => parts.join(''))
    fc.assert(
      fc.property(fc.array(fc.array(citation, { minLength: 1, maxLength: 3 }).map((c) => c.join(' ')), { minLength: 1, maxLength: 4 }), (texts) => {
        bytesCitationsOf(texts).forEach((targets, i) => {
          if (targets !== null) expect(targets).toEqual(targetsOf(texts[i]!))
        })
      }),
      { numRuns: RUNS, ...SEED },
    )
  })

  it('reads lists and ranges, with spaces of any kind, and leaves comma typos and backtracking to the patterns', () => {
    expect(bytesCitationsOf(['See rules 100.1, 100.2a, and 101.3.', 'rule 704.5ab or rule 100.1l', 'sections 1, 2 and 100', 'rules 601.2f\u2013h', 'rule 419,8', 'rule 100.1\u00a0and 100.2', 'rule 1000 and 100.1', 'rules 712.9\u201310 and section 1-3', 'rule 100.1a.5'])).toEqual([
      ['rule 100.1', 'rule 100.2a', 'rule 101.3'],
      ['rule 100.1l', 'rule 704.5ab'],
      ['chapter 1', 'chapter 2', 'section 100'],
      ['rule 601.2f', 'rule 601.2g', 'rule 601.2h'],
      null,
      ['rule 100.1', 'rule 100.2'],
      [],
      ['chapter 1', 'rule 712.10', 'rule 712.9'],
      null,
    ])
  })
})

describe('the byte scan, four bytes at a time', () => {
  // What it stands for: a regular expression over the latin1 view, and a byte-by-byte look.
  const gatesOf = (view: string) => [...view.matchAll(/(?=[\s\x80-\xff][0-9])/g)].map((m) => m.index)
  const controlsOf = (b: Uint8Array, from: number, to: number) => {
    const out: number[] = []
    for (let k = from; k < to; k++) if (b[k]! < 0x20 && b[k] !== 0x0a && !(b[k] === 0x0d && k + 1 < to && b[k + 1] === 0x0a)) out.push(k - from)
    return out
  }
  const bytes = fc.array(fc.oneof(fc.constantFrom(0x20, 0x09, 0x0a, 0x0d, 0x0b, 0x30, 0x35, 0x39, 0x2f, 0x3a, 0x80, 0xa0, 0xff, 0x7f, 0x00, 0x1f, 0x5c, 0x41), fc.integer({ min: 0, max: 255 })), { maxLength: 200 })

  it.each([
    ['sixteen at a time (WebAssembly)', true],
    ['four at a time (JavaScript)', false],
  ])('finds the gates and control bytes the plain ways find, at any alignment: %s', (_, simd) => {
    const scan = new ByteScan({ simd })
    fc.assert(
      fc.property(bytes, fc.nat({ max: 7 }), fc.nat({ max: 7 }), fc.boolean(), (values, skip, cut, controls) => {
        const b = Buffer.from(values)
        const from = Math.min(skip, b.length)
        const to = Math.max(from, b.length - cut)
        scan.scan(b, from, to, controls)
        expect([...scan.gates.subarray(0, scan.gateCount)]).toEqual(gatesOf(b.toString('latin1', from, to)))
        expect(scan.controls).toEqual(controls ? controlsOf(b, from, to) : [])
      }),
      { numRuns: RUNS * 5, ...SEED },
    )
  })

  it.each([true, false])('keeps no more control bytes than asked, and says from where it stopped (WebAssembly: %s)', (simd) => {
    const scan = new ByteScan({ simd })
    const b = Buffer.from('a\x01b\x02c\x03d\x04e\n', 'latin1')
    scan.scan(b, 0, b.length, true, 2)
    expect(scan.controls).toEqual([1, 3])
    expect(scan.controlsUpTo).toBe(3)
  })

  it('runs in WebAssembly here (the JavaScript scan is only the fallback)', () => {
    expect((new ByteScan() as unknown as { simd: unknown }).simd).not.toBeNull()
  })
})
