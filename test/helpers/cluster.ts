import type { ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Store } from '../../daemon/store/index.js'
import { personalWorkspaceId } from '../../src/ids.js'
import { httpsClient, type HttpsClient } from './http.js'
import { exited, startProcess } from './smm-process.js'

/** One `smm daemon` process of a cluster, with its own data dir (certificate, node id) and the JSON lines it logged. */
export interface ClusterNode {
  child: ChildProcess
  dataDir: string
  http: HttpsClient
  banner: string
  logs: string[]
}

/**
 * `count` real `smm daemon` processes on one PostgreSQL database, sharing one secret key, started
 * one after another (the first creates the owner, whose key it prints). Their log lines are read
 * as they come: a pipe left unread would stop a daemon once full.
 */
export async function startCluster(databaseUrl: string, count: number, env: NodeJS.ProcessEnv = {}): Promise<{ nodes: ClusterNode[]; key: string }> {
  // The nodes share one media directory, as they would a mount.
  const media = mkdtempSync(join(tmpdir(), 'smm-shared-media-'))
  const shared = { ...process.env, SMM_DATABASE_URL: databaseUrl, SMM_SECRET_KEY: randomBytes(32).toString('base64'), SMM_MEDIA_STORE: `file://${media}`, ...env }
  const nodes: ClusterNode[] = []
  for (let i = 0; i < count; i++) {
    const dataDir = mkdtempSync(join(tmpdir(), `smm-node${i}-`))
    const { child, banner, url } = await startProcess(dataDir, [], shared)
    const logs: string[] = []
    let partial = ''
    child.stdout!.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString('utf8')).split('\n')
      partial = lines.pop()!
      logs.push(...lines)
    })
    nodes.push({ child, dataDir, banner, logs, http: httpsClient(url, readFileSync(join(dataDir, 'tls-cert.pem'), 'utf8')) })
  }
  const key = /\n {2}(smm_[0-9A-Za-z]{36})\n/.exec(nodes[0]!.banner)![1]!
  return { nodes, key }
}

/** Stops what is still running (waking a stopped one first) and removes the data dirs. */
export async function stopCluster(nodes: readonly ClusterNode[]): Promise<void> {
  for (const node of nodes) {
    node.http.close()
    if (node.child.exitCode === null && node.child.signalCode === null) {
      node.child.kill('SIGCONT')
      node.child.kill('SIGTERM')
      await exited(node.child)
    }
    rmSync(node.dataDir, { recursive: true, force: true })
  }
}

/**
 * Waits, looking four times a second, until `check` holds; fails naming `what` after `timeoutMs`,
 * and what `seen` says the last look found.
 */
export async function until(what: string, check: () => Promise<boolean>, timeoutMs: number, seen?: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${seen ? `; last seen: ${seen()}` : ''}`)
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

/**
 * `count` posts to the feed, due over `spreadMs` from `due`, written straight to the database (the
 * API would take longer than a test should), then one through each node's API, which arms each
 * node's scheduler for the first due time.
 */
export async function seedBurst(store: Store, ownerId: string, key: string, nodes: readonly ClusterNode[], account: string, count: number, due: number, spreadMs: number): Promise<void> {
  for (let i = 0; i < count - nodes.length; i++) {
    await store.posts.create({ userId: ownerId, keyId: null }, { workspaceId: personalWorkspaceId(ownerId), accountId: account, content: `crowd ${i}`, mediaUrls: [], platforms: ['feed'], scheduledAt: due + (i % spreadMs) }, Date.now())
  }
  for (const node of nodes) {
    const res = await node.http.post('/v1/posts', { account_id: account, content: `armed by ${node.dataDir}`, platforms: ['feed'], scheduled_at: new Date(due).toISOString() }, { key })
    if (res.status !== 201) throw new Error(`arming post refused: ${res.status} ${res.text}`)
  }
}
