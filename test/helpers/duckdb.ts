import { DuckDBInstance } from '@duckdb/node-api'

/** Run SQL in an in-memory DuckDB, an independent reader of every export. */
export async function duck<T = Record<string, unknown>>(sql: string): Promise<T[]> {
  const db = await DuckDBInstance.create(':memory:')
  const connection = await db.connect()
  try {
    const reader = await connection.runAndReadAll(sql)
    return reader.getRowObjectsJson() as T[]
  } finally {
    connection.closeSync()
  }
}

/** Quote a path as an SQL string literal. */
export const lit = (s: string) => `'${s.replace(/'/g, "''")}'`
