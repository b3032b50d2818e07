import { Buffer, isUtf8 } from 'node:buffer'
import { CleanProof, type ProofPart } from './checks/clean-proof.js'
import { ByteView } from './clean-view.js'
import type { PackedColumn } from './workers/packed-columns.mjs'

/** The columns of one decoded row group of a rules export, packed (packed-columns.mjs). */
export interface RulesColumns {
  number: PackedColumn
  text: PackedColumn
  examples: PackedColumn
  index: PackedColumn
}

/**
 * The proof of one row group (see CleanProof), straight from its packed columns: numbers and texts
 * are read from their UTF-8 bytes, and only texts that may cite are made strings. Each row must hold
 * all four values; a null, or a column of another shape, fails the proof.
 */
export function proveColumns(columns: RulesColumns, rowCount: number): ProofPart {
  const proof = new CleanProof()
  const { number, text, examples, index } = columns
  if (number.kind !== 'strings' || text.kind !== 'strings' || examples.kind !== 'lists' || index.kind !== 'plain') {
    proof.fail()
    return proof.part()
  }
  // The exact path decodes with replacement characters: text that is not UTF-8 is not proved.
  if (!isUtf8(text.bytes) || !isUtf8(examples.items.bytes)) {
    proof.fail()
    return proof.part()
  }
  const numbers = new ByteView()
  numbers.load(bufferOf(number.bytes), 0, number.bytes.length)
  const texts = new ByteView()
  const textView = texts.load(bufferOf(text.bytes), 0, text.bytes.length)
  const items = new ByteView()
  items.load(bufferOf(examples.items.bytes), 0, examples.items.bytes.length)
  for (let i = 0; i < rowCount && proof.proved; i++) {
    const value = index.values[i]
    const at = typeof value === 'bigint' && Number.isSafeInteger(Number(value)) ? Number(value) : value
    if (number.missing[i] !== 0 || typeof at !== 'number' || numbers.ruleNumber(number.starts[i]!, number.starts[i + 1]!) !== number.starts[i + 1]) {
      proof.fail()
      break
    }
    if (!proof.number(numbers.section, numbers.rule, numbers.rank, at)) break
    const from = text.starts[i]!
    const to = text.starts[i + 1]!
    if (text.missing[i] !== 0 || to === from || (to - from >= 7 && textView.startsWith('Example', from)) || examples.missing[i] !== 0) {
      proof.fail()
      break
    }
    if (!proof.cites(texts.citing(from, to))) break
    for (let k = examples.listStarts[i]!; k < examples.listStarts[i + 1]! && proof.proved; k++) {
      const s = examples.items.starts[k]!
      const e = examples.items.starts[k + 1]!
      if (examples.items.missing[k] !== 0 || e === s) proof.fail()
      else proof.cites(items.citing(s, e))
    }
  }
  return proof.part()
}

function bufferOf(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
}
