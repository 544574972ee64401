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
import type { RouteDef } from './api/route.js'
import { userRoutes } from './api/users.js'
import { webhookRoutes } from './api/webhooks.js'
import { workspaceRoutes } from './api/workspaces.js'

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
  ...feedRoutes,
  ...analyticsRoutes,
  ...workspaceRoutes,
} satisfies Record<string, RouteDef>

export type Routes = typeof routes
export type OperationId = keyof Routes
