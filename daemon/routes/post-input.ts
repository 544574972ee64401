import * as v from 'valibot'
import { bulkOf, PostCreate, PostSchedule, PostUpdate, type MediaRef, type Overrides, type PlatformOverride, type Post, type RepeatInput, type TargetMeasure, type ThreadPart } from '../../src/api/posts.js'
import type { Media } from '../../src/api/media.js'
import { mediaIdsOf, partsOf, versionFor } from '../../src/post-parts.js'
import { lastOccurrence } from '../../src/recurrence.js'
import { toIso } from '../../src/time.js'
import { ApiError, validationFailed, type FieldError } from '../../src/errors.js'
import { nextFreeSlot, QUEUE_HORIZON_MS } from '../../src/queue-slots.js'
import { fieldErrors, parseInput } from '../../src/validate.js'
import type { Access } from '../access.js'
import type { AppDeps } from '../context.js'
import type { DraftMedia, Platform, PlatformName } from '../platforms/types.js'
import { altTextNotSent } from '../platforms/limits.js'
import { reachableFromOutside } from './public-url.js'
import { QueueRefusedError, type NewPost, type NewRepeat, type PostChanges, type ScheduleAt } from '../store/index.js'
import type { Account } from '../../src/api/accounts.js'

/** How far in the past `scheduled_at` may be: a little, for clocks and slow networks; more is a mistake. */
export const PAST_GRACE_MS = 5 * 60_000

type Entries = Record<string, v.GenericSchema>

/**
 * Parses a body field by field, so that every schema error is found and the fields that are
 * valid can still be checked against the account and the platforms: one 422 lists everything.
 */
function parseFields<S extends v.ObjectSchema<Entries, undefined> | v.StrictObjectSchema<Entries, undefined>>(
  schema: S,
  raw: unknown,
): { values: Partial<v.InferOutput<S>>; given: Set<string>; errors: FieldError[] } {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) parseInput(schema, raw)
  const body = raw as Record<string, unknown>
  const whole = v.safeParse(schema, body)
  const errors = whole.success ? [] : fieldErrors(whole.issues)
  const values: Record<string, unknown> = {}
  for (const [key, entry] of Object.entries(schema.entries)) {
    if (!(key in body)) continue
    const one = v.safeParse(entry, body[key])
    if (one.success) values[key] = one.output
  }
  return { values: values as Partial<v.InferOutput<S>>, given: new Set(Object.keys(body)), errors }
}

interface Draft {
  accountId: string | undefined
  content: string | undefined
  mediaUrls: string[] | undefined
  /** Uploaded media as named; undefined when the field itself was invalid. */
  media: MediaRef[] | undefined
  platforms: PlatformName[] | undefined
  scheduledAt: number | undefined
  thread: ThreadPart[]
  firstComment: string | null
  overrides: Overrides
}

/** `#/content…`, `#/media_urls…` and `#/media…` of a platform's check, moved to where they came from. */
function rebase(errors: FieldError[], at: { content: string; media: string; uploads: string }): FieldError[] {
  return errors.map((e) => {
    if (e.pointer.startsWith('#/content')) return { ...e, pointer: at.content + e.pointer.slice('#/content'.length) }
    if (e.pointer.startsWith('#/media_urls')) return { ...e, pointer: at.media + e.pointer.slice('#/media_urls'.length) }
    if (e.pointer === '#/media' || e.pointer.startsWith('#/media/')) return { ...e, pointer: at.uploads + e.pointer.slice('#/media'.length) }
    return e
  })
}

const blank = (part: { content?: string; media_urls?: string[]; media?: MediaRef[] }) =>
  (part.content ?? '').trim() === '' && (part.media_urls ?? []).length === 0 && (part.media ?? []).length === 0

