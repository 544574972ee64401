import https from 'node:https'

export interface TestResponse {
  status: number
  headers: Record<string, string>
  text: string
  /** The body parsed as JSON (undefined when empty). */
  body: any
}

export interface RequestOptions {
  key?: string
  /** A JSON value to send (sets Content-Type: application/json). */
  json?: unknown
  /** Raw bytes to send as they are. */
  raw?: string | Buffer
  headers?: Record<string, string>
}

/** Problems with an answer, judged against the API's contract; empty if none. */
export type ResponseCheck = (method: string, path: string, res: TestResponse) => string[]

/**
 * A tiny HTTPS client for tests: trusts the daemon's CA, keeps connections alive. With `check`,
 * every answer is checked as it arrives, and one that breaks the contract fails the request.
 */
export function httpsClient(baseUrl: string, ca: string, check?: ResponseCheck) {
  // A timeout lets Node's agent honour the daemon's `Keep-Alive: timeout=5` and drop an idle
  // connection a second before the daemon closes it; without one (Node 20) the hint is ignored,
  // and a request sent on a connection the daemon is closing meets ECONNRESET under load.
  const agent = new https.Agent({ ca, keepAlive: true, timeout: 60_000 })
  const request = (method: string, path: string, options: RequestOptions = {}): Promise<TestResponse> => {
    const headers: Record<string, string> = { ...options.headers }
    let payload: string | Buffer | undefined = options.raw
    if (options.json !== undefined) {
      payload = JSON.stringify(options.json)
      headers['content-type'] ??= 'application/json'
    }
    if (options.key) headers.authorization = `Bearer ${options.key}`
    return new Promise((resolve, reject) => {
      const req = https.request(new URL(path, baseUrl), { method, headers, agent }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8')
          const flat: Record<string, string> = {}
          for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) flat[k] = Array.isArray(v) ? v.join(', ') : v
          let body: unknown
          try {
            body = text ? JSON.parse(text) : undefined
          } catch {
            body = undefined
          }
          const answer = { status: res.statusCode!, headers: flat, text, body }
          const problems = check?.(method, path, answer) ?? []
          if (problems.length > 0) reject(new Error(`The answer breaks the OpenAPI document:\n${problems.join('\n')}`))
          else resolve(answer)
        })
        res.on('error', reject)
      })
      req.on('error', reject)
      req.end(payload)
    })
  }
  return {
    request,
    get: (path: string, options?: RequestOptions) => request('GET', path, options),
    post: (path: string, json: unknown, options?: RequestOptions) => request('POST', path, { ...options, json }),
    put: (path: string, json: unknown, options?: RequestOptions) => request('PUT', path, { ...options, json }),
    patch: (path: string, json: unknown, options?: RequestOptions) => request('PATCH', path, { ...options, json }),
    delete: (path: string, options?: RequestOptions) => request('DELETE', path, options),
    close: () => agent.destroy(),
  }
}
export type HttpsClient = ReturnType<typeof httpsClient>
