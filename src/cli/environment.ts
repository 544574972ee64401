// The environment variables smm reads besides those that set a flag (each flag's own `env`).
// One list, read twice: `smm daemon --help` prints the daemon's in its description, and
// `npm run docs` writes both lists into docs/configuration.md, so the two cannot disagree.

/** An environment variable that is not a flag's: its name, default and meaning. */
export interface EnvironmentVariable {
  name: string
  default: string
  meaning: string
}

/** What the daemon (and `smm admin`, and `smm-daemon`) reads beside its flags. */
export const DAEMON_ENVIRONMENT: readonly EnvironmentVariable[] = [
  {
    name: 'SMM_SECRET_KEY',
    default: '`secret.key` in the data dir',
    meaning: 'base64 of 32 bytes sealing platform credentials and webhook secrets at rest; every daemon on one database needs the same',
  },
  {
    name: 'SMM_PLATFORM_<NAME>_CLIENT_ID, SMM_PLATFORM_<NAME>_CLIENT_SECRET',
    default: 'what `smm admin platforms set` stored',
    meaning: "an OAuth platform's app (NAME: X, LINKEDIN, THREADS, FACEBOOK, INSTAGRAM); wins over what is stored",
  },
  {
    name: 'SMM_PLATFORM_<NAME>_AUTHORIZE_URL, SMM_PLATFORM_<NAME>_TOKEN_URL, SMM_PLATFORM_<NAME>_API_URL',
    default: "the platform's own",
    meaning: "replace an OAuth platform's endpoints (full URLs; the API's origin) for tests or a gateway; private addresses need --allow-private-network",
  },
  {
    name: 'SMM_S3_ENDPOINT',
    default: "AWS S3's own",
    meaning: 'with `--media-store s3://…`: another S3-compatible server (MinIO, Garage, R2…), addressed path-style; the credentials are the AWS SDK\'s (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, or its profiles and roles)',
  },
  {
    name: 'SMM_S3_REGION',
    default: '`AWS_REGION`, else us-east-1',
    meaning: 'with `--media-store s3://…`: the bucket\'s region',
  },
  {
    name: 'SMM_TMPDIR, then TMPDIR',
    default: '/tmp',
    meaning: "smm-daemon only: where the SQLite addon's private copy goes (smm-<uid>, mode 0700)",
  },
  {
    name: 'NODE_EXTRA_CA_CERTS',
    default: 'none',
    meaning: "a PEM file of extra certificate authorities to trust for every outbound HTTPS request (a private CA's webhook receiver), smm-daemon included",
  },
]

/** What every other `smm` command reads beside its flags: scripts use these instead of a stored profile. */
export const CLIENT_ENVIRONMENT: readonly EnvironmentVariable[] = [
  { name: 'SMM_URL', default: "the profile's", meaning: "the daemon's URL, https://HOST:PORT (also `smm login --url`)" },
  { name: 'SMM_API_KEY', default: "the profile's, from the keychain", meaning: 'the API key to send' },
  { name: 'SMM_CA_FILE', default: "the profile's", meaning: "a PEM file of the certificate (or its CA) to trust for the daemon, such as a self-signed daemon's tls-cert.pem" },
  { name: 'SMM_PROFILE', default: 'default', meaning: 'which saved profile to use (also `--profile`)' },
  { name: 'XDG_CONFIG_HOME', default: '~/.config', meaning: 'profiles live in its smm/ folder: config.json, and credentials.json where there is no keychain' },
  { name: 'SMM_CONFIG_DIR', default: '$XDG_CONFIG_HOME/smm', meaning: "where oclif looks for a theme.json colouring the help (profiles stay in $XDG_CONFIG_HOME/smm)" },
  { name: 'SMM_DISABLE_THEME', default: 'unset', meaning: 'true: ignore a theme.json' },
]

/** The daemon's variables as a paragraph of its `--help`. */
export function environmentHelp(variables: readonly EnvironmentVariable[]): string {
  const plain = (text: string) => text.replaceAll('`', '')
  return ['Besides the variable of each flag, it reads:', ...variables.map((v) => `${v.name}: ${plain(v.meaning)} (default: ${plain(v.default)}).`)].join('\n\n')
}
