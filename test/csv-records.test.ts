import { parse } from 'csv-parse/sync'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { csvRecords, MAX_CSV_RECORD } from '../src/exports/read/csv-records.js'
import { validateSource } from '../src/validate/validate.js'

async function* pieces(text: string, cuts: number[]) {
  let at = 0
  for (const c of [...cuts].sort((a, b) => a - b)) {
    if (c <= at || c >= text.length) continue
    yield text.slice(at, c)
    at = c
  }
  yield text.slice(at)
}
const read = async (text: string, cuts: number[] = []) => {
  const out = []
  for await (const batch of csvRecords('t.csv', pieces(text, cuts))) out.push(...batch)
  return out
}
const field = fc.oneof(fc.string(), fc.constantFrom('', 'a,b', 'say "hi"', 'two\nlines', 'cr\rlf', 'crlf\r\nx', '"', '""'))
const quote = (f: string) => (/[",\r\n]/.test(f) || f === '' ? `"${f.replace(/"/g, '""')}"` : f)

describe('the fast CSV tokenizer', () => {
  it('gives csv-parse’s records, whatever the quoting and wherever the pieces are cut (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(field, { minLength: 3, maxLength: 3 }), { minLength: 1, maxLength: 12 }), fc.array(fc.nat(400)), fc.constantFrom('\r\n', '\n'), async (rows, cuts, eol) => {
        const text = rows.map((r) => r.map(quote).join(',')).join(eol) + eol
        const ours = await read(text, cuts)
        expect(ours.map((r) => r.fields)).toEqual(parse(text, { relax_column_count: true }))
      }),
      { numRuns: 300, seed: 42 },
    )
  })

  it('counts the lines of records with line breaks inside fields', async () => {
    const records = await read('a,b\r\n"one\r\ntwo",x\r\nc,d\r\n')
    expect(records.map((r) => [r.line, r.endLine])).toEqual([
      [1, 1],
      [2, 3],
      [4, 4],
    ])
  })

  it('hands what is outside the subset to csv-parse, with the file’s line numbers', async () => {
    const lines = ['number,text', ...Array.from({ length: 50 }, (_, i) => `100.${i + 1},plain`), '100.51,a "quoted" word', '100.52,after']
    await expect(read(lines.join('\n') + '\n')).rejects.toThrow(/^read: t\.csv: Invalid Opening Quote: a quote is found on field 1 at line 52, value is "a "$/)
    const unclosed = 'number,text\n100.1,"never closed\n100.2,x\n'
    await expect(read(unclosed)).rejects.toThrow(/^read: t\.csv: Quote Not Closed: the parsing is finished with an opening quote at line 3$/)
  })

  it('strips a byte order mark', async () => {
    expect((await read('\uFEFFa,b\nc,d\n'))[0]!.fields).toEqual(['a', 'b'])
  })

  it('gives the records before one that is too long first: what is wrong with them is said first', async () => {
    const header = 'number,text,examples,index\n'
    const tooLong = `100.2,"${'y'.repeat(MAX_CSV_RECORD + 1)}`
    await expect(validateSource('rules.csv', new TextEncoder().encode(`${header}100.1,"Text.",[],0,extra\n${tooLong}`))).rejects.toThrow(/Invalid Record Length: expect 4, got 5 on line 2$/)
    await expect(validateSource('rules.csv', new TextEncoder().encode(`${header}100.1,"Text.",[],0\n${tooLong}`))).rejects.toThrow(/the record at line 3 is longer than 16777216 characters$/)
  })
})
