import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { METRICS, metricsTable, seriesChart, type AnalyticsReport, type Metrics } from '../src/cli/analytics-output.js'
import { bar, barChart, sparkline } from '../src/cli/chart.js'
import { ManualClock } from '../src/time.js'
import { cliHome, cliHomeFor, runCli, type CliResult } from './helpers/cli.js'
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js'
import { feedAccount, liftLimits } from './helpers/posts.js'

const none = Object.fromEntries(METRICS.map((m) => [m, null])) as unknown as Metrics

function report(counts: (number | null)[], interval: AnalyticsReport['interval'] = 'day'): AnalyticsReport {
  // Noon UTC: the same calendar day in every time zone the tests may run in.
  const series = counts.map((published, i) => ({
    ...none,
    start: new Date(Date.UTC(2026, 10, 1 + i, 12)).toISOString(),
    posts_scheduled: 2,
    posts_published: published,
  }))
  const total = counts.reduce<number>((sum, n) => sum + (n ?? 0), 0)
  return {
    from: '2026-11-01T00:00:00.000Z',
    to: '2026-12-01T00:00:00.000Z',
    interval,
    totals: { ...none, posts_scheduled: 2 * counts.length, posts_published: total, publish_success_rate: 0.875, median_publish_delay_ms: 420 },
    by_platform: [{ ...none, platform: 'mastodon', posts_published: total, likes: 12, engagement_rate: 0.031 }],
    // A null count draws as a gap; the chart must cope even where the API never sends one.
    series: series as AnalyticsReport['series'],
    top_posts: [],
  }
}

describe('terminal charts', () => {
  it('draws sparklines scaled to the peak, zero apart from a little, and gaps for missing values', () => {
    expect(sparkline([0, 1, 2, 4, 8, null])).toBe('▁▂▃▅█·')
    expect(sparkline([0, 0])).toBe('▁▁')
    expect(bar(5, 10, 4)).toBe('██')
    expect(bar(1, 10, 4)).toBe('▍')
    expect(bar(0, 10, 4)).toBe('')
    expect(barChart([
      { label: 'a', value: 10, text: '10' },
      { label: 'bb', value: 5, text: '5' },
      { label: 'c', value: null, text: '-' },
    ], 4)).toEqual(['a   ████  10', 'bb  ██     5', 'c          -'])
  })

  it('shows a short series as bars and a long one as sparklines, naming the metrics nobody reported', () => {
    const short = seriesChart(report([3, 0, 1]), 'auto', false)
    expect(short).toContain(['posts published (total 4)', `  2026-11-01  ${'█'.repeat(40)}  3`, '  2026-11-02                                            0', `  2026-11-03  ${'█'.repeat(13)}▍${' '.repeat(26)}  1`].join('\n'))
    expect(short).toMatch(/Not reported by these platforms: posts failed, publish success rate, median publish delay, impressions, likes, reposts, replies, quotes, clicks, engagements, engagement rate\.$/)

    const long = seriesChart(report(Array.from({ length: 30 }, (_, i) => (i === 20 ? 9 : i % 3))), 'auto', false).split('\n')
    expect(long[0]).toBe('                 2026-11-01 … 2026-11-30')
    expect(long[1]).toBe(`posts scheduled  ${'█'.repeat(30)}  total 60, peak 2 on 2026-11-01`)
    expect(long[2]).toBe(`posts published  ${'▁▂▃'.repeat(6)}▁▂█${'▁▂▃'.repeat(3)}  total 37, peak 9 on 2026-11-21`)
    expect(seriesChart(report([1, 2]), 'sparkline', false)).toContain('posts published  ▅█  total 3, peak 2 on 2026-11-02')
  })

  it('says "no engagement yet" for a series that is zero throughout, instead of drawing it with "peak 0"', () => {
    const quiet = report([1, 2])
    quiet.series = quiet.series.map((b) => ({ ...b, likes: 0, posts_failed: 0 }))
    quiet.totals = { ...quiet.totals, likes: 0, posts_failed: 0 }
    const sparklines = seriesChart(quiet, 'sparkline', false)
    expect(sparklines).toContain('likes            ▁▁  no engagement yet')
    expect(sparklines).toContain('posts failed     ▁▁  none in this range')
    expect(sparklines).not.toContain('peak 0')
    const bars = seriesChart(quiet, 'bars', false)
    expect(bars).toContain('likes\n  no engagement yet\n')
    expect(bars).not.toContain('likes (total 0)')
  })

  it('writes numbers one way everywhere: grouped by thousands, whatever the locale', () => {
    const big = report([12_345, 2])
    big.totals = { ...big.totals, median_publish_delay_ms: 4_000_000 * 1_000, engagement_rate: 12.3456 }
    const table = metricsTable(big, false)
    expect(table).toMatch(/^posts published +12,347 +12,347$/m)
    expect(table).toMatch(/^median publish delay +1,111\.1 h +-$/m)
    expect(table).toMatch(/^engagement rate +1,234\.6% +3\.1%$/m)
  })

  it('puts each metric on a row with the total and each platform: rates as %, delays as durations, missing as -', () => {
    const lines = metricsTable(report([1, 2]), false).split('\n')
    expect(lines[0]).toBe('METRIC                TOTAL   MASTODON')
    expect(lines).toContain('posts published       3       3')
    expect(lines).toContain('publish success rate  87.5%   -')
    expect(lines).toContain('median publish delay  420 ms  -')
    expect(lines).toContain('likes                 -       12')
    expect(lines).toContain('engagement rate       -       3.1%')
  })
})

