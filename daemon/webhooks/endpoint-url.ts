import { lookup } from 'node:dns/promises'
import net from 'node:net'
import { isPublicAddress } from '../egress.js'

const LOOKUP_TIMEOUT_MS = 5_000

/**
 * Why a webhook URL is refused, or undefined if it may be registered: https, no credentials,
 * and (unless the operator allows private networks) a host that is, or resolves only to,
 * public addresses. Delivery checks the address it connects to again (DNS can change).
 */
export async function endpointUrlProblem(raw: string, allowPrivateNetwork: boolean): Promise<string | undefined> {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return 'must be an absolute https:// URL'
  }
  if (url.protocol !== 'https:') return 'must be an https:// URL: deliveries are never sent in clear'
  if (url.username || url.password) return 'must not contain credentials (user:password@): deliveries are signed, so the receiver can check them without any'
  if (allowPrivateNetwork) return undefined
  const host = url.hostname.replace(/^\[|\]$/g, '')
  const privateHint = 'a private, loopback or otherwise non-public address; smm does not deliver there unless the daemon runs with --allow-private-network'
  if (net.isIP(host)) return isPublicAddress(host) ? undefined : `${host} is ${privateHint}`
  let addresses: string[]
  try {
    let timer: NodeJS.Timeout | undefined
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${LOOKUP_TIMEOUT_MS / 1000} s`)), LOOKUP_TIMEOUT_MS)
    })
    addresses = (await Promise.race([lookup(host, { all: true }), timeout]).finally(() => clearTimeout(timer))).map((a) => a.address)
  } catch (error) {
    return `its host ${host} could not be resolved (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); check its spelling`
  }
  const refused = addresses.find((address) => !isPublicAddress(address))
  return refused ? `its host ${host} resolves to ${refused}, ${privateHint}` : undefined
}
