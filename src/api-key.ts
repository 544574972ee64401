import { hash, randomInt } from 'node:crypto'
import { crc32 } from 'node:zlib'

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const PREFIX = 'smm_'
const RANDOM_LENGTH = 30
const CHECKSUM_LENGTH = 6
const KEY_PATTERN = new RegExp(`^${PREFIX}[0-9A-Za-z]{${RANDOM_LENGTH + CHECKSUM_LENGTH}}$`)

function base62(value: number, width: number): string {
  let out = ''
  for (let v = value; v > 0; v = Math.floor(v / 62)) out = BASE62[v % 62] + out
  return out.padStart(width, '0')
}

function checksum(body: string): string {
  return base62(crc32(body), CHECKSUM_LENGTH)
}

/**
 * A new secret API key: `smm_` + 30 random base62 characters + a 6-character base62 CRC32 of
 * what precedes it, so a typo or a truncated paste is caught offline, before any lookup.
 */
export function generateApiKey(): string {
  let body = PREFIX
  for (let i = 0; i < RANDOM_LENGTH; i++) body += BASE62[randomInt(62)]
  return body + checksum(body)
}

/** Whether a string has the shape of an smm key: `smm_` and 36 base62 characters (its checksum unchecked). */
export function hasApiKeyShape(key: string): boolean {
  return KEY_PATTERN.test(key)
}

/** Whether a string has the shape and checksum of an smm key (says nothing of whether it exists). */
export function isWellFormedApiKey(key: string): boolean {
  if (!hasApiKeyShape(key)) return false
  const body = key.slice(0, -CHECKSUM_LENGTH)
  return checksum(body) === key.slice(-CHECKSUM_LENGTH)
}

/** What is stored in place of a key: its SHA-256, hex (one-shot: a third of `createHash`'s cost). */
export function hashApiKey(key: string): string {
  return hash('sha256', key, 'hex')
}

/** The first 12 characters, kept for display (`smm_AbC12345`). */
export function apiKeyDisplayPrefix(key: string): string {
  return key.slice(0, 12)
}
