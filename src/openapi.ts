import { toJsonSchema } from '@valibot/to-json-schema'
import * as v from 'valibot'
import type { RouteDef } from './api/route.js'
import { Problem } from './api/common.js'

type JsonSchema = Record<string, unknown>

function schemaOf(schema: v.GenericSchema, typeMode: 'input' | 'output'): JsonSchema {
  const { $schema: _drop, ...rest } = toJsonSchema(schema, { target: 'draft-2020-12', typeMode, errorMode: 'ignore' }) as JsonSchema
  return rest
}

const problemRef = { $ref: '#/components/schemas/Problem' }
const problemResponse = (description: string) => ({ description, content: { 'application/problem+json': { schema: problemRef } } })

function parameters(def: RouteDef): JsonSchema[] {
  const out: JsonSchema[] = []
  for (const [where, schema] of [['path', def.params], ['query', def.query]] as const) {
    if (!schema) continue
    const json = schemaOf(schema, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] }
    for (const [name, property] of Object.entries(json.properties ?? {})) {
      out.push({ name, in: where, required: where === 'path' || (json.required ?? []).includes(name), schema: property })
    }
  }
  if (def.method === 'POST') {
    out.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description: 'Makes the request safe to retry: the first response is replayed for 24 h.',
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    })
  }
  return out
}

function responses(def: RouteDef): Record<string, unknown> {
  const success: JsonSchema = { description: def.summary }
  if (def.response) {
    const schema = schemaOf(def.response, 'output')
    const types = def.produces ?? ['application/json']
    success.content = Object.fromEntries(types.map((type) => [type, type.endsWith('json') ? { schema } : { schema: { type: 'string' } }]))
  }
  const out: Record<string, unknown> = { [def.status]: success }
  if (def.body || def.query || def.params) out['422'] = problemResponse('A field is invalid: every invalid field is listed in `errors`')
  if (def.body) {
    out['400'] = problemResponse('The body is not valid JSON')
    out['413'] = problemResponse('The body is over 1 MiB')
    out['415'] = problemResponse('The body is not application/json')
  }
  if (def.scope) {
    out['401'] = problemResponse('Missing, malformed, unknown, expired or revoked API key')
    out['403'] = problemResponse('The key lacks the scope this endpoint needs')
    out['429'] = problemResponse('A rate limit was exceeded; see Retry-After')
  }
  if (def.params) out['404'] = problemResponse('No such resource (or not yours)')
  for (const [status, description] of Object.entries(def.problems ?? {})) out[status] = problemResponse(description)
  return out
}

/** The OpenAPI 3.1 document of the API, generated from the same schemas that validate it. */
export function buildOpenApi(routes: Record<string, RouteDef>, version: string): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const [operationId, def] of Object.entries(routes)) {
    const operation: JsonSchema = {
      operationId,
      summary: def.summary,
      tags: [def.tag],
      parameters: parameters(def),
      responses: responses(def),
      security: def.scope ? [{ bearer: [def.scope] }] : [],
    }
    if (def.scope) operation['x-required-scope'] = def.scope
    if (def.body) {
      operation.requestBody = { required: true, content: { 'application/json': { schema: schemaOf(def.body, 'input') } } }
    }
    paths[def.path] = { ...paths[def.path], [def.method.toLowerCase()]: operation }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'smm API',
      version,
      description: 'Self-hosted social media management. Errors are RFC 9457 problem+json; lists are cursor-paginated.',
    },
    servers: [{ url: '/' }],
    paths,
    components: {
      schemas: { Problem: schemaOf(Problem, 'output') },
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'An smm API key: smm_…' } },
    },
  }
}
