import { closeSync, openSync, readSync } from 'node:fs'
import { parquetHeader } from 'hyparquet/src/column.js'
import { CleanProof, mergeProofs, type ProofPart } from '../../validate/proof/clean-proof.js'
import { numbersOf, pagesOfPacked, proveExamplePages, proveExamples, proveNumbers, proveNumberValues, proveTextPage, proveTexts } from '../../validate/proof/clean-parquet.js'
import { ByteView } from '../../validate/proof/clean-view.js'
import { eachStringPage, int64Values, listPageRefs, stringPageRefs, type ByteArrayPages, type FlatColumn, type ListColumn } from '../../validate/proof/parquet-pages.js'
import { giveBuffer, takeBuffer } from '../../validate/proof/buffer-pool.js'
import { PageScratch } from '../../validate/proof/page-scratch.js'
import { FAILED, proveShared } from './prove-shared.js'
import { decodeTimeoutMs } from '../settings.js'
import { syncBufferFromFile } from '../files.js'
import { checkParquetFile, type FileRef } from '../../exports/parquet-frame.js'
import { packColumn } from '../../exports/packed-columns.mjs'
import { decodeRowGroup, openParquetSource, type ParquetSource } from '../../exports/parquet-groups.mjs'

/** The units of a Parquet file's proof, for a worker (see ParquetUnit). */
export interface ParquetJob {
  kind: 'parquet'
  path: string
  units: ParquetUnit[]
  /** Text one row group may unpack to (as the exact path's worker allows). */
  maxTextBytes: number
}

/**
 * A share of a row group: slice 0 proves its numbers, indexes and examples (and the text whole when
 * it is not in the layout read straight from pages), and every slice its share of the text pages.
 */
export interface ParquetUnit {
  group: number
  slice: number
  slices: number
}

const RULES_TYPES: Record<string, string> = { number: 'string', text: 'string', examples: 'list<string>', index: 'int64' }
/** Compressed text a slice of a row group is given: small enough that no thread waits long for another. */
const SLICE_BYTES = 2 * 1024 * 1024
/**
 * This thread proves units too only when no row group is larger (what a unit holds has no heap limit
 * here), and only from the pages themselves: hyparquet, which a damaged page can keep busy without
 * end, runs only in workers, under their time limit (a unit that would need it here is not proved).
 */
const HERE_MAX_GROUP = 64 * 1024 * 1024

/**
 * Prove a Parquet rules export on disk clean: its footer and page headers checked as the exact path
 * checks them, its columns exactly the rules columns, then its row groups, in slices, proved on every
 * core (see proveShared: workers with the exact path's heap limit and time limit), each slice a part
 * for mergeProofs. The row count when clean, else null (damage included: the exact path reports it).
 */
export async function proveParquetFile(name: string, ref: FileRef): Promise<number | null> {
  let checked
  try {
    checked = checkParquetFile(name, ref)
  } catch {
    return null
  }
  if (checked instanceof Uint8Array || checked.rowGroups === 0) return null
  if (checked.types.size !== 4 || Object.entries(RULES_TYPES).some(([column, type]) => checked.types.get(column) !== type)) return null
  const source = await openParquetSource({ file: syncBufferFromFile(ref.path) })
  const groups = source.metadata.row_groups
  // Slice 0s first, the longest: the others then fill in around them.
  const units: ParquetUnit[] = []
  const slices = groups.map((g) => Math.max(1, Math.min(16, Math.ceil(Number(g.columns.find((c) => c.meta_data?.path_in_schema.join('.') === 'text')?.meta_data?.total_compressed_size ?? 0) / SLICE_BYTES))))
  for (let g = 0; g < groups.length; g++) units.push({ group: g, slice: 0, slices: slices[g]! })
  for (let g = 0; g < groups.length; g++) for (let slice = 1; slice < slices[g]!; slice++) units.push({ group: g, slice, slices: slices[g]! })
  const job: ParquetJob = { kind: 'parquet', path: ref.path, units, maxTextBytes: checked.heapMb * 1024 * 1024 }
  // Here too when the footer says the pages are as our writer writes them (else hyparquet would be needed).
  const here = groups.every((g) => Number(g.total_byte_size) <= HERE_MAX_GROUP && g.columns.every((c) => plainLayout(c.meta_data)))
  const timeoutMs = decodeTimeoutMs(ref.size)
  const parts = await proveShared(job, units.length, await parquetProver(job, source, false), { heapMb: checked.heapMb, timeoutMs, here })
  return mergeProofs(parts)
}

