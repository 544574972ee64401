import * as v from 'valibot'
import { MAX_QUEUE_SLOTS, QUEUE_HORIZON_DAYS, slotKey, WEEKDAY_NAMES } from '../queue-slots.js'
import { distinct, IdParams, Timestamp } from './common.js'
import { route } from './route.js'

/** One weekly slot: a day and a wall-clock time in the user's time zone. */
export const QueueSlot = v.pipe(
  v.strictObject({
    day: v.picklist(WEEKDAY_NAMES, `must be one of ${WEEKDAY_NAMES.join(', ')}`),
    time: v.pipe(
      v.string(),
      v.regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be HH:MM on a 24-hour clock, 00:00 to 23:59'),
      v.description('HH:MM, 24-hour, in the user’s time zone (GET /v1/me `timezone`)'),
    ),
  }),
  v.title('QueueSlot'),
)
export type QueueSlot = v.InferOutput<typeof QueueSlot>

/** PUT /v1/accounts/{id}/queue: the slots that replace the account's. */
export const QueueUpdate = v.strictObject({
  slots: v.pipe(
    v.array(QueueSlot),
    v.maxLength(MAX_QUEUE_SLOTS, `must hold at most ${MAX_QUEUE_SLOTS} slots`),
    ...distinct('must not hold the same day and time twice', slotKey),
    v.description(`0 to ${MAX_QUEUE_SLOTS} weekly slots; [] empties the queue`),
  ),
})
export type QueueUpdate = v.InferOutput<typeof QueueUpdate>

/** An account's queue: its weekly slots and the next free times they give. */
export const Queue = v.pipe(
  v.object({
    timezone: v.pipe(v.string(), v.description('The user’s IANA time zone, the one the slots are wall-clock times in')),
    slots: v.pipe(v.array(QueueSlot), v.description('Monday first, then by time')),
    next: v.pipe(
      v.array(Timestamp),
      v.description(`Up to 10 upcoming slot times no scheduled post of the account takes, within ${QUEUE_HORIZON_DAYS} days: where "queue": true posts go, in order`),
    ),
  }),
  v.title('Queue'),
)
export type Queue = v.InferOutput<typeof Queue>

export const queueRoutes = {
  getQueue: route({
    method: 'GET',
    path: '/v1/accounts/{id}/queue',
    summary: 'Get an account’s weekly queue slots and its next free slot times',
    tag: 'accounts',
    scope: 'accounts:read',
    params: IdParams,
    status: 200,
    response: Queue,
  }),
  setQueue: route({
    method: 'PUT',
    path: '/v1/accounts/{id}/queue',
    summary: 'Replace an account’s weekly queue slots (wall-clock times in the user’s time zone)',
    description:
      'Slots are a day and an HH:MM time in the user’s time zone, so a 09:00 slot stays at 09:00 across daylight saving time. A time a spring-forward day skips is taken at the first instant after the gap (02:30 on such a day in New York is 03:00 EDT); a time a fall-back day has twice, at its first occurrence. Posts created with `"queue": true` take the next slot no scheduled post of the account sits on. Posts already scheduled keep their times.',
    tag: 'accounts',
    scope: 'accounts:write',
    params: IdParams,
    body: QueueUpdate,
    status: 200,
    response: Queue,
  }),
}
