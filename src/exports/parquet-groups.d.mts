/** An opened Parquet source (see parquet-groups.mjs). */
export interface ParquetSource {
  metadata: {
    row_groups: { num_rows: bigint; total_byte_size: bigint; columns: { meta_data?: { path_in_schema: string[] } & Record<string, unknown>; offset_index_offset?: unknown; column_index_offset?: unknown }[] }[]
    schema: { name: string; num_children?: number }[]
  }
  names: string[]
  rowStarts: number[]
}

/** hyparquet's AsyncBuffer: a file's length and its byte ranges. */
export interface RangeBuffer {
  byteLength: number
  slice(start: number, end?: number): ArrayBuffer | Promise<ArrayBuffer>
}

export function openParquetSource(from: { buffer: ArrayBuffer } | { file: RangeBuffer }): Promise<ParquetSource>
export function decodeRows(source: ParquetSource, from: number, to: number): Promise<{ columns: unknown[][]; rowCount: number }>
export function gunzipBounded(input: Uint8Array, size: number): Buffer