/** What the footer says of a column chunk: GZIP or none, no dictionary, PLAIN (and RLE levels) only. */
function plainLayout(meta: Record<string, unknown> | undefined): boolean {
  const encodings = meta?.encodings
  return (meta?.codec === 'GZIP' || meta?.codec === 'UNCOMPRESSED') && meta.dictionary_page_offset === undefined && Array.isArray(encodings) && encodings.every((e) => e === 'PLAIN' || e === 'RLE')
}

/**
 * How a thread proves the units of `job` (the file opened once, here or in a worker). `decode`:
 * whether a column not in the layout may be decoded by hyparquet (only in a worker, under a time
 * limit); without it such a unit is not proved.
 */
export async function parquetProver(job: ParquetJob, opened?: ParquetSource, decode = true): Promise<(unit: number) => Promise<ProofPart>> {
  const source = opened ?? (await openParquetSource({ file: syncBufferFromFile(job.path) }))
  // The job's page buffers: its units run one after another (drain), each page proved before the
  // next is unpacked; two jobs in one thread have their own, and a job's are freed with it.
  const scratch = new PageScratch()
  return async (k) => {
    const fd = openSync(job.path, 'r')
    // The column chunks a unit reads, in pooled buffers given back when it is done (see buffer-pool.ts).
    const held: Buffer[] = []
    try {
      return await proveUnit(source, { fd, held }, job.units[k]!, job.maxTextBytes, decode, scratch)
    } finally {
      closeSync(fd)
      for (const buffer of held) giveBuffer(buffer)
    }
  }
}

/**
 * One unit. Number, text and index are read straight from their pages when written as our writer
 * writes them; the examples (a list column, small) and any column written otherwise are decoded by
 * hyparquet.
 */
async function proveUnit(source: ParquetSource, fd: Reader, unit: ParquetUnit, maxTextBytes: number, decode: boolean, scratch: PageScratch): Promise<ProofPart> {
  const { group, slice, slices } = unit
  const rows = source.rowStarts[group + 1]! - source.rowStarts[group]!
  const chunk = (name: string) => flatColumn(source, fd, group, name, maxTextBytes)
  const proof = new CleanProof()
  const view = new ByteView()
  // A slice reads of the text chunk only what it needs (see sparseChunkOf); slice 0 too, as the
  // hyparquet path (a text outside the layout) reads the file itself. Reading the chunk whole for
  // slice 0 read the text column 1.75 times over.
  const text = flatColumn(source, fd, group, 'text', maxTextBytes, slices > 1 ? (p, pages) => Math.floor((p * slices) / pages) === slice : undefined)
  const refs = text && stringPageRefs(text.bytes, text.column, rows)
  // This slice's text pages, one in memory at a time. Once the headers say the layout holds, a page
  // that does not decompress to it fails the proof: no other slice would prove it otherwise.
  const proveOwnPages = () => {
    for (let p = 0; p < refs!.length && proof.proved; p++) {
      if (Math.floor((p * slices) / refs!.length) !== slice) continue
      proveTextPage(proof, view, refs![p]!, text!.column.meta.codec, scratch)
    }
  }
  // Outside the layout, slice 0 proves the text whole.
  if (slice > 0) {
    if (refs) proveOwnPages()
    return proof.part()
  }
  const number = chunk('number')
  const index = chunk('index')
  // Numbers first, so that the texts' citations resolve as they come (not all left to the end); each
  // page proved as it is unpacked (a page that fails after others were proved fails the proof).
  let indexes = index && int64Values(index.bytes, index.column, rows, scratch)
  let numbers: ByteArrayPages | null = null
  let numbersRead = false
  if (number && indexes) {
    let row = 0
    if (indexes.length !== rows) proof.fail()
    numbersRead = eachStringPage(number.bytes, number.column, rows, (bytes, count) => (row = proveNumberValues(proof, view, bytes, count, indexes!, row)) >= 0, scratch)
    if (!numbersRead && row > 0) proof.fail()
    else if (numbersRead && row !== rows) proof.fail()
  }
  if (refs) proveOwnPages()
  const examples = listColumn(source, fd, group, 'examples', maxTextBytes)
  const exampleRefs = examples && listPageRefs(examples.bytes, examples.column)
  const others = [...(!exampleRefs ? ['examples'] : []), ...(!numbersRead ? ['number'] : []), ...(!indexes ? ['index'] : []), ...(!refs ? ['text'] : [])]
  if (others.length > 0 && !decode) return FAILED
  const decoded = others.length > 0 ? await decodeRowGroup(source, group, others) : { columns: [] }
  const packed = (name: string) => packColumn(decoded.columns[others.indexOf(name)]!, maxTextBytes)
  // (The numbers were read from their pages only where the indexes were.)
  if (!numbersRead) {
    numbers = pagesOfPacked(packed('number'), rows)
    indexes ??= numbersOf(decoded.columns[others.indexOf('index')]!)
    if (numbers) proveNumbers(proof, view, numbers, indexes, rows)
  }
  if (!refs) {
    const texts = pagesOfPacked(packed('text'), rows)
    if (texts) proveTexts(proof, view, texts.pages[0]!)
    else proof.fail()
  }
  if (!numbers && !numbersRead) proof.fail()
  if (exampleRefs) proveExamplePages(proof, view, exampleRefs, examples!.column.meta.codec, rows, scratch)
  else proveExamples(proof, view, packed('examples'), rows)
  return proof.part()
}

