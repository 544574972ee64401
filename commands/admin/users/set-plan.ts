import { Args, Flags } from '@oclif/core'
import { PLANS } from '../../../src/api/common.js'
import type { User } from '../../../src/api/users.js'
import { AdminCommand } from '../../../src/cli/admin-command.js'
import { notFound } from '../../../src/errors.js'
import { usageError } from '../../../src/cli/command-error.js'

export default class AdminUsersSetPlan extends AdminCommand {
  static override description = `Set a user's plan: standard (100/min, 5,000/h, 50,000/day per key), business (twice that) or enterprise (custom limits).

Enterprise limits not given default to the business ones. Changes apply to the next request; a running daemon needs no restart.`

  static override examples = [
    '<%= config.bin %> admin users set-plan usr_01J… --plan business',
    '<%= config.bin %> admin users set-plan usr_01J… --plan enterprise --per-minute 1000 --per-hour 50000 --per-day 500000',
  ]

  static override args = { user: Args.string({ description: 'User id (usr_…)', required: true }) }

  static override flags = {
    plan: Flags.option({ options: PLANS, required: true, description: 'The plan' })(),
    'per-minute': Flags.integer({ min: 1, description: 'Enterprise: requests per minute per key' }),
    'per-hour': Flags.integer({ min: 1, description: 'Enterprise: requests per hour per key' }),
    'per-day': Flags.integer({ min: 1, description: 'Enterprise: requests per day per key' }),
  }

  async run(): Promise<User> {
    const { args, flags } = await this.parse(AdminUsersSetPlan)
    const custom = { per_minute: flags['per-minute'], per_hour: flags['per-hour'], per_day: flags['per-day'] }
    if (flags.plan !== 'enterprise' && Object.values(custom).some((v) => v !== undefined)) {
      throw usageError('custom_limits_need_enterprise', '--per-minute, --per-hour and --per-day set custom limits, which only the enterprise plan has')
    }
    const user = await this.withStore(flags, (store) => store.users.setPlan(args.user, flags.plan, custom))
    if (!user) throw notFound('user', args.user)
    if (!this.jsonEnabled()) {
      this.log(`${user.id} is on the ${user.plan} plan: ${user.limits.per_minute}/min, ${user.limits.per_hour}/h, ${user.limits.per_day}/day per key.`)
    }
    return user
  }
}
