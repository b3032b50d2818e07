import { mkdtempSync, readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { EtlError } from '../src/core/errors.js'
import { MARKER, replaceFolder } from '../src/io/output-folder.js'

const ours = () => true
const file = (name: string, text: string) => ({ name, bytes: new TextEncoder().encode(text) })

describe('replaceFolder (files written side by side)', () => {
  it('replaces the folder whole with every file', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'replace-'))
    const out = join(parent, 'out')
    await replaceFolder(out, [file('old.txt', 'old')], ours)
    await replaceFolder(out, Array.from({ length: 20 }, (_, i) => file(`f${i}.txt`, `file ${i}`)), ours)
    expect(readdirSync(out).sort()).toEqual([MARKER, ...Array.from({ length: 20 }, (_, i) => `f${i}.txt`)].sort())
    expect(readFileSync(join(out, 'f7.txt'), 'utf8')).toBe('file 7')
    expect(readdirSync(parent).filter((n) => n.startsWith('.'))).toEqual([])
  })

  it('on a failed file: the earlier folder intact, no staging folder left, the first failed file named', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'replace-'))
    const out = join(parent, 'out')
    await replaceFolder(out, [file('rules.jsonl', 'earlier')], ours)
    const files = [file('a.txt', 'a'), file('bad\u0000first.txt', 'x'), file('b.txt', 'b'), file('bad\u0000second.txt', 'y')]
    const error = await replaceFolder(out, files, ours).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(EtlError)
    expect((error as EtlError).code).toBe('OUTPUT_UNWRITABLE')
    expect((error as EtlError).message).toContain('bad\u0000first.txt')
    expect(readdirSync(out).sort()).toEqual([MARKER, 'rules.jsonl'])
    expect(readFileSync(join(out, 'rules.jsonl'), 'utf8')).toBe('earlier')
    expect(readdirSync(parent).filter((n) => n.startsWith('.'))).toEqual([])
  })

  it('files made as they are taken (the site\u2019s pages): written a batch at a time; when the making fails, the earlier folder intact', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'replace-'))
    const out = join(parent, 'out')
    await replaceFolder(out, [file('index.html', 'earlier')], ours)
    let made = 0
    const pages = function* (failAt: number) {
      for (let i = 0; i < 200; i++) {
        if (i === failAt) throw new Error('page 150 could not be made')
        made++
        yield file(`p${i}.html`, `page ${i}`)
      }
    }
    const error = await replaceFolder(out, pages(150), ours).catch((e: unknown) => e)
    expect((error as Error).message).toBe('page 150 could not be made')
    expect(made).toBe(150)
    expect(readdirSync(out).sort()).toEqual([MARKER, 'index.html'])
    expect(readdirSync(parent).filter((n) => n.startsWith('.'))).toEqual([])
    await replaceFolder(out, pages(-1), ours)
    expect(readdirSync(out)).toHaveLength(201)
    expect(readFileSync(join(out, 'p199.html'), 'utf8')).toBe('page 199')
  })
})
