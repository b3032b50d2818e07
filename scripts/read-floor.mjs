// make bench: what reading a file costs with the libraries validate must read it with, and nothing
// else (no check, no row object of ours), as a whole process: hyparquet's parquetRead of every
// column, a row group at a time (its documented API, as the decoding worker calls it), or a JSONL
// file decoded from UTF-8 and given to JSON.parse a line at a time. Whatever validate does, it cannot
// take less. Usage: node scripts/read-floor.mjs FILE parquet|jsonl; prints the values or rows read.
import { createReadStream, readFileSync } from 'node:fs'
import { parquetMetadata, parquetRead } from 'hyparquet'
import { compressors } from 'hyparquet-compressors'

const [file, format] = process.argv.slice(2)

async function parquetValues() {
  const bytes = readFileSync(file)
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length)
  const metadata = parquetMetadata(buffer)
  let values = 0
  // A row group at a time, as the worker reads it (memory holds a group, not the table); text as
  // UTF-8 bytes (no string made).
  let rowStart = 0
  for (const group of metadata.row_groups) {
    const rowEnd = rowStart + Number(group.num_rows)
    await parquetRead({ file: buffer, metadata, rowStart, rowEnd, compressors, parsers: { stringFromBytes: (b) => b }, onChunk: ({ columnData }) => (values += columnData.length) })
    rowStart = rowEnd
  }
  return values
}

async function jsonlRows() {
  const decoder = new TextDecoder('utf-8', { fatal: true })
  let rows = 0
  let partial = ''
  const parse = (lines) => {
    for (const line of lines) if (line !== '' && JSON.parse(line) !== null) rows++
  }
  for await (const chunk of createReadStream(file, { highWaterMark: 1024 * 1024 })) {
    const text = partial + decoder.decode(chunk, { stream: true })
    const cut = text.lastIndexOf('\n')
    if (cut >= 0) parse(text.slice(0, cut).split('\n'))
    partial = text.slice(cut + 1)
  }
  parse([partial + decoder.decode()])
  return rows
}

if (format === 'parquet') console.log(await parquetValues())
else if (format === 'jsonl') console.log(await jsonlRows())
else throw new Error(`read-floor: no floor for ${format}`)
