import type { Workspace } from '../../src/api/workspaces.js'
import { ApiCommand } from '../../src/cli/api-command.js'
import { cursor, limit } from '../../src/cli/flags.js'
import { nextPageCommand } from '../../src/cli/next-page.js'
import { workspaceTable } from '../../src/cli/team-output.js'
import type { Page } from '../../src/pagination.js'

export default class WorkspacesList extends ApiCommand {
  static override description = 'List the workspaces you belong to (your personal one first made with you), each with your role in it.'

  static override examples = ['<%= config.bin %> workspaces list', '<%= config.bin %> workspaces list --json | jq -r ".data[].id"']

  static override flags = { limit, cursor }

  async run(): Promise<Page<Workspace>> {
    const { flags } = await this.parse(WorkspacesList)
    const client = await this.client()
    const page = await this.waitFor('Listing workspaces', client.listWorkspaces({ query: { limit: flags.limit, cursor: flags.cursor } }))
    if (!this.jsonEnabled()) {
      this.log(workspaceTable(page.data))
      if (page.next_cursor) this.log(`\nMore: ${nextPageCommand(this.config.bin, this.id ?? 'workspaces:list', this.argv, page.next_cursor)}`)
    }
    return page
  }
}
