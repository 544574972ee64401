import type { SecretBox } from '../secret-box.js'
import type { OAuthStore } from '../store/index.js'
import type { OAuthApp, OAuthPlatform, PlatformName } from './types.js'

/** Where an app's client id and secret came from: the environment wins over what is stored. */
export type AppSource = 'env' | 'stored'

/** One OAuth platform as `smm admin platforms list` shows it: never its secret. */
export interface AppListing {
  name: PlatformName
  configured: boolean
  source: AppSource | null
  client_id: string | null
  redirect_uri: string
}

/** The operator's apps with OAuth platforms, resolved each time (a stored app may change under a running daemon). */
export interface OAuthApps {
  /** The app and endpoints in force for this platform, or undefined when no app is configured. */
  resolve(platform: OAuthPlatform): Promise<OAuthApp | undefined>
  /** `<public-url>/oauth/callback`. */
  redirectUri(): string
}

/** `SMM_PLATFORM_X_CLIENT_ID` for x, and so on. */
export function envName(platform: PlatformName, setting: 'CLIENT_ID' | 'CLIENT_SECRET' | 'AUTHORIZE_URL' | 'TOKEN_URL' | 'API_URL'): string {
  return `SMM_PLATFORM_${platform.toUpperCase()}_${setting}`
}

/** The context a stored client secret is sealed under: it opens only as that platform's. */
export const appSecretContext = (platform: PlatformName) => `oauth-app:${platform}`

/** How the operator sets up an app, in words for a 422 or a page. */
export function notConfiguredDetail(platform: OAuthPlatform): string {
  return (
    `${platform.label} is not set up on this smm: the operator must register an app with ${platform.label} and give smm its client id and secret, ` +
    `as ${envName(platform.name, 'CLIENT_ID')} and ${envName(platform.name, 'CLIENT_SECRET')}, or with \`smm admin platforms set ${platform.name} --client-id … --client-secret …\`.`
  )
}

/** The client id and secret of a platform's app, and where they came from. */
async function credentialsOf(
  name: PlatformName,
  env: NodeJS.ProcessEnv,
  store: OAuthStore,
  secrets: SecretBox,
): Promise<{ clientId: string; clientSecret: string; source: AppSource } | undefined> {
  const clientId = env[envName(name, 'CLIENT_ID')]
  const clientSecret = env[envName(name, 'CLIENT_SECRET')]
  if (clientId && clientSecret) return { clientId, clientSecret, source: 'env' }
  const stored = await store.getApp(name)
  if (!stored) return undefined
  return { clientId: stored.clientId, clientSecret: secrets.open(stored.sealedSecret, appSecretContext(name)) as string, source: 'stored' }
}

export function createOAuthApps(deps: { env: NodeJS.ProcessEnv; store: OAuthStore; secrets: SecretBox; publicUrl: () => string }): OAuthApps {
  const redirectUri = () => `${deps.publicUrl()}/oauth/callback`
  return {
    redirectUri,
    async resolve(platform) {
      const found = await credentialsOf(platform.name, deps.env, deps.store, deps.secrets)
      if (!found) return undefined
      const { endpoints } = platform.oauth
      const override = (setting: 'AUTHORIZE_URL' | 'TOKEN_URL' | 'API_URL') => deps.env[envName(platform.name, setting)] || undefined
      return {
        clientId: found.clientId,
        clientSecret: found.clientSecret,
        authorizeUrl: override('AUTHORIZE_URL') ?? endpoints.authorizeUrl,
        tokenUrl: override('TOKEN_URL') ?? endpoints.tokenUrl,
        apiUrl: (override('API_URL') ?? endpoints.apiUrl).replace(/\/+$/, ''),
        redirectUri: redirectUri(),
      }
    },
  }
}

/** Every OAuth platform name, configured or not, for `smm admin platforms list`. */
export async function listApps(
  names: readonly PlatformName[],
  deps: { env: NodeJS.ProcessEnv; store: OAuthStore; redirectUri: string },
): Promise<AppListing[]> {
  const stored = new Map((await deps.store.listApps()).map((app) => [app.platform, app]))
  return names.map((name) => {
    const fromEnv = deps.env[envName(name, 'CLIENT_ID')] && deps.env[envName(name, 'CLIENT_SECRET')]
    const app = stored.get(name)
    const source: AppSource | null = fromEnv ? 'env' : app ? 'stored' : null
    return {
      name,
      configured: source !== null,
      source,
      client_id: fromEnv ? deps.env[envName(name, 'CLIENT_ID')]! : (app?.clientId ?? null),
      redirect_uri: deps.redirectUri,
    }
  })
}
