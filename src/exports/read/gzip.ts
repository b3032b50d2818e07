import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { constants, createGunzip, gunzipSync } from 'node:zlib'
import { EtlError } from '../../core/errors.js'

// A gzip-compressed export (`rules.jsonl.gz`, as pandas writes it with compression="gzip") is read
// unpacked, as it arrives. What it unpacks to is capped as a file's size is: a small file that
// unpacks to gigabytes is refused at the cap, never unpacked whole.

const notGzip = (name: string, e: unknown) => new EtlError('EXPORT_MALFORMED', `read: ${name} is not a readable gzip file (${(e as Error).message})`)
const tooLarge = (name: string, maxBytes: number) => new EtlError('INPUT_TOO_LARGE', `read: ${name} unpacks to more than the ${maxBytes} bytes this input may have`)

/** The chunks of a gzip file unpacked as they are read; an error past `maxBytes` unpacked. */
export async function* gunzipChunks(name: string, packed: AsyncIterable<Uint8Array>, maxBytes: number): AsyncGenerator<Uint8Array> {
  const gunzip = createGunzip()
  // pipeline, not pipe: an error of the packed source (a file that grew) reaches the reader.
  const fed = pipeline(Readable.from(packed), gunzip).catch(() => {})
  let total = 0
  try {
    for await (const chunk of gunzip as AsyncIterable<Buffer>) {
      total += chunk.length
      if (total > maxBytes) throw tooLarge(name, maxBytes)
      yield chunk
    }
  } catch (e) {
    if (e instanceof EtlError) throw e
    throw notGzip(name, e)
  } finally {
    gunzip.destroy()
    await fed
  }
}

/** A gzip file's bytes unpacked; an error past `maxBytes`. */
export function gunzipBytes(name: string, packed: Uint8Array, maxBytes: number): Uint8Array {
  try {
    return gunzipSync(packed, { maxOutputLength: Math.max(1, maxBytes) })
  } catch (e) {
    if ((e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge(name, maxBytes)
    throw notGzip(name, e)
  }
}

/** Whether bytes begin as gzip does (its magic, 1F 8B). */
export const looksGzipped = (head: Uint8Array): boolean => head[0] === 0x1f && head[1] === 0x8b

/**
 * What the first bytes of a gzip stream unpack to, as far as they go (to tell what it holds); empty
 * when they do not unpack. Deflate unpacks at most ~1,032 bytes a byte: a few kilobytes stay small.
 */
export function gunzipStart(head: Uint8Array): Uint8Array {
  try {
    return gunzipSync(head, { finishFlush: constants.Z_SYNC_FLUSH, maxOutputLength: Math.max(64 * 1024, head.length * 1100) })
  } catch {
    return new Uint8Array()
  }
}