/** Where each uploaded media a post names is named: its pointer and id, for errors about an id. */
function mediaPlaces(draft: Pick<Draft, 'media' | 'thread' | 'overrides'>): { pointer: string; id: string }[] {
  const places: { pointer: string; id: string }[] = []
  const add = (refs: MediaRef[] | undefined, base: string) => refs?.forEach((ref, i) => places.push({ pointer: `${base}/${i}`, id: ref.id }))
  const addThread = (thread: ThreadPart[] | undefined, base: string) => thread?.forEach((part, j) => add(part.media, `${base}/${j}/media`))
  add(draft.media, '#/media')
  addThread(draft.thread, '#/thread')
  for (const [name, override] of Object.entries(draft.overrides)) {
    add(override?.media, `#/overrides/${name}/media`)
    addThread(override?.thread, `#/overrides/${name}/thread`)
  }
  return places
}

/** The user's media that a post names, by id; each id that is not one is an error where it is named (never 403: another user's media is not revealed). */
async function resolveMedia(deps: AppDeps, userId: string, draft: Pick<Draft, 'media' | 'thread' | 'overrides'>): Promise<{ media: Map<string, Media>; errors: FieldError[] }> {
  const ids = mediaIdsOf({ media: draft.media, thread: draft.thread, overrides: draft.overrides })
  const media = new Map((ids.length ? await deps.store.media.getMany(userId, ids) : []).map((m) => [m.id, m]))
  const errors = mediaPlaces(draft)
    .filter((place) => !media.has(place.id))
    .map((place) => ({ pointer: place.pointer, code: 'not_found', detail: `${place.id} is not one of your media: upload the file with POST /v1/media (or smm media upload) and use the id it answers` }))
  return { media, errors }
}

/** Named media as a platform's rules see them, the post's alt text winning over the media's own. */
const draftMedia = (refs: MediaRef[], media: ReadonlyMap<string, Media>): DraftMedia[] =>
  refs.flatMap((ref) => {
    const m = media.get(ref.id)
    return m ? [{ content_type: m.content_type, bytes: m.bytes, width: m.width, height: m.height, duration_ms: m.duration_ms, alt_text: ref.alt_text ?? m.alt_text }] : []
  })

/**
 * Whether this platform can be given uploaded media at all from here: its module must send them
 * (point by point, platforms learn to), and a platform that fetches them by URL must be able to
 * reach the daemon's public URL. Errors at `pointer`, the list that holds them.
 */
function deliveryChecks(deps: AppDeps, platform: Platform, pointer: string): FieldError[] {
  const errors: FieldError[] = []
  const name = platform.name
  if (platform.limits.media.send === 'url' && !reachableFromOutside(deps.publicUrl())) {
    errors.push({
      pointer,
      code: 'media_url_not_public',
      detail: `${platform.label} fetches media from their URL, and this daemon's public URL (${deps.publicUrl()}) cannot be reached from the internet: start the daemon with --public-url set to an https address the internet reaches (behind a proxy, say)`,
    })
  }
  if (!platform.uploadsMedia) {
    errors.push({
      pointer,
      code: 'media_not_supported',
      detail: `${platform.label} cannot be sent uploaded media by this smm yet: give the media to ${name} as media_urls (https URLs of your own host), or leave them out for ${name} with "overrides": {"${name}": {"media": []}}`,
    })
  }
  return errors
}

/** The rules that hold whatever the platforms: every thread part and first comment says something, every override is for a target. */
function shapeChecks(draft: Draft): FieldError[] {
  const errors: FieldError[] = []
  const threadBlanks = (thread: ThreadPart[], base: string) =>
    thread.forEach((part, i) => {
      if (blank(part)) errors.push({ pointer: `${base}/${i}/content`, code: 'required', detail: 'is required (and not blank) unless the part has media: a thread part must say something' })
    })
  const commentBlank = (comment: string | null | undefined, pointer: string) => {
    if (typeof comment === 'string' && comment.trim() === '') errors.push({ pointer, code: 'required', detail: 'must not be blank; leave it out (or null) for no first comment' })
  }
  threadBlanks(draft.thread, '#/thread')
  commentBlank(draft.firstComment, '#/first_comment')
  for (const [name, override] of Object.entries(draft.overrides) as [PlatformName, PlatformOverride | undefined][]) {
    if (!override) continue
    if (draft.platforms && !draft.platforms.includes(name)) {
      errors.push({ pointer: `#/overrides/${name}`, code: 'not_targeted', detail: `${name} is not one of this post's platforms (${draft.platforms.join(', ')}): add it to platforms, or remove this override` })
    }
    if (override.thread) threadBlanks(override.thread, `#/overrides/${name}/thread`)
    commentBlank(override.first_comment, `#/overrides/${name}/first_comment`)
  }
  return errors
}

