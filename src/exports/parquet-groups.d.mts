/** An opened Parquet source (see parquet-groups.mjs). */
export interface ParquetSource {
  metadata: {
    row_groups: { num_rows: bigint; total_byte_size: bigint; columns: { meta_data?: { path_in_schema: string[] } & Record<string, unknown>; offset_index_offset?: unknown; column_index_offset?: unknown }[] }[]
    schema: { name: string; num_children?: number }[]
  }
  names: string[]
  rowStarts: number[]
}

export function openParquetSource(from: { buffer?: ArrayBuffer; path?: string; sync?: boolean }): Promise<ParquetSource>
export function decodeRowGroup(source: ParquetSource, group: number, only?: string[]): Promise<{ columns: unknown[][]; rowCount: number }>
export function gunzipBounded(input: Uint8Array, size: number): Buffer
