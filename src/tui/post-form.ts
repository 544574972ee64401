// The new-post and edit-post form: its fields, a pure reducer for typing into them, and the
// translation to an API request (wall time in the user's zone to an RFC 3339 instant).

import type { PlatformName } from '../api/common.js'
import type { ApiError } from '../errors.js'
import { graphemeLength, measureText } from '../text-length.js'
import { isCivilDate, zonedParts, zonedToInstant, type CivilDate } from '../zoned-time.js'
import { placedAt } from './post-style.js'
import type { Account, PlatformInfo, Post, PostCreateInput, PostScheduleInput, PostUpdateInput } from './calendar-source.js'

/** The fields of the form, in tab order. */
export const FORM_FIELDS = ['account', 'platforms', 'content', 'when', 'date', 'time', 'submit'] as const
/** One field of the form. */
export type FormField = (typeof FORM_FIELDS)[number]

/**
 * When the post goes out: at the date and time given, at the account's next free queue slot
 * (the daemon picks it), or not until it is scheduled (a draft; the date and time, if given,
 * are its planned time).
 */
export type When = 'at' | 'queue' | 'draft'

/** The state of the open form. An edit keeps its post's id and account, which PUT cannot change. */
export interface PostForm {
  kind: 'new' | 'edit'
  postId: string | null
  accountId: string | null
  platforms: PlatformName[]
  /** Index of the focused entry in the account's platform list. */
  platformCursor: number
  content: string
  /** The post's media (an edit keeps them): under media some platforms allow a shorter caption. */
  mediaUrls: string[]
  /** A draft being edited: it may stay a draft or be scheduled. */
  editsDraft: boolean
  /** The post being edited has a time, which PUT can change but not take away. */
  hadTime: boolean
  when: When
  date: string
  time: string
  field: FormField
  submitting: boolean
  errors: Partial<Record<FormField, string>>
}

/** Typing and moving inside the form. */
export type FormAction =
  | { type: 'next-field' }
  | { type: 'previous-field' }
  | { type: 'type'; text: string }
  | { type: 'backspace' }
  | { type: 'left' }
  | { type: 'right' }
  | { type: 'toggle' }

function pad(n: number): string {
  return String(n).padStart(2, '0')
}

/**
 * A blank form for a post on `date`: the next full hour when that is today, else 09:00. Opened
 * on a free queue slot (`slot`), it is for that slot's account, day and time.
 */
export function newPostForm(accounts: Account[], date: CivilDate, now: number, timeZone: string, slot?: { accountId: string; at: number }): PostForm {
  const account = accounts.find((a) => a.id === slot?.accountId) ?? accounts[0]
  const current = zonedParts(now, timeZone)
  const at = slot ? zonedParts(slot.at, timeZone) : null
  const time = at ? `${pad(at.hour)}:${pad(at.minute)}` : current.date === date && current.hour < 23 ? `${pad(current.hour + 1)}:00` : '09:00'
  const active = account?.connections.filter((c) => c.status === 'active').map((c) => c.platform) ?? []
  return {
    kind: 'new',
    postId: null,
    accountId: account?.id ?? null,
    // One connection is the obvious choice; with several, the user picks.
    platforms: active.length === 1 ? active : [],
    platformCursor: 0,
    content: '',
    mediaUrls: [],
    editsDraft: false,
    hadTime: false,
    when: 'at',
    date: at?.date ?? date,
    time,
    field: 'content',
    submitting: false,
    errors: {},
  }
}

/** A form holding a scheduled post's or a draft's current values, in the user's zone. */
export function editPostForm(post: Post, timeZone: string): PostForm {
  const at = zonedParts(placedAt(post), timeZone)
  // A draft with no planned time has none in the form either (not its creation time).
  const timeless = post.scheduled_at === null
  const draft = post.status === 'draft'
  return {
    kind: 'edit',
    postId: post.id,
    accountId: post.account_id,
    platforms: [...post.platforms],
    platformCursor: 0,
    content: post.content,
    mediaUrls: [...post.media_urls],
    editsDraft: draft,
    hadTime: !timeless,
    when: draft ? 'draft' : 'at',
    date: timeless ? '' : at.date,
    time: timeless ? '' : `${pad(at.hour)}:${pad(at.minute)}`,
    field: 'content',
    submitting: false,
    errors: {},
  }
}

