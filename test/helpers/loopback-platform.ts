import { mkdtempSync, rmSync } from 'node:fs'
import https from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as v from 'valibot'
import { PlatformError, type CredentialPlatform, type Platform, type PlatformName } from '../../daemon/platforms/types.js'
import { ensureSelfSigned } from '../../daemon/tls.js'
import { partKey } from '../../daemon/platforms/record-key.js'

/**
 * What the loopback server answers: a status, headers and a JSON body, or no answer at all.
 * `delayMs` after the request arrived; with `together`, after that many requests are waiting for
 * an answer at once (each wave answered together), so that how many a client sends at once does
 * not depend on how quickly a loaded machine gets them out.
 */
export type Reply = { status: number; headers?: Record<string, string>; body?: unknown; delayMs?: number; together?: number } | 'hang'

export interface LoopbackServer {
  url: string
  ca: string
  /** Every request received: its body parsed. */
  received: { content: string; idempotency_key: string; media: string[]; in_reply_to: string | null }[]
  /** The most requests it has held unanswered at once since the last `resetPeak()`. */
  peak(): number
  resetPeak(): void
  /** Sets how the next requests are answered (a queue; the last one repeats). */
  reply(...replies: Reply[]): void
  close(): Promise<void>
}

/**
 * An HTTPS server on 127.0.0.1 speaking a webhook-style publishing protocol (POST JSON, answer
 * `{id, url}`; 4xx/5xx/429 with Retry-After as errors), for driving the scheduler through every
 * way a platform can answer.
 */
export async function startLoopbackServer(): Promise<LoopbackServer> {
  const dir = mkdtempSync(join(tmpdir(), 'smm-loopback-'))
  const tls = await ensureSelfSigned(dir)
  let queue: Reply[] = [{ status: 200 }]
  const received: LoopbackServer['received'] = []
  const hanging = new Set<import('node:http').ServerResponse>()
  let open = 0
  let peak = 0
  /** Answers waiting for their wave to fill (`together`). */
  let wave: (() => void)[] = []
  const server = https.createServer({ cert: tls.cert, key: tls.key }, (req, res) => {
    peak = Math.max(peak, ++open)
    res.once('close', () => open--)
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'))
      received.push(body)
      const reply = queue.length > 1 ? queue.shift()! : queue[0]!
      if (reply === 'hang') {
        hanging.add(res)
        return
      }
      const payload = reply.body ?? (reply.status < 300 ? { id: `msg-${received.length}`, url: `https://loopback.example/m/${received.length}` } : { message: `error ${reply.status}` })
      const answer = () =>
        setTimeout(() => {
          res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers })
          res.end(JSON.stringify(payload))
        }, reply.delayMs ?? 0)
      if (!reply.together) return answer()
      wave.push(answer)
      if (wave.length < reply.together) return
      for (const waiting of wave.splice(0)) waiting()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    ca: tls.cert,
    received,
    peak: () => peak,
    resetPeak: () => {
      peak = open
    },
    reply: (...replies) => {
      queue = replies
      wave = []
    },
    async close() {
      for (const res of hanging) res.destroy()
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/**
 * A platform module for that protocol, registered under a real platform's name. `idempotent`
 * says whether the server side dedupes by `idempotency_key` (it decides what a crash leaves),
 * `windowMs` for how long (forever unless given).
 */
export function loopbackPlatform(
  name: PlatformName,
  options: {
    idempotent: boolean
    windowMs?: number
    maxChars?: number
    timeoutMs?: number
    concurrency?: Platform['concurrency']
    /** How parts after the post go out; default a chain of replies, first comment as a reply. */
    thread?: Platform['thread']
    firstComment?: Platform['firstComment']
  },
): CredentialPlatform {
  return {
    name,
    label: `${name} (loopback)`,
    auth: 'credentials',
    ...(options.concurrency ? { concurrency: options.concurrency } : {}),
    credentials: v.strictObject({ webhook_url: v.pipe(v.string(), v.url('must be a URL')) }),
    idempotencyWindowMs: options.idempotent ? (options.windowMs ?? Infinity) : 0,
    // Parts after the post are replies to the part before, as on Mastodon.
    thread: options.thread ?? 'replies',
    firstComment: options.firstComment === undefined ? 'reply' : options.firstComment,
    limits: { text: { max: options.maxChars ?? 2000, count: 'utf16' }, media: { max: null } },
    measure: (draft) => ({ length: draft.content.length, limit: options.maxChars ?? 2000 }),
    check(draft) {
      const max = options.maxChars ?? 2000
      return draft.content.length > max ? [{ pointer: '#/content', code: 'content_too_long', detail: `is ${draft.content.length} characters; ${name} allows at most ${max}` }] : []
    },
    async verify(credentials) {
      return { handle: String(credentials.webhook_url), display_name: `${name} loopback`, settings: {} }
    },
    async publish(connection, request, ctx) {
      const res = await ctx.http(String(connection.credentials.webhook_url), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          content: request.content,
          idempotency_key: partKey(request.postId, request.followUp?.index ?? 0),
          media: request.mediaUrls,
          in_reply_to: (options.thread ?? 'replies') === 'replies' ? (request.followUp?.parent.platform_post_id ?? null) : null,
        }),
        timeoutMs: options.timeoutMs ?? 2_000,
      })
      const body = res.json<{ id?: string; url?: string; message?: string }>()
      if (res.status === 401 || res.status === 403) throw new PlatformError('auth', 'unauthorized', body.message ?? 'unauthorized')
      if (res.status === 429) throw new PlatformError('transient', 'rate_limited', 'rate limited', Number(res.headers['retry-after'] ?? 1) * 1000)
      if (res.status >= 500) throw new PlatformError('transient', 'platform_error', `${name} answered ${res.status}`)
      if (res.status >= 400) throw new PlatformError('permanent', 'platform_rejected', body.message ?? `${name} answered ${res.status}`)
      return { platform_post_id: body.id ?? null, url: body.url ?? null }
    },
  }
}