// GET /v1/analytics is built on its own branch; this runs once it is merged into the contract.
describe('smm analytics against the daemon', () => {
  let t: TestDaemon
  let home: ReturnType<typeof cliHome>
  let env: NodeJS.ProcessEnv
  beforeAll(async () => {
    t = await startTestDaemon({ clock: new ManualClock(Date.now()), backgroundWorkers: false })
    await liftLimits(t)
    home = cliHomeFor(t)
    env = home.env
  })
  afterAll(async () => {
    home?.remove()
    await t?.stop()
  })
  const smm = (args: string[]) => runCli(args, { env })
  const json = (res: CliResult) => JSON.parse(res.stdout)

  it('reports a published post; --json is the API report and --chart draws its series', async () => {
    const account = await feedAccount(t)
    const created = await t.http.post('/v1/posts', { account_id: account, content: 'Counted', platforms: ['feed'] }, { key: t.key })
    expect(created.status).toBe(201)
    await t.daemon.scheduler.tick(t.clock.now())
    t.clock.advance(60_000)
    const today = new Date(t.clock.now()).toISOString().slice(0, 10)
    const [human, asJson, chart, badInterval] = await Promise.all([
      smm(['analytics', '--from', today]),
      smm(['analytics', '--from', today, '--json']),
      smm(['analytics', '--from', today, '--chart', '--chart-style', 'bars']),
      smm(['analytics', '--interval', 'fortnight']),
    ])
    expect(asJson).toMatchObject({ code: 0, stderr: '' })
    expect(json(asJson)).toEqual((await t.http.get(`/v1/analytics?from=${today}`, { key: t.key })).body)
    expect(json(asJson).totals.posts_published).toBe(1)
    expect(human).toMatchObject({ code: 0, stderr: '' })
    expect(human.stdout).toMatch(/^posts published +1 +1$/m)
    expect(human.stdout).toMatch(/^impressions +- +-$/m)
    expect(chart.stdout).toMatch(new RegExp(`posts published \\(total 1\\)\\n {2}${today} {2}█{40} {2}1\\n`))
    expect(badInterval.code).toBe(2)
    expect(badInterval.stderr).toMatch(/^Error: Expected --interval=fortnight to be one of: day, week, month/)
  })
})
