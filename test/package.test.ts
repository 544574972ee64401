// What `npm pack` (and so `npm publish` and `npm install smm`) puts in the package: the CLI as
// the build wrote it, and nothing the build leaves beside it for other uses.
import { execFileSync } from 'node:child_process'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = resolve(import.meta.dirname, '..')

describe('the npm package', () => {
  it('holds the built CLI and its manifest, and not the single executable, tests or sources', () => {
    const [pack] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8' })) as [{ files: { path: string }[] }]
    const files = pack.files.map((f) => f.path)
    expect(files).toEqual(expect.arrayContaining(['bin/run.js', 'oclif.manifest.json', 'dist/commands/posts/create.js', 'dist/root-help.json', 'man/smm.1', 'package.json', 'README.md']))
    // The single executable (about 100 MB, built by `npm run build:binary` or the binary test)
    // is its own download, and the tests' copies and the TypeScript sources are for this repository.
    expect(files.filter((path) => /^(dist\/bin|dist\/test|src|test|daemon|commands)\//.test(path))).toEqual([])
  })
})
