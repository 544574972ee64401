import { Args, Flags } from '@oclif/core'
import type { Workspace } from '../../src/api/workspaces.js'
import { ApiCommand } from '../../src/cli/api-command.js'
import { timeZone } from '../../src/cli/flags.js'
import { workspaceDetails } from '../../src/cli/team-output.js'

export default class WorkspacesCreate extends ApiCommand {
  static override description = `Create a shared workspace, with you as its owner. Add people with \`smm workspaces members add\` and accounts with \`smm accounts create --workspace\`.

With --approval-required, posts its editors write wait until an admin or owner approves them.`

  static override examples = ['<%= config.bin %> workspaces create "Acme agency"', '<%= config.bin %> workspaces create "Client A" --approval-required --timezone Europe/Paris --json | jq -r .id']

  static override args = {
    name: Args.string({ description: 'What to call it (up to 100 characters)', required: true }),
  }

  static override flags = {
    'approval-required': Flags.boolean({ description: "Editors' posts wait for an admin's or owner's approval" }),
    timezone: timeZone({ description: 'The IANA zone its queue slots and series keep wall-clock time in (default: yours)' }),
  }

  async run(): Promise<Workspace> {
    const { args, flags } = await this.parse(WorkspacesCreate)
    const client = await this.client()
    const body = { name: args.name, approval_required: flags['approval-required'], ...(flags.timezone ? { timezone: flags.timezone } : {}) }
    const workspace = await this.waitFor('Creating the workspace', client.createWorkspace({ body }))
    if (!this.jsonEnabled()) {
      this.log(workspaceDetails(workspace))
      this.log(`\nAdd a member: ${this.config.bin} workspaces members add ${workspace.id} EMAIL --role editor${this.profileFlag()}`)
    }
    return workspace
  }
}
