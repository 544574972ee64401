import { Flags } from '@oclif/core'
import { ApiCommand } from '../src/cli/api-command.js'
import { metricsTable, seriesChart, topPostsTable, type AnalyticsReport, type ChartStyle } from '../src/cli/analytics-output.js'
import { account, platform, workspace } from '../src/cli/flags.js'
import { colorEnabled, localTime } from '../src/cli/output.js'
import { parseTimeInput } from '../src/cli/time-input.js'
import type { RouteInput } from '../src/client/types.js'
import type { Routes } from '../src/contract.js'
import { toIso } from '../src/time.js'

// A bare date goes to the daemon as typed: it reads it as a day in the user's own time zone.
const DATE = /^\d{4}-\d{2}-\d{2}$/
const dayOrTime = Flags.custom<string>({
  helpValue: '<date|time>',
  parse: async (input) => (DATE.test(input.trim()) ? input.trim() : toIso(await parseTimeInput(input))),
})

export default class Analytics extends ApiCommand {
  static override description = `Report how your posts did, in total, per platform and over time.

Posts scheduled, published and failed, the publish delay, and the engagement the platforms report, per day, week or month. The default range is the last 30 days, by day. --from and --to take a date (a day in your profile's time zone), RFC 3339, a local date-time or a phrase. A metric the platforms do not supply shows as "-", never 0. --chart draws each metric of the series: bars for up to 14 periods, sparklines for more (or as --chart-style says).`

  static override examples = [
    '<%= config.bin %> analytics',
    '<%= config.bin %> analytics --from 2026-11-01 --chart',
    '<%= config.bin %> analytics --from 2026-01-01 --interval month --platform mastodon --chart --chart-style bars',
    '<%= config.bin %> analytics --post pst_01JD3Q7ZV6YV9M2R8X4T5N6P7A --json',
    '<%= config.bin %> analytics --workspace wsp_01JD3Q7ZV6YV9M2R8X4T5N6P7A --interval week',
  ]

  static override flags = {
    from: dayOrTime({ description: 'Start of the range (default: 30 days ago)' }),
    to: dayOrTime({ description: 'End of the range (default: now)' }),
    workspace: workspace({ description: 'Report on this workspace (wsp_…; default: the account’s or post’s, else your personal one)' }),
    account: account({ description: 'Only posts of this account: its id (acc_…) or name' }),
    platform: platform({ description: 'Only this platform' }),
    post: Flags.string({ description: 'Only this post (pst_…)', helpValue: '<pst_…>' }),
    interval: Flags.option({ options: ['day', 'week', 'month'] as const, description: 'The length of each period of the series (default: day)' })(),
    chart: Flags.boolean({ description: 'Draw each metric of the series in the terminal' }),
    'chart-style': Flags.option({ options: ['auto', 'bars', 'sparkline'] as const, description: 'How --chart draws', default: 'auto' as const })(),
  }

  async run(): Promise<AnalyticsReport> {
    const { flags } = await this.parse(Analytics)
    const client = await this.client()
    const query: NonNullable<RouteInput<Routes['getAnalytics']>['query']> = {
      ...(flags.from ? { from: flags.from } : {}),
      ...(flags.to ? { to: flags.to } : {}),
      ...(flags.workspace ? { workspace_id: flags.workspace } : {}),
      ...(flags.account ? { account_id: await this.accountId('--account', flags.account) } : {}),
      ...(flags.platform ? { platform: flags.platform } : {}),
      ...(flags.post ? { post_id: flags.post } : {}),
      ...(flags.interval ? { interval: flags.interval } : {}),
    }
    const report = await this.waitFor('Computing analytics', client.getAnalytics({ query }))
    if (!this.jsonEnabled()) {
      const per = { day: 'daily', week: 'weekly', month: 'monthly' }[report.interval]
      this.log(`Analytics from ${localTime(report.from)} to ${localTime(report.to)}, ${per}.\n`)
      this.log(metricsTable(report))
      if (report.top_posts.length) this.log(`\nTop posts\n${topPostsTable(report)}`)
      if (flags.chart) this.log(`\n${seriesChart(report, flags['chart-style'] as ChartStyle, colorEnabled())}`)
    }
    return report
  }
}
