import { Args, Flags } from '@oclif/core'
import { OAUTH_PLATFORM_NAMES } from '../api/common.js'

/** The OAuth platform an `smm admin platforms` command works on. */
export const oauthPlatformArg = Args.string({ description: `The platform: ${OAUTH_PLATFORM_NAMES.join(', ')}`, required: true, options: [...OAUTH_PLATFORM_NAMES] })

/**
 * Where the daemon is reached from outside, for the redirect URI the operator registers: the
 * daemon's own `--public-url` setting, else its default address.
 */
export const publicUrl = Flags.string({
  description: 'The URL the daemon is reached at (as `smm daemon --public-url`); default: https://<SMM_HOST>:<SMM_PORT>',
  env: 'SMM_PUBLIC_URL',
  helpValue: '<url>',
})

/** The redirect URI the daemon sends: `<public-url>/oauth/callback`. */
export function redirectUriFor(url: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  const host = env.SMM_HOST || '127.0.0.1'
  const base = url ?? `https://${host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host}:${env.SMM_PORT || '8443'}`
  return `${base.replace(/\/+$/, '')}/oauth/callback`
}
