import { homedir } from 'node:os'
import { join } from 'node:path'

/** Where the daemon keeps its database, certificate and keys unless told otherwise. */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_DATA_HOME
  return join(xdg && xdg.startsWith('/') ? xdg : join(homedir(), '.local', 'share'), 'smm')
}

/** The package's version, for /healthz, the OpenAPI document and `smm --version`. */
export const VERSION = '0.1.0'
