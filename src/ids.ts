import { monotonicFactory } from 'ulid'

/** Every kind of id the API hands out, by its prefix. */
export type IdPrefix = 'usr' | 'key' | 'acc' | 'pst' | 'whk' | 'msg' | 'gen' | 'req' | 'dlv'

const ulid = monotonicFactory()

/** A prefixed, time-ordered id: `pst_01JD…`. Ordering by id is ordering by creation. */
export function newId(prefix: IdPrefix, now: number = Date.now()): string {
  return `${prefix}_${ulid(now)}`
}

export function hasPrefix(id: string, prefix: IdPrefix): boolean {
  return id.startsWith(`${prefix}_`) && /^[a-z]+_[0-9A-HJKMNP-TV-Z]{26}$/.test(id)
}
