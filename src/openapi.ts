import { toJsonSchema } from '@valibot/to-json-schema'
import * as v from 'valibot'
import type { HeaderDoc, RouteDef } from './api/route.js'
import { IdempotencyKey, Problem } from './api/common.js'

type JsonSchema = Record<string, unknown>

function schemaOf(schema: v.GenericSchema, typeMode: 'input' | 'output'): JsonSchema {
  const { $schema: _drop, ...rest } = toJsonSchema(schema, { target: 'draft-2020-12', typeMode, errorMode: 'ignore' }) as JsonSchema
  return rest
}

const problemRef = { $ref: '#/components/schemas/Problem' }
const header = (name: string) => ({ $ref: `#/components/headers/${name}` })

/**
 * The response headers the daemon sends, declared once and referenced by each response. Those
 * `required` are in every response that lists them; the rate-limit fields are absent when the
 * request was refused before its key was known (401), Idempotent-Replayed unless it is a replay.
 */
const HEADERS: Record<string, { description: string; required?: boolean; schema: JsonSchema }> = {
  'X-Request-Id': { description: 'The id of this request, also in the daemon log: quote it when reporting a problem', required: true, schema: { type: 'string' } },
  'X-Content-Type-Options': { description: 'Always `nosniff`: the body is what its Content-Type says', required: true, schema: { type: 'string', enum: ['nosniff'] } },
  'Cache-Control': { description: '`no-store`: no cache may keep the answer (most are one key\'s owner\'s alone)', required: true, schema: { type: 'string', enum: ['no-store'] } },
  RateLimit: { description: 'IETF RateLimit: the quota left in the window closest to its limit, `"name";r=<remaining>;t=<seconds to reset>`', schema: { type: 'string' } },
  'RateLimit-Policy': { description: 'IETF RateLimit-Policy: every window that applies, `"name";q=<limit>;w=<seconds>`', schema: { type: 'string' } },
  'Retry-After': { description: 'Seconds to wait before trying again', required: true, schema: { type: 'integer', minimum: 0 } },
  ETag: { description: "The resource's version, for If-Match", required: true, schema: { type: 'string' } },
  Location: { description: 'The path of the resource just created', required: true, schema: { type: 'string' } },
  'WWW-Authenticate': { description: 'RFC 6750: why the key was refused (`invalid_token`), or the scope it lacks (`insufficient_scope`)', required: true, schema: { type: 'string' } },
  'Idempotent-Replayed': { description: '`true` when this is the stored answer to an earlier request with the same Idempotency-Key', schema: { type: 'string', enum: ['true'] } },
}

/**
 * A response with its headers: X-Request-Id, nosniff and `no-store` always (a success the route
 * lets caches keep says for how long instead), the rate-limit fields on routes that need a key.
 */
function response(def: RouteDef, description: string, extra: string[] = [], content?: JsonSchema, cacheControl?: string, own: Record<string, HeaderDoc> = {}): JsonSchema {
  const names = ['X-Request-Id', 'X-Content-Type-Options', 'Cache-Control', ...(def.scope ? ['RateLimit', 'RateLimit-Policy'] : []), ...extra]
  const headers: Record<string, JsonSchema> = Object.fromEntries(names.map((name) => [name, header(name)]))
  if (cacheControl) headers['Cache-Control'] = { description: 'How long caches may keep the answer', required: true, schema: { type: 'string', enum: [cacheControl] } }
  for (const [name, doc] of Object.entries(own)) headers[name] = headerSchema(doc)
  return { description, headers, ...(content ? { content } : {}) }
}

/** A header a route declares itself, as the document writes one. */
const headerSchema = ({ description, required = false, type = 'string' }: HeaderDoc) => ({
  description,
  required,
  schema: type === 'integer' ? { type: 'integer', minimum: 0 } : { type: 'string' },
})

/** Every POST takes an Idempotency-Key (SPEC §4). */
const idempotent = (def: RouteDef) => def.method === 'POST'

const problemContent = { 'application/problem+json': { schema: problemRef } }

function parameters(def: RouteDef): JsonSchema[] {
  const out: JsonSchema[] = []
  for (const [where, schema] of [['path', def.params], ['query', def.query]] as const) {
    if (!schema) continue
    const json = schemaOf(schema, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] }
    for (const [name, property] of Object.entries(json.properties ?? {})) {
      out.push({ name, in: where, required: where === 'path' || (json.required ?? []).includes(name), schema: property })
    }
  }
  if (idempotent(def)) {
    const { description, ...schema } = schemaOf(IdempotencyKey, 'input')
    out.push({ name: 'Idempotency-Key', in: 'header', required: false, description, schema })
  }
  for (const [name, doc] of Object.entries(def.requestHeaders ?? {})) out.push({ name, in: 'header', ...headerSchema(doc) })
  if (def.ifMatch) {
    out.push({
      name: 'If-Match',
      in: 'header',
      required: false,
      description: 'Apply the change only if the resource still has one of these ETags (or `*`); else 412.',
      schema: { type: 'string' },
    })
  }
  return out
}

/**
 * Every status the operation can answer: its success, the problems every route of its kind
 * shares (derived from what it declares: a body, a key, path parameters, If-Match), and its own.
 */
