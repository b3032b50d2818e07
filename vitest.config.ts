import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/temp-root.ts'],
    setupFiles: ['test/helpers/node-host.ts'],
    // One test file per core (vitest's default leaves one core idle: the suite ran on one of two).
    maxWorkers: availableParallelism(),
    // The test files of a worker share its module cache: isolated, each file imported the toolkit
    // and its dependencies anew (~20 s of CPU a run, a seventh of the suite's time). No test mocks a
    // module; the setup file, run before each file, puts back the default settings and decoder.
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
})
