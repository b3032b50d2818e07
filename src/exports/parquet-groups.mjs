// Row groups of a Parquet file decoded into columns with hyparquet: for decode-binary.mjs (the exact
// path) and the clean proof (clean-parquet-worker.ts). Plain JavaScript: it runs from src/ (tests) and dist/.
import { asyncBufferFromFile, parquetMetadata, parquetMetadataAsync, parquetRead, parquetSchema } from 'hyparquet'
import { closeSync, openSync, readSync, statSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'

// GZIP through Node's native zlib: twice as fast as the JavaScript one. Never past the size the page
// header gives: a small page that unpacks to gigabytes (outside any heap limit) is refused at that size.
// The other codecs are loaded on first use (25 ms of every start, and the clean proof of our own
// files never needs them).
let compressors
async function compressorsOf() {
  if (!compressors) {
    const { compressors: decoders } = await import('hyparquet-compressors')
    compressors = { ...decoders, GZIP: (input, size) => gunzipBounded(input, size) }
  }
  return compressors
}

/** GZIP bytes unpacked to at most `size` bytes; an error beyond. */
export function gunzipBounded(input, size) {
  try {
    return gunzipSync(input, { maxOutputLength: Math.max(1, size), chunkSize: Math.max(64 * 1024, Math.min(size + 1, 64 * 1024 * 1024)) })
  } catch (e) {
    if (e?.code === 'ERR_BUFFER_TOO_LARGE') throw new Error(`a GZIP page unpacks to more than the ${size} bytes its header gives`)
    throw e
  }
}

/**
 * A Parquet file from its bytes (`buffer`) or read by ranges (`path`): its metadata and column
 * names. With `sync`, the ranges are read synchronously (the clean proof: an asynchronous read waits
 * for a thread of libuv's pool, which a proof already busy on both cores kept waiting ~20–60 ms).
 */
export async function openParquetSource({ buffer, path, sync = false }) {
  const file = path === undefined ? buffer : sync ? syncBufferFromFile(path) : await asyncBufferFromFile(path)
  const metadata = path === undefined ? parquetMetadata(buffer) : await parquetMetadataAsync(file)
  const names = parquetSchema(metadata).children.map((c) => c.element.name)
  const rowStarts = [0]
  for (const g of metadata.row_groups) rowStarts.push(rowStarts.at(-1) + Number(g.num_rows))
  return { file, metadata, names, rowStarts }
}

/**
 * hyparquet's AsyncBuffer over a file, its slices read at once (as asyncBufferFromFile's: what the
 * file holds of start..end, fewer bytes where it ends first).
 */
function syncBufferFromFile(path) {
  const { size } = statSync(path)
  return {
    byteLength: size,
    slice(start, end = size) {
      // Never more than the file holds, whatever range a damaged footer asks for.
      const from = Math.max(0, Math.min(start, size))
      const out = Buffer.allocUnsafeSlow(Math.max(0, Math.min(end, size) - from))
      const fd = openSync(path, 'r')
      let got = 0
      try {
        for (let n = 1; got < out.length && n > 0; got += n) n = readSync(fd, out, got, out.length - got, from + got)
      } finally {
        closeSync(fd)
      }
      return got === out.length ? out.buffer : out.buffer.slice(0, got)
    },
  }
}

/**
 * Row group `group` as one array of values per column, in `names` order (or `only` these); text
 * stays UTF-8 bytes.
 */
export async function decodeRowGroup({ file, metadata, names: all, rowStarts }, group, only) {
  const names = only ?? all
  const rowStart = rowStarts[group]
  const rowEnd = rowStarts[group + 1]
  const rowCount = rowEnd - rowStart
  // Columns as decoded, without assembling a row object per row.
  const columns = new Map(names.map((n) => [n, new Array(rowCount)]))
  await parquetRead({
    file,
    // Text stays UTF-8 bytes here: strings are made only where needed (packed-columns.mjs).
    parsers: { stringFromBytes: (bytes) => bytes },
    metadata,
    ...(only ? { columns: only } : {}),
    rowStart,
    rowEnd,
    compressors: await compressorsOf(),
    onChunk: ({ columnName, columnData, rowStart: from }) => {
      const column = columns.get(columnName)
      if (!column) return
      for (let i = 0; i < columnData.length; i++) {
        const at = from + i - rowStart
        if (at >= 0 && at < rowCount) column[at] = columnData[i]
      }
    },
  })
  return { columns: names.map((n) => columns.get(n)), rowCount }
}
