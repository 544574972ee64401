import { Flags } from '@oclif/core'
import { POST_STATUSES } from '../api/posts.js'
import { account, platform, repeatable, time, workspace } from './flags.js'

/**
 * The filters of `posts list` and `posts export`: states (`defaults` unless named), an account, a workspace,
 * a platform and a time range. `ApiCommand.postQuery` turns them into the list query.
 */
export function postFilters(defaults: string) {
  return {
    status: Flags.option({ options: POST_STATUSES, description: `Only posts in this state (repeatable or comma-separated); default: ${defaults}`, ...repeatable, delimiter: ',', exclusive: ['every-status'] })(),
    'every-status': Flags.boolean({ description: 'Posts in every state, published and cancelled ones included', exclusive: ['status'] }),
    account: account({ description: 'Only posts of this account: its id (acc_…) or name' }),
    platform: platform({ description: 'Only posts that target this platform' }),
    series: Flags.string({ description: 'Only the occurrences of this series (ser_…, the Series of `posts show`), in every state unless --status', helpValue: '<ser_…>' }),
    workspace: workspace({ description: 'Only posts of this workspace (wsp_…; default: every workspace you belong to)' }),
    from: time({ description: 'Only posts scheduled at or after this time' }),
    to: time({ description: 'Only posts scheduled before this time' }),
  }
}
