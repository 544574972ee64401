import * as v from 'valibot'
// The list of platform names is declared once, beside the platform interface; it has no runtime
// dependencies, so the schemas here can share it.
import { IdParams, listOf, Name, PageQueryEntries, PLATFORM_NAMES, Timestamp } from './common.js'
import { route } from './route.js'
import { unknownWorkspace, WorkspaceFilter, WorkspaceIdInput } from './workspaces.js'

export const PlatformName = v.picklist(PLATFORM_NAMES, `must be one of: ${PLATFORM_NAMES.join(', ')}`)

export const CONNECTION_STATUSES = ['active', 'reauth_required', 'pending'] as const

/** An account's link to one platform. Its credentials are never shown. */
export const Connection = v.pipe(
  v.object({
    platform: v.picklist(PLATFORM_NAMES),
    handle: v.string(),
    display_name: v.string(),
    status: v.pipe(
      v.picklist(CONNECTION_STATUSES),
      v.description('reauth_required: the platform refused the credentials; connect again. pending: waiting for the person to approve in their browser (OAuth platforms); handle and display_name are empty until then'),
    ),
    /** For a pending connection: when it was asked for. */
    connected_at: Timestamp,
    expires_at: v.optional(v.pipe(Timestamp, v.description('Pending connections only: when the browser approval lapses'))),
  }),
  v.title('Connection'),
)
export type Connection = v.InferOutput<typeof Connection>

/** A brand or person, with at most one connection per platform. */
export const Account = v.pipe(
  v.object({
    id: v.string(),
    workspace_id: v.pipe(v.string(), v.description('The workspace it belongs to: its members act on it by their role')),
    name: v.string(),
    connections: v.array(Connection),
    created_at: Timestamp,
  }),
  v.title('Account'),
)
export type Account = v.InferOutput<typeof Account>

export const AccountCreate = v.strictObject({
  name: Name,
  workspace_id: WorkspaceIdInput,
})

/** What may change about an account: its name (its connections have their own endpoints). */
export const AccountUpdate = v.strictObject({ name: AccountCreate.entries.name })

export const AccountDeleteQuery = v.strictObject({
  cancel_posts: v.optional(
    v.pipe(v.picklist(['true', 'false'], 'must be true or false'), v.description('true: cancel the account’s scheduled posts and drafts too (each gets post.cancelled); otherwise they make the delete 409')),
  ),
})

export const ConnectionCreate = v.strictObject({
  platform: PlatformName,
  credentials: v.optional(
    v.pipe(v.record(v.string(), v.unknown()), v.description("The platform's credentials (see the platform table); feed and OAuth platforms need none")),
  ),
  options: v.optional(
    v.pipe(
      v.record(v.string(), v.pipe(v.string(), v.maxLength(200, 'must be at most 200 characters'))),
      v.description('OAuth platforms: choices for the connection, e.g. {"page_id": "…"} for the Facebook Page to publish to'),
    ),
  ),
})

/** The answer for an OAuth platform: the person approves in their browser, then the connection is active. */
export const PendingConnection = v.pipe(
  v.object({
    platform: v.picklist(PLATFORM_NAMES),
    status: v.literal('pending'),
    authorize_url: v.pipe(v.string(), v.description('Open this in a browser and approve; the platform sends the person back to <public-url>/oauth/callback')),
    expires_at: v.pipe(Timestamp, v.description('The approval must happen before this (10 minutes)')),
  }),
  v.title('PendingConnection'),
)
export type PendingConnection = v.InferOutput<typeof PendingConnection>

export const accountRoutes = {
  listAccounts: route({
    method: 'GET',
    path: '/v1/accounts',
    summary: 'List the accounts, optionally those connected to one platform',
    tag: 'accounts',
    scope: 'accounts:read',
    query: v.strictObject({ ...PageQueryEntries, platform: v.optional(PlatformName), ...WorkspaceFilter }),
    status: 200,
    response: listOf(Account),
    problems: unknownWorkspace,
  }),
  createAccount: route({
    method: 'POST',
    path: '/v1/accounts',
    summary: 'Create an account (a brand or person) to connect platforms to',
    tag: 'accounts',
    scope: 'accounts:write',
    body: AccountCreate,
    status: 201,
    response: Account,
    problems: unknownWorkspace,
  }),
  getAccount: route({
    method: 'GET',
    path: '/v1/accounts/{id}',
    summary: 'Get an account and its connections',
    tag: 'accounts',
    scope: 'accounts:read',
    params: IdParams,
    status: 200,
    response: Account,
  }),
  updateAccount: route({
    method: 'PATCH',
    path: '/v1/accounts/{id}',
    summary: 'Rename an account (sends account.updated)',
    tag: 'accounts',
    scope: 'accounts:write',
    params: IdParams,
    body: AccountUpdate,
    status: 200,
    response: Account,
  }),
  deleteAccount: route({
    method: 'DELETE',
    path: '/v1/accounts/{id}',
    summary: 'Delete an account, its connections, posts and feed (sends account.deleted); refused while it has scheduled posts unless cancel_posts=true',
    tag: 'accounts',
    scope: 'accounts:write',
    params: IdParams,
    query: AccountDeleteQuery,
    status: 204,
    problems: { 409: 'account_has_scheduled_posts: cancel them or pass cancel_posts=true; account_publishing: a post of it is being published, try again in a moment' },
  }),
  connectAccount: route({
    method: 'POST',
    path: '/v1/accounts/{id}/connections',
    summary: 'Connect a platform (credentials are verified with it, then stored encrypted); replaces an existing connection',
    description:
      'Connect a platform. A platform connected with credentials answers 201 with the connection once the platform accepted them. An OAuth platform (x, linkedin, threads, facebook, instagram) takes no credentials and answers 202 with an `authorize_url` for the person to approve in their browser within 10 minutes; the account lists the connection as `pending` until then, and an existing connection of that platform stays as it is until the approval replaces it. An OAuth platform whose app the operator has not set up is a 422 `platform_not_configured` at #/platform.',
    tag: 'accounts',
    scope: 'accounts:write',
    params: IdParams,
    body: ConnectionCreate,
    status: 201,
    response: Connection,
    alternatives: { 202: { description: 'An OAuth platform: open `authorize_url` and approve', response: PendingConnection } },
    problems: {
      502: '`platform_unavailable`: the platform could not be reached to verify the credentials (nothing was stored)',
    },
  }),
  disconnectAccount: route({
    method: 'DELETE',
    path: '/v1/accounts/{id}/connections/{platform}',
    summary: 'Disconnect a platform and forget its credentials',
    tag: 'accounts',
    scope: 'accounts:write',
    params: v.object({ id: v.string(), platform: PlatformName }),
    status: 204,
  }),
}
