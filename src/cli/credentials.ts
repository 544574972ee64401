import { chmodSync } from 'node:fs'
import { join } from 'node:path'
import { configDir, readJsonFile, writeJsonFile } from './profiles.js'

/** The OS keychain, as far as the CLI needs it: one secret per account of the `smm` service. */
export interface Keychain {
  get(account: string): Promise<string | undefined>
  set(account: string, secret: string): Promise<void>
  delete(account: string): Promise<boolean>
}

const SERVICE = 'smm'

/**
 * The OS keychain through @napi-rs/keyring: macOS Keychain, Windows Credential Manager, the
 * Secret Service (gnome-keyring, KWallet) on Linux. On Linux the Secret Service is required:
 * the library's fallback, the kernel keyring, forgets everything at reboot, which for a login
 * is worse than the 0600 file. The native module is loaded on first use only.
 */
export const osKeychain: Keychain = {
  async get(account) {
    return (await entry(account)).getPassword() ?? undefined
  },
  async set(account, secret) {
    ;(await entry(account)).setPassword(secret)
  },
  async delete(account) {
    return (await entry(account)).deletePassword()
  },
}

async function entry(account: string) {
  const { Entry } = await import('@napi-rs/keyring')
  return new Entry(SERVICE, account, { linux: { store: 'secret-service' } })
}

/** Where a key was stored. */
export type KeyLocation = { store: 'keychain' } | { store: 'file'; file: string; reason: string }

interface CredentialsFile {
  keys: Record<string, string>
}

/** Why the keychain could not take the key, in words for the person at the terminal. */
function keychainUnavailable(error: unknown): string {
  const line = firstLine(error)
  // The library's D-Bus errors are about autolaunch and X11; what matters is that no Secret
  // Service (gnome-keyring, KeePassXC…) is reachable, as on a headless server.
  return /d-?bus/i.test(line) ? 'no Secret Service is running on this session bus' : line
}

function firstLine(error: unknown): string {
  return String(error instanceof Error ? error.message : error).split('\n')[0]!.trim()
}

/**
 * API keys by profile: in the OS keychain (service `smm`, account = profile), or, where there
 * is none (a headless server), in `credentials.json` of the config dir, mode 0600.
 */
export class Credentials {
  readonly file: string

  constructor(
    readonly dir: string = configDir(),
    private readonly keychain: Keychain = osKeychain,
  ) {
    this.file = join(dir, 'credentials.json')
  }

  #readFile(): CredentialsFile {
    return { keys: { ...readJsonFile<CredentialsFile>(this.file)?.keys } }
  }

  #writeFile(credentials: CredentialsFile): void {
    writeJsonFile(this.dir, 'credentials.json', credentials)
    // writeFile's mode applies only when it creates the file: make sure of it every time.
    chmodSync(this.file, 0o600)
  }

  /**
   * The profile's key: from the keychain, else from the file (where login put it when there
   * was no keychain). When neither has it, why the keychain could not be read, if it could not.
   */
  async get(profile: string): Promise<{ key?: string; keychainError?: string }> {
    let keychainError: string | undefined
    const fromKeychain = await this.keychain.get(profile).catch((error: unknown) => {
      keychainError = firstLine(error)
      return undefined
    })
    const key = fromKeychain ?? this.#readFile().keys[profile]
    return key ? { key } : keychainError ? { keychainError } : {}
  }

  /** Stores the key in the keychain, or in the file when there is no keychain (and says why). */
  async set(profile: string, key: string): Promise<KeyLocation> {
    try {
      await this.keychain.set(profile, key)
    } catch (error) {
      const credentials = this.#readFile()
      credentials.keys[profile] = key
      this.#writeFile(credentials)
      return { store: 'file', file: this.file, reason: keychainUnavailable(error) }
    }
    this.#removeFromFile(profile)
    return { store: 'keychain' }
  }

  /** Forgets the profile's key wherever it is; whether there was one. */
  async delete(profile: string): Promise<boolean> {
    // With no keychain the key can only be in the file, which is cleaned below.
    const removed = await this.keychain.delete(profile).catch(() => false)
    return this.#removeFromFile(profile) || removed
  }

  #removeFromFile(profile: string): boolean {
    const credentials = this.#readFile()
    if (!(profile in credentials.keys)) return false
    delete credentials.keys[profile]
    this.#writeFile(credentials)
    return true
  }
}
