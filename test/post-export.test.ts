import { describe, expect, it } from 'vitest'
import type { Post } from '../src/api/posts.js'
import { csvOf } from '../src/cli/post-csv.js'
import { requestOf } from '../src/cli/post-import.js'

const occurrence = (occurrence: number, repeat: Partial<NonNullable<Post['repeat']>>): Post => ({
  id: 'pst_1',
  workspace_id: 'wsp_1',
  account_id: 'acc_1',
  content: 'Weekly tip',
  media_urls: [],
  media: [],
  platforms: ['feed'],
  thread: [],
  first_comment: null,
  overrides: {},
  scheduled_at: '2026-12-15T09:00:00.000Z',
  status: 'scheduled',
  targets: [],
  created_at: '2026-12-01T09:00:00.000Z',
  updated_at: '2026-12-08T09:00:00.000Z',
  published_at: null,
  cancelled_at: null,
  series_id: 'ser_1',
  occurrence,
  repeat: { interval: 'P1W', count: null, until: null, timezone: 'UTC', starts_at: '2026-12-01T09:00:00.000Z', ...repeat },
})

describe('requestOf', () => {
  it('exports a series from this occurrence on: count is what is still to come, this one included', () => {
    expect(requestOf(occurrence(3, { count: 5 })).repeat).toEqual({ interval: 'P1W', count: 3 })
    expect(requestOf(occurrence(3, { count: 5, until: '2027-01-01T00:00:00.000Z' })).repeat).toEqual({ interval: 'P1W', count: 3, until: '2027-01-01T00:00:00.000Z' })
    expect(requestOf(occurrence(3, { until: '2027-01-01T00:00:00.000Z' })).repeat).toEqual({ interval: 'P1W', until: '2027-01-01T00:00:00.000Z' })
  })

  it('exports the last occurrence of a series as a post of its own', () => {
    const last = requestOf(occurrence(5, { count: 5 }))
    expect(last).toEqual({ account_id: 'acc_1', platforms: ['feed'], content: 'Weekly tip', scheduled_at: '2026-12-15T09:00:00.000Z' })
  })
})

describe('csvOf', () => {
  it('refuses a post with a field it has no column for, rather than drop it', () => {
    const request = { ...requestOf(occurrence(1, { count: 4 })), queue: true }
    expect(csvOf([{ id: 'pst_1', request }])).toEqual({ cannot: 'post pst_1 has queue, which has no column' })
    expect(csvOf([{ id: 'pst_1', request: requestOf(occurrence(1, { count: 4 })) }])).toHaveProperty('csv')
  })

  it('writes uploaded media by id after the links, and refuses alt text, which no column holds', () => {
    const request = { ...requestOf(occurrence(1, { count: 4 })), media_urls: ['https://example.com/a.png'], media: [{ id: 'med_1' }] }
    const written = csvOf([{ id: 'pst_1', request }])
    expect('csv' in written && written.csv.split('\r\n')[1]).toContain(',https://example.com/a.png med_1,')
    const described = { ...request, thread: [{ content: 'Part', media: [{ id: 'med_2', alt_text: 'A chart' }] }] }
    expect(csvOf([{ id: 'pst_1', request: described }])).toEqual({ cannot: 'post pst_1 gives its uploaded media alt text, and no column holds alt text' })
  })
})
