import { ApiCommand } from '../../src/cli/api-command.js'
import { workspaceArg, yes } from '../../src/cli/flags.js'
import { confirmOrStop } from '../../src/cli/prompt.js'

/** What delete did (the API answers 204 with no body). */
export interface DeleteResult {
  id: string
  deleted: true
}

export default class WorkspacesDelete extends ApiCommand {
  static override description = `Delete a shared workspace (owners only), with its webhooks and memberships. It must hold no accounts: delete them first (smm accounts delete --cancel-posts). A personal workspace is never deleted.

On a terminal it asks first, unless --yes; from a script it needs --yes.`

  static override examples = ['<%= config.bin %> workspaces delete wsp_01JD3Q7ZV6YV9M2R8X4T5N6P7A --yes']

  static override args = { id: workspaceArg }

  static override flags = { yes }

  async run(): Promise<DeleteResult> {
    const { args, flags } = await this.parse(WorkspacesDelete)
    const client = await this.client()
    await confirmOrStop(`Delete workspace ${args.id}, its webhooks and memberships?`, flags.yes, `Kept workspace ${args.id}.`)
    await this.waitFor('Deleting the workspace', client.deleteWorkspace({ params: { id: args.id } }))
    if (!this.jsonEnabled()) this.log(`Deleted workspace ${args.id}.`)
    return { id: args.id, deleted: true }
  }
}
