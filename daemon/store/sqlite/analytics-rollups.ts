import { PLATFORM_NAMES } from '../../../src/api/common.js'
import type { PlatformName } from '../../platforms/types.js'
import type { Aggregate } from '../port.js'
import type { Db } from './db.js'
import { HOUR_MS, ROLLUP_COLUMNS } from './migrations/0006-analytics-rollups.js'

// How a report is put together from the rollups (daemon/store/migrations/0006-analytics-rollups.ts):
// which hours they answer for, how their sums become the API's figures, and the exact medians.

/** The UTC hour (a rollup row's `hour`) of an instant in SQL, floored also before 1970: migration 6's. */
export const hourOf = (ms: string) => `((${ms} - ((${ms} % ${HOUR_MS}) + ${HOUR_MS}) % ${HOUR_MS}) / ${HOUR_MS})`

/**
 * The two rollup rows a target counts in, as SQL over `s.k` (migration 28): its account's on its
 * platform and all accounts' ('*') on its platform. A journal row is summed into them when the
 * journal is folded, and the store's recount expands it the same way. Figures on all platforms, of
 * one account or of all, are the sum of its rows on each.
 */
export { TWO_ROWS } from './migrations/0028-two-rollup-rows-per-target.js'

/** One (bucket, platform)'s sums, as the rollups keep them: each metric's count of reports beside its sum. */
export type Sums = Record<(typeof ROLLUP_COLUMNS)[number], number>
export type SumRow = Sums & { bucket: number; platform: PlatformName }

const METRIC_NAMES = ['impressions', 'likes', 'reposts', 'replies', 'quotes', 'clicks', 'engagements'] as const

/** The rollup columns computed from raw rows (t: target, m: its latest metrics), for the partial hours. */
export const RAW_SUMS = [
  'count(*) AS scheduled',
  "coalesce(sum(t.status = 'published'), 0) AS published",
  "coalesce(sum(t.status = 'failed'), 0) AS failed",
  ...METRIC_NAMES.flatMap((k) => [`coalesce(sum(m.${k}), 0) AS ${k}`, `count(m.${k}) AS ${k}_n`]),
  'coalesce(sum(CASE WHEN m.impressions IS NOT NULL THEN m.engagements END), 0) AS rated_engagements',
  'coalesce(sum(CASE WHEN m.engagements IS NOT NULL THEN m.impressions END), 0) AS rated_impressions',
  'count(CASE WHEN m.impressions IS NOT NULL THEN m.engagements END) AS rated_n',
].join(', ')

export const ZERO_SUMS = Object.fromEntries(ROLLUP_COLUMNS.map((c) => [c, 0])) as Sums

export function addSums(into: Sums, row: Sums): void {
  for (const c of ROLLUP_COLUMNS) into[c] += row[c]
}

/** Adds a journal row read as an array (its hour, its platform, then the rollup columns in order). */
export function addChange(into: Sums, row: readonly unknown[]): void {
  for (let i = 0; i < ROLLUP_COLUMNS.length; i++) into[ROLLUP_COLUMNS[i]!] += row[i + 2] as number
}

export function aggregateOf(s: Sums, medianDelayMs: number | null): Aggregate {
  const reported = (k: (typeof METRIC_NAMES)[number]) => (s[`${k}_n`] > 0 ? s[k] : null)
  return {
    scheduled: s.scheduled,
    published: s.published,
    failed: s.failed,
    medianDelayMs,
    impressions: reported('impressions'),
    likes: reported('likes'),
    reposts: reported('reposts'),
    replies: reported('replies'),
    quotes: reported('quotes'),
    clicks: reported('clicks'),
    engagements: reported('engagements'),
    ratedEngagements: s.rated_n > 0 ? s.rated_engagements : null,
    ratedImpressions: s.rated_n > 0 ? s.rated_impressions : null,
  }
}

/**
 * Splits each bucket into the whole UTC hours the rollups answer for and the partial hours at
 * its edges (zones on a half or quarter hour, a `from` or `to` inside an hour) read raw.
 */
export function splitHours(buckets: { start: number; end: number }[]): { hours: [number, number, number][]; edges: [number, number, number][] } {
  const hours: [number, number, number][] = []
  const edges: [number, number, number][] = []
  buckets.forEach((b, i) => {
    const first = Math.ceil(b.start / HOUR_MS)
    const last = Math.floor(b.end / HOUR_MS)
    if (first >= last) {
      edges.push([i, b.start, b.end])
      return
    }
    hours.push([i, first, last])
    if (b.start < first * HOUR_MS) edges.push([i, b.start, first * HOUR_MS])
    if (last * HOUR_MS < b.end) edges.push([i, last * HOUR_MS, b.end])
  })
  return { hours, edges }
}

