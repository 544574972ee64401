import { randomUUID } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import type http from 'node:http'
import type { AddressInfo } from 'node:net'
import nodeTls from 'node:tls'
import { userInfo } from 'node:os'
import { join } from 'node:path'
import type { Logger } from 'pino'
import { VERSION } from '../src/config.js'
import { systemClock, type Clock } from '../src/time.js'
import { systemTimeZone } from '../src/zoned-time.js'
import { createAiProvider } from './ai/index.js'
import { createApp } from './app.js'
import type { AppDeps, TransportPolicy } from './context.js'
import { createHttpClient, DEFAULT_TIMEOUT_MS, type EgressOptions } from './egress.js'
import { daemonLogger } from './log.js'
import { DEFAULT_CONNECTION_LIMITS, listenFailure, proxyListener, tlsListener, type ConnectionLimits, type Listener } from './listener.js'
import { openMediaStore, parseMediaStore, type MediaStore } from './media/index.js'
import { DEFAULT_MEDIA_LIMITS, DEFAULT_MEDIA_QUOTAS, type MediaLimits, type MediaQuotas } from './media/settings.js'
import { createPlatformRegistry } from './platforms/index.js'
import { createOAuthApps } from './platforms/oauth-apps.js'
import { oauthRefreshMetrics } from './platforms/oauth-tokens.js'
import type { Platform } from './platforms/types.js'
import { Scheduler, type SchedulerOptions } from './scheduler/index.js'
import { createSecretBox, keyFingerprint, loadSecretKey, SecretKeyError } from './secret-box.js'
import { databaseFileOf, describeDatabase, lockDataDir, openStore, type Store } from './store/index.js'
import { prepareDataDir } from './files.js'
import { certificateExpiryGauge, ensureSelfSigned, loadTls, type TlsMaterial } from './tls.js'
import type { Worker } from './worker.js'
import { createWorkers } from './workers.js'
import { isLoopback, startMetricsListener, type MetricsListener } from './prometheus/listener.js'
import { startPrometheus } from './prometheus/registry.js'
import { instrumentStore } from './store/instrumented.js'

/** How the daemon is started: the flags of `smm daemon`, each also an environment variable. */
export interface DaemonOptions {
  dataDir: string
  host: string
  port: number
  tlsCert?: string
  tlsKey?: string
  behindProxy?: boolean
  trustedProxies?: string[]
  logLevel?: string
  /** Let outbound requests to user-supplied URLs reach private and loopback addresses. */
  allowPrivateNetwork?: boolean
  /** A PEM file of certificates to trust, besides the public roots, for webhook deliveries only (a receiver's self-signed certificate). */
  webhookCaFile?: string
  /** How long shutdown waits for requests in flight before closing their connections. */
  shutdownGraceMs?: number
  /** How long a publish attempt's claim holds unless renewed: how soon another node takes over a dead one's attempts. Default 30 s. */
  publishLeaseMs?: number
  /** An OpenAI-compatible chat-completions server (up to `/v1`); unset: the builtin drafting helper. */
  aiBaseUrl?: string
  aiApiKey?: string
  aiModel?: string
  /** Per request to the AI provider. Default 30 s. */
  aiTimeoutMs?: number
  /** The key sealing platform credentials, base64 of 32 bytes (else `SMM_SECRET_KEY`, else `secret.key` in the data dir). */
  secretKey?: string
  /** The URL the daemon is reached at from outside (behind a proxy, say), for links in feeds. Default: the listening URL. */
  publicUrl?: string
  /** `postgres://…`: keep state in this PostgreSQL database, which several daemons may share, instead of the data dir's SQLite file. */
  databaseUrl?: string
  /** Timeouts and the per-address cap on connections (`--max-connections-per-address`). */
  connectionLimits?: Partial<ConnectionLimits>
  /** Serve Prometheus metrics on this port (0: any free one), plain HTTP; unset: no metrics. Never the API's port. */
  metricsPort?: number
  /** The address the metrics listener binds to. Default 127.0.0.1. */
  metricsHost?: string
  /** Where uploaded media's bytes go: `file:///DIR` or `s3://BUCKET[/PREFIX]`; unset: the data dir's `media/`. */
  mediaStore?: string
  /** The largest image and video one upload may be. */
  mediaLimits?: Partial<MediaLimits>
  /** Media storage per user, by plan (null: none). */
  mediaQuotas?: Partial<MediaQuotas>
}

