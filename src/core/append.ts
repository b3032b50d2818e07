/**
 * Append `items` to `target` in place. Unlike `target.push(...items)` it works for any length: a
 * damaged row can carry hundreds of thousands of problems, more arguments than a call may take.
 */
export function append<T>(target: T[], items: readonly T[]): void {
  for (let i = 0; i < items.length; i++) target.push(items[i]!)
}
