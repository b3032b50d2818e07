const cleanups = new Set<() => void>()
let hooked = false

/**
 * Run `cleanup` if the process is interrupted (SIGINT, SIGTERM, SIGHUP) before the returned function
 * is called; then end as the signal would (exit 128 + its number). One handler for every writer.
 */
export function onInterrupt(cleanup: () => void): () => void {
  if (!hooked) {
    hooked = true
    const codes = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const
    for (const [signal, code] of Object.entries(codes)) {
      process.on(signal, () => {
        for (const c of cleanups) c()
        process.exit(code)
      })
    }
  }
  cleanups.add(cleanup)
  return () => cleanups.delete(cleanup)
}
