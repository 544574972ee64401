import * as v from 'valibot'
import { distinct, IdParams, listOf, Name, NullableTimestamp, PageQueryEntries, SCOPES, Timestamp, TimestampInput, type Scope } from './common.js'
import { route } from './route.js'

export const ApiKey = v.pipe(
  v.object({
    id: v.string(),
    name: v.string(),
    scopes: v.array(v.picklist(SCOPES)),
    prefix: v.pipe(v.string(), v.description('The first 12 characters of the key, for recognising it')),
    created_at: Timestamp,
    expires_at: NullableTimestamp,
    last_used_at: NullableTimestamp,
    revoked_at: NullableTimestamp,
  }),
  v.title('ApiKey'),
)
export type ApiKey = v.InferOutput<typeof ApiKey>

/** The answer to a key's creation: the only response that ever carries its secret. */
export const ApiKeyWithSecret = v.pipe(
  v.object({
    ...ApiKey.entries,
    secret: v.optional(
      v.pipe(v.string(), v.description('The key itself, in this response only: store it now. Absent when an Idempotency-Key replays the response (it is never stored).')),
    ),
  }),
  v.title('ApiKeyWithSecret'),
)
export type ApiKeyWithSecret = v.InferOutput<typeof ApiKeyWithSecret>
/** A key as it is made: the secret is always there, for the one response that shows it. */
export type NewKeySecret = ApiKey & { secret: string }

export const ApiKeyCreate = v.strictObject({
  name: Name,
  scopes: v.optional(
    v.pipe(
      v.array(v.picklist(SCOPES, `must be one of: ${SCOPES.join(', ')}`)),
      v.minLength(1, 'must name at least one scope, or be left out for all of them'),
      ...distinct<Scope>('must not repeat a scope'),
    ),
  ),
  expires_at: v.optional(v.nullable(TimestampInput)),
})
export type ApiKeyCreate = v.InferOutput<typeof ApiKeyCreate>

export const apiKeyRoutes = {
  listApiKeys: route({
    method: 'GET',
    path: '/v1/api-keys',
    summary: "List the user's API keys (never their secrets)",
    tag: 'api-keys',
    scope: 'keys:write',
    query: v.strictObject({ ...PageQueryEntries }),
    status: 200,
    response: listOf(ApiKey),
  }),
  createApiKey: route({
    method: 'POST',
    path: '/v1/api-keys',
    summary: 'Create an API key; its secret is in this response only',
    tag: 'api-keys',
    scope: 'keys:write',
    body: ApiKeyCreate,
    status: 201,
    response: ApiKeyWithSecret,
    shownOnce: ['secret'],
  }),
  revokeApiKey: route({
    method: 'DELETE',
    path: '/v1/api-keys/{id}',
    summary: 'Revoke an API key; requests with it are refused from now on',
    tag: 'api-keys',
    scope: 'keys:write',
    params: IdParams,
    status: 204,
  }),
}