/**
 * One target's version of the post (its override applied) against its platform's rules, each
 * error pointing where the offending text came from (`#/overrides/x/content`, `#/thread/2/content`,
 * `#/first_comment`); and each part measured the platform's way.
 */
function versionChecks(
  deps: AppDeps,
  platform: Platform,
  settings: Record<string, unknown>,
  draft: Draft & { content: string; mediaUrls: string[] },
  media: ReadonlyMap<string, Media>,
): { errors: FieldError[]; measure: TargetMeasure } {
  const name = platform.name
  const override = draft.overrides[name] ?? {}
  const version = versionFor({ content: draft.content, media_urls: draft.mediaUrls, media: draft.media ?? [], thread: draft.thread, first_comment: draft.firstComment, overrides: draft.overrides }, name)
  const from = (field: keyof PlatformOverride) => (override[field] !== undefined ? `#/overrides/${name}/${field}` : `#/${field}`)
  const post = { content: version.content, media_urls: version.mediaUrls, media: draftMedia(version.media, media) }
  const errors = rebase(platform.check(post, settings), { content: from('content'), media: from('media_urls'), uploads: from('media') })
  // Alt text the platform has no place for: said, though the post is valid (it goes out without it).
  const warnings = rebase(altTextNotSent(platform.limits, post.media, platform.label), { content: from('content'), media: from('media_urls'), uploads: from('media') })
  if (version.media.length) errors.push(...deliveryChecks(deps, platform, from('media')))
  // An override may blank what the post had; a platform whose own check has no such rule (the feed) still needs something to say.
  const said = errors.some((e) => e.pointer === from('content') && e.code === 'required')
  if ((override.content !== undefined || override.media_urls !== undefined || override.media !== undefined) && blank({ ...post, media: version.media }) && !said) {
    errors.push({ pointer: from('content'), code: 'required', detail: `is required (and not blank) on ${platform.label} unless the post has media` })
  }
  const parts: TargetMeasure['parts'] = []
  for (const part of partsOf(version).slice(1)) {
    const draftPart = { content: part.content, media_urls: part.mediaUrls, media: draftMedia(part.media, media) }
    if (part.kind === 'first_comment') {
      const pointer = from('first_comment')
      if (platform.firstComment === null) {
        errors.push({
          pointer,
          code: 'not_supported',
          detail: `${platform.label} (${name}) has no replies or comments to hold a first comment; leave it out for ${name} with "overrides": {"${name}": {"first_comment": null}}`,
        })
        continue
      }
      // A comment is text under the post: the platform's text rules apply, not its media ones.
      if (part.content.trim() !== '') errors.push(...rebase(platform.check(draftPart, settings).filter((e) => e.pointer.startsWith('#/content')), { content: pointer, media: pointer, uploads: pointer }))
    } else {
      const at = `${from('thread')}/${part.index - (version.firstComment === null ? 1 : 2)}`
      if (!blank({ ...draftPart, media: part.media })) errors.push(...rebase(platform.check(draftPart, settings), { content: `${at}/content`, media: `${at}/media_urls`, uploads: `${at}/media` }))
      warnings.push(...rebase(altTextNotSent(platform.limits, draftPart.media, platform.label), { content: `${at}/content`, media: `${at}/media_urls`, uploads: `${at}/media` }))
      if (part.media.length) errors.push(...deliveryChecks(deps, platform, `${at}/media`))
    }
    parts.push({ index: part.index, kind: part.kind === 'first_comment' ? 'first_comment' : 'thread', ...platform.measure(draftPart, settings) })
  }
  return { errors, measure: { platform: name, ...platform.measure(post, settings), parts, warnings } }
}

