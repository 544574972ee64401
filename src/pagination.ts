/** A page of a list, as every list endpoint answers. */
export interface Page<T> {
  data: T[]
  has_more: boolean
  next_cursor: string | null
}

/** Where a page ended: the list's sort key, the row's id last (ids are unique, so ties break). */
export type CursorKey = (string | number)[]

const ID = /^[a-z]+_[0-9A-Z]{26}$/

/**
 * Cursors are the sort key of the last row of a page, as base64url JSON. Opaque to clients, and
 * stable: a page resumes after that row however many rows were inserted since.
 */
export function encodeCursor(key: CursorKey): string {
  return Buffer.from(JSON.stringify(key), 'utf8').toString('base64url')
}

/** The key a cursor carries, or undefined if it is not one this API made. */
export function decodeCursor(cursor: string): CursorKey | undefined {
  try {
    const key: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
    if (!Array.isArray(key) || key.length === 0 || key.length > 4) return undefined
    if (!key.every((part) => typeof part === 'string' || (typeof part === 'number' && Number.isFinite(part)))) return undefined
    return typeof key[key.length - 1] === 'string' && ID.test(key[key.length - 1]) ? key : undefined
  } catch {
    // Not base64url JSON: not one of ours.
    return undefined
  }
}

/** For lists ordered by id: the id to resume after (`''` for the first page). */
export function afterId(key: CursorKey | undefined): string {
  return key ? String(key[key.length - 1]) : ''
}

/** Builds a page from `limit + 1` rows fetched after the cursor; `keyOf` gives a row's sort key. */
export function toPage<T extends { id: string }>(rows: T[], limit: number, keyOf?: (row: T) => CursorKey): Page<T>
export function toPage<T>(rows: T[], limit: number, keyOf: (row: T) => CursorKey): Page<T>
export function toPage<T>(rows: T[], limit: number, keyOf: (row: T) => CursorKey = (row) => [(row as { id: string }).id]): Page<T> {
  const has_more = rows.length > limit
  const data = has_more ? rows.slice(0, limit) : rows
  return { data, has_more, next_cursor: has_more ? encodeCursor(keyOf(data[data.length - 1]!)) : null }
}
