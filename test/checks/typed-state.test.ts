import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { boundedDiagnostics } from '../../src/core/bounded.js'
import { diagnostics } from '../../src/core/diagnostics.js'
import { duplicateNumberCheck } from '../../src/checks/duplicate-number.js'
import { NumberIndex } from '../../src/checks/number-index.js'
import { orderCheck } from '../../src/checks/order.js'
import { whereOf, type Check } from '../../src/checks/types.js'
import { compareRuleNumbers, parseRuleNumber } from '../../src/core/rule-number.js'
import { inputOf, rowsOf, run } from '../helpers/rows.js'

// The checks keep their per-row state in typed arrays and a shared index of numbers (flat memory
// at 3M rows). These properties hold them to what the plain Map/Set versions reported.

const letters = fc.constantFrom('', 'a', 'b', 'c', 'k', 'm', 'z', 'aa')
// Mostly CR-shaped numbers, some out of the packed range (rule > 1023), some not numbers at all.
const number = fc.oneof(
  { weight: 8, arbitrary: fc.tuple(fc.integer({ min: 100, max: 104 }), fc.integer({ min: 1, max: 6 }), letters).map(([s, r, l]) => `${s}.${r}${l}`) },
  { weight: 1, arbitrary: fc.tuple(fc.integer({ min: 100, max: 101 }), fc.integer({ min: 1020, max: 1030 }), letters).map(([s, r, l]) => `${s}.${r}${l}`) },
  { weight: 1, arbitrary: fc.constantFrom('100.01', '1000.1', 'x', '') },
)

/** `order` as it was, with a set of every rule's number. */
// The plain definition: a row whose number comes before the previous row's in CR order.
const orderWithASet: Check = {
  code: 'order',
  start() {
    const out = boundedDiagnostics()
    let previous: { text: string; parsed: NonNullable<ReturnType<typeof parseRuleNumber>> } | null = null
    return {
      visit(row) {
        const parsed = row.parsed
        if (!parsed) return
        const num = row.number!
        if (previous && compareRuleNumbers(previous.parsed, parsed) > 0) out.push(diagnostics.order(previous.text, { ...whereOf(row), number: num }))
        previous = { text: num, parsed }
      },
      finish: () => out,
    }
  },
}

describe('checks with typed state report what their Map and Set versions reported', () => {
  it('NumberIndex answers like a Map of first ordinals, across table growth', () => {
    fc.assert(
      fc.property(fc.array(number, { maxLength: 3000 }), (numbers) => {
        const index = new NumberIndex()
        const model = new Map<string, number>()
        numbers.forEach((n, i) => {
          const parsed = parseRuleNumber(n)
          // The index keys by the number's value: 100.01 and 100.1 are one number to it.
          const key = parsed ? `${parsed.section}.${parsed.rule}${parsed.letters}` : n
          expect(index.get(n, parsed)).toBe(model.get(key))
          index.add(n, parsed, i)
          if (!model.has(key)) model.set(key, i)
        })
      }),
      { numRuns: 60, seed: 20261130 },
    )
  })

  it('order, with the shared index, reports what order with a set of rule numbers reported (CR-shaped numbers)', () => {
    const canonical = fc.tuple(fc.integer({ min: 100, max: 103 }), fc.integer({ min: 1, max: 5 }), letters).map(([s, r, l]) => `${s}.${r}${l}`)
    fc.assert(
      fc.property(fc.array(canonical, { maxLength: 200 }), (numbers) => {
        const input = inputOf(rowsOf(...numbers))
        expect(run(orderCheck, input)).toEqual(run(orderWithASet, input))
      }),
      { numRuns: 300, seed: 20261130 },
    )
  })

  it('duplicate-number names the same places with lines, with positions, or with neither', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('100.1', '100.1a', '100.2', '101.1'), { maxLength: 60 }), fc.constantFrom('lines', 'positions', 'shifted', 'late'), (numbers, where) => {
        const rows = rowsOf(...numbers).map((row, i) => {
          const r = { ...row }
          delete r.position
          if (where === 'lines') r.line = 10 + 2 * i
          // late: positions are the ordinals for the first half (nothing kept), then not.
          else r.position = where === 'positions' || (where === 'late' && i < numbers.length / 2) ? i : i + 7
          return r
        })
        const got = run(duplicateNumberCheck, inputOf(rows))
        // The model: the first place of each number, then every repeat counted.
        const first = new Map<string, (typeof rows)[number]>()
        const counts = new Map<string, number>()
        for (const r of rows) {
          if (!first.has(r.number!)) first.set(r.number!, r)
          counts.set(r.number!, (counts.get(r.number!) ?? 0) + 1)
        }
        const repeated = [...counts].filter(([, c]) => c > 1)
        expect(got.map((d) => [d.number, d.params?.count])).toEqual(expect.arrayContaining(repeated.map(([n, c]) => [n, c])))
        expect(got).toHaveLength(repeated.length)
        for (const d of got) {
          const f = first.get(d.number!)!
          const listed = (d.params?.occurrences as { line?: number; position?: number }[])[0]
          expect(listed).toEqual(f.line !== undefined ? { line: f.line } : { position: f.position })
        }
      }),
      { numRuns: 200, seed: 20261130 },
    )
  })
})
