import { readFileSync } from 'node:fs'
import { Flags } from '@oclif/core'
import type { Connection } from '../../src/api/accounts.js'
import { ApiCommand } from '../../src/cli/api-command.js'
import { feedUrls } from '../../src/cli/account-output.js'
import { usageError } from '../../src/cli/command-error.js'
import { accountArg, repeatable, platform } from '../../src/cli/flags.js'
import { readStdin } from '../../src/cli/prompt.js'

const EXAMPLE = 'e.g. --credential instance_url=https://mastodon.social'

// Messages about credentials never quote what was given: it may be a token.
function parsePairs(pairs: readonly string[]): Record<string, string> {
  const credentials: Record<string, string> = {}
  for (const pair of pairs) {
    const at = pair.indexOf('=')
    const name = pair.slice(0, at).trim()
    if (at < 1 || !/^\w+$/.test(name)) throw usageError('invalid_credential', `--credential: expected NAME=VALUE (${EXAMPLE}); the value is not shown here in case it is a secret.`)
    credentials[name] = pair.slice(at + 1)
  }
  return credentials
}

function parseJsonObject(text: string, source: string): Record<string, unknown> {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    // JSON.parse quotes the input in its message: the credentials would end up on the screen.
    throw usageError('invalid_credentials', `${source} is not valid JSON; expected an object such as {"instance_url": "https://…", "access_token": "…"}.`)
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw usageError('invalid_credentials', `${source} must hold a JSON object of credential names and values.`)
  }
  return value as Record<string, unknown>
}

export default class AccountsConnect extends ApiCommand {
  static override description = `Connect a platform to an account: the daemon checks the credentials with the platform, then keeps them encrypted. They are never shown again.

Give credentials as --credential NAME=VALUE (repeatable), or as a JSON object in a file (--credentials-file, - for standard input), which keeps tokens out of your shell history. The built-in feed platform needs none. Connecting a platform again replaces its credentials.

  feed      (none)
  mastodon  instance_url, access_token
  bluesky   service_url, identifier, app_password
  telegram  bot_token, chat_id
  discord   webhook_url
  slack     webhook_url`

  static override examples = [
    '<%= config.bin %> accounts connect acc_01JD3Q7ZV6YV9M2R8X4T5N6P7A --platform feed',
    '<%= config.bin %> accounts connect acc_01JD3Q7ZV6YV9M2R8X4T5N6P7A --platform mastodon --credential instance_url=https://mastodon.social --credential access_token=…',
    'pass show smm/bluesky.json | <%= config.bin %> accounts connect acc_01JD3Q7ZV6YV9M2R8X4T5N6P7A --platform bluesky --credentials-file -',
  ]

  static override args = {
    account: accountArg,
  }

  static override flags = {
    platform: platform({ description: 'The platform to connect', required: true }),
    credential: Flags.string({ description: 'One credential as NAME=VALUE (repeatable)', helpValue: 'NAME=VALUE', ...repeatable, exclusive: ['credentials-file'] }),
    'credentials-file': Flags.string({ description: 'A JSON object of credentials in this file (- for standard input)', helpValue: '<file>', exclusive: ['credential'] }),
  }

  async run(): Promise<Connection> {
    const { args, flags } = await this.parse(AccountsConnect)
    const id = await this.accountId('ACCOUNT', args.account)
    const credentials = await this.credentials(flags.credential, flags['credentials-file'])
    const client = await this.client()
    const connection = await this.waitFor(
      `Checking the credentials with ${flags.platform}`,
      client.connectAccount({ params: { id }, body: { platform: flags.platform, ...(credentials ? { credentials } : {}) } }),
    )
    if (!this.jsonEnabled()) {
      const name = connection.display_name && connection.display_name !== connection.handle ? ` (${connection.display_name})` : ''
      this.log(`Connected ${connection.platform} to account ${id} as ${connection.handle}${name}.`)
      if (connection.platform === 'feed') this.log(`Its posts are published to the feed at ${feedUrls(client.baseUrl, id)}; reading it needs no key.`)
    }
    return connection
  }

  private async credentials(pairs: string[] | undefined, file: string | undefined): Promise<Record<string, unknown> | undefined> {
    if (pairs) return parsePairs(pairs)
    if (file === undefined) return undefined
    if (file === '-') return parseJsonObject(await readStdin(), 'Standard input')
    let text: string
    try {
      text = readFileSync(file, 'utf8')
    } catch (error) {
      throw usageError('file_unreadable', `--credentials-file ${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`)
    }
    return parseJsonObject(text, `--credentials-file ${file}`)
  }
}
