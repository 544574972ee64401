import { Flags } from '@oclif/core'
import type { Workspace } from '../../src/api/workspaces.js'
import { ApiCommand } from '../../src/cli/api-command.js'
import { timeZone, workspaceArg } from '../../src/cli/flags.js'
import { usageError } from '../../src/cli/command-error.js'
import { workspaceDetails } from '../../src/cli/team-output.js'

export default class WorkspacesUpdate extends ApiCommand {
  static override description = `Rename a workspace, require approval or stop requiring it, or change its time zone (admins and owners).

Turning approval off does not approve the posts already waiting.`

  static override examples = [
    '<%= config.bin %> workspaces update wsp_01JD3Q7ZV6YV9M2R8X4T5N6P7A --approval-required',
    '<%= config.bin %> workspaces update wsp_01JD3Q7ZV6YV9M2R8X4T5N6P7A --name "Acme (retainer)" --no-approval-required',
  ]

  static override args = { id: workspaceArg }

  static override flags = {
    name: Flags.string({ description: 'Its new name (up to 100 characters)' }),
    'approval-required': Flags.boolean({ description: "Editors' posts wait for approval (--no-approval-required: they do not)", allowNo: true }),
    timezone: timeZone({ description: 'Its new IANA zone (not for a personal workspace, which follows yours)' }),
  }

  async run(): Promise<Workspace> {
    const { args, flags } = await this.parse(WorkspacesUpdate)
    const body = {
      ...(flags.name !== undefined ? { name: flags.name } : {}),
      ...(flags['approval-required'] !== undefined ? { approval_required: flags['approval-required'] } : {}),
      ...(flags.timezone !== undefined ? { timezone: flags.timezone } : {}),
    }
    if (Object.keys(body).length === 0) throw usageError('nothing_to_change', 'Nothing to change: give --name, --approval-required (or --no-approval-required) or --timezone.')
    const client = await this.client()
    const workspace = await this.waitFor('Changing the workspace', client.updateWorkspace({ params: { id: args.id }, body }))
    if (!this.jsonEnabled()) this.log(workspaceDetails(workspace))
    return workspace
  }
}