/**
 * A top-level column's chunk of a row group, read whole (its size was checked against the heap
 * limit), or with `own` only the bodies of the pages it says (see sparseChunkOf).
 */
function flatColumn(source: ParquetSource, fd: Reader, group: number, name: string, maxBytes: number, own?: OwnPages): { bytes: Uint8Array; column: FlatColumn } | null {
  const element = topLevel(source.metadata.schema).find((e) => e.name === name && !e.num_children)
  const chunk = element && chunksAreLeaves(source, group) && chunkOf(source, fd, group, [name], maxBytes, own)
  return chunk ? { bytes: chunk.bytes, column: { meta: chunk.meta, element: element as FlatColumn['element'] } } : null
}

/** A list column's chunk (`name`.list.element), with the schema elements on its path. */
function listColumn(source: ParquetSource, fd: Reader, group: number, name: string, maxBytes: number): { bytes: Uint8Array; column: ListColumn } | null {
  const schema = source.metadata.schema
  const at = schema.indexOf(topLevel(schema).find((e) => e.name === name && e.num_children === 1)!)
  const elements = schema.slice(at, at + 3) as unknown as ListColumn['elements']
  if (at < 0 || elements.length !== 3 || !chunksAreLeaves(source, group)) return null
  const chunk = chunkOf(source, fd, group, elements.map((e) => e.name), maxBytes)
  return chunk ? { bytes: chunk.bytes, column: { meta: chunk.meta, elements } } : null
}

/**
 * Whether a row group's column chunks are the schema's leaf columns, in order, each of its leaf's
 * physical type. hyparquet decodes a chunk by the type its own metadata gives (a damaged footer once
 * said BOOLEAN for one group's INT64 index: hyparquet read `false`, and the pages were proved as
 * integers); any chunk that is not its leaf's is left to hyparquet, whatever it says.
 */
function chunksAreLeaves(source: ParquetSource, group: number): boolean {
  const leaves = leavesOf(source.metadata.schema as SchemaNode[])
  const chunks = source.metadata.row_groups[group]!.columns
  return leaves !== null && chunks.length === leaves.length && chunks.every((c, i) => c.meta_data !== undefined && c.meta_data.type === leaves[i]!.type && c.meta_data.path_in_schema.join('\0') === leaves[i]!.path.join('\0'))
}

type SchemaNode = { name: string; type?: string; num_children?: number }
const leavesCache = new WeakMap<object, { path: string[]; type?: string }[] | null>()

/** The leaf columns of a flattened schema, in order, with their paths; null when its counts do not add up. */
function leavesOf(schema: SchemaNode[]): { path: string[]; type?: string }[] | null {
  let leaves = leavesCache.get(schema)
  if (leaves !== undefined) return leaves
  const found: { path: string[]; type?: string }[] = []
  let at = 1
  const walk = (prefix: string[]): boolean => {
    const element = schema[at++]
    if (!element) return false
    const path = [...prefix, element.name]
    if (!element.num_children) {
      found.push({ path, type: element.type })
      return true
    }
    for (let k = 0; k < element.num_children; k++) if (!walk(path)) return false
    return true
  }
  let whole = schema.length > 0
  for (let k = 0; whole && k < (schema[0]?.num_children ?? 0); k++) whole = walk([])
  leaves = whole && at === schema.length ? found : null
  leavesCache.set(schema, leaves)
  return leaves
}

