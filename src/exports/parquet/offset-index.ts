import { readOffsetIndex, type ColumnChunk } from 'hyparquet'

// A column chunk's offset index lists where each of its data pages starts and the first row it
// holds, so that a reader can decode a slice of a row group from the pages that hold it. Without one,
// hyparquet decodes a list column from the group's start to its end whatever slice is asked for.
// hyparquet seeks by it as it stands: it is used only where it is the pages the frame check walked.

/** A data page as the frame check walked it: where its header starts, its bytes with the header, and its rows when its header gives them (data page v2). */
export interface WalkedPage {
  start: number
  length: number
  rows?: number
}

/** An offset index holds ~20 bytes a page: a 1 GiB column chunk of 1 MiB pages, ~20 KB. */
const MAX_OFFSET_INDEX = 1024 * 1024

/**
 * The most pages a chunk whose index is used may have: a page location takes at least 7 bytes of
 * MAX_OFFSET_INDEX. Past it the frame check keeps no more of them (a damaged file of tiny pages
 * would otherwise hold millions), and the index is not used.
 */
export const MAX_INDEXED_PAGES = Math.floor(MAX_OFFSET_INDEX / 7)

/**
 * Whether `chunk`'s offset index, read by `bytesAt` (null where the bytes lie outside the file), is
 * the `pages` of the chunk: as many locations as pages, each at a page's start and of its length,
 * their first rows 0, then rising, within the group's `groupRows`, and as far apart as a page's
 * rows where its header gives them. Anything else (no index, a damaged or a different one): false.
 */
export function offsetIndexMatches(chunk: ColumnChunk, pages: readonly WalkedPage[], groupRows: number, bytesAt: (start: number, length: number) => Uint8Array | null): boolean {
  const length = chunk.offset_index_length ?? 0
  if (chunk.offset_index_offset === undefined || !(length > 0 && length <= MAX_OFFSET_INDEX) || pages.length === 0) return false
  const bytes = bytesAt(Number(chunk.offset_index_offset), length)
  if (bytes === null) return false
  let locations
  try {
    locations = readOffsetIndex({ view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), offset: 0 }).page_locations
  } catch {
    return false
  }
  if (!Array.isArray(locations) || locations.length !== pages.length) return false
  return pages.every((page, k) => {
    const location = locations[k]!
    const first = Number(location.first_row_index)
    const next = k + 1 < pages.length ? Number(locations[k + 1]!.first_row_index) : groupRows
    const rowsRight = page.rows === undefined || next - first === page.rows
    return Number(location.offset) === page.start && location.compressed_page_size === page.length && (k > 0 || first === 0) && first < next && next <= groupRows && rowsRight
  })
}
