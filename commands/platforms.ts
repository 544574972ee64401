import { ApiCommand } from '../src/cli/api-command.js'
import { platformTable } from '../src/cli/platform-output.js'

export default class Platforms extends ApiCommand {
  static override description = `List the platforms this daemon publishes to, and what a post on each may hold.

For each: how it is connected (the credentials \`accounts connect\` takes, or a browser sign-in), its text limit and how it counts characters, how many media a post may have, and how a thread's parts go out (replies or consecutive posts) and a first comment (a reply, a comment, or none: refused). A connection may have limits of its own (a Mastodon instance's).`

  static override examples = ['<%= config.bin %> platforms', '<%= config.bin %> platforms --json']

  async run() {
    await this.parse(Platforms)
    const client = await this.client()
    const list = await this.waitFor('Listing platforms', client.listPlatforms())
    if (!this.jsonEnabled()) {
      this.log(platformTable(list.data))
      this.log(`\nConnect one: ${this.config.bin} accounts connect ACCOUNT --platform PLATFORM${this.profileFlag()}`)
    }
    return list
  }
}