/** What tests and benchmarks may replace. */
export interface DaemonOverrides {
  clock?: Clock
  log?: Logger
  authFailuresPerMinute?: number
  /** Extra egress settings (tests trust their loopback servers' CA here). */
  egress?: EgressOptions
  /** Run the background loops on their timers (default). Tests turn this off and call `tick`. */
  backgroundWorkers?: boolean
  /** Platform modules to add or replace (tests' loopback platforms, benchmarks' instrumented ones). */
  platforms?: Platform[]
  scheduler?: SchedulerOptions
  /** Where the OAuth platforms' apps (`SMM_PLATFORM_<NAME>_…`) and the S3 settings (`SMM_S3_…`, `AWS_…`) are read from. Default: `process.env`. */
  env?: NodeJS.ProcessEnv
}

export interface RunningDaemon {
  /** The base URL the API answers on, e.g. https://127.0.0.1:8443 */
  url: string
  port: number
  /** Where Prometheus scrapes this node, e.g. http://127.0.0.1:9464/metrics; unset without `--metrics-port`. */
  metricsUrl?: string
  store: Store
  tls?: TlsMaterial
  /** Where the state is kept, as it may be shown: the SQLite file, or the PostgreSQL URL without its password. */
  database: string
  /** The data dir's SQLite file (unused with a database URL). */
  databaseFile: string
  /** The background loops; tests drive them with `tick(now)`. */
  workers: Worker[]
  /** The publishing scheduler (tests drive it with `tick(now)`). */
  scheduler: Scheduler
  /** Set on the first start only: the owner's key, to be printed once. */
  firstStart?: { userId: string; keyId: string; secret: string }
  /** Stops accepting, lets requests in flight finish (bounded), closes the database. */
  close(): Promise<void>
}

function ownerName(): string {
  try {
    return userInfo().username || 'owner'
  } catch {
    // No passwd entry (a container's arbitrary uid): a generic name serves as well.
    return 'owner'
  }
}

function displayHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '127.0.0.1') return host === '127.0.0.1' ? '127.0.0.1' : 'localhost'
  return host.includes(':') ? `[${host}]` : host
}

/** Listens on `host:port`; a port that cannot be had is an error naming the flag that chose it. */
function listen(server: Listener['server'], host: string, port: number, flag = '--port'): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => reject(listenFailure(error, host, port, flag)))
    server.listen(port, host, () => {
      server.removeAllListeners('error')
      resolve((server.address() as AddressInfo).port)
    })
  })
}

/** Drains HTTP servers: idle keep-alive connections now, busy ones when done or at the deadline. */
async function drain(listener: Listener, graceMs: number): Promise<void> {
  const closed = new Promise<void>((resolve) => listener.server.close(() => resolve()))
  const servers: http.Server[] = listener.httpServers
  // Connections with nothing in flight go now: idle keep-alive ones, and those that never sent
  // a request. Busy ones finish their request first (up to the deadline), then go as they idle.
  const closeIdle = () => {
    listener.closeUnused()
    for (const s of servers) s.closeIdleConnections()
  }
  closeIdle()
  const ticker = setInterval(closeIdle, 100)
  const deadline = new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref())
  // Every server is closed, listening or not: closing also stops its timeout checks.
  const allClosed = Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))))
  await Promise.race([allClosed, deadline])
  clearInterval(ticker)
  for (const s of servers) s.closeAllConnections()
  await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 100).unref())])
}

