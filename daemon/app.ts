import type Koa from 'koa'
import { Application } from './application.js'
import type { AppDeps, State } from './context.js'
import { authenticate } from './middleware/auth.js'
import { jsonBody } from './middleware/body.js'
import { errorRenderer } from './middleware/errors.js'
import { singleHeaders } from './middleware/headers.js'
import { idempotency } from './middleware/idempotency.js'
import { rateLimit } from './middleware/rate-limit.js'
import { requestLog } from './middleware/request-log.js'
import { transportCheck } from './middleware/transport.js'
import { aiRoutes } from './routes/ai.js'
import { analyticsRoutes } from './routes/analytics.js'
import { accountRoutes } from './routes/accounts.js'
import { queueRoutes } from './routes/queue.js'
import { apiKeyRoutes } from './routes/api-keys.js'
import { feedRoutes } from './routes/feeds.js'
import { mediaRoutes } from './routes/media.js'
import { meRoutes } from './routes/me.js'
import { metaRoutes } from './routes/meta.js'
import { oauthCallbackRoute } from './routes/oauth.js'
import { platformRoutes } from './routes/platforms.js'
import { postRoutes } from './routes/posts.js'
import { RouteTable } from './routes/table.js'
import { uploadRoutes } from './routes/uploads.js'
import { webhookRoutes } from './routes/webhooks.js'
import { workspaceRoutes } from './routes/workspaces.js'
import { approvalRoutes } from './routes/approval.js'
import { auditRoutes } from './routes/audit.js'
import { reviewLinkRoutes } from './routes/review-links.js'
import { reviewPageRoutes } from './routes/review-page.js'

/** Every resource's routes, each registering its endpoints of the contract. */
const resources = [metaRoutes, meRoutes, apiKeyRoutes, platformRoutes, accountRoutes, queueRoutes, postRoutes, mediaRoutes, uploadRoutes, feedRoutes, aiRoutes, webhookRoutes, analyticsRoutes, workspaceRoutes, approvalRoutes, auditRoutes, reviewLinkRoutes, reviewPageRoutes, oauthCallbackRoute]

/**
 * Koa's context forwards its accessors to `ctx.request` and `ctx.response` through one function
 * per kind (`this[target][name]`), shared by every name. V8 sees that one property access with
 * dozens of names and objects, and then serves a setter (`ctx.body = …`) only through its
 * runtime: about a tenth of the daemon's own work on GET /v1/me. The accessors every request uses,
 * in our middleware and in Koa's own response, are forwarded by name instead: the same
 * properties, each its own code.
 */
function forwardByName(context: Koa['context']): void {
  Object.defineProperties(context, {
    body: { get() { return this.response.body }, set(value) { this.response.body = value }, configurable: true },
    status: { get() { return this.response.status }, set(value) { this.response.status = value }, configurable: true },
    length: { get() { return this.response.length }, set(value) { this.response.length = value }, configurable: true },
    type: { get() { return this.response.type }, set(value) { this.response.type = value }, configurable: true },
    writable: { get() { return this.response.writable }, configurable: true },
    method: { get() { return this.request.method }, set(value) { this.request.method = value }, configurable: true },
    path: { get() { return this.request.path }, set(value) { this.request.path = value }, configurable: true },
    get: { value(field: string) { return this.request.get(field) }, configurable: true, writable: true },
  })
}

/** Builds the HTTP application from its dependencies. It never listens: `daemon/main.ts` does. */
export function createApp(deps: AppDeps): Koa<State> {
  const app = new Application<State>({ proxy: false })
  // Errors are rendered by our middleware and logged there; Koa's default stderr print is noise.
  app.silent = true
  forwardByName(app.context)

  const table = new RouteTable()
  for (const register of resources) register(table, deps)

  app.use(requestLog(app, deps, (path, method) => table.patternOf(path, method)))
  app.use(errorRenderer(deps))
  app.use(transportCheck(deps))
  app.use(singleHeaders())
  app.use(authenticate(deps))
  app.use(rateLimit(deps))
  // The route and the key's scope before the body: nothing is read for a request refused anyway.
  app.use(table.match())
  app.use(jsonBody())
  app.use(idempotency(deps))
  app.use(table.dispatch())
  return app
}