/** The chunk of the column at `path` in a row group, read whole, or null (none, or too large). */
function chunkOf(source: ParquetSource, reader: Reader, group: number, path: string[], maxBytes: number, own?: OwnPages): { bytes: Uint8Array; meta: FlatColumn['meta'] } | null {
  const chunk = source.metadata.row_groups[group]!.columns.find((c) => c.meta_data?.path_in_schema.join('\0') === path.join('\0'))
  if (!chunk?.meta_data) return null
  const meta = chunk.meta_data as unknown as FlatColumn['meta']
  const start = Number(meta.data_page_offset)
  const size = Number(meta.total_compressed_size)
  if (!(size >= 0 && size <= maxBytes)) return null
  const buffer = takeBuffer(size)
  reader.held.push(buffer)
  const bytes = buffer.subarray(0, size)
  const read = (from: number, to: number) => readAt(reader.fd, bytes, from, to, start)
  if (own && sparseChunkOf(bytes, read, own)) return { bytes, meta }
  return read(0, size) ? { bytes, meta } : null
}

/** Which pages of a chunk of `pages` a slice unpacks. */
type OwnPages = (page: number, pages: number) => boolean

/** Bytes from..to of a chunk that starts at `start` in the file, into the same places of `bytes`; false if the file ends first. */
function readAt(fd: number, bytes: Uint8Array, from: number, to: number, start: number): boolean {
  for (let got = from; got < to; ) {
    const n = readSync(fd, bytes, got, to - got, start + got)
    if (n === 0) return false
    got += n
  }
  return true
}

/** Bytes of a chunk read at each page start at first: a page header with its levels is smaller. */
const HEADER_WINDOW = 1024
/** Pages a chunk may have to be read this way (ours have tens); more, and it is read whole. */
const MAX_SPARSE_PAGES = 4096

/**
 * A later slice of a row group unpacks a quarter of its text pages, and read the whole chunk for it
 * (~6% of the Parquet proof's CPU). Here each page's header and levels are read where they stand,
 * walking from page to page, then only the bodies of the slice's own pages: the header walk over
 * these bytes (stringPageRefs) finds and checks every page as over the whole chunk, and the other
 * bodies, left as the buffer held them, are never looked at. False, and nothing to rely on, when a
 * header does not parse or a page does not fit: the caller then reads the chunk whole.
 */
export function sparseChunkOf(bytes: Uint8Array, read: (from: number, to: number) => boolean, own: OwnPages, firstWindow = HEADER_WINDOW): boolean {
  const size = bytes.length
  const bodies: [number, number][] = []
  // As headerWalk: pages while more than one byte is left.
  for (let at = 0; at < size - 1; ) {
    let window = Math.min(firstWindow, size - at)
    let header: ReturnType<typeof parquetHeader> | null = null
    let headerLength = 0
    while (header === null) {
      if (!read(at, at + window)) return false
      const reader = { view: new DataView(bytes.buffer, bytes.byteOffset + at, window), offset: 0 }
      try {
        header = parquetHeader(reader)
        headerLength = reader.offset
      } catch {
        if (at + window >= size) return false
        window = Math.min(window * 8, size - at)
      }
    }
    const v2 = header.data_page_header_v2
    const levels = v2 ? v2.repetition_levels_byte_length + v2.definition_levels_byte_length : 0
    const end = at + headerLength + header.compressed_page_size
    if (!(levels >= 0 && header.compressed_page_size >= levels && end <= size)) return false
    if (headerLength + levels > window && !read(at + window, at + headerLength + levels)) return false
    if (bodies.push([at + headerLength + levels, end]) > MAX_SPARSE_PAGES) return false
    at = end
  }
  for (let p = 0; p < bodies.length; p++) if (own(p, bodies.length) && !read(bodies[p]![0], bodies[p]![1])) return false
  return true
}

/** The file a unit reads, and the pooled buffers it holds. */
interface Reader {
  fd: number
  held: Buffer[]
}

/** The top-level elements of a flattened Parquet schema. */
function topLevel<T extends { num_children?: number }>(schema: T[]): T[] {
  const out: T[] = []
  const skip = (at: number): number => {
    let next = at + 1
    for (let c = 0; c < (schema[at]!.num_children ?? 0); c++) next = skip(next)
    return next
  }
  for (let at = 1; at < schema.length; at = skip(at)) out.push(schema[at]!)
  return out
}
