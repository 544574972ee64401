import { spawn } from 'node:child_process'
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { startTestDaemon } from './helpers/daemon.js'

const HELPER = fileURLToPath(new URL('./helpers/daemon-process.ts', import.meta.url))
const made: string[] = []
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true })
})
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'smm-files-'))
  made.push(dir)
  return dir
}
const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8)

describe('files only the owner reads', () => {
  it('creates the data dir 0700 and every file in it 0600 (database, WAL, SHM, lock, keys, certificate, backups), whatever the umask', async () => {
    const previous = process.umask(0o000)
    const parent = tempDir()
    const dataDir = join(parent, 'data')
    const t = await startTestDaemon({ dataDir })
    try {
      // A write, so the WAL and its index exist.
      expect((await t.http.post('/v1/api-keys', { name: 'ci' }, { key: t.key })).status).toBe(201)
      const backup = join(parent, 'backup.db')
      await t.daemon.store.backup(backup)
      expect(modeOf(dataDir)).toBe('700')
      const files = readdirSync(dataDir)
      expect(files).toEqual(expect.arrayContaining(['smm.db', 'smm.db-wal', 'smm.db-shm', 'daemon.lock', 'daemon.pid', 'secret.key']))
      // Directories (the media store's) 0700, like the data dir.
      expect(Object.fromEntries(files.map((f) => [f, modeOf(join(dataDir, f))]))).toEqual(Object.fromEntries(files.map((f) => [f, f === 'media' ? '700' : '600'])))
      expect(modeOf(backup)).toBe('600')
    } finally {
      await t.stop()
      process.umask(previous)
    }
  })

  it('tightens a database left readable by an earlier version, and warns when the data dir itself is readable by others', async () => {
    const dataDir = tempDir()
    const first = await startTestDaemon({ dataDir })
    await first.daemon.close()
    chmodSync(dataDir, 0o755)
    chmodSync(join(dataDir, 'smm.db'), 0o644)
    const t = await startTestDaemon({ dataDir })
    try {
      expect(modeOf(join(dataDir, 'smm.db'))).toBe('600')
      const warning = t.logs.map((l) => JSON.parse(l)).find((l) => l.level === 40 && String(l.msg).includes('readable by other users'))
      expect(warning?.msg).toBe(`The data dir ${dataDir} is readable by other users (mode 755); its files are not, but their names and sizes are. Run: chmod 700 ${dataDir}`)
    } finally {
      await t.stop()
    }
  })
})

/** Runs the daemon as its own process as another user (nobody, when the tests run as root). */
function startAsOtherUser(dataDir: string): Promise<{ code: number | null; stderr: string }> {
  const asRoot = process.getuid?.() === 0
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', HELPER, dataDir], {
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
    })
    let stderr = ''
    child.stderr.on('data', (c) => (stderr += c))
    child.stdout.on('data', () => child.kill('SIGTERM'))
    child.on('exit', (code) => resolve({ code, stderr }))
  })
}

describe('errors that name the file and the cause', () => {
  const user = process.getuid?.() === 0 ? 'nobody' : process.env.USER
  it('says which data dir is not writable and by which user', async () => {
    const dataDir = tempDir()
    chmodSync(dataDir, 0o500)
    const { code, stderr } = await startAsOtherUser(dataDir)
    expect(code).not.toBe(0)
    expect(stderr).toContain(`smm cannot write ${dataDir}: it is not writable by user ${user} (uid `)
    expect(stderr).toContain(`or choose another --data-dir`)
  }, 60_000)

  it('says which database file is not writable when the dir is', async () => {
    const dataDir = tempDir()
    chmodSync(dataDir, 0o777)
    writeFileSync(join(dataDir, 'smm.db'), '', { mode: 0o400 })
    const { code, stderr } = await startAsOtherUser(dataDir)
    expect(code).not.toBe(0)
    expect(stderr).toContain(`smm cannot write ${join(dataDir, 'smm.db')}: it is not writable by user ${user} (uid `)
  }, 60_000)
})
