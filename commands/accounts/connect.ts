import { readFileSync } from 'node:fs'
import { Flags, ux } from '@oclif/core'
import type { Connection, PendingConnection } from '../../src/api/accounts.js'
import { OAUTH_PLATFORM_NAMES } from '../../src/api/common.js'
import { ApiCommand } from '../../src/cli/api-command.js'
import { feedUrls } from '../../src/cli/account-output.js'
import { openBrowser } from '../../src/cli/browser.js'
import { CommandError, usageError } from '../../src/cli/command-error.js'
import { EXIT } from '../../src/cli/exit-codes.js'
import { accountArg, repeatable, platform } from '../../src/cli/flags.js'
import { localTime } from '../../src/cli/output.js'
import { readStdin } from '../../src/cli/prompt.js'

/** How often the account is read while the person approves in their browser. */
const POLL_MS = 500
/** How long an approval link works (the daemon's 10 minutes), with slack for a slow last poll. */
const APPROVAL_WAIT_MS = 10 * 60_000 + 15_000

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
  slack     webhook_url

X, LinkedIn, Threads, Facebook and Instagram connect through the browser (OAuth 2.0) and take no credentials: the command prints a link, opens it in your browser (not with --no-browser, e.g. over SSH: open the link on any device), and waits until you have approved there, for at most 10 minutes. For Facebook, --page-id chooses the Page to publish to. The operator must have set up the platform's app first (see smm admin platforms).`

  static override examples = [
    '<%= config.bin %> accounts connect acc_01JD3Q7ZV6YV9M2R8X4T5N6P7A --platform feed',
    '<%= config.bin %> accounts connect acc_01JD3Q7ZV6YV9M2R8X4T5N6P7A --platform mastodon --credential instance_url=https://mastodon.social --credential access_token=…',
    'pass show smm/bluesky.json | <%= config.bin %> accounts connect acc_01JD3Q7ZV6YV9M2R8X4T5N6P7A --platform bluesky --credentials-file -',
    '<%= config.bin %> accounts connect acc_01JD3Q7ZV6YV9M2R8X4T5N6P7A --platform x',
    '<%= config.bin %> accounts connect Brand --platform linkedin --no-browser',
    '<%= config.bin %> accounts connect Brand --platform facebook --page-id 104589260000000',
  ]

  static override args = {
    account: accountArg,
  }

  static override flags = {
    platform: platform({ description: 'The platform to connect', required: true }),
    credential: Flags.string({ description: 'One credential as NAME=VALUE (repeatable)', helpValue: 'NAME=VALUE', ...repeatable, exclusive: ['credentials-file'] }),
    'credentials-file': Flags.string({ description: 'A JSON object of credentials in this file (- for standard input)', helpValue: '<file>', exclusive: ['credential'] }),
    browser: Flags.boolean({ description: 'Open the approval link in a browser (OAuth platforms); --no-browser only prints it', default: true, allowNo: true }),
    'page-id': Flags.string({ description: 'Facebook: the id of the Page to publish to', helpValue: '<id>' }),
  }

  async run(): Promise<Connection> {
    const { args, flags } = await this.parse(AccountsConnect)
    const id = await this.accountId('ACCOUNT', args.account)
    const credentials = await this.credentials(flags.credential, flags['credentials-file'])
    const client = await this.client()
    // What was there before: a reconnect is done when the connection changes, not when one is active.
    const before = (await client.getAccount({ params: { id } })).connections.find((c) => c.platform === flags.platform)
    const options = flags['page-id'] ? { options: { page_id: flags['page-id'] } } : {}
    const oauth = (OAUTH_PLATFORM_NAMES as readonly string[]).includes(flags.platform)
    const answer = await this.waitFor(
      oauth ? `Asking for an approval link for ${flags.platform}` : `Checking the credentials with ${flags.platform}`,
      client.connectAccount({ params: { id }, body: { platform: flags.platform, ...(credentials ? { credentials } : {}), ...options } }),
    )
    const connection = answer.status === 'pending' && 'authorize_url' in answer ? await this.approveInBrowser(id, answer, before, flags.browser) : (answer as Connection)
    if (!this.jsonEnabled()) {
      const name = connection.display_name && connection.display_name !== connection.handle ? ` (${connection.display_name})` : ''
      this.log(`Connected ${connection.platform} to account ${id} as ${connection.handle}${name}.`)
      if (connection.platform === 'feed') this.log(`Its posts are published to the feed at ${feedUrls(client.baseUrl, id)}; reading it needs no key.`)
    }
    return connection
  }

  /** Shows the approval link, opens it if it can, and waits until the daemon has the connection. */
  private async approveInBrowser(id: string, pending: PendingConnection, before: Connection | undefined, browser: boolean): Promise<Connection> {
    const client = await this.client()
    // On standard error: with --json, standard output holds only the final connection.
    process.stderr.write(`Open this link to approve smm on ${pending.platform} (valid until ${localTime(pending.expires_at)}):\n\n  ${pending.authorize_url}\n\n`)
    if (browser) openBrowser(pending.authorize_url, (why) => process.stderr.write(`Could not open a browser (${why}); open the link yourself.\n`))
    const spinner = process.stderr.isTTY && !this.jsonEnabled()
    if (spinner) ux.action.start(`Waiting for the approval on ${pending.platform}`)
    // Counted on this machine's clock, which need not agree with the daemon's: the link's 10 minutes and a little.
    const deadline = Date.now() + APPROVAL_WAIT_MS
    // A new connection is listed as pending from the 202 on; a reconnect shows the old one meanwhile.
    let seenPending = before === undefined
    try {
      for (;;) {
        const account = await client.getAccount({ params: { id } })
        const now = account.connections.find((c) => c.platform === pending.platform)
        const changed = now && (now.connected_at !== before?.connected_at || now.status !== before?.status)
        if (now?.status === 'active' && changed) return now
        if (now?.status === 'pending') seenPending = true
        else if (now?.status === 'reauth_required' && changed) throw this.notConnected(id, pending, 'the platform refused the new connection')
        // The pending connection is gone and nothing replaced it: denied, refused, or expired.
        if (seenPending && now?.status !== 'pending' && !changed) throw this.notConnected(id, pending, 'the approval was denied, failed or expired (the browser page said which)')
        if (Date.now() > deadline) throw this.notConnected(id, pending, 'the approval link expired before it was used')
        await new Promise((resolve) => setTimeout(resolve, POLL_MS))
      }
    } finally {
      if (spinner && ux.action.running) ux.action.stop()
    }
  }

  private notConnected(id: string, pending: PendingConnection, why: string): CommandError {
    return new CommandError('not_connected', `${pending.platform} was not connected: ${why}. Run \`smm accounts connect ${id} --platform ${pending.platform}${this.profileFlag()}\` again to get a new link.`, EXIT.error)
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
