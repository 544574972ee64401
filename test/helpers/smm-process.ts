import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const BIN = fileURLToPath(new URL('../../bin/run.js', import.meta.url))

/** Starts `smm daemon` as a real process (logging at `warn` unless `args` say otherwise) and resolves once its banner is complete. */
export function startProcess(dataDir: string, args: string[] = [], env: NodeJS.ProcessEnv = process.env): Promise<{ child: ChildProcess; banner: string; url: string }> {
  return new Promise((resolve, reject) => {
    const level = args.includes('--log-level') ? [] : ['--log-level', 'warn']
    const child = spawn(process.execPath, [BIN, 'daemon', '--port', '0', '--data-dir', dataDir, ...level, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env })
    let stderr = ''
    child.stderr!.on('data', (chunk) => {
      stderr += chunk
      const url = /listening on (https:\/\/\S+)\/v1/.exec(stderr)?.[1]
      if (url && /SHA-256 fingerprint: .+\n/.test(stderr) && (!stderr.includes('First start') || stderr.includes('curl'))) resolve({ child, banner: stderr, url })
    })
    child.on('exit', (code) => reject(new Error(`daemon exited ${code}: ${stderr}`)))
  })
}

export const exited = (child: ChildProcess) => new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
