import { execFileSync } from 'node:child_process'
import { readdirSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'

const root = resolve(import.meta.dirname, '..')

function newest(dir: string): number {
  let latest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs)
  }
  return latest
}

function mtime(file: string): number {
  try {
    return statSync(file).mtimeMs
  } catch {
    return 0 // never built
  }
}

/**
 * The CLI tests run the real executable, which runs the compiled commands and the oclif
 * manifest: build them first whenever a source file is newer than the last build.
 */
export default function setup(): void {
  const built = mtime(join(root, 'oclif.manifest.json'))
  const sources = Math.max(...['src', 'commands', 'daemon', 'package.json'].map((p) => (p.includes('.') ? mtime(join(root, p)) : newest(join(root, p)))))
  if (sources > built) execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' })
}
