import { routes } from '../../src/contract.js'
import * as v from 'valibot'
import { PlatformLimits, type PlatformInfo } from '../../src/api/platforms.js'
import type { AppDeps } from '../context.js'
import type { Platform } from '../platforms/types.js'
import { bind, type ApiRouter } from './bind.js'

/** What a client needs to know of a platform module: how to connect it and what a post on it may hold. */
function describe(platform: Platform): PlatformInfo {
  return {
    name: platform.name,
    label: platform.label,
    auth: platform.auth,
    // The field names of the module's credential schema: what the connect call takes.
    credentials: platform.auth === 'credentials' && 'entries' in platform.credentials ? Object.keys(platform.credentials.entries as object) : [],
    // Every field, null or false where the module declared none: clients need not guess at absent ones.
    limits: v.parse(PlatformLimits, platform.limits),
    thread: platform.thread,
    first_comment: platform.firstComment,
    uploads_media: platform.uploadsMedia === true,
  }
}

export function platformRoutes(router: ApiRouter, deps: AppDeps): void {
  bind(router, routes.listPlatforms, async (ctx) => {
    ctx.body = { data: deps.platforms.available().map((name) => describe(deps.platforms.platformFor(name)!)), has_more: false, next_cursor: null }
  })
}
