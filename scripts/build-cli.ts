// The second half of `npm run build`: the CLI as a few ESM bundles. Starting a command used to
// read some 200 modules (oclif's 165 CommonJS files alone cost ~150 ms on a 2-core machine, in
// resolving, reading and compiling, before any command ran); now it reads bin/run.js, the
// command's own file and the shared chunks it imports.
//
// Every command (commands/**), the entry (src/cli/main.ts), the command_not_found hook and the help class are
// entry points of ONE esbuild build with code splitting, so oclif and our shared modules are
// one copy in dist/chunks/, loaded once whichever command runs. The bundles overwrite tsc's
// output at the same paths (dist/commands/…), so oclif's manifest and package.json's
// "oclif.commands" still find one file per command; tsc's dist/src/ stays as the library
// that package.json "exports".
//
// Only packages that are cheap, pure JS and on every start path are bundled (BUNDLED). The
// rest stay imports of node_modules: native addons (better-sqlite3, @napi-rs/keyring), the
// calendar's Ink and React and chrono-node (loaded lazily, by dynamic import, by the commands
// that need them), and the daemon's server libraries (only `smm daemon` and `smm admin` load
// them). bench/cli-start.ts fails when one of those reaches a start path that must not load it.
import { execFileSync } from 'node:child_process'
import { readdirSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, relative, resolve } from 'node:path'
import { Config, Help, type Command, type Interfaces } from '@oclif/core'
import { build, type Plugin } from 'esbuild'
import { isPlainText, type RootHelpIndex } from '../src/cli/root-help.js'

const root = resolve(dirname(new URL(import.meta.url).pathname), '..')

/** Packages our code imports that go into the bundles; every other package stays external. */
const BUNDLED = new Set(['@oclif/core', 'valibot', 'ulid', 'fastest-levenshtein'])

function packageOf(specifier: string): string {
  const parts = specifier.split('/')
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!
}

const externals: Plugin = {
  name: 'externals',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:')) return { path: args.path, external: true }
      // oclif asks for TypeScript only to run commands from .ts sources (development), in a try.
      if (packageOf(args.path) === 'typescript') return { path: args.path, external: true }
      // A bundled package's own dependencies come with it; our code's imports, only if listed.
      const fromOurCode = !args.importer.includes('/node_modules/')
      if (fromOurCode && !BUNDLED.has(packageOf(args.path))) return { path: args.path, external: true }
      return undefined
    })
  },
}

function commandFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return commandFiles(path)
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : []
  })
}

const started = performance.now()
rmSync(join(root, 'dist/chunks'), { recursive: true, force: true })
const result = await build({
  entryPoints: [join(root, 'src/cli/main.ts'), join(root, 'src/cli/fast-path.ts'), join(root, 'src/cli/command-not-found.ts'), join(root, 'src/cli/help.ts'), ...commandFiles(join(root, 'commands'))],
  absWorkingDir: root,
  outdir: join(root, 'dist'),
  outbase: root,
  entryNames: '[dir]/[name]',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  sourcesContent: false,
  legalComments: 'none',
  // Whitespace and syntax only: class and function names stay, as error messages and oclif show them.
  minifyWhitespace: true,
  minifySyntax: true,
  metafile: true,
  logLevel: 'warning',
  plugins: [externals],
  // oclif is CommonJS: its require() of Node's modules needs a require in each ESM file. Its
  // check of Node against its own package.json's engines would read a file the bundle does not
  // carry (and our package.json's engines says the same thing to npm).
  banner: { js: "import{createRequire as __smmRequire}from'node:module';const require=__smmRequire(import.meta.url);" },
  define: { 'process.env.OCLIF_DISABLE_ENGINE_WARNING': '"1"' },
})

/** oclif's Help, keeping the rows of the root help's lists instead of printing them. */
class RootHelpRows extends Help {
  rows: Record<'topics' | 'commands', [string, string][]> = { topics: [], commands: [] }
  private list: 'topics' | 'commands' = 'topics'

  async capture(): Promise<RootHelpIndex['topics'][]> {
    await this.showRootHelp()
    return [this.rows.topics, this.rows.commands]
  }

  protected override formatTopics(topics: Interfaces.Topic[]): string {
    this.list = 'topics'
    return super.formatTopics(topics)
  }

  protected override formatCommands(commands: Command.Loadable[]): string {
    this.list = 'commands'
    return super.formatCommands(commands)
  }

  override renderList(input: (string | undefined)[][], opts: Parameters<Help['renderList']>[1]): string {
    this.rows[this.list] = input.map(([left, right]) => [left ?? '', right ?? ''])
    return super.renderList(input, opts)
  }

  protected override log(): void {}
}

/**
 * dist/root-help.json: what src/cli/fast-path.ts needs to print the root help without oclif,
 * as oclif's own Help computes it from the manifest (topics, commands, summaries, rendered).
 */
async function writeRootHelpIndex(): Promise<void> {
  process.env.SMM_DISABLE_THEME = '1'
  const config = await Config.load(root)
  const [topics, commands] = await new RootHelpRows(config).capture()
  const description = (config.pjson.oclif.description || config.pjson.description || '').split('\n')
  const index: RootHelpIndex = { bin: config.bin, version: config.version, summary: description[0]!, topics: topics!, commands: commands!, usable: true }
  const texts = [index.bin, index.version, index.summary, ...index.topics.flat(), ...index.commands.flat()]
  // A CLI `state` ("beta", "deprecated") puts a line before the help, which root-help.ts does not write.
  index.usable = description.length === 1 && !config.pjson.oclif.state && texts.every(isPlainText)
  if (!index.usable) process.stderr.write('dist/root-help.json: some help text is not plain one-column text; oclif will print the root help\n')
  writeFileSync(join(root, 'dist/root-help.json'), JSON.stringify(index))
}

// The manifest lists every command with its flags, so that help and dispatch read no command
// file; it is made from the bundles, which are what runs.
const require = createRequire(import.meta.url)
execFileSync(process.execPath, [join(dirname(require.resolve('oclif/package.json')), 'bin/run.js'), 'manifest'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] })
await writeRootHelpIndex()

const outputs = Object.entries(result.metafile.outputs).filter(([file]) => file.endsWith('.js'))
// Which sources each bundle holds: bench/cli-start.ts reads it to name the modules a command
// loaded, since inside a bundle they are no longer files of their own.
const inputs = Object.fromEntries(outputs.map(([file, output]) => [file, Object.keys(output.inputs)]))
writeFileSync(join(root, 'dist/bundle-inputs.json'), JSON.stringify(inputs))
const bytes = outputs.reduce((sum, [, output]) => sum + output.bytes, 0)
process.stdout.write(
  `CLI bundles: ${outputs.length} files, ${(bytes / 1e6).toFixed(1)} MB in ${relative(process.cwd(), join(root, 'dist')) || '.'} (${(performance.now() - started).toFixed(0)} ms)\n`,
)
