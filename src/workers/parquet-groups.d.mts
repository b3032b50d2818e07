/** An opened Parquet source (see parquet-groups.mjs). */
export interface ParquetSource {
  metadata: { row_groups: unknown[] }
  names: string[]
  rowStarts: number[]
}

export function openParquetSource(from: { buffer?: ArrayBuffer; path?: string }): Promise<ParquetSource>
export function decodeRowGroup(source: ParquetSource, group: number): Promise<{ columns: unknown[][]; rowCount: number }>