/**
 * The checks that need the store, the clock and the platforms, on whichever fields parsed; and,
 * for each platform the post can go to, its text measured the way that platform counts it.
 */
async function contextChecks(deps: AppDeps, access: Access, draft: Draft, checkTime: boolean): Promise<{ errors: FieldError[]; targets: TargetMeasure[]; account?: Account }> {
  const errors: FieldError[] = []
  const targets: TargetMeasure[] = []
  const { content, mediaUrls, platforms, accountId } = draft
  if (content !== undefined && mediaUrls !== undefined && draft.media !== undefined && content.trim() === '' && mediaUrls.length === 0 && draft.media.length === 0) {
    errors.push({ pointer: '#/content', code: 'required', detail: 'is required (and not blank) unless the post has media' })
  }
  errors.push(...shapeChecks(draft))
  const resolved = await resolveMedia(deps, access.userId, draft)
  errors.push(...resolved.errors)
  if (checkTime && draft.scheduledAt !== undefined && draft.scheduledAt < deps.clock.now() - PAST_GRACE_MS) {
    errors.push({ pointer: '#/scheduled_at', code: 'in_the_past', detail: 'is more than 5 minutes in the past; leave it out to publish now' })
  }
  const account = accountId === undefined ? undefined : await deps.store.accounts.get(access.where('read'), accountId)
  if (accountId !== undefined && !account) {
    errors.push({ pointer: '#/account_id', code: 'not_found', detail: `${accountId} is not one of your accounts` })
  }
  // An account the user sees but whose workspace they may not write posts in: 403, naming the role.
  if (account) access.require(account.workspace_id, 'write_posts')
  if (!account || !platforms) return { errors, targets, account }
  const connections = new Map((await deps.store.accounts.connections(account.id)).map((c) => [c.platform, c]))
  platforms.forEach((name, i) => {
    const pointer = `#/platforms/${i}`
    const connection = connections.get(name)
    const platform = deps.platforms.platformFor(name)
    if (!platform) {
      errors.push({ pointer, code: 'platform_unavailable', detail: `${name} is not available in this smm (available: ${deps.platforms.available().join(', ')})` })
    } else if (!connection) {
      errors.push({ pointer, code: 'platform_not_connected', detail: `account ${account.id} is not connected to ${name}; connect it with POST /v1/accounts/${account.id}/connections` })
    } else if (connection.status !== 'active') {
      errors.push({ pointer, code: 'platform_not_connected', detail: `the ${name} connection of account ${account.id} must be connected again (${name} refused its credentials)` })
    } else if (content !== undefined && mediaUrls !== undefined) {
      const checked = versionChecks(deps, platform, connection.settings, { ...draft, content, mediaUrls }, resolved.media)
      errors.push(...checked.errors)
      targets.push(checked.measure)
    }
  })
  return { errors, targets, account }
}

/** The zone of an account's workspace: the one its queue slots and series keep wall-clock time in. */
async function zoneOf(deps: AppDeps, account: Account): Promise<string> {
  return (await deps.store.workspaces.get(account.workspace_id))!.timezone
}

/**
 * A series' rules that need its first occurrence's time and the user's time zone: it must end
 * (count or until), `until` not before the first occurrence, and the last occurrence at most a
 * year after the first. Errors, or the series as the store takes it.
 */
function checkRepeat(repeat: RepeatInput, startsAt: number, timezone: string): { errors: FieldError[]; repeat?: NewRepeat } {
  const rule = { interval: repeat.interval, count: repeat.count ?? null, until: repeat.until === undefined ? null : Date.parse(repeat.until), timezone }
  if (rule.count === null && rule.until === null) {
    return { errors: [{ pointer: '#/repeat', code: 'required', detail: 'needs count or until: a series must end, at most a year (366 days) after its first occurrence' }] }
  }
  if (rule.until !== null && rule.until < startsAt) {
    return { errors: [{ pointer: '#/repeat/until', code: 'before_start', detail: `is before the first occurrence (${toIso(startsAt)})` }] }
  }
  const last = lastOccurrence({ ...rule, startsAt })
  if (last.beyond) {
    // The field that makes it too long, when only one of them is given.
    const pointer = rule.until === null ? '#/repeat/count' : rule.count === null ? '#/repeat/until' : '#/repeat'
    const detail = `makes the series too long: occurrence ${last.occurrence} would fall on ${toIso(last.at)}, beyond a year (366 days) after the first (${toIso(startsAt)}); a series may span at most a year`
    return { errors: [{ pointer, code: 'too_long', detail }] }
  }
  return { errors: [], repeat: rule }
}

