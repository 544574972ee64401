import { Flags } from '@oclif/core'
import { defaultDataDir } from '../config.js'

/** `--data-dir`: where the daemon's database, certificate and keys live. */
export const dataDir = Flags.directory({
  description: 'Directory of the SQLite database, TLS certificate and secret key',
  env: 'SMM_DATA_DIR',
  default: async () => defaultDataDir(),
  defaultHelp: async () => '$XDG_DATA_HOME/smm or ~/.local/share/smm',
})