/**
 * The certificates Node.js trusts by default: its public roots and NODE_EXTRA_CA_CERTS. A `ca`
 * option replaces them for the connections it is given to, so an extra CA for webhook receivers
 * is added to these rather than put in their place.
 */
function defaultCas(): string[] {
  const node = nodeTls as typeof nodeTls & { getCACertificates?: (type: 'default') => string[] }
  if (node.getCACertificates) return node.getCACertificates('default')
  const extra = process.env.NODE_EXTRA_CA_CERTS
  return [...nodeTls.rootCertificates, ...(extra ? [readCaFile(extra, 'NODE_EXTRA_CA_CERTS')] : [])]
}

/** A PEM file of certificates, or an error that names the file, the setting and what is wrong. */
function readCaFile(file: string, setting: string): string {
  let pem: string
  try {
    pem = readFileSync(file, 'utf8')
  } catch (error) {
    throw new Error(`${setting} ${file}: ${(error as Error).message}`)
  }
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) throw new Error(`${setting} ${file}: not a PEM certificate file (no "-----BEGIN CERTIFICATE-----" in it)`)
  return pem
}

/** Starts the daemon: storage, TLS, first-start bootstrap, the HTTP listener and background jobs. */
/**
 * This daemon's id among several on one database, kept in its data dir (`node-id`) so that a
 * restarted node knows its own claims and takes them back at once.
 */
function loadNodeId(dataDir: string): string {
  const file = join(dataDir, 'node-id')
  try {
    writeFileSync(file, `node-${randomUUID()}\n`, { flag: 'wx', mode: 0o600 })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  }
  return readFileSync(file, 'utf8').trim()
}

