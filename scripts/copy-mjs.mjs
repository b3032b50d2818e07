#!/usr/bin/env node
// make build, after tsc: copy the plain-JavaScript modules (*.mjs, the worker scripts and what they
// share with the library) from src/ to dist/src/, each beside the modules tsc compiled next to it.
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

const repo = resolve(import.meta.dirname, '..')
const walk = (dir) => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]))
for (const file of walk(join(repo, 'src')).filter((f) => f.endsWith('.mjs'))) {
  const to = join(repo, 'dist', relative(repo, file))
  mkdirSync(dirname(to), { recursive: true })
  copyFileSync(file, to)
}
