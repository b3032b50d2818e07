import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { UnitQueue } from '../src/io/proof/prove-shared.js'

// The units of a proof are taken by this thread from the front and by the workers from the back,
// each claimed once in shared memory: every unit is proved, none twice, and a closed queue hands out none.
describe('the units of a proof, taken from both ends (UnitQueue)', () => {
  it('are each taken exactly once, however the takers interleave', () => {
    fc.assert(
      fc.property(fc.nat({ max: 40 }), fc.nat({ max: 3 }), fc.array(fc.nat(), { maxLength: 200 }), (size, workers, turns) => {
        const front = UnitQueue.create(size)
        const takers = [front, ...Array.from({ length: workers }, () => new UnitQueue(front.flags, size, true))]
        const taken: number[][] = takers.map(() => [])
        // One unit a turn, the takers in the given order; then each taker until it gets nothing.
        for (const t of turns) {
          const k = takers[t % takers.length]!.take()
          if (k >= 0) taken[t % takers.length]!.push(k)
        }
        takers.forEach((q, who) => {
          for (let k = q.take(); k >= 0; k = q.take()) taken[who]!.push(k)
        })
        expect(taken.flat().sort((a, b) => a - b)).toEqual([...Array(size).keys()])
        // This thread's units come in order from the front, each worker's in order from the back.
        expect(taken[0]).toEqual([...taken[0]!].sort((a, b) => a - b))
        for (const w of taken.slice(1)) expect(w).toEqual([...w].sort((a, b) => b - a))
      }),
      { numRuns: 2000, seed: 20261201 },
    )
  })

  it('hands out nothing once closed, to either end', () => {
    const front = UnitQueue.create(10)
    const back = new UnitQueue(front.flags, 10, true)
    expect([front.take(), back.take(), front.take()]).toEqual([0, 9, 1])
    back.close()
    expect([front.take(), back.take()]).toEqual([-1, -1])
  })
})
