import { Args } from '@oclif/core'
import type { Member } from '../../../src/api/workspaces.js'
import { ApiCommand } from '../../../src/cli/api-command.js'
import { role, workspaceArg } from '../../../src/cli/flags.js'

export default class WorkspacesMembersSetRole extends ApiCommand {
  static override description = "Change a member's role (admins and owners; only owners make or unmake owners). A workspace always keeps an owner (exit code 5)."

  static override examples = ['<%= config.bin %> workspaces members set-role wsp_01JD3Q7ZV6YV9M2R8X4T5N6P7A usr_01JD3Q7ZV6YV9M2R8X4T5N6P7B --role viewer']

  static override args = {
    id: workspaceArg,
    user: Args.string({ description: 'The member’s user id (usr_…)', required: true }),
  }

  static override flags = {
    role: role({ description: 'Their new role', required: true }),
  }

  async run(): Promise<Member> {
    const { args, flags } = await this.parse(WorkspacesMembersSetRole)
    const client = await this.client()
    const member = await this.waitFor('Changing the role', client.updateMember({ params: { id: args.id, user_id: args.user }, body: { role: flags.role } }))
    if (!this.jsonEnabled()) this.log(`${member.name} (${member.user_id}) is now ${member.role} in workspace ${args.id}.`)
    return member
  }
}
