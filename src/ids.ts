import { randomFillSync } from 'node:crypto'
import { encodeTime } from 'ulid'

/** Every kind of id the API hands out, by its prefix. */
export type IdPrefix = 'usr' | 'key' | 'acc' | 'pst' | 'whk' | 'msg' | 'gen' | 'req' | 'dlv' | 'ser' | 'wsp' | 'med' | 'upl' | 'cmt' | 'rvl'

// Random bytes drawn from the OS in batches: asking for them on every id costs a system call, and
// a request id is made for every request.
const pool = new Uint32Array(1024)
let next = pool.length
function randomWord(): number {
  if (next === pool.length) {
    randomFillSync(pool)
    next = 0
  }
  return pool[next++]!
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'

/** 2^40: the random part is kept as two 40-bit halves, each a safe integer (bigint arithmetic cost 3 µs an id). */
const HALF = 2 ** 40
/** `bits` (at most 40) random bits. */
const randomHalf = (bits: number) => (randomWord() + (randomWord() & 0xff) * 2 ** 32) % 2 ** bits

/**
 * The ULIDs of one kind of id, in the order they are made: lists and cursors sort by id, and
 * the outbox is read in id order, so ids made in the same millisecond must sort as they were
 * made. ulid's monotonic factory does that by adding 1 to the random part, which made the next
 * id of a millisecond known from the one before (posts of a bulk were +2 apart, and one factory
 * served every kind, request ids included). Here the random part starts anew each millisecond
 * (79 bits, so it has room to grow) and grows by a random step of up to 2^64: still in order,
 * and no id tells another. A clock that goes back keeps the last time, as ulid's does.
 */
function orderedFactory(): (now: number) => string {
  let lastTime = -1
  // The time part, encoded once a millisecond.
  let timePart = ''
  let timeOf = -1
  // The 80-bit random part: high * 2^40 + low.
  let high = 0
  let low = 0
  return (now) => {
    if (now > lastTime) {
      lastTime = now
      high = randomHalf(39)
      low = randomHalf(40)
    } else {
      // A step of 1 + up to 2^64 - 1: 40 random bits low, 24 high.
      low += 1 + randomHalf(40)
      high += randomHalf(24)
      if (low >= HALF) {
        low -= HALF
        high += 1
      }
      // 2^15 ids at least in one millisecond before this; then the next millisecond's ids begin.
      if (high >= HALF) {
        lastTime += 1
        high = randomHalf(39)
        low = randomHalf(40)
      }
    }
    if (lastTime !== timeOf) {
      timeOf = lastTime
      timePart = encodeTime(lastTime, 10)
    }
    return timePart + encodeHalf(high) + encodeHalf(low)
  }
}

/** A 40-bit number in its 8 characters of Crockford base32. */
function encodeHalf(value: number): string {
  const top = Math.floor(value / 2 ** 20)
  const bottom = value % 2 ** 20
  return PAIRS[top >>> 10]! + PAIRS[top & 1023]! + PAIRS[bottom >>> 10]! + PAIRS[bottom & 1023]!
}

/** Every 10-bit number as its two Crockford base32 characters. */
const PAIRS = Array.from({ length: 1024 }, (_, i) => CROCKFORD[i >> 5]! + CROCKFORD[i & 31]!)

/** The time part of the last unordered id, kept: a request id is made for every request, many in each millisecond. */
let lastTime = -1
let lastTimePart = ''

/**
 * A ULID of `now` and 80 fresh random bits (30 of each of two words, 20 of a third), ten bits to
 * a lookup: ulid's own encoder draws a float per character, about a microsecond per id.
 */
function unorderedUlid(now: number): string {
  if (now !== lastTime) {
    lastTimePart = encodeTime(now, 10)
    lastTime = now
  }
  const a = randomWord()
  const b = randomWord()
  const c = randomWord()
  return (
    lastTimePart +
    PAIRS[a & 1023]! + PAIRS[(a >>> 10) & 1023]! + PAIRS[(a >>> 20) & 1023]! +
    PAIRS[b & 1023]! + PAIRS[(b >>> 10) & 1023]! + PAIRS[(b >>> 20) & 1023]! +
    PAIRS[c & 1023]! + PAIRS[(c >>> 10) & 1023]!
  )
}

/** Kinds nothing sorts by id (a request's, a generation's): time and 80 random bits, nothing shared. */
const UNORDERED: ReadonlySet<IdPrefix> = new Set(['req', 'gen'])
/** One factory per kind that is sorted: the ids of one kind say nothing of another's. */
const factories = new Map<IdPrefix, (now: number) => string>()

/**
 * A prefixed, time-ordered id: `pst_01JD…`. Ordering ids of one kind is ordering them by
 * creation; ids are not guessable from one another (see orderedFactory).
 */
export function newId(prefix: IdPrefix, now: number = Date.now()): string {
  if (UNORDERED.has(prefix)) return `${prefix}_${unorderedUlid(now)}`
  let factory = factories.get(prefix)
  if (!factory) factories.set(prefix, (factory = orderedFactory()))
  return `${prefix}_${factory(now)}`
}

/** A user's personal workspace: the user's own ULID, as the workspace's (made with the user, and by migration for users before). */
export function personalWorkspaceId(userId: string): string {
  return `wsp_${userId.slice('usr_'.length)}`
}

export function hasPrefix(id: string, prefix: IdPrefix): boolean {
  return id.startsWith(`${prefix}_`) && /^[a-z]+_[0-9A-HJKMNP-TV-Z]{26}$/.test(id)
}
