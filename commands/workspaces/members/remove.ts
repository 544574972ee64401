import { Args } from '@oclif/core'
import { ApiCommand } from '../../../src/cli/api-command.js'
import { workspaceArg, yes } from '../../../src/cli/flags.js'
import { confirmOrStop } from '../../../src/cli/prompt.js'

/** What remove did (the API answers 204 with no body). */
export interface RemoveResult {
  workspace_id: string
  user_id: string
  removed: true
}

export default class WorkspacesMembersRemove extends ApiCommand {
  static override description = `Remove a member from a workspace: they lose access at once, on every daemon; what they wrote stays. Your own user id: you leave.

Admins and owners may remove members (only owners remove owners); a workspace always keeps an owner (exit code 5). On a terminal it asks first, unless --yes.`

  static override examples = ['<%= config.bin %> workspaces members remove wsp_01JD3Q7ZV6YV9M2R8X4T5N6P7A usr_01JD3Q7ZV6YV9M2R8X4T5N6P7B --yes']

  static override args = {
    id: workspaceArg,
    user: Args.string({ description: 'The member’s user id (usr_…)', required: true }),
  }

  static override flags = { yes }

  async run(): Promise<RemoveResult> {
    const { args, flags } = await this.parse(WorkspacesMembersRemove)
    const client = await this.client()
    await confirmOrStop(`Remove ${args.user} from workspace ${args.id}?`, flags.yes, `Kept ${args.user} in workspace ${args.id}.`)
    await this.waitFor('Removing the member', client.removeMember({ params: { id: args.id, user_id: args.user } }))
    if (!this.jsonEnabled()) this.log(`Removed ${args.user} from workspace ${args.id}.`)
    return { workspace_id: args.id, user_id: args.user, removed: true }
  }
}
