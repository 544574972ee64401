// `npm run build:binary`: dist/bin/smm-daemon, the daemon as one executable (Node's single
// executable applications): esbuild bundles packaging/single-executable/main.ts and everything it
// imports into one CommonJS script, Node turns it into a blob with better-sqlite3's addon as an
// asset, and postject injects the blob into a copy of this Node binary.
//
// A rebuild whose bundle, assets and Node are unchanged is skipped (the stamp beside the binary).
//
//   --out FILE                where to write it (default dist/bin/smm-daemon)
//   --addon FILE              the better_sqlite3.node to carry, built for this Node's ABI
//                             (default: the one in node_modules)
//   --target PLATFORM-ARCH    what that addon was built for (default: this machine)
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { build, type Plugin } from 'esbuild'
import type { Target } from '../packaging/single-executable/native-addon.js'

const require = createRequire(import.meta.url)
const root = resolve(dirname(new URL(import.meta.url).pathname), '..')
const { values } = parseArgs({
  options: { out: { type: 'string' }, addon: { type: 'string' }, target: { type: 'string' } },
})
const out = resolve(values.out ?? join(root, 'dist/bin/smm-daemon'))
const addon = values.addon ?? join(dirname(require.resolve('better-sqlite3/package.json')), 'build/Release/better_sqlite3.node')
const [platform, arch] = (values.target ?? `${process.platform}-${process.arch}`).split('-')
if (!platform || !arch) throw new Error(`--target must look like linux-x64 (got ${values.target})`)
const target: Target = { platform, arch }

// better-sqlite3 finds its addon with `require('bindings')(name)`: in the binary, the asset.
const bindingsFromAssets: Plugin = {
  name: 'bindings-from-sea-assets',
  setup(b) {
    b.onResolve({ filter: /^bindings$/ }, () => ({ path: 'bindings', namespace: 'sea-bindings' }))
    b.onLoad({ filter: /.*/, namespace: 'sea-bindings' }, () => ({
      contents: `module.exports = require(${JSON.stringify(join(root, 'packaging/single-executable/bundled-addon.ts'))}).bindings`,
      resolveDir: root,
      loader: 'js',
    }))
  },
}

// A single executable runs one CommonJS script with no ESM loader, so `import('node:fs')`
// fails there ("A dynamic import callback was not specified"): such imports become requires.
const builtinsByRequire: Plugin = {
  name: 'dynamic-import-of-builtins',
  setup(b) {
    b.onResolve({ filter: /^node:/ }, (args) => (args.kind === 'dynamic-import' ? { path: args.path, namespace: 'builtin' } : undefined))
    b.onLoad({ filter: /.*/, namespace: 'builtin' }, (args) => ({ contents: `module.exports = require(${JSON.stringify(args.path)})`, loader: 'js' }))
  },
}

const started = performance.now()
const bundled = await build({
  entryPoints: [join(root, 'packaging/single-executable/main.ts')],
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: `node${process.versions.node.split('.')[0]}`,
  minify: true,
  keepNames: true,
  legalComments: 'none',
  write: false,
  logLevel: 'warning',
  plugins: [bindingsFromAssets, builtinsByRequire],
  // Only oclif's support for running commands from .ts sources asks for it, in a try.
  external: ['typescript'],
  // oclif checks Node against its package.json's engines by reading that file at load: the
  // binary's Node is fixed at build time, and there is no file to read.
  // Nothing in the binary is a module file: code that would load one beside it (the SQLite
  // checkpoint thread's driver) finds an empty URL and does without.
  define: { 'process.env.OCLIF_DISABLE_ENGINE_WARNING': '"1"', 'import.meta.url': '""' },
})
const script = bundled.outputFiles[0]!.contents
const assets: Record<string, Uint8Array> = {
  'better_sqlite3.node': readFileSync(addon),
  'target.json': Buffer.from(JSON.stringify(target)),
}

const stamp = createHash('sha256').update(process.version).update(readFileSync(process.execPath)).update(script)
for (const [name, bytes] of Object.entries(assets)) stamp.update(name).update(bytes)
const digest = stamp.digest('hex')
const stampFile = `${out}.stamp`
if (existsSync(out) && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === digest) {
  process.stdout.write(`${out} is up to date (${(performance.now() - started).toFixed(0)} ms)\n`)
  process.exit(0)
}

const work = `${out}.build`
rmSync(work, { recursive: true, force: true })
mkdirSync(work, { recursive: true })
writeFileSync(join(work, 'main.cjs'), script)
const assetFiles: Record<string, string> = {}
for (const [name, bytes] of Object.entries(assets)) writeFileSync((assetFiles[name] = join(work, name)), bytes)
writeFileSync(
  join(work, 'sea-config.json'),
  JSON.stringify({
    main: join(work, 'main.cjs'),
    output: join(work, 'sea.blob'),
    disableExperimentalSEAWarning: true,
    // V8's compiled code goes in too: the daemon starts without parsing its 10 MB script.
    useCodeCache: true,
    assets: assetFiles,
  }),
)
execFileSync(process.execPath, ['--experimental-sea-config', join(work, 'sea-config.json')], { stdio: 'pipe' })
const partial = join(work, 'smm-daemon')
copyFileSync(process.execPath, partial)
chmodSync(partial, 0o755)
// postject's own command, its output kept unless it fails: it warns about every ELF note section
// it does not know, which says nothing about the result.
execFileSync(
  process.execPath,
  [require.resolve('postject/dist/cli.js'), partial, 'NODE_SEA_BLOB', join(work, 'sea.blob'), '--sentinel-fuse', 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2'],
  { stdio: 'pipe' },
)
copyFileSync(partial, out)
const binary = readFileSync(out)
writeFileSync(`${out}.sha256`, `${createHash('sha256').update(binary).digest('hex')}  ${out.split('/').pop()}\n`)
writeFileSync(stampFile, digest)
rmSync(work, { recursive: true, force: true })
process.stdout.write(
  `${out}: ${(binary.length / 1e6).toFixed(1)} MB for ${target.platform}-${target.arch}, script ${(script.length / 1e6).toFixed(1)} MB, built in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
)
