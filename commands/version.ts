import { BaseCommand } from '../src/cli/base-command.js'

/** What `smm version` prints with --json. */
export interface VersionInfo {
  version: string
  node: string
  platform: string
}

export default class Version extends BaseCommand {
  static override description = 'Show the version of smm, and the Node.js and platform it runs on (what a bug report needs).'

  static override examples = ['<%= config.bin %> version', '<%= config.bin %> version --json']

  async run(): Promise<VersionInfo> {
    await this.parse(Version)
    const info = { version: this.config.version, node: process.version, platform: `${process.platform}-${process.arch}` }
    if (!this.jsonEnabled()) this.log(`${this.config.bin} ${info.version} (Node.js ${info.node}, ${info.platform})`)
    return info
  }
}