/** The range of `hours` (from `splitHours`, in time order) that holds `hour`, by its first element; undefined for none. */
export function rangeOf(hours: [number, number, number][], hour: number): number | undefined {
  let lo = 0
  let hi = hours.length - 1
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    const [index, first, last] = hours[mid]!
    if (hour < first) hi = mid - 1
    else if (hour >= last) lo = mid + 1
    else return index
  }
  return undefined
}

export type Statement = ReturnType<Db['prepare']>

/** The median of the values (the mean of the middle two for an even count), reordering them; null for none. */
export function medianOf(values: Float64Array): number | null {
  const n = values.length
  if (n === 0) return null
  const k = n >> 1
  // Quickselect: afterwards values[k] is the k-th smallest and everything before it is no larger.
  let lo = 0
  let hi = n - 1
  while (lo < hi) {
    const pivot = values[(lo + hi) >> 1]!
    let i = lo
    let j = hi
    while (i <= j) {
      while (values[i]! < pivot) i++
      while (values[j]! > pivot) j--
      if (i <= j) {
        const tmp = values[i]!
        values[i++] = values[j]!
        values[j--] = tmp
      }
    }
    if (k <= j) hi = j
    else if (k >= i) lo = i
    else break
  }
  if (n % 2) return values[k]!
  let below = -Infinity
  for (let i = 0; i < k; i++) if (values[i]! > below) below = values[i]!
  return (below + values[k]!) / 2
}

export interface Medians {
  total: number | null
  platform: Map<string, number | null>
  bucket: Map<number, number | null>
}

// Each delay travels with its platform as one number, delay * 16 + the platform's index: a
// bucket's delays are then one JSON array from one range seek, with no grouping to sort.
export const PLATFORM_CODE = `CASE platform ${PLATFORM_NAMES.map((p, i) => `WHEN '${p}' THEN ${i}`).join(' ')} END`
export const CODES = 16

/**
 * Exact median delays in all, per platform and per bucket, reading each bucket's delays once
 * (`delays` plucks its JSON array) and the journal's unfolded delays once for all (`unfolded`
 * returns their times and their coded delays, as two JSON arrays): the journal holds only
 * delays the tree does not (migration 29).
 */
export function mediansOf(delays: Statement, params: Record<string, unknown>, buckets: { start: number; end: number }[], unfolded: Statement): Medians {
  const coded = buckets.map((b) => JSON.parse(delays.get({ ...params, s: b.start, e: b.end }) as string) as number[])
  if (buckets.length) {
    const ranges = buckets.map((b, i): [number, number, number] => [i, b.start, b.end])
    // The buckets are consecutive and in order (ReportQuery).
    const row = unfolded.get({ ...params, s: buckets[0]!.start, e: buckets[buckets.length - 1]!.end }) as { at: string; coded: string }
    const at = JSON.parse(row.at) as number[]
    const codes = JSON.parse(row.coded) as number[]
    for (let i = 0; i < at.length; i++) {
      const bucket = rangeOf(ranges, at[i]!)
      if (bucket !== undefined) coded[bucket]!.push(codes[i]!)
    }
  }
  const all = new Float64Array(coded.reduce((n, list) => n + list.length, 0))
  const perPlatform = new Array<number>(CODES).fill(0)
  const result: Medians = { total: null, platform: new Map(), bucket: new Map() }
  let at = 0
  coded.forEach((list, i) => {
    const first = at
    for (const v of list) {
      const code = ((v % CODES) + CODES) % CODES
      all[at++] = (v - code) / CODES
      perPlatform[code]!++
    }
    if (at > first) result.bucket.set(i, medianOf(all.slice(first, at)))
  })
  const byCode = perPlatform.map((n) => new Float64Array(n))
  const filled = new Array<number>(CODES).fill(0)
  for (const list of coded) {
    for (const v of list) {
      const code = ((v % CODES) + CODES) % CODES
      byCode[code]![filled[code]!++] = (v - code) / CODES
    }
  }
  byCode.forEach((values, code) => {
    if (values.length) result.platform.set(PLATFORM_NAMES[code]!, medianOf(values))
  })
  result.total = medianOf(all)
  return result
}
