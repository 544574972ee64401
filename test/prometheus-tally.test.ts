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
