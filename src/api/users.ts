import * as v from 'valibot'
import { Name, PLANS, Timestamp } from './common.js'
import { canonicalTimeZone, TIME_ZONE_HINT } from '../zoned-time.js'
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

/** An IANA time zone name, stored as the tz database spells it. */
export const TimeZoneName = v.pipe(
  v.string(),
  // The shape of every tz database name (and of no empty text), which the document can state;
  // whether the zone exists is the tz database's to say.
  v.regex(/^[A-Za-z][\w+-]*(?:\/[\w+-]+)*$/, TIME_ZONE_HINT),
  v.check((name) => canonicalTimeZone(name) !== undefined, TIME_ZONE_HINT),
  v.description('IANA time zone, e.g. Europe/Berlin; the zone analytics days and the CLI and calendar times follow'),
  v.transform((name) => canonicalTimeZone(name)!),
)

/** What a user may change about themselves; the plan and limits are the operator's. */
export const UserUpdate = v.strictObject({
  name: v.optional(Name),
  timezone: v.optional(TimeZoneName),
})
export type UserUpdate = v.InferOutput<typeof UserUpdate>

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
  updateMe: route({
    method: 'PATCH',
    path: '/v1/me',
    summary: 'Change your own name or time zone',
    tag: 'profile',
    scope: 'profile:write',
    body: UserUpdate,
    status: 200,
    response: User,
  }),
}
