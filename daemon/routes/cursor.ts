import { invalidField } from '../../src/errors.js'
import { decodeCursor } from '../../src/pagination.js'

/** The id a list resumes after, from `?cursor=`; an unreadable cursor is a 422 at `#/cursor`. */
export function cursorAfter(cursor: string | undefined): string {
  if (cursor === undefined) return ''
  const after = decodeCursor(cursor)
  if (after === undefined) throw invalidField('#/cursor', 'is not a cursor from a previous page of this list')
  return after
}
