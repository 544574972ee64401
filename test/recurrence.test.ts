import { describe, expect, it } from 'vitest'
import { describeInterval, lastOccurrence, nextOccurrence, occurrenceAt, parseInterval, underAnHour } from '../src/recurrence.js'

const rule = (interval: string, startsAt: string, timezone = 'UTC', extra: { count?: number; until?: number } = {}) => ({
  interval,
  count: extra.count ?? null,
  until: extra.until ?? null,
  timezone,
  startsAt: Date.parse(startsAt),
})
const at = (r: ReturnType<typeof rule>, n: number) => new Date(occurrenceAt(r, n)).toISOString()

describe('intervals', () => {
  it('reads ISO 8601 durations of whole units, calendar and exact parts apart', () => {
    expect(parseInterval('P1W')).toEqual({ months: 0, days: 7, ms: 0 })
    expect(parseInterval('P1Y2M')).toEqual({ months: 14, days: 0, ms: 0 })
    expect(parseInterval('P1DT12H')).toEqual({ months: 0, days: 1, ms: 12 * 3_600_000 })
    expect(parseInterval('PT90M')).toEqual({ months: 0, days: 0, ms: 90 * 60_000 })
    for (const bad of ['', 'P', 'PT', 'P0D', '1W', 'P1.5D', 'p1w', 'P1H', 'PT1D', 'P1W ']) expect(parseInterval(bad), bad).toBeUndefined()
    expect(underAnHour(parseInterval('PT59M')!)).toBe(true)
    expect(underAnHour(parseInterval('PT3600S')!)).toBe(false)
    expect(underAnHour(parseInterval('P1D')!)).toBe(false)
    expect([describeInterval('P1W'), describeInterval('PT6H'), describeInterval('P1DT12H')]).toEqual(['every week', 'every 6 hours', 'every 1 day 12 hours'])
  })
})

describe('occurrences', () => {
  it('keep the wall-clock time in the zone across DST for calendar intervals, and exact time for hours', () => {
    const weekly = rule('P1W', '2027-03-08T14:00:00Z', 'America/New_York')
    expect([at(weekly, 1), at(weekly, 2), at(weekly, 3)]).toEqual(['2027-03-08T14:00:00.000Z', '2027-03-15T13:00:00.000Z', '2027-03-22T13:00:00.000Z'])
    const hourly = rule('PT168H', '2027-03-08T14:00:00Z', 'America/New_York')
    expect(at(hourly, 2)).toBe('2027-03-15T14:00:00.000Z')
  })

  it('keep the first day of the month, clamped, counting months from the start', () => {
    const monthly = rule('P1M', '2027-01-31T09:00:00Z')
    expect([at(monthly, 2), at(monthly, 3), at(monthly, 4)]).toEqual(['2027-02-28T09:00:00.000Z', '2027-03-31T09:00:00.000Z', '2027-04-30T09:00:00.000Z'])
    expect(at(rule('P1Y', '2028-02-29T09:00:00Z'), 2)).toBe('2029-02-28T09:00:00.000Z')
  })

  it('skip what is long past, end at count or until, and measure the span', () => {
    const daily = rule('P1D', '2027-01-01T09:00:00Z', 'UTC', { count: 10 })
    expect(nextOccurrence(daily, 1, Date.parse('2027-01-02T09:04:00Z'), 300_000)).toEqual({ occurrence: 2, at: Date.parse('2027-01-02T09:00:00Z') })
    expect(nextOccurrence(daily, 1, Date.parse('2027-01-02T09:06:00Z'), 300_000)).toEqual({ occurrence: 3, at: Date.parse('2027-01-03T09:00:00Z') })
    expect(nextOccurrence(daily, 10, 0, 0)).toEqual({ end: 'count' })
    expect(nextOccurrence(daily, 9, Date.parse('2027-01-20T00:00:00Z'), 0)).toEqual({ end: 'count' })
    const until = rule('P1D', '2027-01-01T09:00:00Z', 'UTC', { until: Date.parse('2027-01-03T09:00:00Z') })
    expect(nextOccurrence(until, 3, 0, 0)).toEqual({ end: 'until' })
    expect(lastOccurrence(until)).toEqual({ occurrence: 3, at: Date.parse('2027-01-03T09:00:00Z'), beyond: false })
    // 366 days of hours: the 8,785th is a year on exactly (allowed), the 8,786th beyond.
    expect(lastOccurrence(rule('PT1H', '2027-01-01T00:00:00Z', 'UTC', { count: 8785 })).beyond).toBe(false)
    expect(lastOccurrence(rule('PT1H', '2027-01-01T00:00:00Z', 'UTC', { count: 8786 })).beyond).toBe(true)
    expect(lastOccurrence(rule('PT1H', '2027-01-01T00:00:00Z', 'UTC', { count: 8786, until: Date.parse('2027-06-01T00:00:00Z') })).beyond).toBe(false)
  })
})
