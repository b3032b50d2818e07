/**
 * Buffers kept for the next part of a proof, per thread. A proof reads a file in a hundred parts or
 * more; a new buffer per part (or per region) is external memory that the collector, with almost
 * nothing on its heap, is slow to free: at 3M rows the process grew by ~100 MB of them.
 */
const spare: Buffer[] = []

/** A buffer of at least `size` bytes (its contents are whatever was there). */
export function takeBuffer(size: number): Buffer {
  const at = spare.findIndex((b) => b.length >= size)
  return at >= 0 ? spare.splice(at, 1)[0]! : Buffer.allocUnsafe(size)
}

/** A buffer no longer used, for the next takeBuffer (a few are kept, not every one). */
export function giveBuffer(buffer: Buffer): void {
  if (buffer.length > 0 && spare.length < 4) spare.push(buffer)
}
