import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const BIN = fileURLToPath(new URL('../../bin/run.js', import.meta.url))

/**
 * Daemons started here and not yet exited. A file whose hook timed out while its daemons started
 * has nothing to stop them with: they outlived the test worker, each running its scheduler
 * against a database server that was gone, and loaded the machine for every later run. They are
 * killed with the worker (vitest ends it with SIGTERM, raised again once they are).
 */
const running = new Set<ChildProcess>()
const killRunning = () => {
  for (const child of running) child.kill('SIGKILL')
}
process.once('exit', killRunning)
process.once('SIGTERM', () => {
  killRunning()
  process.kill(process.pid, 'SIGTERM')
})

/** Starts `smm daemon` as a real process (logging at `warn` unless `args` say otherwise) and resolves once its banner is complete. */
export function startProcess(dataDir: string, args: string[] = [], env: NodeJS.ProcessEnv = process.env): Promise<{ child: ChildProcess; banner: string; url: string }> {
  return new Promise((resolve, reject) => {
    const level = args.includes('--log-level') ? [] : ['--log-level', 'warn']
    const child = spawn(process.execPath, [BIN, 'daemon', '--port', '0', '--data-dir', dataDir, ...level, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env })
    running.add(child)
    child.once('exit', () => running.delete(child))
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
