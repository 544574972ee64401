import type { Account, Connection } from '../api/accounts.js'
import { details, localTime, paint, table } from './output.js'

function connectionWord(c: Connection): string {
  return c.status === 'active' ? c.platform : `${c.platform} (reconnect)`
}

/** Accounts as an aligned table: what `accounts list` prints. */
export function accountTable(accounts: readonly Account[]): string {
  return table(accounts, [
    { header: 'ID', value: (a) => a.id },
    { header: 'NAME', value: (a) => a.name },
    { header: 'CREATED', value: (a) => localTime(a.created_at) },
    { header: 'PLATFORMS', value: (a) => a.connections.map(connectionWord).join(', ') || '-' },
  ])
}

/**
 * Where the daemon serves an account's feed (the `feed` platform's output): RSS, Atom and JSON
 * Feed, at the daemon URL this CLI talks to. No key is needed to read them.
 */
export function feedUrls(daemonUrl: string, accountId: string): string {
  const base = `${daemonUrl.replace(/\/+$/, '')}/feeds/${accountId}`
  return `${base}.rss (also .atom and .json, and .html to read it in a browser)`
}

/** One account and its connections; `daemonUrl` lets it show where a connected feed is read. */
export function accountDetails(account: Account, daemonUrl?: string): string {
  const head = details([
    ['Account', `${account.name} (${account.id})`],
    ['Created', localTime(account.created_at)],
  ])
  if (account.connections.length === 0) return `${head}\n\nNo platform connected yet.`
  const connections = table(account.connections, [
    { header: 'PLATFORM', value: (c) => c.platform },
    { header: 'HANDLE', value: (c) => c.handle },
    { header: 'NAME', value: (c) => c.display_name },
    { header: 'STATUS', value: (c) => c.status, style: (c) => (c.status === 'active' ? 'green' : 'red') },
    { header: 'CONNECTED', value: (c) => localTime(c.connected_at) },
  ])
  const stale = account.connections.filter((c) => c.status !== 'active')
  const advice = stale.length ? `\n\n${paint('yellow', `Reconnect ${stale.map((c) => c.platform).join(', ')}: the platform refused the stored credentials.`)}` : ''
  const feed = daemonUrl && account.connections.some((c) => c.platform === 'feed') ? `\n\nFeed: ${feedUrls(daemonUrl, account.id)}` : ''
  return `${head}\n\n${connections}${advice}${feed}`
}
