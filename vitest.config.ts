import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/temp-root.ts'],
    setupFiles: ['test/helpers/node-host.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
})
