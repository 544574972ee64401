import https from 'node:https'

export interface LoadResult {
  requests: number
  seconds: number
  perSecond: number
  p50ms: number
  p99ms: number
  errors: number
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}

/**
 * Closed-loop load over HTTPS keep-alive: `connections` clients each send the next request as
 * soon as the last one is answered, for `durationMs`, after a short warm-up.
 */
export async function load(url: string, options: { ca: string; headers: Record<string, string>; connections: number; durationMs: number; warmupMs?: number }): Promise<LoadResult> {
  const agent = new https.Agent({ ca: options.ca, keepAlive: true, maxSockets: options.connections })
  const once = () =>
    new Promise<number>((resolve) => {
      const started = performance.now()
      const req = https.get(url, { agent, headers: options.headers }, (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode === 200 ? performance.now() - started : -1))
      })
      req.on('error', () => resolve(-1))
    })
  const run = async (ms: number, record: boolean) => {
    const latencies: number[] = []
    let errors = 0
    const deadline = performance.now() + ms
    await Promise.all(
      Array.from({ length: options.connections }, async () => {
        while (performance.now() < deadline) {
          const took = await once()
          if (!record) continue
          if (took < 0) errors++
          else latencies.push(took)
        }
      }),
    )
    return { latencies, errors }
  }
  await run(options.warmupMs ?? 1000, false)
  const started = performance.now()
  const { latencies, errors } = await run(options.durationMs, true)
  const seconds = (performance.now() - started) / 1000
  agent.destroy()
  latencies.sort((a, b) => a - b)
  return {
    requests: latencies.length,
    seconds,
    perSecond: latencies.length / seconds,
    p50ms: percentile(latencies, 50),
    p99ms: percentile(latencies, 99),
    errors,
  }
}
