/**
 * Buffers kept for the next part of a proof, per thread. A proof reads a file in a hundred parts or
 * more; a new buffer per part (or per region) is external memory that the collector, with almost
 * nothing on its heap, is slow to free: at 3M rows the process grew by ~100 MB of them.
 */
const spare: Buffer[] = []
let spareBytes = 0

/** A buffer of at least `size` bytes (its contents are whatever was there). */
export function takeBuffer(size: number): Buffer {
  // The smallest that fits: a large one is kept for what needs it.
  let at = -1
  for (let i = 0; i < spare.length; i++) if (spare[i]!.length >= size && (at < 0 || spare[i]!.length < spare[at]!.length)) at = i
  if (at < 0) return Buffer.allocUnsafe(roundUp(size))
  const [buffer] = spare.splice(at, 1)
  spareBytes -= buffer!.length
  return buffer!
}

/**
 * A buffer no longer used, for the next takeBuffer. At most MAX_SPARE_BYTES are kept, the largest
 * first: a process that validates many files (the library, `history`) must not hold a huge row
 * group's chunk for good, and at 3M rows a pool of any eight sizes grew the process by ~100 MB.
 */
export function giveBuffer(buffer: Buffer): void {
  if (buffer.length === 0 || buffer.length > MAX_SPARE_BYTES) return
  spare.push(buffer)
  spareBytes += buffer.length
  spare.sort((a, b) => b.length - a.length)
  while (spareBytes > MAX_SPARE_BYTES) spareBytes -= spare.pop()!.length
}

const MAX_SPARE_BYTES = 24 * 1024 * 1024

// Chunks of one column differ by a few bytes from row group to row group: rounded up (to an
// eighth of their power of two), the next group's chunk fits the buffer of the last.
function roundUp(size: number): number {
  if (size <= 4096) return size
  const step = 2 ** (Math.floor(Math.log2(size)) - 3)
  return Math.ceil(size / step) * step
}
