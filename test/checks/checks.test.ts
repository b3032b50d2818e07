import { describe, expect, it } from 'vitest'
import { toCheckRow } from '../../src/checks/run-checks.js'
import { danglingReferenceCheck } from '../../src/checks/dangling-reference.js'
import { duplicateNumberCheck } from '../../src/checks/duplicate-number.js'
import { exampleAsRowCheck } from '../../src/checks/example-as-row.js'
import { gapCheck } from '../../src/checks/gap.js'
import { indexCheck } from '../../src/checks/index-sequence.js'
import { orderCheck } from '../../src/checks/order.js'
import { schemaCheck } from '../../src/checks/schema.js'
import { inputOf, rowsOf, run } from '../helpers/rows.js'

const brief = (list: { code: string; number?: string; position?: number; message: string }[]) => list.map((d) => [d.code, d.number, d.position])

describe('schema', () => {
  it('opens with the code and message of a bad number', () => {
    const [d] = run(schemaCheck, inputOf(rowsOf('100.1l')))
    expect(d).toMatchObject({ code: 'schema', severity: 'error', number: '100.1l', position: 0 })
    expect(d!.message).toBe('/number must match pattern "^[1-9][0-9]{2}\\.[1-9][0-9]*(?:[a-km-np-z]{1,2})?$" (Rule number: section, rule, optional subrule letters (a–z without l and o, then aa, ab, …).)')
  })

  it.each([
    ['704.5aa', true],
    ['100.1', true],
    ['100.1o', false],
    ['100.1abc', false],
    ['100.01', false],
    ['1000.1', false],
  ])('number %s valid: %s', (number, valid) => {
    expect(run(schemaCheck, inputOf(rowsOf(number)))).toHaveLength(valid ? 0 : 1)
  })

  it('collects every error of a row, with its instancePath', () => {
    const row = toCheckRow({ number: '100.1', text: '', examples: ['ok', ''], index: -1, extra: 1 }, { position: 3 })
    const found = run(schemaCheck, inputOf([row])).map((d) => d.params?.instancePath)
    expect(found.sort()).toEqual(['/examples/1', '/extra', '/index', '/text'])
  })
})

describe('duplicate-number', () => {
  it('reports each duplicated number once, at its second row, with the count and the places', () => {
    const found = run(duplicateNumberCheck, inputOf(rowsOf('704.5', '704.5a', '704.5a', '704.5a')))
    expect(brief(found)).toEqual([['duplicate-number', '704.5a', 2]])
    expect(found[0]!.message).toBe('rule 704.5a occurs 3 times (row 1, row 2, row 3)')
    expect(found[0]!.params).toEqual({ count: 3, occurrences: [{ position: 1 }, { position: 2 }, { position: 3 }] })
  })

  it('stays linear when one number repeats 20,000 times: one diagnostic, five places named', () => {
    const found = run(duplicateNumberCheck, inputOf(rowsOf('704.5', ...Array.from({ length: 20_000 }, () => '704.5a'))))
    expect(found).toHaveLength(1)
    expect(found[0]!.message).toBe('rule 704.5a occurs 20000 times (row 1, row 2, row 3, row 4, row 5, … 19995 more)')
  })
})

describe('order', () => {
  it('finds rows sorted as strings', () => {
    const found = run(orderCheck, inputOf(rowsOf('120.1', '120.10', '120.1a', '120.2', '702.99', '702.99c', '702.9', '702.9a')))
    expect(brief(found)).toEqual([
      ['order', '120.1a', 2],
      ['order', '702.9', 6],
    ])
    expect(found[0]!.message).toBe('rule 120.1a comes after 120.10, but CR order puts it before')
  })

  it('knows that letters skip l and o and go on with aa after z', () => {
    expect(run(orderCheck, inputOf(rowsOf('704.5', '704.5k', '704.5m', '704.5n', '704.5p', '704.5z', '704.5aa', '704.5ab')))).toEqual([])
    expect(brief(run(orderCheck, inputOf(rowsOf('704.5', '704.5aa', '704.5z'))))).toEqual([['order', '704.5z', 2]])
  })

  it('reports a subrule before its rule: out of order, and its rule missing above it (a gap)', () => {
    const input = inputOf(rowsOf('100.1a', '100.1'))
    expect(run(orderCheck, input).map((d) => d.message)).toEqual(['rule 100.1 comes after 100.1a, but CR order puts it before'])
    expect(run(gapCheck, input).map((d) => d.message)).toEqual(['rule 100.1a comes at the start of its section: 100.1 is missing'])
  })

  it('a rule number typo (505.54 for 505.5, as in 2010-06-18): its subrules are one gap, not order errors each', () => {
    const input = inputOf(rowsOf('505.1', '505.2', '505.3', '505.4', '505.54', '505.5a', '505.5b', '505.6'))
    expect(run(orderCheck, input).map((d) => d.message)).toEqual(['rule 505.5a comes after 505.54, but CR order puts it before'])
    expect(run(gapCheck, input).map((d) => [d.severity, d.message])).toEqual([
      ['warning', 'rule 505.54 comes after 505.4: 505.5 is missing'],
      ['warning', 'rule 505.5 is missing: subrule 505.5a comes after 505.54 with no rule above it'],
    ])
  })
})