function responses(def: RouteDef): Record<string, unknown> {
  let content: JsonSchema | undefined
  if (def.response) {
    const schema = schemaOf(def.response, 'output')
    const types = def.produces ?? ['application/json']
    content = Object.fromEntries(types.map((type) => [type, type.endsWith('json') ? { schema } : { schema: { type: 'string' } }]))
  }
  const successHeaders = [...(def.status === 201 && !def.noLocation ? ['Location'] : []), ...(def.etag ? ['ETag'] : []), ...(idempotent(def) ? ['Idempotent-Replayed'] : [])]
  const out: Record<string, unknown> = { [def.status]: response(def, def.summary, successHeaders, content, def.cacheControl, def.responseHeaders) }
  for (const [status, alt] of Object.entries(def.alternatives ?? {})) {
    const altHeaders = idempotent(def) ? ['Idempotent-Replayed'] : []
    out[status] = response(def, alt.description, altHeaders, { 'application/json': { schema: schemaOf(alt.response, 'output') } })
  }
  const problem = (status: number, description: string, headers: string[] = []) => (out[status] = response(def, description, headers, problemContent))
  if (def.body || def.query || def.params || def.method === 'POST') {
    problem(422, `A field is invalid: every invalid field is listed in \`errors\`${idempotent(def) ? '; on POST also `idempotency_key_reused` (the Idempotency-Key came with another request)' : ''}`)
  }
  if (def.rawBody) {
    problem(400, idempotent(def) ? '`invalid_idempotency_key`: the Idempotency-Key is not 1 to 255 printable ASCII characters' : 'The request is malformed')
  } else if (def.body || def.method === 'POST') {
    problem(400, `The body is not valid JSON (or not UTF-8, or nests objects and arrays over 32 deep: \`body_too_deep\`)${idempotent(def) ? '; on POST also `invalid_idempotency_key`' : ''}`)
    problem(413, 'The body is over 1 MiB')
    problem(415, 'The body is not application/json in UTF-8')
  }
  if (def.scope) {
    problem(401, 'Missing, malformed, unknown, expired or revoked API key', ['WWW-Authenticate'])
    problem(403, 'The key lacks the scope this endpoint needs (`insufficient_scope`, with a `WWW-Authenticate` header naming it), or your role in the workspace does not allow this (`forbidden`, naming your role and the one it needs)')
  }
  problem(429, def.scope ? 'A rate limit was exceeded, or too many failed authentications came from this address' : 'Too many failed authentications came from this address', ['Retry-After'])
  if (def.params) problem(404, 'No such resource (or not yours)')
  if (idempotent(def)) problem(409, '`idempotency_key_in_use`: a request with this Idempotency-Key is still being processed')
  if (def.ifMatch) problem(412, '`precondition_failed`: the resource no longer has the ETag sent in If-Match (its current ETag is in the answer)', ['ETag'])
  for (const [status, description] of Object.entries(def.problems ?? {})) {
    // A route's own 409 joins the Idempotency-Key conflict every POST may answer.
    const shared = status === '409' && out[409] ? `${(out[409] as { description: string }).description}; ` : ''
    problem(Number(status), `${shared}${description}`)
  }
  problem(431, 'The request headers are too large (answered by the HTTP server, before the app)')
  problem(500, 'An unexpected error: the daemon logged it under the X-Request-Id')
  problem(503, '`store_unavailable`: the database cannot be reached right now', ['Retry-After'])
  return out
}

/** The operation's description: what it does, and who may call it. */
function describe(def: RouteDef): string {
  const who = def.scope ? `Needs an API key with the \`${def.scope}\` scope.` : 'Open: no API key needed.'
  return [def.description ?? `${def.summary}.`, who].join(' ')
}

const TAG_DESCRIPTIONS: Record<string, string> = {
  meta: 'The daemon itself: health, version, this document',
  profile: 'The caller: its user and the key in use',
  'api-keys': 'API keys and their scopes',
  platforms: 'The platforms this daemon publishes to, how each connects and what a post on it may hold',
  accounts: 'Accounts and their platform connections',
  posts: 'Scheduled posts and their per-platform results',
  webhooks: 'Webhook subscriptions and their deliveries',
  analytics: 'Engagement metrics and rollups',
  workspaces: 'Workspaces, their members and roles: who may do what with the accounts, posts and webhooks in each',
  ai: 'AI drafting',
  feeds: "The built-in feed platform's public RSS, Atom and JSON feeds",
  media: 'Images and videos you upload, and their public URLs',
}

/** The OpenAPI 3.1 document of the API, generated from the same schemas that validate it. */
export function buildOpenApi(routes: Record<string, RouteDef>, version: string): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const [operationId, def] of Object.entries(routes)) {
    const operation: JsonSchema = {
      operationId,
      summary: def.summary,
      description: describe(def),
      tags: [def.tag],
      parameters: parameters(def),
      responses: responses(def),
      // An http bearer scheme takes no scopes in its requirement: the scope is `x-required-scope`.
      security: def.scope ? [{ bearer: [] }] : [],
    }
    if (def.scope) operation['x-required-scope'] = def.scope
    if (def.protocol) operation['x-smm-protocol'] = def.protocol
    if (def.body) {
      operation.requestBody = { required: true, content: { 'application/json': { schema: schemaOf(def.body, 'input') } } }
    }
    if (def.rawBody) {
      const binary = { schema: { type: 'string', contentMediaType: 'application/octet-stream' } }
      operation.requestBody = { required: true, description: def.rawBody.description, content: Object.fromEntries(def.rawBody.types.map((type) => [type, binary])) }
    }
    paths[def.path] = { ...paths[def.path], [def.method.toLowerCase()]: operation }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'smm API',
      version,
      contact: { name: 'smm' },
      license: { name: 'MIT', identifier: 'MIT' },
      description: 'Self-hosted social media management. Errors are RFC 9457 problem+json; lists are cursor-paginated.',
    },
    servers: [{ url: '/' }],
    tags: [...new Set(Object.values(routes).map((def) => def.tag))].map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? `The ${name} endpoints` })),
    paths,
    components: {
      schemas: { Problem: schemaOf(Problem, 'output') },
      headers: HEADERS,
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'An smm API key: smm_…' } },
    },
  }
}
