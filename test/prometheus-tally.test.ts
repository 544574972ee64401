import * as client from 'prom-client'
import { describe, expect, it } from 'vitest'
import { BucketedHistogram, talliedCounter } from '../daemon/prometheus/tally.js'

// The request path's counters and histograms keep their counts in plain numbers that the
// registry reads at a scrape (daemon/prometheus/tally.ts). A scrape must read exactly as if
// prom-client's own metrics had counted the same things.
const BUCKETS = [0.001, 0.01, 0.1, 1]
const OBSERVED: [string, string, number][] = [
  ['GET', '/v1/me', 0.0004],
  ['GET', '/v1/me', 0.001],
  ['GET', '/v1/me', 0.05],
  ['POST', '/v1/posts', 2.5],
  ['GET', '/v1/me', 0.0100001],
  ['POST', '/v1/posts', 0.1],
]

describe('tallied metrics', () => {
  it('scrape as prom-client’s own histogram and counter do, given the same observations', async () => {
    const ours = new client.Registry()
    const theirs = new client.Registry()
    const help = 'Requests, by method and route.'
    const histogram = new BucketedHistogram(ours, 'test_duration_seconds', help, ['method', 'route'], BUCKETS)
    const counted = talliedCounter({ client, registry: ours }, { name: 'test_requests_total', help, labelNames: ['method', 'route'] })
    const reference = new client.Histogram({ name: 'test_duration_seconds', help, labelNames: ['method', 'route'], buckets: BUCKETS, registers: [theirs] })
    const referenceCounter = new client.Counter({ name: 'test_requests_total', help, labelNames: ['method', 'route'], registers: [theirs] })
    const observe = (from: number, to: number) => {
      for (const [method, route, seconds] of OBSERVED.slice(from, to)) {
        histogram.labels(method, route).observe(seconds)
        counted(method, route).inc()
        reference.labels(method, route).observe(seconds)
        referenceCounter.labels(method, route).inc()
      }
    }
    observe(0, 4)
    expect(await ours.metrics()).toBe(await theirs.metrics())
    // Counts go on adding up across scrapes (a tally is moved into its counter at each).
    observe(4, 6)
    const text = await ours.metrics()
    expect(text).toBe(await theirs.metrics())
    expect(text).toContain('test_duration_seconds_bucket{le="0.01",method="GET",route="/v1/me"} 2')
    expect(text).toContain('test_requests_total{method="GET",route="/v1/me"} 4')
  })
})

describe('a sampled timer (the store’s calls on SQLite)', () => {
  it('times the first calls after each scrape and then one in so many, and counts every call', async () => {
    const registry = new client.Registry()
    const histogram = new BucketedHistogram(registry, 'test_call_seconds', 'Calls.', ['operation'], BUCKETS)
    const calls = histogram.labels('posts.create')
    const timed: number[] = []
    // 43 calls, one in four timed after the first four: the first 20 take 0.5 ms, the others 50 ms.
    for (let call = 1; call <= 43; call++) {
      if (calls.timeThis(4)) {
        timed.push(call)
        calls.observe(call <= 20 ? 0.0005 : 0.05)
      }
    }
    expect(timed).toEqual([1, 2, 3, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40])
    const read = async () =>
      new Map(
        (await registry.metrics())
          .split('\n')
          .filter((line) => line.startsWith('test_call_seconds'))
          .map((line) => [line.slice(0, line.lastIndexOf(' ')), Number(line.slice(line.lastIndexOf(' ') + 1))]),
      )
    const first = await read()
    // Each call timed stands for those since the last one timed; the three after the last, read
    // at the scrape, for what it took.
    expect(first.get('test_call_seconds_count{operation="posts.create"}')).toBe(43)
    expect(first.get('test_call_seconds_bucket{le="0.001",operation="posts.create"}')).toBe(20)
    expect(first.get('test_call_seconds_bucket{le="0.01",operation="posts.create"}')).toBe(20)
    expect(first.get('test_call_seconds_bucket{le="0.1",operation="posts.create"}')).toBe(43)
    expect(first.get('test_call_seconds_bucket{le="+Inf",operation="posts.create"}')).toBe(43)
    expect(first.get('test_call_seconds_sum{operation="posts.create"}')).toBeCloseTo(20 * 0.0005 + 23 * 0.05, 10)
    // After a scrape the first ones are timed again: an operation called less often than one in
    // so many between scrapes has every call timed.
    const after: boolean[] = []
    for (let call = 1; call <= 5; call++) after.push(calls.timeThis(4) && (calls.observe(2), true))
    expect(after).toEqual([true, true, true, true, false])
    const second = await read()
    expect(second.get('test_call_seconds_count{operation="posts.create"}')).toBe(48)
    expect(second.get('test_call_seconds_bucket{le="1",operation="posts.create"}')).toBe(43)
    expect(second.get('test_call_seconds_bucket{le="+Inf",operation="posts.create"}')).toBe(48)
  })
})
