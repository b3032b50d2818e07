// A Parquet file read by ranges in the decoding worker (decode-binary.mjs), as hyparquet's
// AsyncBuffer. Plain JavaScript: it runs from src/ (tests) and dist/.
import { open } from 'node:fs/promises'

/**
 * hyparquet's AsyncBuffer over the file at `path`, as `size` bytes long: its size when its frame was
 * checked (bytes appended since are not read; a file cut shorter fails at the missing bytes). A range
 * is kept while every batch of a row group asks for it (a column chunk read whole for each slice of a
 * large group is read from the file once); one a batch did not ask for (the pages of an earlier
 * slice) is let go after it, and all at the next group. A range is read straight into one buffer of
 * its size: hyparquet's asyncBufferFromFile gathers a stream's 64 KiB chunks and joins them, which
 * held a large column chunk twice.
 */
export async function groupRanges(path, size) {
  const handle = await open(path, 'r')
  let kept = new Map()
  let asked = new Set()
  const read = async (start, end) => {
    const bytes = new Uint8Array(Math.max(0, Math.min(end ?? size, size) - start))
    for (let at = 0; at < bytes.length; ) {
      const { bytesRead } = await handle.read(bytes, at, bytes.length - at, start + at)
      if (bytesRead === 0) throw new Error('the file ended before the bytes its footer points to: was it changed while read?')
      at += bytesRead
    }
    return bytes.buffer
  }
  return {
    file: {
      byteLength: size,
      slice(start, end) {
        const key = `${start}:${end}`
        asked.add(key)
        let range = kept.get(key)
        if (range === undefined) kept.set(key, (range = read(start, end)))
        return range
      },
    },
    newGroup() {
      kept = new Map()
      asked = new Set()
    },
    batchRead() {
      for (const key of kept.keys()) if (!asked.has(key)) kept.delete(key)
      asked = new Set()
    },
    close: () => handle.close(),
  }
}
