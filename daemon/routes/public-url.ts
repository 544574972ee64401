import ipaddr from 'ipaddr.js'

/**
 * Whether a platform's servers could fetch from this public URL: not a loopback, private,
 * link-local or otherwise local address, nor a name that means this machine. A name that resolves
 * to one is not caught here (nothing is resolved at validation); the platform says so at publish.
 */
export function reachableFromOutside(publicUrl: string): boolean {
  let host: string
  try {
    host = new URL(publicUrl).hostname.replace(/^\[|\]$/g, '')
  } catch {
    return false
  }
  if (host === 'localhost' || host.endsWith('.localhost') || !host.includes('.') && !host.includes(':')) return false
  if (!ipaddr.isValid(host)) return true
  const address = ipaddr.process(host)
  return address.range() === 'unicast'
}
