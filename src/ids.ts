import { randomFillSync } from 'node:crypto'
import { monotonicFactory } from 'ulid'

/** Every kind of id the API hands out, by its prefix. */
export type IdPrefix = 'usr' | 'key' | 'acc' | 'pst' | 'whk' | 'msg' | 'gen' | 'req' | 'dlv' | 'ser' | 'wsp'

// Random bytes drawn from the OS in batches: ulid's default asks for them on every id, and a
// request id is made for every request.
const pool = new Uint32Array(1024)
let next = pool.length
function pooledRandom(): number {
  if (next === pool.length) {
    randomFillSync(pool)
    next = 0
  }
  return pool[next++]! / 0x1_0000_0000
}

const ulid = monotonicFactory(pooledRandom)

/** A prefixed, time-ordered id: `pst_01JD…`. Ordering by id is ordering by creation. */
export function newId(prefix: IdPrefix, now: number = Date.now()): string {
  return `${prefix}_${ulid(now)}`
}

/** A user's personal workspace: the user's own ULID, as the workspace's (made with the user, and by migration for users before). */
export function personalWorkspaceId(userId: string): string {
  return `wsp_${userId.slice('usr_'.length)}`
}

export function hasPrefix(id: string, prefix: IdPrefix): boolean {
  return id.startsWith(`${prefix}_`) && /^[a-z]+_[0-9A-HJKMNP-TV-Z]{26}$/.test(id)
}
