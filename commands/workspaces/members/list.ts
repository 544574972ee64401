import type { Member } from '../../../src/api/workspaces.js'
import { ApiCommand } from '../../../src/cli/api-command.js'
import { cursor, limit, workspaceArg } from '../../../src/cli/flags.js'
import { nextPageCommand } from '../../../src/cli/next-page.js'
import { memberTable } from '../../../src/cli/team-output.js'
import type { Page } from '../../../src/pagination.js'

export default class WorkspacesMembersList extends ApiCommand {
  static override description = "List a workspace's members and their roles."

  static override examples = ['<%= config.bin %> workspaces members list wsp_01JD3Q7ZV6YV9M2R8X4T5N6P7A']

  static override args = { id: workspaceArg }

  static override flags = { limit, cursor }

  async run(): Promise<Page<Member>> {
    const { args, flags } = await this.parse(WorkspacesMembersList)
    const client = await this.client()
    const page = await this.waitFor('Listing members', client.listMembers({ params: { id: args.id }, query: { limit: flags.limit, cursor: flags.cursor } }))
    if (!this.jsonEnabled()) {
      this.log(memberTable(page.data))
      if (page.next_cursor) this.log(`\nMore: ${nextPageCommand(this.config.bin, this.id ?? 'workspaces:members:list', this.argv, page.next_cursor)}`)
    }
    return page
  }
}
