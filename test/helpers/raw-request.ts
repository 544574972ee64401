import https from 'node:https'
import type { TestDaemon } from './daemon.js'

/**
 * A request sent exactly as given: the path as written (`new URL` would resolve `/./` and `//`),
 * the headers as listed (repeats included; Node adds only Host and Content-Length), the body as
 * raw bytes. On a connection of its own, unless an `agent` (trusting `t.ca`) is given to reuse.
 */
export function rawRequest(t: TestDaemon, method: string, path: string, headers: string[], body?: Buffer, agent?: https.Agent): Promise<{ status: number; body: any }> {
  const url = new URL(t.url)
  const all = [...headers, 'Host', url.host, ...(body ? ['Content-Length', String(body.length)] : [])]
  return new Promise((resolve, reject) => {
    const req = https.request({ host: url.hostname, port: url.port, path, method, headers: all, ca: t.ca, agent: agent ?? false }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (c) => (text += c))
      res.on('end', () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : undefined }))
    })
    req.on('error', reject)
    req.end(body)
  })
}