export async function startDaemon(options: DaemonOptions, overrides: DaemonOverrides = {}): Promise<RunningDaemon> {
  const clock = overrides.clock ?? systemClock
  const log = overrides.log ?? daemonLogger(options.logLevel ?? 'info')
  // Before the data dir is touched: a configuration mistake must not cost a first start its key.
  // The operator's own endpoint is trusted (a local Ollama on http://localhost:11434/v1, say).
  const ai = createAiProvider(
    { baseUrl: options.aiBaseUrl, apiKey: options.aiApiKey, model: options.aiModel, timeoutMs: options.aiTimeoutMs },
    createHttpClient({ allowHttp: true, allowPrivateNetwork: true, ca: overrides.egress?.ca }),
  )
  const webhookCa = options.webhookCaFile === undefined ? undefined : readCaFile(options.webhookCaFile, '--webhook-ca-file')
  if (options.metricsPort !== undefined && options.metricsPort !== 0 && options.metricsPort === options.port) {
    throw new Error(`--metrics-port ${options.metricsPort} is the API's --port: metrics are served on a port of their own, without a key, so choose another.`)
  }
  // Off unless asked for: then prom-client is not even loaded, and nothing is timed or served.
  const prometheus = options.metricsPort === undefined ? undefined : await startPrometheus({ version: VERSION, store: options.databaseUrl ? 'postgres' : 'sqlite' })
  const mediaSpec = parseMediaStore(options.mediaStore, options.dataDir)
  // Several daemons must see one another's uploads: the data dir is each node's own.
  if (options.databaseUrl && mediaSpec.kind === 'file' && !mediaSpec.explicit) {
    throw new Error(
      `A daemon on PostgreSQL needs a media store every node shares: set --media-store (SMM_MEDIA_STORE) to s3://BUCKET[/PREFIX], or to file:///DIR on a mount all nodes share. (The default, ${mediaSpec.dir}, is this node's alone.)`,
    )
  }
  const { warning } = prepareDataDir(options.dataDir)
  if (warning) log.warn({ msg: warning, data_dir: options.dataDir })
  if (options.publishLeaseMs !== undefined && options.publishLeaseMs < DEFAULT_TIMEOUT_MS) {
    log.warn({
      msg:
        `The publish lease (${options.publishLeaseMs / 1000} s) is shorter than a platform request may take (${DEFAULT_TIMEOUT_MS / 1000} s): a daemon that stalls for a moment mid-request ` +
        `loses the attempt to another, which sends it again. Set --publish-lease (SMM_PUBLISH_LEASE) to ${DEFAULT_TIMEOUT_MS / 1000} or more.`,
      publish_lease_s: options.publishLeaseMs / 1000,
    })
  }
  const databaseFile = databaseFileOf(options.dataDir)
  const database = options.databaseUrl ? describeDatabase(options.databaseUrl) : databaseFile
  // The data dir's SQLite file is one daemon's; a PostgreSQL database is shared by design.
  const lock = options.databaseUrl ? { release() {} } : lockDataDir(options.dataDir, `${options.host}:${options.port}`)
  let store: Store
  let mediaStore: MediaStore
  try {
    mediaStore = await openMediaStore(mediaSpec, overrides.env ?? process.env)
  } catch (error) {
    lock.release()
    throw error
  }
  try {
    store = await openStore(
      { dataDir: options.dataDir, databaseUrl: options.databaseUrl, nodeId: options.databaseUrl ? loadNodeId(options.dataDir) : undefined, leaseMs: options.publishLeaseMs },
      { onBackgroundError: (error) => log.error({ err: error, worker: 'wal-checkpoint' }, 'background work failed') },
    )
  } catch (error) {
    await mediaStore.close()
    lock.release()
    throw error
  }
  if (prometheus) {
    store = instrumentStore(store, prometheus, clock, !options.databaseUrl)
    // Counted only when a token is refreshed; registered now, so the series read 0 until then.
    oauthRefreshMetrics(prometheus)
  }
  let metricsListener: MetricsListener | undefined
  try {
    await store.idempotency.abandonRunning()
    await store.webhookDeliveries.releaseLeases(clock.now())
    const transport: TransportPolicy = options.behindProxy
      ? { mode: 'proxy', trustedProxies: options.trustedProxies?.length ? options.trustedProxies : ['127.0.0.1', '::1'] }
      : { mode: 'tls' }
    let tls: TlsMaterial | undefined
    if (transport.mode === 'tls') {
      if (!!options.tlsCert !== !!options.tlsKey) throw new Error('--tls-cert and --tls-key go together: give both, or neither for a self-signed certificate')
      tls = options.tlsCert ? loadTls(options.tlsCert, options.tlsKey!) : await ensureSelfSigned(options.dataDir, new Date(clock.now()))
      if (prometheus) certificateExpiryGauge(prometheus, tls)
    }
    // Every check that can refuse to start comes before the first-start key is made (below,
    // after listening), so a configuration mistake cannot swallow the only printing of that key.
    const secretKey = loadSecretKey(options.dataDir, options.secretKey ?? process.env.SMM_SECRET_KEY)
    if (!(await store.acceptsSecretKey(keyFingerprint(secretKey)))) {
      throw new SecretKeyError(
        `The database ${database} was written with another secret key than this daemon's. Every daemon on one database needs the same key: ` +
          'set SMM_SECRET_KEY to the key the others use (or copy their secret.key into this data dir).',
      )
    }
    const secrets = createSecretBox(secretKey)

    let listeningUrl = ''
    const publicUrl = () => (options.publicUrl ?? listeningUrl).replace(/\/+$/, '')
    const platforms = createPlatformRegistry({ store, publicUrl, extra: overrides.platforms })
    const oauthApps = createOAuthApps({ env: overrides.env ?? process.env, store: store.oauth, secrets, publicUrl })
    const http = createHttpClient({ allowPrivateNetwork: options.allowPrivateNetwork, ...overrides.egress })
    const webhookHttp = webhookCa
      ? createHttpClient({ allowPrivateNetwork: options.allowPrivateNetwork, ...overrides.egress, ca: [...defaultCas(), webhookCa, ...[overrides.egress?.ca ?? []].flat()] })
      : undefined
    const scheduler = new Scheduler(
      { store, clock, log, http, platforms, secrets, oauthApps, prometheus, mediaStore },
      { stopGraceMs: options.shutdownGraceMs ?? 10_000, ...(options.publishLeaseMs ? { leaseMs: options.publishLeaseMs } : {}), ...overrides.scheduler },
    )
    const deps: AppDeps = {
      store,
      clock,
      log,
      version: VERSION,
      transport,
      authFailuresPerMinute: overrides.authFailuresPerMinute,
      ai,
      allowPrivateNetwork: Boolean(overrides.egress?.allowPrivateNetwork ?? options.allowPrivateNetwork),
      http,
      webhookHttp,
      platforms,
      oauthApps,
      secrets,
      publicUrl,
      scheduler,
      prometheus,
      media: {
        store: mediaStore,
        limits: { ...DEFAULT_MEDIA_LIMITS, ...options.mediaLimits },
        quotas: { ...DEFAULT_MEDIA_QUOTAS, ...options.mediaQuotas },
      },
    }
    const app = createApp(deps)
    const handler = app.callback()
    const limits = { ...DEFAULT_CONNECTION_LIMITS, ...options.connectionLimits }
    const listener = tls ? tlsListener(tls, handler, log, limits) : proxyListener(handler, log, limits)
    let metricsUrl: string | undefined
    if (prometheus) {
      const host = options.metricsHost ?? '127.0.0.1'
      metricsListener = await startMetricsListener(prometheus, log, host, options.metricsPort!)
      const port = metricsListener.port
      metricsUrl = `http://${displayHost(host)}:${port}/metrics`
      if (!isLoopback(host)) {
        log.warn({ msg: `The metrics on ${host}:${port} are served to anyone who can reach that address, without authentication: keep it to a private network or firewall it.`, metrics_host: host })
      }
    }
    const port = await listen(listener.server, options.host, options.port)
    const url = `${tls ? 'https' : 'http'}://${displayHost(options.host)}:${port}`
    listeningUrl = tls ? url : `https://${displayHost(options.host)}:${port}`
    // Only once the port is ours (a port in use is the commonest failure to start): a key made
    // before that would never be printed, and a first start happens once.
    // ICU is asked for the host's time zone only on a first start: its answer maps about 5 MB
    // of ICU's calendar and zone data into the process for good, and any other start needs none.
    const noUserYet = (await store.users.count()) === 0
    const created = noUserYet ? await store.bootstrapOwner({ name: ownerName(), timezone: systemTimeZone() || 'UTC' }, clock.now()) : undefined

    const workers = createWorkers(deps)
    if (overrides.backgroundWorkers ?? true) for (const worker of workers) worker.start()

    log.info({ msg: 'listening', url, metrics_url: metricsUrl, version: VERSION, data_dir: options.dataDir, database, media_store: mediaStore.location, transport: transport.mode, ai_provider: deps.ai.name, ai_model: deps.ai.model })
    let closing: Promise<void> | undefined
    return {
      url,
      port,
      metricsUrl,
      store,
      tls,
      database,
      databaseFile,
      workers,
      scheduler,
      firstStart: created && { userId: created.user.id, keyId: created.key.id, secret: created.key.secret },
      close() {
        closing ??= (async () => {
          // Requests first (they may hand work to the workers), then the workers, then the file.
          await drain(listener, options.shutdownGraceMs ?? 10_000)
          await Promise.all(workers.map((w) => w.stop()))
          // Scraped to the last (a scrape during the drain sees it), then gone before the store.
          await metricsListener?.close()
          await store.close()
          await mediaStore.close()
          lock.release()
          log.info({ msg: 'stopped' })
        })()
        return closing
      },
    }
  } catch (error) {
    await metricsListener?.close()
    await store.close()
    await mediaStore.close()
    lock.release()
    throw error
  }
}
