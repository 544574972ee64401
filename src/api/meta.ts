import * as v from 'valibot'
import { route } from './route.js'

export const Health = v.pipe(v.object({ status: v.literal('ok'), version: v.string() }), v.title('Health'))

export const metaRoutes = {
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
}
