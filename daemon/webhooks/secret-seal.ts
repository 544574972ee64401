import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/** Seals secrets that smm must be able to read back (webhook signing secrets) before they are stored. */
export interface SecretBox {
  seal(plaintext: string): string
  open(sealed: string): string
}

const KEY_FILE = 'webhook-secrets.key'

/**
 * AES-256-GCM under a 32-byte key kept in the data dir (mode 0600). A copy of the database
 * alone (a backup, a stray file) then does not hand out the secrets that sign deliveries.
 * Stands in until the shared daemon/secret-box.ts lands; the sealed format is versioned
 * (`v1:`) so values can be re-sealed under another box.
 */
export function openSecretBox(dataDir: string): SecretBox {
  const file = join(dataDir, KEY_FILE)
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString('base64') + '\n', { mode: 0o600, flag: 'wx' })
  const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64')
  if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte base64 key; restore it from a backup of the data dir`)
  return {
    seal(plaintext) {
      const iv = randomBytes(12)
      const cipher = createCipheriv('aes-256-gcm', key, iv)
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
      return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join(':')
    },
    open(sealed) {
      const [version, iv, tag, body] = sealed.split(':')
      if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('a sealed secret is not in the v1 format')
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'))
      decipher.setAuthTag(Buffer.from(tag, 'base64url'))
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8')
    },
  }
}
