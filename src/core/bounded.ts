import type { Diagnostic } from './types.js'

/** At most this many diagnostics of one code (and severity) are kept; the rest are only counted. */
export const MAX_DIAGNOSTICS_PER_CODE = 1000

/**
 * A list of diagnostics that keeps at most MAX_DIAGNOSTICS_PER_CODE of each code and severity, so
 * that memory and output stay bounded whatever the input repeats. What it leaves out travels with it
 * as one marker per code and severity (`omitted`: how many), through spreads and sorts, until
 * `makeReport` turns the markers into exact counts.
 */
export class BoundedDiagnostics extends Array<Diagnostic> {
  // map, filter and slice give plain arrays.
  static override get [Symbol.species]() {
    return Array
  }
  private readonly kept = new Map<string, number>()
  private readonly markers = new Map<string, Diagnostic>()

  override push(...items: Diagnostic[]): number {
    for (const d of items) {
      const key = `${d.code} ${d.severity}`
      const n = this.kept.get(key) ?? 0
      if (d.omitted !== undefined || n < MAX_DIAGNOSTICS_PER_CODE) {
        if (d.omitted === undefined) this.kept.set(key, n + 1)
        super.push(d)
        continue
      }
      let marker = this.markers.get(key)
      if (!marker) {
        marker = { code: d.code, severity: d.severity, message: `more ${d.code} diagnostics`, omitted: 0 }
        this.markers.set(key, marker)
        super.push(marker)
      }
      marker.omitted!++
    }
    return this.length
  }
}

export const boundedDiagnostics = (): Diagnostic[] => new BoundedDiagnostics()
