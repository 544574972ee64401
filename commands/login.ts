import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { Flags } from '@oclif/core'
import type { User } from '../src/api/users.js'
import { isWellFormedApiKey } from '../src/api-key.js'
import { normalizeFingerprint, probeCertificate, type CertificateProbe, type TlsTrust } from '../src/client/tls.js'
import { ApiCommand } from '../src/cli/api-command.js'
import { CommandError, usageError } from '../src/cli/command-error.js'
import { Credentials } from '../src/cli/credentials.js'
import { EXIT } from '../src/cli/exit-codes.js'
import { Profiles, type Profile } from '../src/cli/profiles.js'
import { askHidden, confirm, interactive, readStdin } from '../src/cli/prompt.js'

export default class Login extends ApiCommand {
  static override description = `Log in to an smm daemon: check an API key with it and keep the key in the OS keychain.

Asks for the key without echoing it, or reads it from standard input with --key-stdin. The key is checked with GET /v1/me, then stored in the OS keychain (service "smm", account = the profile name); where there is no keychain (a headless server) it goes to a file readable only by you, with a warning. The URL and how to trust its certificate are saved in the profile.

A daemon's self-signed certificate is trusted with --ca (its tls-cert.pem), or by pinning its SHA-256 fingerprint: login shows the fingerprint and asks, or pins --fingerprint without asking. Compare it with the one \`smm daemon\` prints at start.`

  static override examples = [
    '<%= config.bin %> login --url https://127.0.0.1:8443',
    '<%= config.bin %> login --url https://127.0.0.1:8443 --ca ~/.local/share/smm/tls-cert.pem',
    'pass show smm | <%= config.bin %> login --url https://smm.example.com --key-stdin --profile work',
    '<%= config.bin %> login --url https://203.0.113.7:8443 --fingerprint 3A:5F:…:C2 --key-stdin < key.txt',
  ]

  static override flags = {
    url: Flags.string({ description: "The daemon's URL, https://HOST:PORT", env: 'SMM_URL', required: true }),
    ca: Flags.file({ description: "PEM certificate(s) to trust for this daemon (its tls-cert.pem)", env: 'SMM_CA_FILE', exists: true, exclusive: ['fingerprint'] }),
    fingerprint: Flags.string({ description: "SHA-256 fingerprint of the daemon's certificate, to pin without asking", exclusive: ['ca'] }),
    'key-stdin': Flags.boolean({ description: 'Read the API key from standard input instead of asking for it' }),
  }

  async run(): Promise<User> {
    const { flags } = await this.parse(Login)
    const url = this.normalizeUrl(flags.url)
    const pinned = flags.fingerprint === undefined ? undefined : normalizeFingerprint(flags.fingerprint)
    if (flags.fingerprint !== undefined && !pinned) {
      throw usageError('invalid_fingerprint', `--fingerprint: "${flags.fingerprint}" is not a SHA-256 fingerprint (64 hex digits, colons optional).`)
    }
    const { trust, saved } = flags.ca
      ? { trust: { ca: readFileSync(flags.ca) }, saved: { ca_file: resolve(flags.ca) } }
      : pinned
        ? { trust: { fingerprint: pinned }, saved: { fingerprint: pinned } }
        : await this.trustByAsking(url)
    const apiKey = await this.readKey(flags['key-stdin'])

    const me = await this.waitFor('Checking the key', this.createClient({ url, trust, apiKey }).getMe())
    const location = await new Credentials().set(this.profileName, apiKey)
    new Profiles().set(this.profileName, { url, ...saved })
    if (location.store === 'file') {
      process.stderr.write(`Warning: no OS keychain (${location.reason}); the key is stored in ${location.file}, readable only by you.\n`)
    }
    if (!this.jsonEnabled()) {
      const profile = this.profileName === 'default' ? '' : ` (profile "${this.profileName}")`
      this.log(`Logged in to ${url} as ${me.name} (${me.id})${profile}.`)
    }
    return me
  }

  private normalizeUrl(input: string): string {
    let url: URL
    try {
      url = new URL(input)
    } catch {
      throw usageError('invalid_url', `--url: "${input}" is not a URL; expected https://HOST:PORT.`)
    }
    if (url.protocol !== 'https:') {
      throw usageError('invalid_url', `--url: ${input} must start with https://; the daemon serves HTTPS only, and a key sent in clear is leaked.`)
    }
    return `${url.origin}${url.pathname.replace(/\/+$/, '').replace(/\/v1$/, '')}`
  }

  /** With neither --ca nor --fingerprint: trust what the system trusts, or ask to pin. */
  private async trustByAsking(url: string): Promise<{ trust: TlsTrust; saved: Partial<Profile> }> {
    const probe = await this.waitFor('Connecting', probeCertificate(url))
    if (probe.trusted) return { trust: {}, saved: {} }
    if (!interactive()) {
      throw usageError(
        'certificate_untrusted',
        `The TLS certificate of ${url} is not trusted (${probe.reason}); its SHA-256 fingerprint is ${probe.fingerprint}. If that is the fingerprint \`smm daemon\` printed, log in with --fingerprint ${probe.fingerprint}, or pass --ca with the daemon's tls-cert.pem.`,
      )
    }
    this.describeCertificate(url, probe)
    if (!(await confirm('Pin this certificate for this profile? [y/N] '))) {
      throw new CommandError('certificate_not_pinned', 'Not logged in: the certificate was not pinned.', EXIT.error)
    }
    return { trust: { fingerprint: probe.fingerprint }, saved: { fingerprint: probe.fingerprint } }
  }

  private describeCertificate(url: string, probe: CertificateProbe): void {
    process.stderr.write(
      [
        `The TLS certificate of ${url} is not signed by an authority this machine trusts (${probe.reason}).`,
        `  Subject: ${probe.subject || '(none)'}, valid until ${probe.validTo}`,
        `  SHA-256 fingerprint: ${probe.fingerprint}`,
        'Compare it with the fingerprint `smm daemon` printed when it started.',
        '',
      ].join('\n'),
    )
  }

  private async readKey(fromStdin: boolean): Promise<string> {
    let key: string
    if (fromStdin) key = (await readStdin()).trim()
    else if (interactive()) key = (await askHidden('API key: ')).trim()
    else throw usageError('no_key', `No API key: pipe it in with --key-stdin, or run \`smm login${this.profileFlag()}\` in a terminal to be asked for it.`)
    if (!key) throw usageError('no_key', 'No API key was given.')
    if (!isWellFormedApiKey(key)) {
      throw new CommandError(
        'malformed_key',
        'That is not an smm API key: it should be smm_ and 36 letters and digits, the last 6 a checksum of the rest. Check for a typo or a cut-off paste.',
        EXIT.auth,
      )
    }
    return key
  }
}
