import { sourceKindOf } from './validate-export.js'
import type { KnownRules } from '../checks/companion.js'

// When each file of a folder is validated: the rules files first, files decoded in a worker
// thread beside those read here, a few at a time; and the companions waiting for the rules.

/**
 * The known rules of the first of `count` sources that gives any, once every source before it has
 * settled (a source settles once: with its rules, or undefined when it could not give them).
 */
export function firstKnown(count: number) {
  const settled: { known: KnownRules | undefined }[] = []
  let resolve: (known: KnownRules | undefined) => void = () => {}
  const promise = new Promise<KnownRules | undefined>((r) => (resolve = r))
  // Whether a source before `source` already gave its rules (then this one's are not collected or kept).
  const given = (source: number) => settled.slice(0, source).some((s) => s?.known !== undefined)
  const settle = (source: number, known: KnownRules | undefined) => {
    if (settled[source]) return
    settled[source] = { known: given(source) ? undefined : known }
    for (let i = 0; i < count; i++) {
      if (!settled[i]) return
      if (settled[i]!.known) return resolve(settled[i]!.known)
    }
    resolve(undefined)
  }
  if (count === 0) resolve(undefined)
  return { promise, settle, needed: (source: number) => !given(source) }
}

/** `work` of every item, started in `order` (indexes), at most `width` at a time, the results in the items' order. */
export async function inOrder<T, R>(items: T[], order: number[], width: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length)
  let next = 0
  const lane = async () => {
    while (next < order.length) {
      const at = order[next++]!
      results[at] = await work(items[at]!)
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(width, items.length)) }, lane))
  return results
}

/**
 * `files` (indexes into `names`) in their order, but a Parquet or Arrow file (decoded in a worker
 * thread) and one read on this thread by turns: a worker starts and decodes while this thread checks.
 */
export function alternating(names: string[], files: number[]): number[] {
  const inWorker = (i: number) => {
    try {
      return ['parquet', 'arrow'].includes(sourceKindOf(names[i]!))
    } catch {
      // A name no reader takes (rules.parquet.gz): refused on this thread, in its own report.
      return false
    }
  }
  const [there, here] = [files.filter(inWorker), files.filter((i) => !inWorker(i))]
  return Array.from({ length: Math.max(there.length, here.length) }, (_, k) => [there[k], here[k]]).flat().filter((i) => i !== undefined)
}
