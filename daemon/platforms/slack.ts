import * as v from 'valibot'
import type { FieldError } from '../../src/errors.js'
import type { OutboundResponse } from '../egress.js'
import { HttpsUrl } from './credential-schemas.js'
import { excerpt, platformRequest, statusError } from './platform-http.js'
import { countedText } from '../../src/text-length.js'
import { checkLimits, hasMedia, measureDraft } from './limits.js'
import { COMMON_IMAGE_TYPES } from './media.js'
import { PlatformError, type CredentialPlatform, type PlatformContext, type PlatformLimits } from './types.js'

const Credentials = v.strictObject({
  webhook_url: HttpsUrl('an incoming webhook URL, https://hooks.slack.com/services/…'),
})

const LABEL = 'Slack'
// Slack truncates `text` past 40,000 characters and asks for at most 4,000 (longer text is
// split or shown collapsed); we keep to its guidance, counted as the user wrote it (before
// escaping), media links included. Slack documents its limit in characters without saying
// which; UTF-16 units never count fewer. Media are links, as many as the post has.
const LIMITS: PlatformLimits = {
  text: { max: 4_000, count: 'utf16', media_links: true },
  // An incoming webhook cannot upload files: media go as links (their public URLs), which Slack
  // unfurls; there is nowhere for alt text.
  media: {
    max: null,
    image: { types: [...COMMON_IMAGE_TYPES] },
    video: { types: ['video/mp4', 'video/quicktime'] },
    alt_text_max: null,
    send: 'link',
  },
}
// Answers that mean the webhook no longer works: removed, its app uninstalled, its channel gone.
const WEBHOOK_GONE = new Set(['invalid_token', 'no_service', 'no_service_id', 'no_team', 'team_disabled', 'channel_not_found', 'channel_is_archived', 'action_prohibited'])

/** Slack answers a webhook in plain text: `ok`, or an error name such as `no_service`. */
function failure(response: OutboundResponse, ctx: PlatformContext): PlatformError {
  const reason = excerpt(response)
  if (WEBHOOK_GONE.has(reason)) return new PlatformError('auth', 'credentials_rejected', `${LABEL} answered ${response.status}: ${reason}`)
  return statusError(LABEL, response, reason, ctx.clock.now())
}

/** The text as the user wrote it: media go as links on their own lines, which Slack unfurls. */
function textOf(content: string, mediaUrls: string[]): string {
  return countedText(content, mediaUrls, LIMITS.text)
}

/**
 * Slack reads `<…>` in `text` as a link or a mention (`<!channel>`, `<@U123>`) and `&` as the
 * start of an entity, so these three are escaped as its formatting reference says: what was
 * scheduled shows as written and notifies nobody. Other HTML entities must not be encoded.
 */
export function slackEscape(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;')
}

function post(ctx: PlatformContext, url: string, payload: unknown) {
  return platformRequest(ctx, LABEL, url, { method: 'POST', body: JSON.stringify(payload), headers: { 'content-type': 'application/json' } })
}

export const slack: CredentialPlatform = {
  name: 'slack',
  label: 'Slack',
  auth: 'credentials',
  credentials: Credentials,
  // An incoming webhook takes no idempotency key and returns no id: a re-send posts twice.
  idempotencyWindowMs: 0,
  // An incoming webhook answers only "ok", never a message's ts: there is nothing to reply to
  // in a thread (thread_ts), so parts are consecutive messages and a first comment has no home.
  thread: 'consecutive',
  firstComment: null,

  limits: LIMITS,
  // As links: an incoming webhook cannot upload a file.
  uploadsMedia: true,
  measure: (draft) => measureDraft(LIMITS, draft),

  check(draft) {
    const errors: FieldError[] = checkLimits(LIMITS, draft, { label: LABEL })
    if (draft.content.trim() === '' && !hasMedia(draft)) errors.push({ pointer: '#/content', code: 'required', detail: 'must not be empty on Slack' })
    return errors
  },

  async verify(raw, ctx) {
    const { webhook_url } = v.parse(Credentials, raw)
    // A webhook cannot be read, only posted to. An empty payload is refused with `no_text` by
    // a live webhook and with `no_service`/`invalid_token` by a dead one, and posts nothing.
    const response = await post(ctx, webhook_url, {})
    const answer = excerpt(response)
    if (response.status !== 400 || (answer !== 'no_text' && answer !== 'invalid_payload')) throw failure(response, ctx)
    // The path is /services/<team>/<bot>/<secret>: the first two name the webhook, the last is the secret.
    const [team, bot] = new URL(webhook_url).pathname.split('/').filter(Boolean).slice(1, 3)
    const handle = team && bot ? `${team}/${bot}` : new URL(webhook_url).host
    return { handle, display_name: 'Slack incoming webhook', settings: {} }
  },

  async publish(connection, request, ctx) {
    const { webhook_url } = v.parse(Credentials, connection.credentials)
    // Uploaded media go as their public URLs, after the media URLs, each on its own line.
    const links = [...request.mediaUrls, ...(request.media ?? []).map((m) => m.url)]
    const response = await post(ctx, webhook_url, { text: slackEscape(textOf(request.content, links)) })
    if (response.status !== 200) throw failure(response, ctx)
    // Slack answers "ok" and nothing else: there is no message id or permalink to record.
    return { platform_post_id: null, url: null }
  },
}
