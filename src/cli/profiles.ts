import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'

/** Where the CLI keeps its settings: `$XDG_CONFIG_HOME/smm` or `~/.config/smm`. */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CONFIG_HOME
  return join(xdg && xdg.startsWith('/') ? xdg : join(homedir(), '.config'), 'smm')
}

/** One daemon the CLI talks to, by name (`--profile`). Never holds the key: that is in the keychain. */
export interface Profile {
  url: string
  /** A PEM file of certificates to trust for this daemon (its tls-cert.pem, say). */
  ca_file?: string
  /** The SHA-256 fingerprint of the daemon's certificate, pinned at login. */
  fingerprint?: string
}

interface ConfigFile {
  profiles: Record<string, Profile>
}

/** Reads a JSON file of the config dir, or undefined if there is none yet. */
export function readJsonFile<T>(file: string): T | undefined {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
  try {
    return JSON.parse(text) as T
  } catch (error) {
    throw new Error(`${file} is not valid JSON (${(error as Error).message}); fix or delete it`)
  }
}

/** Writes a file of the config dir whole (write then rename), readable by its owner only. */
export function writeJsonFile(dir: string, name: string, value: unknown): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  const file = join(dir, name)
  const temp = `${file}.${process.pid}.tmp`
  writeFileSync(temp, JSON.stringify(value, null, 2) + '\n', { mode: 0o600 })
  renameSync(temp, file)
  return file
}

/** The profiles in `config.json` of the config dir. */
export class Profiles {
  readonly file: string

  constructor(readonly dir: string = configDir()) {
    this.file = join(dir, 'config.json')
  }

  #read(): ConfigFile {
    const config = readJsonFile<ConfigFile>(this.file)
    return { profiles: { ...config?.profiles } }
  }

  get(name: string): Profile | undefined {
    return this.#read().profiles[name]
  }

  set(name: string, profile: Profile): void {
    const config = this.#read()
    config.profiles[name] = profile
    writeJsonFile(this.dir, 'config.json', config)
  }

  /** Every saved profile, by name. */
  all(): Record<string, Profile> {
    return this.#read().profiles
  }

  /** Forgets a profile; whether there was one. */
  delete(name: string): boolean {
    const config = this.#read()
    if (!(name in config.profiles)) return false
    delete config.profiles[name]
    writeJsonFile(this.dir, 'config.json', config)
    return true
  }
}
