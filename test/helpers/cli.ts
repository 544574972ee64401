import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const root = resolve(import.meta.dirname, '../..')

export interface CliResult {
  code: number | null
  stdout: string
  stderr: string
}

/**
 * A home of its own for the CLI under test: config, data and runtime dirs in a temp dir, no
 * D-Bus session (so no Secret Service unless a test starts one), so that tests never read or
 * write the keychain and settings of whoever runs them.
 */
export function cliHome(): { dir: string; env: NodeJS.ProcessEnv; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'smm-cli-'))
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: dir,
    XDG_CONFIG_HOME: join(dir, 'config'),
    XDG_DATA_HOME: join(dir, 'data'),
    XDG_CACHE_HOME: join(dir, 'cache'),
    XDG_RUNTIME_DIR: dir,
    TZ: 'UTC',
    LANG: 'C.UTF-8',
  }
  return { dir, env, remove: () => rmSync(dir, { recursive: true, force: true }) }
}

/**
 * A CLI home whose environment points at a test daemon the way a script would: `SMM_URL`,
 * `SMM_API_KEY`, and the daemon's certificate written out for `SMM_CA_FILE`.
 */
export function cliHomeFor(daemon: { url: string; key: string; ca: string }): ReturnType<typeof cliHome> {
  const home = cliHome()
  const ca = join(home.dir, 'daemon-ca.pem')
  writeFileSync(ca, daemon.ca)
  home.env = { ...home.env, SMM_URL: daemon.url, SMM_API_KEY: daemon.key, SMM_CA_FILE: ca }
  return home
}

/**
 * Runs the real `smm` executable (bin/run.js, the built commands and the oclif manifest) with
 * the given environment and standard input, as a user's shell would.
 */
export function runCli(args: string[], options: { env: NodeJS.ProcessEnv; input?: string; wrap?: string[] }): Promise<CliResult> {
  const command = [...(options.wrap ?? []), process.execPath, join(root, 'bin/run.js'), ...args]
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command[0]!, command.slice(1), { cwd: root, env: options.env, stdio: ['pipe', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
    child.on('error', reject)
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }))
    child.stdin.end(options.input ?? '')
  })
}

/**
 * Runs `smm` on a pseudo-terminal (util-linux `script`), answering each prompt when it appears:
 * what a person at a terminal sees and types, hidden input included.
 */
export function runInTerminal(args: string[], options: { env: NodeJS.ProcessEnv; dialogue: [prompt: string, answer: string][] }): Promise<CliResult> {
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`
  const line = [process.execPath, join(root, 'bin/run.js'), ...args].map(quote).join(' ')
  return new Promise((resolvePromise, reject) => {
    const child = spawn('script', ['-qefc', line, '/dev/null'], { cwd: root, env: { ...options.env, TERM: 'dumb' }, stdio: ['pipe', 'pipe', 'pipe'] })
    const pending = [...options.dialogue]
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8')
      while (pending.length && stdout.includes(pending[0]![0])) child.stdin.write(pending.shift()![1])
    })
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
    child.on('error', reject)
    child.on('close', (code) => resolvePromise({ code, stdout: stdout.replace(/\r+\n/g, '\n'), stderr }))
  })
}
