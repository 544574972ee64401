import ipaddr from 'ipaddr.js'
import type Koa from 'koa'
import { httpsRequired } from '../../src/errors.js'
import type { AppDeps, State } from '../context.js'

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number]

function parseAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  if (!ipaddr.isValid(address)) return undefined
  const parsed = ipaddr.parse(address)
  return parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress() ? (parsed as ipaddr.IPv6).toIPv4Address() : parsed
}

/** Parses `--trusted-proxy` values: CIDRs or single addresses. Throws on a bad one. */
export function parseTrustedProxies(values: string[]): Range[] {
  return values.map((value) => {
    if (value.includes('/')) return ipaddr.parseCIDR(value) as Range
    const address = parseAddress(value)
    if (!address) throw new Error(`--trusted-proxy ${value} is neither an IP address nor a CIDR range`)
    return [address, address.kind() === 'ipv4' ? 32 : 128]
  })
}

function inRanges(address: string | undefined, ranges: Range[]): boolean {
  const parsed = address ? parseAddress(address) : undefined
  return !!parsed && ranges.some(([net, bits]) => net.kind() === parsed.kind() && parsed.match(net, bits))
}

/**
 * Admits a request only if it came over TLS. Behind a TLS-terminating proxy, that means: from a
 * trusted proxy address, which says `X-Forwarded-Proto: https`. It also settles the client's
 * address (the rightmost untrusted hop of `X-Forwarded-For`) for per-address limits.
 */
export function transportCheck(deps: AppDeps): Koa.Middleware<State> {
  const policy = deps.transport
  const ranges = policy.mode === 'proxy' ? parseTrustedProxies(policy.trustedProxies) : []
  // Not async: a check that passes hands on `next()`'s promise instead of wrapping it in another.
  return (ctx, next) => {
    const peer = ctx.req.socket.remoteAddress ?? ''
    ctx.state.clientIp = peer
    if (policy.mode === 'tls') {
      if (!(ctx.req.socket as { encrypted?: boolean }).encrypted) throw httpsRequired()
      return next()
    }
    if (!inRanges(peer, ranges) || ctx.get('X-Forwarded-Proto').toLowerCase() !== 'https') throw httpsRequired()
    const hops = ctx.get('X-Forwarded-For').split(',').map((h) => h.trim()).filter(Boolean)
    while (hops.length > 0 && inRanges(hops[hops.length - 1], ranges)) hops.pop()
    ctx.state.clientIp = hops[hops.length - 1] ?? peer
    return next()
  }
}
