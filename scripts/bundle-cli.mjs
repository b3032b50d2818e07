#!/usr/bin/env node
// make build, after tsc: bundle the CLI and its worker scripts into dist/bin/. Node's ES module
// loader reads and compiles each file on its own; a build loaded ~105 files (53 of them
// hyparquet's and hyparquet-writer's), ~60 ms of a 0.43 s build. Bundled, it loads ~24 chunks.
// Each command stays its own chunk, loaded only when run. The library (dist/src/) is not bundled.
import { rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { build } from 'rolldown'

const dist = join(resolve(import.meta.dirname, '..'), 'dist')
const out = join(dist, 'bin')
// Workers are found at run time as `new URL('./workers/history-worker.js', import.meta.url)` from
// their spawner in src/io/: each is an entry of its own, at the same path below out/ as below src/io/.
const input = {
  cli: join(dist, 'src/cli/cli.js'),
  'workers/history-worker': join(dist, 'src/io/workers/history-worker.js'),
  'workers/decode-binary': join(dist, 'src/io/workers/decode-binary.mjs'),
}

rmSync(out, { recursive: true, force: true })
await build({
  input,
  platform: 'node',
  logLevel: 'warn',
  external: [/^node:/],
  output: {
    dir: out,
    format: 'esm',
    entryFileNames: (chunk) => (chunk.name === 'workers/decode-binary' ? '[name].mjs' : '[name].js'),
    chunkFileNames: '[name]-[hash].js',
  },
})
