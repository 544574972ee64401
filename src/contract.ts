import * as v from 'valibot'
import { ApiKey, ApiKeyCreate, ApiKeyWithSecret } from './schemas/api-keys.js'
import { listOf, PageQueryEntries, type Scope } from './schemas/common.js'
import { User } from './schemas/users.js'

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/**
 * One endpoint of the API, declared once: the daemon binds a handler to it and validates with
 * its schemas, the OpenAPI document is generated from it, and the client takes its types from it.
 */
export interface RouteDef {
  method: HttpMethod
  /** OpenAPI-style path: `/v1/posts/{id}`. */
  path: string
  summary: string
  tag: string
  /** The scope a key needs; absent for endpoints open to anyone. */
  scope?: Scope
  params?: v.ObjectSchema<v.ObjectEntries, undefined>
  query?: v.GenericSchema
  body?: v.GenericSchema
  /** The success status, and its body's schema (none for 204). */
  status: number
  response?: v.GenericSchema
  /** Content types other than JSON that the success response may take (feeds, say). */
  produces?: string[]
}

const IdParam = v.object({ id: v.string() })

export const Health = v.pipe(v.object({ status: v.literal('ok'), version: v.string() }), v.title('Health'))

function route<const R extends RouteDef>(def: R): R {
  return def
}

/** Every endpoint, by operation id. */
export const routes = {
  getHealth: route({
    method: 'GET',
    path: '/healthz',
    summary: 'Liveness check (no authentication)',
    tag: 'meta',
    status: 200,
    response: Health,
  }),
  getOpenApi: route({
    method: 'GET',
    path: '/v1/openapi.json',
    summary: 'This OpenAPI 3.1 document (no authentication)',
    tag: 'meta',
    status: 200,
    response: v.record(v.string(), v.unknown()),
  }),
  getMe: route({
    method: 'GET',
    path: '/v1/me',
    summary: 'Get the authenticated user profile',
    tag: 'profile',
    scope: 'profile:read',
    status: 200,
    response: User,
  }),
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
  }),
  revokeApiKey: route({
    method: 'DELETE',
    path: '/v1/api-keys/{id}',
    summary: 'Revoke an API key; requests with it are refused from now on',
    tag: 'api-keys',
    scope: 'keys:write',
    params: IdParam,
    status: 204,
  }),
} satisfies Record<string, RouteDef>

export type Routes = typeof routes
export type OperationId = keyof Routes