describe('index', () => {
  it('reports a shifted run once, where it starts', () => {
    const rows = rowsOf('100.1', '100.2', '100.3', '100.4')
    rows[1]!.index = 5
    rows[2]!.index = 6
    rows[3]!.index = 3
    // Row 3 is back in step (index 3 at position 3), so only the start of the shift is reported.
    expect(run(indexCheck, inputOf(rows)).map((d) => d.message)).toEqual(['index is 5, expected 1 (row position)'])
  })

  it('accepts 0..n-1 and rejects a non-integer', () => {
    const rows = rowsOf('100.1', '100.2')
    expect(run(indexCheck, inputOf(rows))).toEqual([])
    rows[0]!.index = '0'
    expect(run(indexCheck, inputOf(rows)).map((d) => d.position)).toEqual([0])
  })
})

describe('gap', () => {
  it('reports a skipped letter and a skipped rule, but not l and o', () => {
    const found = run(gapCheck, inputOf(rowsOf('100.1', '100.1a', '100.1c', '100.1k', '100.1m', '100.2', '100.4', '101.1', '101.1a', '101.1b')))
    expect(found.map((d) => d.message)).toEqual([
      'rule 100.1c comes after 100.1a: 100.1b is missing',
      'rule 100.1k comes after 100.1c: 100.1d is missing',
      'rule 100.4 comes after 100.2: 100.3 is missing',
    ])
  })

  it('reports a section that does not start at 1, and a first subrule that is not a', () => {
    expect(run(gapCheck, inputOf(rowsOf('100.2', '100.2b'))).map((d) => d.params?.missing)).toEqual(['100.1', '100.2a'])
  })
})

describe('dangling-reference', () => {
  const rows = rowsOf(
    ['100.1', 'See rules 100.1a and 100.1b–d, section 1 and rule 101.', []],
    ['100.1a', 'See section 8.', ['As rule 100.9 says.']],
    '100.1b',
    '100.1c',
    '101.1',
  )
  it('reports each missing target of a range, the example and the chapter', () => {
    const found = run(danglingReferenceCheck, inputOf(rows))
    expect(found.map((d) => [d.number, d.params?.target, d.params?.span])).toEqual([
      ['100.1', '100.1d', '100.1b–d'],
      ['100.1a', '100.9', '100.9'],
      ['100.1a', '8', '8'],
    ])
  })

  it('reads glossary definitions and names the entry', () => {
    const input = { ...inputOf(rows), glossary: [{ term: 'Map', definition: 'See rule 110.10.', line: 9 }] }
    const found = run(danglingReferenceCheck, input).filter((d) => d.number === 'glossary:Map')
    expect(found).toEqual([
      {
        code: 'dangling-reference',
        severity: 'warning',
        message: 'glossary:Map cites 110.10 (“110.10”), which does not exist',
        number: 'glossary:Map',
        line: 9,
        params: { target: '110.10', span: '110.10' },
      },
    ])
  })
})

describe('example-as-row', () => {
  it('finds a row whose text is an example', () => {
    const found = run(exampleAsRowCheck, 
      inputOf(rowsOf(['704.5a', 'If a player has 0 or less life, that player loses the game.'], ['704.5a', 'You control Lich’s Mirror. You’d lose the game due to rule 704.5a and rule 704.5b.'], ['704.6', 'Example: this is one.'])),
    )
    expect(found.map((d) => [d.number, d.position, d.params?.reason])).toEqual([
      ['704.5a', 1, 'it repeats rule 704.5a and its text cites rule 704.5a itself'],
      ['704.6', 2, 'its text starts with “Example”'],
    ])
  })
})

describe('gap, with rows out of order', () => {
  it('leaves a row that goes backwards to the order check', () => {
    expect(run(gapCheck, inputOf(rowsOf('100.1', '905.1', '100.2')))).toEqual([])
  })
})

describe('the schema check', async () => {
  const fc = await import('fast-check')
  const { schemaCheck, schemaDiagnostics } = await import('../../src/checks/schema.js')
  const { toCheckRow } = await import('../../src/checks/run-checks.js')
  const { runChecks } = await import('../../src/checks/index.js')
  const { sortDiagnostics } = await import('../../src/core/diagnostics.js')
  it('reports exactly what ajv reports, on good and damaged rows alike', () => {
    const value = fc.oneof(fc.constantFrom('100.1', '704.5aa', '100.1l', '99.1', '100.0', '', ' 100.1'), fc.string(), fc.integer({ min: -3, max: 5 }), fc.double(), fc.constant(null), fc.constant(5n), fc.array(fc.oneof(fc.string(), fc.constant(''), fc.integer())))
    const record = fc.record(
      { number: value, text: value, examples: value, index: value, extra: value },
      { requiredKeys: [] },
    )
    fc.assert(
      fc.property(fc.array(record, { maxLength: 20 }), (records) => {
        const rows = records.map((r, position) => toCheckRow(r as Record<string, unknown>, { position }))
        const fast = runChecks({ rows, glossary: [], sections: [] }, [schemaCheck])
        const slow = sortDiagnostics(records.flatMap((r, position) => schemaDiagnostics('rules', r, { ...(typeof r.number === 'string' ? { number: r.number } : {}), position })))
        expect(fast).toEqual(slow)
      }),
      { numRuns: 500, seed: 7 },
    )
  })
})
