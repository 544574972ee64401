import { aiRoutes } from './api/ai.js'
import { analyticsRoutes } from './api/analytics.js'
import { accountRoutes } from './api/accounts.js'
import { apiKeyRoutes } from './api/api-keys.js'
import { feedRoutes } from './api/feeds.js'
import { mediaRoutes } from './api/media.js'
import { metaRoutes } from './api/meta.js'
import { platformRoutes } from './api/platforms.js'
import { postRoutes } from './api/posts.js'
import { queueRoutes } from './api/queue.js'
import { uploadRoutes } from './api/uploads.js'
import type { RouteDef } from './api/route.js'
import { userRoutes } from './api/users.js'
import { webhookRoutes } from './api/webhooks.js'
import { workspaceRoutes } from './api/workspaces.js'
import { approvalRoutes } from './api/approval.js'
import { reviewLinkRoutes } from './api/review-links.js'

export type { HttpMethod, RouteDef } from './api/route.js'

/** Every endpoint of the API, by operation id: one module per resource under `src/api/`. */
export const routes = {
  ...metaRoutes,
  ...userRoutes,
  ...apiKeyRoutes,
  ...aiRoutes,
  ...webhookRoutes,
  ...platformRoutes,
  ...accountRoutes,
  ...queueRoutes,
  ...postRoutes,
  ...mediaRoutes,
  ...uploadRoutes,
  ...feedRoutes,
  ...analyticsRoutes,
  ...workspaceRoutes,
  ...approvalRoutes,
  ...reviewLinkRoutes,
} satisfies Record<string, RouteDef>

export type Routes = typeof routes
export type OperationId = keyof Routes

/** The operations the SDKs and the CLI's client call: all but a protocol's own (tus), which its clients speak. */
export type ClientOperationId = { [K in OperationId]: Routes[K] extends { protocol: string } ? never : K }[OperationId]

/** Whether an operation is one the SDKs call (not a protocol's own, such as tus uploads). */
export const isClientOperation = (operationId: OperationId): operationId is ClientOperationId => (routes[operationId] as RouteDef).protocol === undefined
