import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto'
import { closeSync, fstatSync, openSync, readFileSync, writeSync } from 'node:fs'
import { join } from 'node:path'

const KEY_BYTES = 32
const IV_BYTES = 12
const TAG_BYTES = 16
// A leading version byte lets a later key rotation or cipher change read old rows.
const FORMAT_V1 = 1

/** Seals and opens secrets at rest (platform credentials) with AES-256-GCM. */
export interface SecretBox {
  /** Encrypts a JSON value; `context` (e.g. "acc_…:mastodon") is bound in as associated data. */
  seal(value: unknown, context: string): Buffer
  /** Decrypts what `seal` made with the same context; throws if it was altered or moved. */
  open(sealed: Buffer, context: string): unknown
}

export class SecretKeyError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'SecretKeyError'
  }
}

/** What identifies a key without revealing it: for checking that several daemons share one. */
export function keyFingerprint(key: Buffer): string {
  return createHash('sha256').update('smm secret key fingerprint\0').update(key).digest('hex')
}

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== KEY_BYTES) throw new SecretKeyError(`The secret key must be ${KEY_BYTES} bytes (got ${key.length}).`)
  return {
    seal(value, context) {
      const iv = randomBytes(IV_BYTES)
      const cipher = createCipheriv('aes-256-gcm', key, iv)
      cipher.setAAD(Buffer.from(context, 'utf8'))
      const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()])
      return Buffer.concat([Buffer.from([FORMAT_V1]), iv, body, cipher.getAuthTag()])
    },
    open(sealed, context) {
      if (sealed.length < 1 + IV_BYTES + TAG_BYTES || sealed[0] !== FORMAT_V1) throw new SecretKeyError('A sealed secret is not in a format this smm reads.')
      const iv = sealed.subarray(1, 1 + IV_BYTES)
      const tag = sealed.subarray(sealed.length - TAG_BYTES)
      const decipher = createDecipheriv('aes-256-gcm', key, iv)
      decipher.setAAD(Buffer.from(context, 'utf8'))
      decipher.setAuthTag(tag)
      try {
        const plain = Buffer.concat([decipher.update(sealed.subarray(1 + IV_BYTES, sealed.length - TAG_BYTES)), decipher.final()])
        return JSON.parse(plain.toString('utf8'))
      } catch (error) {
        throw new SecretKeyError(`A sealed secret could not be opened (wrong secret key, or altered data): ${(error as Error).message}`)
      }
    },
  }
}

/**
 * The key that seals credentials: `SMM_SECRET_KEY` (base64 of 32 bytes) when given, else the
 * file `secret.key` in the data dir, created once with mode 0600. Losing it loses the stored
 * credentials (accounts must reconnect), so it belongs in backups next to the database.
 */
export function loadSecretKey(dataDir: string, fromEnv?: string): Buffer {
  if (fromEnv !== undefined && fromEnv !== '') {
    const key = Buffer.from(fromEnv, 'base64')
    if (key.length !== KEY_BYTES || key.toString('base64').replace(/=+$/, '') !== fromEnv.trim().replace(/=+$/, '')) {
      throw new SecretKeyError(`SMM_SECRET_KEY must be the base64 of exactly ${KEY_BYTES} random bytes (e.g. the output of "openssl rand -base64 32").`)
    }
    return key
  }
  const file = join(dataDir, 'secret.key')
  let fd: number
  try {
    // 'wx' creates it only if absent, so two daemons starting at once cannot each write a key.
    fd = openSync(file, 'wx', 0o600)
    const key = randomBytes(KEY_BYTES)
    writeSync(fd, key)
    closeSync(fd)
    return key
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  }
  fd = openSync(file, 'r')
  try {
    const mode = fstatSync(fd).mode & 0o777
    if (process.platform !== 'win32' && (mode & 0o077) !== 0) {
      throw new SecretKeyError(`${file} is readable by other users (mode ${mode.toString(8)}); it seals platform credentials. Run: chmod 600 ${file}`)
    }
  } finally {
    closeSync(fd)
  }
  const key = readFileSync(file)
  if (key.length !== KEY_BYTES) throw new SecretKeyError(`${file} must hold exactly ${KEY_BYTES} bytes (found ${key.length}); restore it from a backup.`)
  return key
}
