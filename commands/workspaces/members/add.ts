import { Args } from '@oclif/core'
import type { Member } from '../../../src/api/workspaces.js'
import { ApiCommand } from '../../../src/cli/api-command.js'
import { role, workspaceArg } from '../../../src/cli/flags.js'

export default class WorkspacesMembersAdd extends ApiCommand {
  static override description = `Add someone to a workspace with a role (admins and owners; only owners add owners).

owner: everything; admin: accounts, connections, webhooks, members, approving; editor: writes posts (which wait for approval where the workspace requires it); viewer: reads and comments.`

  static override examples = [
    '<%= config.bin %> workspaces members add wsp_01JD3Q7ZV6YV9M2R8X4T5N6P7A ana@example.com --role editor',
    '<%= config.bin %> workspaces members add wsp_01JD3Q7ZV6YV9M2R8X4T5N6P7A usr_01JD3Q7ZV6YV9M2R8X4T5N6P7B --role admin',
  ]

  static override args = {
    id: workspaceArg,
    user: Args.string({ description: 'Who: their email, or their user id (usr_…)', required: true }),
  }

  static override flags = {
    role: role({ description: 'Their role', required: true }),
  }

  async run(): Promise<Member> {
    const { args, flags } = await this.parse(WorkspacesMembersAdd)
    const client = await this.client()
    const who = args.user.startsWith('usr_') ? { user_id: args.user } : { email: args.user }
    const member = await this.waitFor('Adding the member', client.addMember({ params: { id: args.id }, body: { ...who, role: flags.role } }))
    if (!this.jsonEnabled()) this.log(`Added ${member.name} (${member.user_id}) to workspace ${args.id} as ${member.role}.`)
    return member
  }
}
