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
        // A cleanup that fails leaves what it could not remove for the next run's sweep, and says so
        // in one line: the run still ends as the signal says, not as an internal error.
        for (const c of cleanups) {
          try {
            c()
          } catch (e) {
            const reason = e instanceof Error ? e.message.split('\n')[0] : String(e)
            process.stderr.write(`mtg-rules: interrupted; a temporary file or folder was left (${reason}); the next run removes it\n`)
          }
        }
        process.exit(code)
      })
    }
  }
  cleanups.add(cleanup)
  return () => cleanups.delete(cleanup)
}
