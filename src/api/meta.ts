import * as v from 'valibot'
import { route } from './route.js'

export const Health = v.pipe(v.object({ status: v.literal('ok'), version: v.string() }), v.title('Health'))
export const Ready = v.pipe(v.object({ status: v.literal('ready'), version: v.string() }), v.title('Ready'))

export const metaRoutes = {
  getHealth: route({
    method: 'GET',
    path: '/healthz',
    summary: 'Liveness check (no authentication)',
    tag: 'meta',
    status: 200,
    response: Health,
  }),
  getReady: route({
    method: 'GET',
    path: '/readyz',
    summary: 'Readiness check (no authentication): the store answers within a second',
    description: 'For a load balancer or an orchestrator: 200 while this daemon can serve, 503 `store_unavailable` naming the cause while its database does not answer. `/healthz` stays a liveness check (200 while the process runs).',
    tag: 'meta',
    status: 200,
    response: Ready,
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