/** The platforms the form offers: the account's connections, plus any the post already names. */
export function platformChoices(form: PostForm, accounts: Account[]): { platform: PlatformName; note: string | null }[] {
  const account = accounts.find((a) => a.id === form.accountId)
  const choices = (account?.connections ?? []).map((c) => ({
    platform: c.platform,
    note: c.status === 'active' ? null : 'reconnect needed',
  }))
  for (const platform of form.platforms) {
    if (!choices.some((c) => c.platform === platform)) choices.push({ platform, note: 'not connected' })
  }
  return choices
}

/** The content's length on one platform, counted as the daemon counts it, and its limit there (none for a platform the daemon did not list). */
export interface ContentCount {
  platform: string
  length: number
  max: number | undefined
}

/**
 * The content counted for each platform named, with the limits the daemon declared
 * (GET /v1/platforms): the same counting the daemon validates with, so a count under the limit
 * here is not refused for length there. A connection's own limit (a Mastodon instance's) may
 * differ from the platform's default; the daemon's answer then says so under the field.
 */
export function contentCounts(form: PostForm, platforms: PlatformInfo[], names: string[]): ContentCount[] {
  return names.map((name) => {
    const info = platforms.find((p) => p.name === name)
    if (!info) return { platform: name, length: graphemeLength(form.content), max: undefined }
    const { length, limit } = measureText(info.limits, form.content, form.mediaUrls)
    return { platform: name, length, max: limit }
  })
}

/** The choices of `when` the form offers: a scheduled post being edited stays scheduled (PUT cannot make it a draft). */
export function whenChoices(form: PostForm): When[] {
  if (form.kind === 'new') return ['at', 'queue', 'draft']
  return form.editsDraft ? ['draft', 'at', 'queue'] : ['at']
}

/** The fields Tab visits: no account to pick on an edit, no choice of one, no date or time when the queue picks it. */
export function formFields(form: PostForm): FormField[] {
  return FORM_FIELDS.filter(
    (f) => !(f === 'account' && form.kind === 'edit') && !(f === 'when' && whenChoices(form).length === 1) && !((f === 'date' || f === 'time') && form.when === 'queue'),
  )
}

function cycleWhen(form: PostForm, delta: number): PostForm {
  const choices = whenChoices(form)
  const when = choices[(choices.indexOf(form.when) + delta + choices.length) % choices.length]!
  const { when: _when, date: _date, time: _time, ...errors } = form.errors
  return { ...form, when, errors }
}

function moveField(form: PostForm, delta: number): PostForm {
  const fields = formFields(form)
  const at = fields.indexOf(form.field)
  const next = fields[(at + delta + fields.length) % fields.length]!
  return { ...form, field: next }
}

function cycleAccount(form: PostForm, accounts: Account[], delta: number): PostForm {
  if (form.kind === 'edit' || accounts.length === 0) return form
  const at = accounts.findIndex((a) => a.id === form.accountId)
  const account = accounts[(at + delta + accounts.length) % accounts.length]!
  const active = account.connections.filter((c) => c.status === 'active').map((c) => c.platform)
  return { ...form, accountId: account.id, platforms: active.length === 1 ? active : [], platformCursor: 0, errors: {} }
}

function withoutError(form: PostForm, field: FormField): PostForm {
  if (!(field in form.errors)) return form
  const { [field]: _cleared, ...errors } = form.errors
  return { ...form, errors }
}

// Date and time fields take only what can appear in them, so a stray key cannot corrupt them.
const ALLOWED: Partial<Record<FormField, RegExp>> = { date: /^[\d-]*$/, time: /^[\d:]*$/ }
const MAX_LENGTH: Partial<Record<FormField, number>> = { date: 10, time: 5 }

