/**
 * Buffers kept for the next part of a proof, per thread. A proof reads a file in a hundred parts or
 * more; a new buffer per part (or per region) is external memory that the collector, with almost
 * nothing on its heap, is slow to free: at 3M rows the process grew by ~100 MB of them.
 */
const spare: Buffer[] = []

/** A buffer of at least `size` bytes (its contents are whatever was there). */
export function takeBuffer(size: number): Buffer {
  // The smallest that fits: a large one is kept for what needs it.
  let at = -1
  for (let i = 0; i < spare.length; i++) if (spare[i]!.length >= size && (at < 0 || spare[i]!.length < spare[at]!.length)) at = i
  return at >= 0 ? spare.splice(at, 1)[0]! : Buffer.allocUnsafe(size)
}

/**
 * A buffer no longer used, for the next takeBuffer. A few are kept, none over MAX_KEPT: a process
 * that validates many files (the library, `history`) must not hold a huge row group's chunk for good.
 */
export function giveBuffer(buffer: Buffer): void {
  if (buffer.length > 0 && buffer.length <= MAX_KEPT && spare.length < 8) spare.push(buffer)
}

const MAX_KEPT = 16 * 1024 * 1024