/**
 * A post's media as it names them, from its record: what the checks of an edit or a schedule
 * need (the alt text each goes out with; the store keeps the post's own as it was given).
 */
const refsOf = (media: Post['media']): MediaRef[] => media.map((m) => ({ id: m.id, alt_text: m.alt_text }))
const threadRefsOf = (thread: Post['thread']): ThreadPart[] => thread.map((part) => ({ content: part.content, media_urls: part.media_urls, media: refsOf(part.media ?? []) }))

/** Thread parts as kept: content and media always there. */
function normalisedThread(thread: ThreadPart[]): NonNullable<NewPost['thread']> {
  return thread.map((part) => ({ content: part.content ?? '', media_urls: part.media_urls ?? [], ...(part.media?.length ? { media: part.media } : {}) }))
}

/** A post that passed every check of POST /v1/posts, and how its text measures on each target. */
export interface CheckedPost {
  post: NewPost
  targets: TargetMeasure[]
}

/** The 422 of a queued post that has no slot to take, at `pointer`. */
export function queueRefusal(error: QueueRefusedError, pointer = '#/queue'): FieldError {
  const account = error.accountId
  return error.reason === 'queue_empty'
    ? { pointer, code: 'queue_empty', detail: `account ${account} has no queue slots; add some with PUT /v1/accounts/${account}/queue` }
    : { pointer, code: 'queue_full', detail: `account ${account} has no free queue slot in the next 366 days; add slots with PUT /v1/accounts/${account}/queue, or give scheduled_at` }
}

/** A queued post's 422 at #/queue when the account has no slot for it now (listed with the post's other errors). */
async function queueCheck(deps: AppDeps, account: Account): Promise<{ errors: FieldError[] }> {
  const slots = await deps.store.queues.get([account.workspace_id], account.id)
  if (!slots) return { errors: [] }
  const now = deps.clock.now()
  const taken = new Set(await deps.store.queues.taken(account.id, now, now + QUEUE_HORIZON_MS))
  const slot = nextFreeSlot(slots, await zoneOf(deps, account), now, taken)
  return { errors: typeof slot === 'string' ? [queueRefusal(new QueueRefusedError(slot, account.id))] : [] }
}

/** `queue` and `scheduled_at` name the time two ways: one at most. */
function oneTime(given: Set<string>, values: { queue?: boolean }): FieldError[] {
  if (values.queue === true && given.has('scheduled_at')) {
    return [{ pointer: '#/queue', code: 'conflict', detail: 'give scheduled_at or "queue": true, not both' }]
  }
  return []
}

/**
 * A POST /v1/posts body, checked in full: every error at once, or a post to create. The one
 * check behind both create and validate, so the two can never disagree.
 */
