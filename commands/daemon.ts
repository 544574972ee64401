import { Flags } from '@oclif/core'
import { BaseCommand } from '../src/cli/base-command.js'
import { DAEMON_ENVIRONMENT, environmentHelp } from '../src/cli/environment.js'
import { databaseUrl, dataDir, mediaStore } from '../src/cli/flags.js'
import { PLANS, type Plan } from '../src/api/common.js'
import { formatSize, parseSize } from '../src/numbers.js'
import { DEFAULT_MEDIA_QUOTAS, type MediaQuotas } from '../daemon/media/settings.js'

/** A size flag's bytes, or the flag's own error. */
function sizeFlag(flag: string, input: string): number {
  const bytes = parseSize(input)
  if (bytes === undefined || bytes < 1) throw new Error(`${flag} must be a size such as 20MB, 512KiB or 1GB (got ${input})`)
  return bytes
}

/** --media-quota's PLAN=SIZE items. */
function mediaQuotas(items: string[]): Partial<MediaQuotas> {
  const quotas: Partial<MediaQuotas> = {}
  for (const item of items) {
    const [plan, size = ''] = item.split('=')
    if (!(PLANS as readonly string[]).includes(plan!)) throw new Error(`--media-quota ${item}: the plan must be one of ${PLANS.join(', ')}`)
    quotas[plan as Plan] = size.trim().toLowerCase() === 'none' ? null : sizeFlag(`--media-quota ${plan}`, size)
  }
  return quotas
}
import type { RunningDaemon } from '../daemon/main.js'

function banner(daemon: RunningDaemon): string {
  const lines = [`smm daemon listening on ${daemon.url}/v1`, `Database: ${daemon.database}`]
  if (daemon.metricsUrl) lines.push(`Prometheus metrics: ${daemon.metricsUrl} (plain HTTP, no key)`)
  const ca = daemon.tls?.selfSigned ? ` --ca ${daemon.tls.certPath}` : ''
  if (daemon.tls) {
    lines.push(`TLS certificate: ${daemon.tls.certPath}${daemon.tls.selfSigned ? ' (self-signed)' : ''}`)
    lines.push(`SHA-256 fingerprint: ${daemon.tls.fingerprint}`)
  }
  if (daemon.firstStart) {
    const { secret, userId } = daemon.firstStart
    lines.push(
      '',
      `First start: created the owner user ${userId} and an API key with every scope.`,
      'The key is shown only this once. Store it now:',
      '',
      `  ${secret}`,
      '',
      'Log in with it:',
      `  smm login --url ${daemon.url}${ca}`,
      '',
      'Or try the API directly:',
      `  curl${daemon.tls?.selfSigned ? ` --cacert ${daemon.tls.certPath}` : ''} -H 'Authorization: Bearer ${secret}' ${daemon.url}/v1/me`,
      '',
    )
  }
  return lines.join('\n') + '\n'
}

export default class Daemon extends BaseCommand {
  static override description = `Run the smm server: the HTTPS JSON API under /v1, the publishing scheduler and webhook delivery.

On first start with an empty data dir it creates the owner user and prints an API key once. Without --tls-cert/--tls-key it serves a self-signed certificate generated into the data dir, and prints its path and SHA-256 fingerprint at every start. Plain HTTP is always rejected with 403 https_required.

${environmentHelp(DAEMON_ENVIRONMENT)}`

  static override examples = [
    '<%= config.bin %> daemon',
    '<%= config.bin %> daemon --data-dir /var/lib/smm --host 0.0.0.0 --port 8443',
    '<%= config.bin %> daemon --tls-cert /etc/smm/cert.pem --tls-key /etc/smm/key.pem',
    '<%= config.bin %> daemon --behind-proxy --trusted-proxy 10.0.0.0/8 --port 8080',
    'SMM_DATABASE_URL=postgres://smm:secret@db.internal:5432/smm SMM_SECRET_KEY=… <%= config.bin %> daemon --host 0.0.0.0',
    'SMM_AI_BASE_URL=http://localhost:11434/v1 SMM_AI_MODEL=llama3.2 <%= config.bin %> daemon',
    '<%= config.bin %> daemon --metrics-port 9464',
  ]

