import { describe, expect, it } from 'vitest'
import { buildDataset } from '../src/build/build.js'
import { release, readBytes } from './helpers/shared.js'
import { sampleRows } from './helpers/hf-sample.js'

describe('the public Hugging Face export, built again from CR 2024-03-08', () => {
  const r = release('2024-03-08')
  const ours = new Map(buildDataset(r.file, readBytes(r.path)).rows.map((row) => [row.number, row]))
  const sample = sampleRows()

  it('reads both viewer pages whole', () => {
    expect(sample).toHaveLength(200)
    expect(sample[0]).toMatchObject({ number: '119.2', __index_level_0__: 400 })
    expect(sample.at(-1)).toMatchObject({ number: '704.5a', __index_level_0__: 2299 })
  })

  // The sample README names the defects: the second 704.5a (row 2299) is really 704.7's example.
  const defects = sample.filter((row) => row.__index_level_0__ === 2299)
  const good = sample.filter((row) => !defects.includes(row))

  it.each(good.map((row) => [row.number, row] as const))('row %s equals ours byte for byte', (number, row) => {
    const mine = ours.get(number)
    expect(mine, `no row ${number} in our build`).toBeDefined()
    expect(mine!.text).toBe(row.text)
    expect(mine!.examples).toEqual(row.examples)
  })

  it('the defect row is text of an example in our build, not a rule', () => {
    const [bad] = defects
    expect(bad!.number).toBe('704.5a')
    expect(ours.get('704.5a')!.text).toBe('If a player has 0 or less life, that player loses the game.')
    const owner = [...ours.values()].find((row) => row.examples.includes(bad!.text))
    expect(owner?.number).toBe('704.7')
  })
})
