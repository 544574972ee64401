/** Every kind of event the daemon emits (SPEC §8), shared by the outbox and the API's schemas. */
export const EVENT_TYPES = [
  'post.drafted',
  'post.scheduled',
  'post.updated',
  'post.cancelled',
  'post.published',
  'post.partially_published',
  'post.failed',
  'post.target.published',
  'post.target.failed',
  'post.series_ended',
  'account.updated',
  'account.deleted',
  'account.connected',
  'account.disconnected',
  'account.reauth_required',
  'webhook.test',
] as const
export type EventType = (typeof EVENT_TYPES)[number]