  static override enableJsonFlag = false

  static override flags = {
    'data-dir': dataDir,
    'database-url': databaseUrl,
    host: Flags.string({ description: 'Address to listen on', env: 'SMM_HOST', default: '127.0.0.1' }),
    port: Flags.integer({ description: 'Port to listen on (0 picks a free one)', env: 'SMM_PORT', default: 8443, min: 0, max: 65535 }),
    'tls-cert': Flags.file({ description: 'PEM certificate (chain) to serve', env: 'SMM_TLS_CERT', dependsOn: ['tls-key'] }),
    'tls-key': Flags.file({ description: 'PEM private key of --tls-cert', env: 'SMM_TLS_KEY', dependsOn: ['tls-cert'] }),
    'behind-proxy': Flags.boolean({
      description: 'Listen on plain HTTP for a TLS-terminating proxy; only --trusted-proxy addresses sending X-Forwarded-Proto: https are served',
      env: 'SMM_BEHIND_PROXY',
    }),
    'trusted-proxy': Flags.string({
      description: 'Address or CIDR of a trusted proxy (repeatable; default 127.0.0.1 and ::1)',
      env: 'SMM_TRUSTED_PROXY',
      multiple: true,
      delimiter: ',',
    }),
    'allow-private-network': Flags.boolean({
      description: 'Let webhook, media and platform URLs that users supply reach private, loopback and link-local addresses (off: SSRF protection)',
      env: 'SMM_ALLOW_PRIVATE_NETWORK',
    }),
    'webhook-ca-file': Flags.string({
      description: "A PEM file of certificates to trust for webhook deliveries only, besides the public roots: a receiver's self-signed certificate, or a private CA",
      env: 'SMM_WEBHOOK_CA_FILE',
      helpValue: '<file>',
    }),
    'public-url': Flags.string({
      description: 'The URL users reach this daemon at (e.g. behind a proxy), for links it publishes such as feed item URLs and the OAuth redirect URI <public-url>/oauth/callback; default: the listening URL',
      env: 'SMM_PUBLIC_URL',
      async parse(input) {
        if (!/^https?:\/\/[^/\s]+/.test(input)) throw new Error(`--public-url must be an absolute http(s) URL, e.g. https://smm.example.com (got ${input})`)
        return input
      },
    }),
    'log-level': Flags.option({ options: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, default: 'info', env: 'SMM_LOG_LEVEL', description: 'How much to log: each level includes those before it' })(),
    'max-connections-per-address': Flags.integer({
      description: 'Connections one client address may hold open at once; more are closed at once (with --behind-proxy, limit them at the proxy)',
      env: 'SMM_MAX_CONNECTIONS_PER_ADDRESS',
      default: 256,
      min: 1,
    }),
    'shutdown-grace': Flags.integer({ description: 'Seconds to let work in flight finish on SIGTERM', env: 'SMM_SHUTDOWN_GRACE', default: 10, min: 0 }),
    'publish-lease': Flags.integer({
      description:
        'Seconds a daemon holds a publish attempt unless it renews the hold (it does, every third of it, while alive): how soon another daemon on the same database, or this one restarted, takes over the attempts of one that died. Shorter takes over sooner; too short for a stalled machine risks a second attempt',
      env: 'SMM_PUBLISH_LEASE',
      default: 30,
      min: 5,
    }),
    'metrics-port': Flags.integer({
      description:
        'Serve Prometheus metrics at http://<metrics-host>:<port>/metrics: plain HTTP without a key, on a port of its own (never the API port; 0 picks a free one); unset: no metrics',
      env: 'SMM_METRICS_PORT',
      min: 0,
      max: 65535,
    }),
    'metrics-host': Flags.string({
      description: 'Address the metrics listener binds to; any but loopback serves the metrics, unauthenticated, to whoever reaches it (a warning is logged)',
      env: 'SMM_METRICS_HOST',
      default: '127.0.0.1',
    }),
    'media-store': mediaStore,
    'media-max-image-size': Flags.string({ description: 'The largest image one upload may be (20MB, 5MiB…)', env: 'SMM_MEDIA_MAX_IMAGE_SIZE', default: '20MB', parse: async (input) => String(sizeFlag('--media-max-image-size', input)) }),
    'media-max-video-size': Flags.string({ description: 'The largest video one upload may be', env: 'SMM_MEDIA_MAX_VIDEO_SIZE', default: '1GB', parse: async (input) => String(sizeFlag('--media-max-video-size', input)) }),
    'media-quota': Flags.string({
      description: `Media storage per user of a plan, PLAN=SIZE (repeatable or comma-separated; SIZE "none" for no quota). Default: ${PLANS.map((p) => `${p}=${formatSize(DEFAULT_MEDIA_QUOTAS[p]!)}`).join(', ')}`,
      env: 'SMM_MEDIA_QUOTA',
      multiple: true,
      delimiter: ',',
      helpValue: '<plan=size>',
    }),
    'ai-base-url': Flags.string({
      description: 'OpenAI-compatible chat-completions server for POST /v1/ai/generate, up to /v1 (OpenAI, Ollama, llama.cpp, vLLM); unset: the offline builtin drafting helper',
      env: 'SMM_AI_BASE_URL',
    }),
    'ai-api-key': Flags.string({ description: 'API key for --ai-base-url (prefer the environment variable: flags show in ps)', env: 'SMM_AI_API_KEY' }),
    'ai-model': Flags.string({ description: 'Model name for --ai-base-url, e.g. gpt-4o-mini or llama3.2', env: 'SMM_AI_MODEL' }),
    'ai-timeout': Flags.integer({ description: 'Seconds to wait for each answer from --ai-base-url', env: 'SMM_AI_TIMEOUT', default: 30, min: 1 }),
  }

