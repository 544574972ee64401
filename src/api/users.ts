import * as v from 'valibot'
import { PLANS, Timestamp } from './common.js'
import { route } from './route.js'

export const Limits = v.object({
  per_minute: v.pipe(v.number(), v.integer()),
  per_hour: v.pipe(v.number(), v.integer()),
  per_day: v.pipe(v.number(), v.integer()),
})
export type Limits = v.InferOutput<typeof Limits>

/** The profile of the user who owns the key. */
export const User = v.pipe(
  v.object({
    id: v.string(),
    name: v.string(),
    email: v.nullable(v.string()),
    plan: v.picklist(PLANS),
    limits: Limits,
    timezone: v.string(),
    created_at: Timestamp,
  }),
  v.title('User'),
)
export type User = v.InferOutput<typeof User>

export const userRoutes = {
  getMe: route({
    method: 'GET',
    path: '/v1/me',
    summary: 'Get the authenticated user profile',
    tag: 'profile',
    scope: 'profile:read',
    status: 200,
    response: User,
  }),
}
