/** A Parquet file read by ranges (see group-ranges.mjs). */
export interface GroupRanges {
  file: { byteLength: number; slice(start: number, end?: number): Promise<ArrayBuffer> }
  newGroup(): void
  batchRead(): void
  close(): Promise<void>
}

export function groupRanges(path: string, size: number): Promise<GroupRanges>