  async run(): Promise<void> {
    const { flags } = await this.parse(Daemon)
    // Listen for the stop signal before anything else, so one sent during start-up is not lost.
    const signal = new Promise<NodeJS.Signals>((resolve) => {
      process.once('SIGTERM', () => resolve('SIGTERM'))
      process.once('SIGINT', () => resolve('SIGINT'))
    })
    // Loaded here, not at the top: `smm --help` and every other command stay free of the server.
    const [{ startDaemon }, { holdHeapDown }] = await Promise.all([import('../daemon/main.js'), import('../daemon/heap.js')])
    // This process is the daemon's: its heap is held near what the daemon needs (daemon/heap.ts).
    holdHeapDown()
    const daemon = await startDaemon({
      dataDir: flags['data-dir'],
      databaseUrl: flags['database-url'],
      host: flags.host,
      port: flags.port,
      tlsCert: flags['tls-cert'],
      tlsKey: flags['tls-key'],
      behindProxy: flags['behind-proxy'],
      trustedProxies: flags['trusted-proxy'],
      logLevel: flags['log-level'],
      allowPrivateNetwork: flags['allow-private-network'],
      webhookCaFile: flags['webhook-ca-file'],
      publicUrl: flags['public-url'],
      shutdownGraceMs: flags['shutdown-grace'] * 1000,
      publishLeaseMs: flags['publish-lease'] * 1000,
      connectionLimits: { perAddress: flags['max-connections-per-address'] },
      metricsPort: flags['metrics-port'],
      metricsHost: flags['metrics-host'],
      aiBaseUrl: flags['ai-base-url'],
      aiApiKey: flags['ai-api-key'],
      aiModel: flags['ai-model'],
      aiTimeoutMs: flags['ai-timeout'] * 1000,
      mediaStore: flags['media-store'],
      mediaLimits: { imageBytes: Number(flags['media-max-image-size']), videoBytes: Number(flags['media-max-video-size']) },
      mediaQuotas: mediaQuotas(flags['media-quota'] ?? []),
    })
    process.stderr.write(banner(daemon))
    process.stderr.write(`${await signal}: finishing work in flight, then stopping.\n`)
    await daemon.close()
  }
}
