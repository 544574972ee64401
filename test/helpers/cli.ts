import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const BIN = fileURLToPath(new URL('../../bin/run.js', import.meta.url))

export interface CliResult {
  code: number
  stdout: string
  stderr: string
}

/**
 * Runs the real `smm` executable (the built package: `npm test` builds it first) and collects
 * its output and exit code. Never throws for a non-zero exit: tests assert the code.
 */
export function runCli(args: string[], env: Record<string, string> = {}, input?: string): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      [BIN, ...args],
      { env: { ...process.env, NO_COLOR: '1', ...env }, timeout: 30_000 },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') return reject(error)
        resolve({ code: typeof error?.code === 'number' ? error.code : 0, stdout, stderr })
      },
    )
    child.stdin?.end(input)
  })
}
