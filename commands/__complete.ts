import { Args } from '@oclif/core'
import { ApiCommand } from '../src/cli/api-command.js'
import { SmmClient } from '../src/client/smm-client.js'
import { complete, formatCandidates, type Candidate, type CommandSpec, type Lookup } from '../src/cli/completion.js'
import { Profiles } from '../src/cli/profiles.js'

/** How long a TAB may wait for the daemon's account list before offering nothing. */
const LOOKUP_TIMEOUT_MS = 1_500

/** What the completion scripts call on TAB (see `smm completion`); not for people. */
export default class Complete extends ApiCommand {
  static override hidden = true
  static override strict = false
  static override enableJsonFlag = false
  static override description = 'Print the completion candidates for the words after `--`, one per line (used by `smm completion`).'
  static override args = { words: Args.string({ description: 'The words typed after smm, the last one being completed' }) }

  async run(): Promise<void> {
    const { argv } = await this.parse(Complete)
    const commands = this.config.commands as unknown as CommandSpec[]
    const candidates = await complete(argv as string[], commands, this.lookup)
    if (candidates.length) process.stdout.write(`${formatCandidates(candidates)}\n`)
  }

  private lookup: Lookup = async (kind, profile) => {
    if (kind === 'profile') return Object.keys(new Profiles().all()).map((value) => ({ value }))
    this.profileName = profile
    return this.accounts()
  }

  /**
   * The user's accounts, by name where the name is unique and has no blank (what `--account`
   * takes), else by id. A TAB must never print an error into the command line being typed, so
   * a daemon that is down, slow or refuses the key offers nothing, silently.
   */
  private async accounts(): Promise<Candidate[]> {
    try {
      const { url, apiKey, trust } = await this.connection()
      const client = new SmmClient({ url, apiKey, ...trust, timeoutMs: LOOKUP_TIMEOUT_MS, maxRetryWaitSeconds: 0 })
      const page = await client.listAccounts({ query: { limit: 100 } }).finally(() => client.close())
      const counts = new Map<string, number>()
      for (const account of page.data) counts.set(account.name, (counts.get(account.name) ?? 0) + 1)
      return page.data.map((account) =>
        counts.get(account.name) === 1 && !/\s/.test(account.name) ? { value: account.name, description: account.id } : { value: account.id, description: account.name },
      )
    } catch {
      return [] // see above: completion offers nothing rather than noise
    }
  }
}
