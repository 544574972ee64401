import type { Workspace } from '../../src/api/workspaces.js'
import { ApiCommand } from '../../src/cli/api-command.js'
import { workspaceArg } from '../../src/cli/flags.js'
import { workspaceDetails } from '../../src/cli/team-output.js'

export default class WorkspacesShow extends ApiCommand {
  static override description = 'Show a workspace: its name, your role, whether it requires approval, and its time zone.'

  static override examples = ['<%= config.bin %> workspaces show wsp_01JD3Q7ZV6YV9M2R8X4T5N6P7A']

  static override args = { id: workspaceArg }

  async run(): Promise<Workspace> {
    const { args } = await this.parse(WorkspacesShow)
    const client = await this.client()
    const workspace = await this.waitFor('Reading the workspace', client.getWorkspace({ params: { id: args.id } }))
    if (!this.jsonEnabled()) this.log(workspaceDetails(workspace))
    return workspace
  }
}
