// `smm --help`, `smm`, `smm help`, `smm version` and `smm --version` are answered without oclif
// (src/cli/fast-path.ts, from dist/root-help.json): a user must see exactly what oclif prints,
// at any terminal width, with or without colour, and the answer must stay off oclif's start cost.
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { cliHome } from './helpers/cli.js'

const root = resolve(import.meta.dirname, '..')
const BIN = join(root, 'bin/run.js')
const home = cliHome()
afterAll(() => home.remove())

/** What oclif itself prints for `args`: its own execute(), from the same build and manifest. */
const OCLIF = (args: string[]) => [
  '--input-type=module',
  '-e',
  `import { execute } from '@oclif/core'; await execute({ dir: ${JSON.stringify(BIN)}, args: ${JSON.stringify(args)} })`,
]

function run(nodeArgs: string[], env: NodeJS.ProcessEnv): string {
  const res = spawnSync(process.execPath, nodeArgs, { cwd: root, env, encoding: 'utf8' })
  expect(res.stderr).toBe('')
  expect(res.status).toBe(0)
  return res.stdout
}

/** The same, on a pseudo-terminal `columns` wide (util-linux `script`): stdout and stderr are TTYs. */
function runInTerminal(nodeArgs: string[], env: NodeJS.ProcessEnv, columns: number): string {
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`
  const line = `stty cols ${columns}; ${[process.execPath, ...nodeArgs].map(quote).join(' ')}`
  const res = spawnSync('script', ['-qefc', line, '/dev/null'], { cwd: root, env, encoding: 'utf8' })
  expect(res.status).toBe(0)
  return res.stdout.replace(/\r\n/g, '\n')
}

describe('the root help without oclif', () => {
  it('prints what oclif prints, at every width, for smm, smm --help and smm help', () => {
    for (const columns of [40, 57, 80, 100, 132, 200]) {
      const env = { ...home.env, OCLIF_COLUMNS: String(columns) }
      const expected = run(OCLIF(['--help']), env)
      expect(expected).toContain('TOPICS')
      for (const args of [['--help'], [], ['help']]) expect(run([BIN, ...args], env), `smm ${args.join(' ')} at ${columns} columns`).toBe(expected)
    }
  })

  it('prints it on a terminal as oclif does: its width, and bold headings where the terminal has colour', () => {
    for (const term of ['xterm-256color', 'dumb']) {
      const env = { ...home.env, TERM: term }
      const expected = runInTerminal(OCLIF(['--help']), env, 70)
      expect(expected.includes('\u001B[1mTOPICS\u001B[22m')).toBe(term !== 'dumb')
      expect(runInTerminal([BIN, '--help'], env, 70)).toBe(expected)
    }
  })

  it('prints the version as `smm version` and `smm --version` do through oclif', () => {
    for (const args of [['version'], ['--version']]) expect(run([BIN, ...args], home.env)).toBe(run(OCLIF(args), home.env))
    expect(run([BIN, 'version'], home.env)).toBe(`smm 0.1.0 (Node.js ${process.version}, ${process.platform}-${process.arch})\n`)
  })

  it('smm help TOPIC and smm help COMMAND print what --help prints (our help command, on the bundled oclif)', () => {
    for (const subject of [['posts'], ['posts', 'create']]) expect(run([BIN, 'help', ...subject], home.env)).toBe(run([BIN, ...subject, '--help'], home.env))
  })

  it('loads no oclif module for them, and leaves every other command (and a themed help) to oclif', () => {
    const trace = mkdtempSync(join(tmpdir(), 'smm-trace-'))
    try {
      const loaded = (args: string[], env: NodeJS.ProcessEnv = home.env) => {
        const out = join(trace, 'modules')
        writeFileSync(out, '')
        run(['--import', join(root, 'bench/module-trace.js'), BIN, ...args], { ...env, SMM_TRACE_MODULES: out })
        return readFileSync(out, 'utf8')
      }
      for (const args of [['--help'], ['version'], ['--version']]) expect(loaded(args)).not.toMatch(/@oclif|dist\/src\/cli\/main\.js/)
      expect(loaded(['version', '--json'])).toMatch(/dist\/src\/cli\/main\.js/)
      expect(loaded(['posts', '--help'])).toMatch(/dist\/src\/cli\/main\.js/)
      // A user's theme colours oclif's help: oclif answers then.
      const themed = { ...home.env, XDG_CONFIG_HOME: trace }
      mkdirSync(join(trace, 'smm'))
      writeFileSync(join(trace, 'smm', 'theme.json'), '{}')
      expect(loaded(['--help'], themed)).toMatch(/dist\/src\/cli\/main\.js/)
    } finally {
      rmSync(trace, { recursive: true, force: true })
    }
  })
})
