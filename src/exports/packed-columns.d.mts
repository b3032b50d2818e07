/** A decoded column as the worker sends it (see packed-columns.mjs). */
export type PackedColumn =
  | { kind: 'plain'; values: unknown[] }
  | { kind: 'strings'; bytes: Uint8Array; starts: Int32Array; missing: Uint8Array }
  | { kind: 'lists'; listStarts: Int32Array; missing: Uint8Array; items: { bytes: Uint8Array; starts: Int32Array; missing: Uint8Array } }

export function packColumn(values: unknown[], maxBytes?: number): PackedColumn
export function sliceColumn(column: PackedColumn, from: number, to: number): PackedColumn
export function transfers(column: PackedColumn): ArrayBuffer[]
export function valueAt(column: PackedColumn, i: number): unknown