export async function parseNewPost(deps: AppDeps, access: Access, raw: unknown): Promise<CheckedPost> {
  const { values, given, errors } = parseFields(PostCreate, raw)
  const isDraft = values.draft === true
  const queued = values.queue === true
  const times = oneTime(given, values)
  errors.push(...times)
  if (isDraft && queued) {
    errors.push({ pointer: '#/queue', code: 'conflict', detail: 'a draft takes no queue slot: create it without queue, then schedule it with POST /v1/posts/{id}/schedule {"queue": true}' })
  }
  const draft: Draft = {
    accountId: values.account_id,
    content: 'content' in values || !errors.some((e) => e.pointer === '#/content') ? (values.content ?? '') : undefined,
    mediaUrls: 'media_urls' in values || !errors.some((e) => e.pointer.startsWith('#/media_urls')) ? (values.media_urls ?? []) : undefined,
    media: 'media' in values || !errors.some((e) => e.pointer === '#/media' || e.pointer.startsWith('#/media/')) ? (values.media ?? []) : undefined,
    platforms: values.platforms,
    scheduledAt: values.scheduled_at === undefined ? undefined : Date.parse(values.scheduled_at),
    thread: values.thread ?? [],
    firstComment: values.first_comment ?? null,
    overrides: values.overrides ?? {},
  }
  // A draft's time is only a plan: the clock judges it when the draft is scheduled.
  const checked = await contextChecks(deps, access, draft, !isDraft)
  errors.push(...checked.errors)
  const account = checked.account
  const queue = queued && !isDraft && times.length === 0 && account ? await queueCheck(deps, account) : undefined
  errors.push(...(queue?.errors ?? []))
  const scheduledAt = queued ? null : (draft.scheduledAt ?? (isDraft ? null : deps.clock.now()))
  let repeat: NewRepeat | undefined
  if (values.repeat && (isDraft || queued)) {
    errors.push({
      pointer: '#/repeat',
      code: 'conflict',
      detail: isDraft
        ? 'a draft cannot repeat: a series starts when its first occurrence is scheduled, so create it with repeat when it is ready'
        : 'a series is counted from a time you give: use scheduled_at (or none, for now) with repeat, not "queue": true',
    })
  } else if (values.repeat && scheduledAt !== null && !errors.some((e) => e.pointer === '#/scheduled_at')) {
    // The series is measured from its first occurrence: only once that time is known to be right.
    // Its calendar steps keep the account's workspace's wall-clock time (the user's, while the account is in doubt).
    const series = checkRepeat(values.repeat, scheduledAt, account ? await zoneOf(deps, account) : access.principal.user.timezone)
    errors.push(...series.errors)
    repeat = series.repeat
  }
  if (errors.length) throw validationFailed(errors)
  const post: NewPost = {
    workspaceId: account!.workspace_id,
    // An editor's post waits for approval where the workspace requires it (a draft, once scheduled).
    ...(access.needsApproval(account!.workspace_id) ? { awaitsApproval: true } : {}),
    accountId: draft.accountId!,
    content: draft.content!,
    mediaUrls: draft.mediaUrls!,
    ...(draft.media?.length ? { media: draft.media } : {}),
    platforms: draft.platforms!,
    scheduledAt,
    ...(isDraft ? { draft: true } : {}),
    ...(queued ? { queue: true } : {}),
    ...(repeat ? { repeat } : {}),
    thread: normalisedThread(draft.thread),
    firstComment: draft.firstComment,
    overrides: draft.overrides,
  }
  return { post, targets: checked.targets }
}

/**
 * A POST /v1/posts/{id}/schedule body for a draft: the draft checked again as create checks a
 * post (its connections may have changed), with the time the body gives, which the clock judges.
 */
export async function parseSchedule(deps: AppDeps, access: Access, post: Post, raw: unknown): Promise<ScheduleAt> {
  const { values, given, errors } = parseFields(PostSchedule, raw)
  const times = oneTime(given, values)
  errors.push(...times)
  const draft: Draft = {
    accountId: post.account_id,
    content: post.content,
    mediaUrls: post.media_urls,
    media: refsOf(post.media),
    platforms: post.platforms,
    scheduledAt: values.scheduled_at === undefined ? undefined : Date.parse(values.scheduled_at),
    thread: threadRefsOf(post.thread),
    firstComment: post.first_comment,
    overrides: post.overrides,
  }
  const checked = await contextChecks(deps, access, draft, true)
  errors.push(...checked.errors)
  if (values.queue === true && times.length === 0 && checked.account) errors.push(...(await queueCheck(deps, checked.account)).errors)
  if (errors.length) throw validationFailed(errors)
  const awaitsApproval = access.needsApproval(post.workspace_id)
  return values.queue === true ? { queue: true, awaitsApproval } : { at: draft.scheduledAt ?? deps.clock.now(), awaitsApproval }
}

