/** A page of a list, as every list endpoint answers. */
export interface Page<T> {
  data: T[]
  has_more: boolean
  next_cursor: string | null
}

/**
 * Cursors are the last id of the page, base64url-encoded: ids are time-ordered and unique, so a
 * cursor stays valid and stable when rows are inserted before or after it.
 */
export function encodeCursor(lastId: string): string {
  return Buffer.from(lastId, 'utf8').toString('base64url')
}

export function decodeCursor(cursor: string | undefined): string | undefined {
  if (cursor === undefined) return undefined
  const decoded = Buffer.from(cursor, 'base64url').toString('utf8')
  return /^[a-z]+_[0-9A-Z]{26}$/.test(decoded) ? decoded : undefined
}

/** Builds a page from `limit + 1` rows fetched after the cursor. */
export function toPage<T extends { id: string }>(rows: T[], limit: number): Page<T> {
  const has_more = rows.length > limit
  const data = has_more ? rows.slice(0, limit) : rows
  return { data, has_more, next_cursor: has_more ? encodeCursor(data[data.length - 1]!.id) : null }
}