/** The form after one keystroke's action. */
export function formReducer(form: PostForm, action: FormAction, accounts: Account[]): PostForm {
  if (form.submitting) return form
  switch (action.type) {
    case 'next-field':
      return moveField(form, 1)
    case 'previous-field':
      return moveField(form, -1)
    case 'left':
    case 'right': {
      const delta = action.type === 'left' ? -1 : 1
      if (form.field === 'account') return cycleAccount(form, accounts, delta)
      if (form.field === 'when') return cycleWhen(form, delta)
      if (form.field === 'platforms') {
        const count = platformChoices(form, accounts).length
        return count === 0 ? form : { ...form, platformCursor: (form.platformCursor + delta + count) % count }
      }
      return form
    }
    case 'toggle': {
      if (form.field === 'when') return cycleWhen(form, 1)
      if (form.field !== 'platforms') return form
      const choice = platformChoices(form, accounts)[form.platformCursor]
      if (!choice) return form
      const platforms = form.platforms.includes(choice.platform)
        ? form.platforms.filter((p) => p !== choice.platform)
        : [...form.platforms, choice.platform]
      return withoutError({ ...form, platforms }, 'platforms')
    }
    case 'type': {
      const field = form.field
      if (field !== 'content' && field !== 'date' && field !== 'time') return form
      // Terminals send Enter as CR; pasted text may carry CRLF.
      const text = action.text.replace(/\r\n?/g, '\n')
      if (field !== 'content' && !ALLOWED[field]!.test(text)) return form
      const value = (form[field] + text).slice(0, MAX_LENGTH[field] ?? Infinity)
      return withoutError({ ...form, [field]: value }, field)
    }
    case 'backspace': {
      const field = form.field
      if (field !== 'content' && field !== 'date' && field !== 'time') return form
      return withoutError({ ...form, [field]: [...form[field]].slice(0, -1).join('') }, field)
    }
  }
}

/** The field an API error's JSON pointer is about. */
export function fieldOfPointer(pointer: string): FormField {
  const top = pointer.replace(/^#\//, '').split('/')[0]
  if (top === 'account_id') return 'account'
  if (top === 'platforms') return 'platforms'
  if (top === 'scheduled_at') return 'date'
  if (top === 'queue' || top === 'draft') return 'when'
  return 'content'
}

/** The server's field errors, placed on the form's fields. */
export function formErrorsFrom(error: ApiError): PostForm['errors'] {
  const errors: PostForm['errors'] = {}
  for (const e of error.errors) {
    const field = fieldOfPointer(e.pointer)
    errors[field] = errors[field] ? `${errors[field]}; ${e.detail}` : e.detail
  }
  return errors
}

/** What saving the form sends: a create, or an edit (PUT) and, for a draft being scheduled, the schedule call after it. */
export type FormRequest = { ok: true; create: PostCreateInput; update: PostUpdateInput; schedule: PostScheduleInput | null } | { ok: false; errors: PostForm['errors'] }

/** The request the form describes, or the fields that stop it from being sent. */
export function formRequest(form: PostForm, timeZone: string, profileFlag = ''): FormRequest {
  const errors: PostForm['errors'] = {}
  if (!form.accountId) errors.account = `Create an account first: smm accounts create NAME${profileFlag}`
  if (form.platforms.length === 0) errors.platforms = 'Choose at least one platform (Space toggles).'
  if (form.content.trim() === '') errors.content = 'Write something to post.'
  // The queue picks the time; a draft may have none (both fields empty).
  const timeless = form.when === 'queue' || (form.when === 'draft' && form.date === '' && form.time === '')
  const time = /^(\d{2}):(\d{2})$/.exec(form.time)
  if (!timeless) {
    if (!isCivilDate(form.date)) errors.date = 'Use a real date as YYYY-MM-DD.'
    if (!time || Number(time[1]) > 23 || Number(time[2]) > 59) errors.time = 'Use a 24-hour time as HH:MM.'
  } else if (form.when === 'draft' && form.hadTime) {
    // PUT keeps what it is not sent: a planned time can be changed, not taken away.
    errors.date = 'This draft has a planned time; change it rather than clear it.'
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors }
  const at = timeless || !time ? undefined : new Date(zonedToInstant(form.date, Number(time[1]), Number(time[2]), timeZone)).toISOString()
  const timing = at === undefined ? {} : { scheduled_at: at }
  const fields = { content: form.content, platforms: form.platforms }
  const create: PostCreateInput = {
    account_id: form.accountId!,
    ...fields,
    ...(form.when === 'queue' ? { queue: true } : timing),
    ...(form.when === 'draft' ? { draft: true } : {}),
  }
  // A draft is scheduled by its own call after the edit: PUT cannot change a post's status.
  if (form.editsDraft && form.when !== 'draft') {
    return { ok: true, create, update: fields, schedule: form.when === 'queue' ? { queue: true } : timing }
  }
  return { ok: true, create, update: { ...fields, ...timing }, schedule: null }
}
