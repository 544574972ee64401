import * as v from 'valibot'
import { routes } from '../../src/contract.js'
import { ApiError, conflict, invalidField, notFound, validationFailed } from '../../src/errors.js'
import { afterId, toPage } from '../../src/pagination.js'
import { fieldErrors } from '../../src/validate.js'
import { accessOf } from '../access.js'
import type { AppDeps } from '../context.js'
import type { Principal } from '../store/index.js'
import { EgressError } from '../egress.js'
import { PlatformError, type CredentialPlatform, type Verified } from '../platforms/types.js'
import { bind, type ApiRouter } from './bind.js'
import { startOAuthConnect, withPending } from './oauth.js'

/** Asks the platform whether the credentials work; its refusal is the user's 422, its outage our 502. */
async function verifyWithPlatform(deps: AppDeps, platform: CredentialPlatform, credentials: Record<string, unknown>): Promise<Verified> {
  try {
    return await platform.verify(credentials, { http: deps.http, clock: deps.clock, log: deps.log })
  } catch (error) {
    const refused = (detail: string) => validationFailed([{ pointer: '#/credentials', code: 'credentials_rejected', detail }])
    // smm's own egress rules refused the address: that is not the platform judging the credentials.
    if ((error instanceof PlatformError && error.code === 'address_refused') || (error instanceof EgressError && (error.code === 'forbidden_address' || error.code === 'invalid_url'))) {
      throw validationFailed([{ pointer: '#/credentials', code: 'address_refused', detail: `smm refused to connect, so ${platform.name} never saw these credentials: ${error.message}` }])
    }
    if (error instanceof PlatformError && error.kind !== 'transient') throw refused(`${platform.name} refused these credentials: ${error.message}`)
    if (error instanceof EgressError && !error.transient) throw refused(`${platform.name} could not be reached with these credentials: ${error.message}`)
    if (error instanceof PlatformError || error instanceof EgressError) {
      throw new ApiError(502, 'platform_unavailable', `${platform.name} did not answer the credential check (${error.message}); nothing was saved. Try again later.`)
    }
    throw error
  }
}

export function accountRoutes(router: ApiRouter, deps: AppDeps): void {
  const { store, clock } = deps

  /** The account, if the user can see it (404 otherwise) and their role allows managing it (403 otherwise). */
  const managed = (principal: Principal, id: string) =>
    accessOf(principal).find('manage_accounts', (scope) => store.accounts.get(scope, id), (a) => a.workspace_id, () => notFound('account', id))

  bind(router, routes.listAccounts, async (ctx, { query, principal }) => {
    const scope = accessOf(principal).scope(query.workspace_id, 'read')
    const rows = await store.accounts.listPage(scope, query.platform, afterId(query.cursor), query.limit + 1)
    ctx.body = toPage(await withPending(deps, rows), query.limit)
  })

  bind(router, routes.createAccount, async (ctx, { body, principal }) => {
    const workspace = accessOf(principal).workspace(body.workspace_id, 'manage_accounts')
    const account = await store.accounts.create(workspace.workspaceId, principal.user.id, body.name, clock.now())
    ctx.status = 201
    ctx.set('Location', `/v1/accounts/${account.id}`)
    ctx.body = account
  })

  bind(router, routes.getAccount, async (ctx, { params, principal }) => {
    const account = await store.accounts.get(accessOf(principal).where('read'), params.id)
    if (!account) throw notFound('account', params.id)
    ctx.body = (await withPending(deps, [account]))[0]
  })

  bind(router, routes.updateAccount, async (ctx, { params, body, principal }) => {
    const { workspace_id } = await managed(principal, params.id)
    const account = await store.accounts.rename([workspace_id], params.id, body.name, clock.now(), accessOf(principal).actor)
    if (!account) throw notFound('account', params.id)
    ctx.body = (await withPending(deps, [account]))[0]
  })

  bind(router, routes.deleteAccount, async (ctx, { params, query, principal }) => {
    const { workspace_id } = await managed(principal, params.id)
    const result = await store.posts.deleteAccount([workspace_id], params.id, { cancelPosts: query.cancel_posts === 'true' }, clock.now(), accessOf(principal).actor)
    if (result.kind === 'not_found') throw notFound('account', params.id)
    if (result.kind === 'publishing') {
      throw conflict('account_publishing', `A post of account ${params.id} is being published right now; nothing was deleted. Try again in a moment.`, { 'Retry-After': '5' })
    }
    if (result.kind === 'has_scheduled') {
      const posts = result.count === 1 ? '1 scheduled post or draft' : `${result.count} scheduled posts or drafts`
      throw conflict('account_has_scheduled_posts', `Account ${params.id} has ${posts}; nothing was deleted. Cancel them first, or pass cancel_posts=true to cancel them with it.`)
    }
    if (result.cancelled > 0) deps.scheduler.wake()
    ctx.status = 204
  })

  bind(router, routes.connectAccount, async (ctx, { params, body, principal }) => {
    // Valibot's record takes an array as an object (`[]` would pass as no credentials), so the
    // sent value is checked as sent.
    if (Array.isArray((ctx.request.body as { credentials?: unknown }).credentials)) {
      throw invalidField('#/credentials', "must be an object of the platform's credential fields, not an array", 'type')
    }
    const account = await managed(principal, params.id)
    const platform = deps.platforms.platformFor(body.platform)
    if (!platform) {
      throw invalidField('#/platform', `${body.platform} is not available in this smm yet (available: ${deps.platforms.available().join(', ')})`, 'platform_unavailable')
    }
    if (platform.auth === 'oauth2') {
      if (body.credentials !== undefined) {
        throw invalidField('#/credentials', `${platform.label} connects through the browser, not with credentials: send none, then open the authorize_url of the answer and approve there.`, 'oauth_platform')
      }
      ctx.status = 202
      ctx.body = await startOAuthConnect(deps, principal, account, platform, body.options ?? {})
      return
    }
    if (body.options !== undefined) {
      throw invalidField('#/options', `${platform.label} takes no options: they are for platforms connected through the browser.`, 'unexpected')
    }
    const parsed = v.safeParse(platform.credentials, body.credentials ?? {})
    if (!parsed.success) {
      throw validationFailed(fieldErrors(parsed.issues).map((e) => ({ ...e, pointer: e.pointer === '#/' ? '#/credentials' : e.pointer.replace(/^#/, '#/credentials') })))
    }
    const verified = await verifyWithPlatform(deps, platform, parsed.output)
    const connection = await store.accounts.connect(
      [account.workspace_id],
      account.id,
      {
        platform: platform.name,
        handle: verified.handle,
        displayName: verified.display_name,
        sealedCredentials: deps.secrets.seal(verified.credentials ?? parsed.output, `${account.id}:${platform.name}`),
        settings: verified.settings,
      },
      clock.now(),
      accessOf(principal).actor,
    )
    if (!connection) throw notFound('account', params.id)
    ctx.status = 201
    ctx.set('Location', `/v1/accounts/${account.id}`)
    ctx.body = connection
  })

  bind(router, routes.disconnectAccount, async (ctx, { params, principal }) => {
    const account = await managed(principal, params.id)
    if (!(await store.accounts.disconnect([account.workspace_id], account.id, params.platform, clock.now(), accessOf(principal).actor))) {
      throw new ApiError(404, 'not_found', `Account ${account.id} has no ${params.platform} connection.`)
    }
    ctx.status = 204
  })
}
