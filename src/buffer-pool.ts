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

/** A buffer no longer used, for the next takeBuffer (a few are kept, not every one). */
export function giveBuffer(buffer: Buffer): void {
  if (buffer.length > 0 && spare.length < 8) spare.push(buffer)
}
