import { createHash } from 'node:crypto'

const SORTABLE = '234567abcdefghijklmnopqrstuvwxyz'
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'

/** The millisecond timestamp inside a ULID (the part of our ids after the prefix), if it is one. */
function ulidTime(id: string): number | undefined {
  const ulid = id.slice(id.lastIndexOf('_') + 1).toUpperCase()
  if (!/^[0-7][0-9A-HJKMNP-TV-Z]{25}$/.test(ulid)) return undefined
  let ms = 0
  for (const char of ulid.slice(0, 10)) ms = ms * 32 + CROCKFORD.indexOf(char)
  return ms
}

/**
 * An AT Protocol record key for a post, derived from our post id so that sending the same post
 * again addresses the same record. `app.bsky.feed.post` keys must be TIDs (53 bits of
 * microseconds, 10 bits of clock id, base32-sortable): the post id's own time gives the
 * milliseconds, and a hash of the whole id the sub-millisecond part and the clock id, so two
 * posts created in the same millisecond still get different keys.
 */
export function recordKeyFor(postId: string, part = 0): string {
  // Part 0 (the post itself) keeps the key it always had; each later part hashes its own name.
  const hash = createHash('sha256').update(part === 0 ? postId : partKey(postId, part)).digest()
  const ms = ulidTime(postId)
  const micros = ms === undefined ? hash.readBigUInt64BE(8) & ((1n << 53n) - 1n) : BigInt(ms) * 1000n + BigInt(hash.readUInt16BE(0) % 1000)
  const clockId = BigInt(hash.readUInt16BE(2) & 0x3ff)
  let value = (micros << 10n) | clockId
  let key = ''
  for (let i = 0; i < 13; i++) {
    key = SORTABLE[Number(value & 31n)]! + key
    value >>= 5n
  }
  return key
}

/**
 * The name of one part of a post, where a platform needs a key per item (an idempotency key, a
 * feed item): the post id for the post itself, `<post id>-<index>` for each part after it.
 */
export function partKey(postId: string, part: number): string {
  return part === 0 ? postId : `${postId}-${part}`
}
