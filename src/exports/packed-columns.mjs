// Columns sent from the decoding worker as UTF-8 bytes and offsets in transferable buffers instead
// of structured clones of JavaScript strings: the main thread then makes strings a batch of rows at
// a time, which die young, rather than receiving a whole row group of them at once (3M Parquet rows
// grew its heap past 600 MB). Plain JavaScript: the worker loads it from src/ (tests) and dist/.

const encoder = new TextEncoder()

// A string, or its UTF-8 bytes as the decoder left them (decode-binary.mjs asks hyparquet not to
// make strings at all: the main thread makes them, a batch at a time).
const isText = (v) => typeof v === 'string' || v instanceof Uint8Array

/**
 * A column of strings and nulls, or of lists of strings and nulls (or null), packed; anything else as
 * it is. Text of more than `maxBytes` (outside any heap limit: a damaged file's dictionary value
 * repeated on every row) is refused with an error.
 */
export function packColumn(values, maxBytes = Infinity) {
  let strings = true
  let lists = true
  for (const v of values) {
    if (v === null || v === undefined) continue
    if (!isText(v)) strings = false
    if (!Array.isArray(v) || !v.every((e) => isText(e) || e === null)) lists = false
    if (!strings && !lists) return { kind: 'plain', values }
  }
  if (strings) return { kind: 'strings', ...packStrings(values, maxBytes) }
  const listStarts = new Int32Array(values.length + 1)
  const missing = new Uint8Array(values.length)
  const items = []
  values.forEach((v, i) => {
    if (v === null || v === undefined) missing[i] = v === null ? 1 : 2
    else for (const e of v) items.push(e)
    listStarts[i + 1] = items.length
  })
  return { kind: 'lists', listStarts, missing, items: packStrings(items, maxBytes) }
}

function packStrings(values, maxBytes) {
  const starts = new Int32Array(values.length + 1)
  // 1: null, 2: undefined (a row group may leave a value unset).
  const missing = new Uint8Array(values.length)
  let size = 0
  for (let i = 0; i < values.length; i++) {
    const v = values[i]
    if (typeof v === 'string') size += utf8Length(v)
    else if (v instanceof Uint8Array) size += v.length
  }
  if (size > maxBytes) throw new Error(`a column holds more than ${Math.round(maxBytes / 1024 / 1024)} MiB of text in one row group`)
  const bytes = new Uint8Array(size)
  let at = 0
  for (let i = 0; i < values.length; i++) {
    const v = values[i]
    if (typeof v === 'string') at += encoder.encodeInto(v, bytes.subarray(at)).written
    else if (v instanceof Uint8Array) {
      bytes.set(v, at)
      at += v.length
    } else missing[i] = v === null ? 1 : 2
    starts[i + 1] = at
  }
  return { bytes: at === size ? bytes : bytes.slice(0, at), starts, missing }
}

/**
 * Rows `from` to `to` of a packed column, as a packed column of their own (copied: its buffers can
 * be moved while the whole column stays).
 */
export function sliceColumn(column, from, to) {
  if (column.kind === 'plain') return { kind: 'plain', values: column.values.slice(from, to) }
  if (column.kind === 'strings') return { kind: 'strings', ...sliceStrings(column, from, to) }
  const first = column.listStarts[from]
  const listStarts = column.listStarts.slice(from, to + 1).map((k) => k - first)
  return { kind: 'lists', listStarts, missing: column.missing.slice(from, to), items: sliceStrings(column.items, first, column.listStarts[to]) }
}

function sliceStrings({ bytes, starts, missing }, from, to) {
  const first = starts[from]
  return { bytes: bytes.slice(first, starts[to]), starts: starts.slice(from, to + 1).map((at) => at - first), missing: missing.slice(from, to) }
}

/** The buffers to move (not copy) with a packed column. */
export function transfers(column) {
  if (column.kind === 'strings') return [column.bytes.buffer, column.starts.buffer, column.missing.buffer]
  if (column.kind === 'lists') return [column.listStarts.buffer, column.missing.buffer, column.items.bytes.buffer, column.items.starts.buffer, column.items.missing.buffer]
  return []
}

const MISSING = [undefined, null, undefined]

/** Value `i` of a packed column, made when asked. */
export function valueAt(column, i) {
  if (column.kind === 'plain') return column.values[i]
  if (column.kind === 'strings') return stringAt(column, i)
  if (column.missing[i] !== 0) return MISSING[column.missing[i]]
  const out = []
  for (let k = column.listStarts[i]; k < column.listStarts[i + 1]; k++) out.push(stringAt(column.items, k))
  return out
}

function stringAt(strings, i) {
  if (strings.missing[i] !== 0) return MISSING[strings.missing[i]]
  const { bytes, starts } = strings
  // A Buffer over the same bytes (made once per column) where there is a Buffer (Node); else TextDecoder.
  if (typeof Buffer !== 'function') return decoder.decode(bytes.subarray(starts[i], starts[i + 1]))
  strings.utf8 ??= Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  return strings.utf8.toString('utf8', starts[i], starts[i + 1])
}

const decoder = new TextDecoder()
const utf8Length = typeof Buffer === 'function' ? (s) => Buffer.byteLength(s, 'utf8') : (s) => s.length * 3
