// How the CLI shows an analytics report (GET /v1/analytics).

import type { AnalyticsMetrics, AnalyticsReport } from '../api/analytics.js'
import { barChart, sparkline } from './chart.js'
import { formatDecimal, formatNumber, formatPercent } from '../numbers.js'
import { colorEnabled, paint, table } from './output.js'

export type { AnalyticsReport } from '../api/analytics.js'

/** One metric's name. */
export type Metric = keyof AnalyticsMetrics

/** Every metric of a report, in the order people read them. */
export const METRICS: readonly Metric[] = [
  'posts_scheduled',
  'posts_published',
  'posts_failed',
  'publish_success_rate',
  'median_publish_delay_ms',
  'impressions',
  'likes',
  'reposts',
  'replies',
  'quotes',
  'clicks',
  'engagements',
  'engagement_rate',
]

/** The metrics of a period or platform; null where the platforms supplied nothing. */
export type Metrics = AnalyticsMetrics

const RATES: ReadonlySet<Metric> = new Set(['publish_success_rate', 'engagement_rate'])

// What people did with the posts: a series of these that is all zero means nobody engaged yet.
const ENGAGEMENT: ReadonlySet<Metric> = new Set(['impressions', 'likes', 'reposts', 'replies', 'quotes', 'clicks', 'engagements', 'engagement_rate'])

/** What to say instead of drawing a series that is zero throughout ("peak 0" tells nobody anything). */
function allZero(metric: Metric): string {
  return ENGAGEMENT.has(metric) ? 'no engagement yet' : 'none in this range'
}

function label(metric: Metric): string {
  return metric.replace(/_ms$/, '').replace(/_/g, ' ')
}

function duration(ms: number): string {
  if (ms < 1_000) return `${formatNumber(ms)} ms`
  if (ms < 60_000) return `${formatDecimal(ms / 1_000)} s`
  if (ms < 3_600_000) return `${formatDecimal(ms / 60_000)} min`
  return `${formatDecimal(ms / 3_600_000)} h`
}

/** A metric's value for people: rates as percentages, delays as durations, counts grouped. */
export function formatMetric(metric: Metric, value: number | null | undefined): string {
  if (value === null || value === undefined) return '-'
  if (RATES.has(metric)) return formatPercent(value)
  if (metric === 'median_publish_delay_ms') return duration(value)
  return formatNumber(value)
}

/** A bucket's start as a local date (a month as YYYY-MM). */
function bucketLabel(start: string, interval: AnalyticsReport['interval']): string {
  const date = new Date(start)
  const pad = (n: number) => String(n).padStart(2, '0')
  const month = `${date.getFullYear()}-${pad(date.getMonth() + 1)}`
  return interval === 'month' ? month : `${month}-${pad(date.getDate())}`
}

/** The metrics table: one row per metric, the total and then each platform. */
export function metricsTable(report: AnalyticsReport, color = colorEnabled()): string {
  const columns = [
    { header: 'METRIC', value: (m: Metric) => label(m) },
    { header: 'TOTAL', value: (m: Metric) => formatMetric(m, report.totals[m]) },
    ...report.by_platform.map((p) => ({ header: p.platform.toUpperCase(), value: (m: Metric) => formatMetric(m, p[m]) })),
  ]
  return table(METRICS, columns, color)
}

/** The posts with the most engagements. */
export function topPostsTable(report: AnalyticsReport, color = colorEnabled()): string {
  return table(report.top_posts, [
    { header: 'POST', value: (p) => p.post_id },
    { header: 'PLATFORM', value: (p) => p.platform },
    { header: 'ENGAGEMENTS', value: (p) => formatMetric('engagements', p.engagements) },
    { header: 'URL', value: (p) => p.url ?? '' },
  ], color)
}

/** How --chart draws: bars for a short series, sparklines for a long one, or as asked. */
export type ChartStyle = 'auto' | 'bars' | 'sparkline'

/** Each metric of the series drawn in the terminal; metrics nobody reported are named, not drawn. */
export function seriesChart(report: AnalyticsReport, style: ChartStyle, color: boolean): string {
  const drawn = METRICS.filter((m) => report.series.some((b) => b[m] !== null))
  const missing = METRICS.filter((m) => !drawn.includes(m))
  const labels = report.series.map((b) => bucketLabel(b.start, report.interval))
  const useBars = style === 'bars' || (style === 'auto' && report.series.length <= 14)
  const lines: string[] = []
  if (report.series.length === 0) lines.push('No periods in this range.')
  else if (useBars) {
    for (const metric of drawn) {
      if (report.series.every((b) => !b[metric])) {
        lines.push(paint('bold', label(metric), color), `  ${paint('dim', allZero(metric), color)}`, '')
        continue
      }
      lines.push(paint('bold', `${label(metric)} (total ${formatMetric(metric, report.totals[metric])})`, color))
      const rows = report.series.map((b, i) => ({ label: labels[i]!, value: b[metric], text: formatMetric(metric, b[metric]) }))
      lines.push(...barChart(rows).map((l) => `  ${paint('cyan', l, color)}`), '')
    }
  } else {
    const width = Math.max(...drawn.map((m) => label(m).length))
    lines.push(paint('dim', `${' '.repeat(width)}  ${labels[0]} … ${labels.at(-1)}`, color))
    for (const metric of drawn) {
      const values = report.series.map((b) => b[metric])
      if (values.every((v) => !v)) {
        lines.push(`${label(metric).padEnd(width)}  ${paint('cyan', sparkline(values), color)}  ${allZero(metric)}`)
        continue
      }
      const peakAt = values.reduce<number>((best, v, i) => (v !== null && (values[best] === null || v > values[best]!) ? i : best), 0)
      lines.push(
        `${label(metric).padEnd(width)}  ${paint('cyan', sparkline(values), color)}  total ${formatMetric(metric, report.totals[metric])}, peak ${formatMetric(metric, values[peakAt])} on ${labels[peakAt]}`,
      )
    }
    lines.push('')
  }
  if (missing.length) lines.push(paint('dim', `Not reported by these platforms: ${missing.map(label).join(', ')}.`, color))
  return lines.join('\n').trimEnd()
}