// The envelope is checked first with items left open, so that each item is then parsed by
// parseNewPost exactly as POST /v1/posts parses it (no rule is written twice).
const BulkEnvelope = bulkOf(v.unknown())

/**
 * A POST /v1/posts/bulk body: every post checked as POST /v1/posts checks it, and one 422
 * listing the errors of all of them at `#/posts/<index>/…`; or the posts to create, in order.
 */
export async function parseNewPosts(deps: AppDeps, access: Access, raw: unknown): Promise<{ posts: NewPost[]; dryRun: boolean }> {
  const envelope = parseInput(BulkEnvelope, raw)
  const posts: NewPost[] = []
  const errors: FieldError[] = []
  for (const [index, item] of envelope.posts.entries()) {
    try {
      posts.push((await parseNewPost(deps, access, item)).post)
    } catch (error) {
      // Only a post's own 422 is gathered; anything else (the store failing) ends the request.
      if (!(error instanceof ApiError) || error.status !== 422) throw error
      errors.push(...error.errors.map((e) => ({ ...e, pointer: `#/posts/${index}${e.pointer.slice(1)}` })))
    }
  }
  if (errors.length) throw validationFailed(errors)
  return { posts, dryRun: envelope.dry_run === true }
}

/** A PUT /v1/posts/{id} body merged into the post, then checked as a whole. */
export async function parsePostChanges(deps: AppDeps, access: Access, post: Post, raw: unknown): Promise<PostChanges> {
  const { values, given, errors: parsed } = parseFields(PostUpdate, raw)
  // `repeat` is no field of an edit: said in words that point to what to do instead.
  const errors = parsed.map((e) =>
    e.pointer === '#/repeat' && e.code === 'unknown_field'
      ? { pointer: '#/repeat', code: 'immutable', detail: 'cannot be set or changed by an edit, which changes one post (one occurrence of a series): to change a series, stop it (DELETE /v1/posts/{id}?series=true) and create a new one' }
      : e,
  )
  if (values.account_id !== undefined && values.account_id !== post.account_id) {
    errors.push({ pointer: '#/account_id', code: 'immutable', detail: `cannot change: the post belongs to ${post.account_id} (create a new post for another account)` })
  }
  const pick = <T>(key: string, value: T | undefined, current: T): T | undefined =>
    given.has(key) ? value : current
  const draft: Draft = {
    accountId: post.account_id,
    content: pick('content', values.content, post.content),
    mediaUrls: pick('media_urls', values.media_urls, post.media_urls),
    media: pick('media', values.media, refsOf(post.media)),
    platforms: pick('platforms', values.platforms, post.platforms),
    scheduledAt: given.has('scheduled_at') ? (values.scheduled_at === undefined ? undefined : Date.parse(values.scheduled_at)) : undefined,
    thread: (given.has('thread') ? values.thread : threadRefsOf(post.thread)) ?? [],
    firstComment: (given.has('first_comment') ? values.first_comment : post.first_comment) ?? null,
    overrides: (given.has('overrides') ? values.overrides : post.overrides) ?? {},
  }
  errors.push(...(await contextChecks(deps, access, draft, post.status !== 'draft')).errors)
  if (errors.length) throw validationFailed(errors)
  return {
    // An editor's edit waits for approval where the workspace requires it.
    ...(access.needsApproval(post.workspace_id) ? { awaitsApproval: true } : {}),
    ...(given.has('content') ? { content: draft.content! } : {}),
    ...(given.has('media_urls') ? { mediaUrls: draft.mediaUrls! } : {}),
    ...(given.has('media') ? { media: draft.media! } : {}),
    ...(given.has('platforms') ? { platforms: draft.platforms! } : {}),
    ...(draft.scheduledAt !== undefined ? { scheduledAt: draft.scheduledAt } : {}),
    ...(given.has('thread') ? { thread: normalisedThread(draft.thread) } : {}),
    ...(given.has('first_comment') ? { firstComment: draft.firstComment } : {}),
    ...(given.has('overrides') ? { overrides: draft.overrides } : {}),
  }
}
