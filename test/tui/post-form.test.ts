import { describe, expect, it } from 'vitest'
import { ApiError, validationFailed } from '../../src/errors.js'
import { contentCounts, editPostForm, formErrorsFrom, formReducer, formRequest, newPostForm, whenChoices, type FormAction, type PostForm } from '../../src/tui/post-form.js'
import { ACCOUNTS, makePost, PLATFORMS } from './memory-source.js'

const typeAll = (form: PostForm, ...actions: FormAction[]) => actions.reduce((f, a) => formReducer(f, a, ACCOUNTS), form)

describe('the post form', () => {
  it('starts on the focused day at the next full hour when that day is today', () => {
    const today = newPostForm(ACCOUNTS, '2026-11-21', Date.parse('2026-11-21T12:10:00Z'), 'Europe/Berlin')
    expect(today).toMatchObject({ accountId: 'acc_1', date: '2026-11-21', time: '14:00', field: 'content', platforms: [] })
    expect(newPostForm(ACCOUNTS, '2026-11-25', Date.parse('2026-11-21T12:10:00Z'), 'Europe/Berlin').time).toBe('09:00')
  })

  it('cycles accounts and preselects an account with a single platform', () => {
    const form = typeAll(newPostForm(ACCOUNTS, '2026-11-21', 0, 'UTC'), { type: 'previous-field' }, { type: 'previous-field' }, { type: 'right' })
    expect(form).toMatchObject({ field: 'account', accountId: 'acc_2', platforms: ['feed'] })
  })

  it('toggles platforms and keeps date and time to their characters', () => {
    let form = typeAll(newPostForm(ACCOUNTS, '2026-11-21', 0, 'UTC'), { type: 'previous-field' }, { type: 'toggle' }, { type: 'right' }, { type: 'toggle' })
    expect(form.platforms).toEqual(['mastodon', 'bluesky'])
    form = typeAll(form, { type: 'toggle' })
    expect(form.platforms).toEqual(['mastodon'])
    form = typeAll(form, { type: 'next-field' }, { type: 'next-field' }, { type: 'next-field' }, { type: 'backspace' }, { type: 'backspace' }, { type: 'type', text: 'x3' }, { type: 'type', text: '30' })
    expect(form).toMatchObject({ field: 'date', date: '2026-11-30' })
  })

  it('refuses to send a form with no platform, no text or an impossible date, naming each field', () => {
    const form = { ...newPostForm(ACCOUNTS, '2026-11-21', 0, 'UTC'), date: '2026-02-30', time: '25:00' }
    const result = formRequest(form, 'UTC')
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(Object.keys(result.errors).sort()).toEqual(['content', 'date', 'platforms', 'time'])
  })

  it('sends the wall time in the user zone as a UTC instant', () => {
    const form = { ...newPostForm(ACCOUNTS, '2026-03-30', 0, 'Europe/Berlin'), platforms: ['mastodon' as const], content: 'Hi', time: '09:00' }
    const result = formRequest(form, 'Europe/Berlin')
    expect(result).toMatchObject({ ok: true, create: { account_id: 'acc_1', scheduled_at: '2026-03-30T07:00:00.000Z', platforms: ['mastodon'] } })
  })

  it('places the daemon field errors on the form fields', () => {
    const error = validationFailed([
      { pointer: '#/content', code: 'too_long', detail: 'Too long for bluesky (301 of 300).' },
      { pointer: '#/platforms/1', code: 'platform_not_connected', detail: 'bluesky is not connected.' },
      { pointer: '#/scheduled_at', code: 'in_past', detail: 'More than 5 minutes in the past.' },
    ])
    expect(error).toBeInstanceOf(ApiError)
    expect(formErrorsFrom(error)).toEqual({
      content: 'Too long for bluesky (301 of 300).',
      platforms: 'bluesky is not connected.',
      date: 'More than 5 minutes in the past.',
    })
  })

  it('counts characters the way each platform does, against the limits the daemon lists', () => {
    const count = (content: string, ...names: string[]) => contentCounts({ ...newPostForm(ACCOUNTS, '2026-11-21', 0, 'UTC'), content }, PLATFORMS, names)
    expect(count('👍🏽👨‍👩‍👧', 'bluesky')).toEqual([{ platform: 'bluesky', length: 2, max: 300 }])
    // Telegram counts UTF-16 units, as its Bot API does: a thumb with a skin tone is four.
    expect(count('👍🏽', 'telegram')).toEqual([{ platform: 'telegram', length: 4, max: 4096 }])
    // Mastodon counts a link as 23 and a remote mention by its username.
    expect(count(`see https://example.com/${'a'.repeat(100)} @ada@example.social`, 'mastodon')).toEqual([{ platform: 'mastodon', length: 4 + 23 + 5, max: 500 }])
    expect(count('hi', 'myspace')).toEqual([{ platform: 'myspace', length: 2, max: undefined }])
  })

  it("counts an edited post's text as a caption where it has media and the platform allows less then", () => {
    const post = makePost({ id: 'pst_1', scheduled_at: '2026-11-21T09:00:00Z', content: 'A photo', media_urls: ['https://m.example/a.png'], platforms: ['telegram'] })
    expect(contentCounts(editPostForm(post, 'UTC'), PLATFORMS, ['telegram', 'mastodon'])).toEqual([
      { platform: 'telegram', length: 7, max: 1024 },
      { platform: 'mastodon', length: 7, max: 500 },
    ])
  })
})

describe('when the post goes out', () => {
  const filled = (form: PostForm): PostForm => ({ ...form, platforms: ['mastodon'], content: 'Hi' })
  const fresh = () => filled(newPostForm(ACCOUNTS, '2026-11-24', Date.parse('2026-11-21T12:00:00Z'), 'Europe/Berlin'))
  const toWhen = (form: PostForm) => typeAll(form, { type: 'next-field' })

  it('cycles at a time, the next free queue slot and a draft with Space or the arrows, skipping date and time for the queue', () => {
    let form = toWhen(fresh())
    expect(form).toMatchObject({ field: 'when', when: 'at' })
    form = typeAll(form, { type: 'toggle' })
    expect(form.when).toBe('queue')
    // The queue picks the time: Tab goes from the choice straight to the save button.
    expect(typeAll(form, { type: 'next-field' }).field).toBe('submit')
    form = typeAll(form, { type: 'right' })
    expect(form.when).toBe('draft')
    expect(typeAll(form, { type: 'next-field' }).field).toBe('date')
    expect(typeAll(form, { type: 'left' }, { type: 'left' }).when).toBe('at')
    // Typing on the choice changes nothing.
    expect(typeAll(form, { type: 'type', text: 'q' })).toEqual(form)
  })

  it('sends queue: true without a time, and a draft with its planned time or none', () => {
    const queued = formRequest({ ...fresh(), when: 'queue', date: '', time: 'xx' }, 'Europe/Berlin')
    expect(queued).toEqual({ ok: true, create: { account_id: 'acc_1', content: 'Hi', platforms: ['mastodon'], queue: true }, update: expect.anything(), schedule: null })
    const planned = formRequest({ ...fresh(), when: 'draft', time: '10:30' }, 'Europe/Berlin')
    expect(planned).toMatchObject({ ok: true, create: { draft: true, scheduled_at: '2026-11-24T09:30:00.000Z' } })
    const timeless = formRequest({ ...fresh(), when: 'draft', date: '', time: '' }, 'Europe/Berlin')
    expect(timeless).toMatchObject({ ok: true, create: { account_id: 'acc_1', content: 'Hi', platforms: ['mastodon'], draft: true } })
    expect(timeless.ok && 'scheduled_at' in timeless.create).toBe(false)
    // Half a planned time is a mistake, not "none".
    expect(formRequest({ ...fresh(), when: 'draft', time: '' }, 'Europe/Berlin')).toMatchObject({ ok: false, errors: { time: expect.any(String) } })
  })

  it('opens on a free slot with its account, day and time', () => {
    const form = newPostForm(ACCOUNTS, '2026-11-21', Date.parse('2026-11-21T12:00:00Z'), 'Europe/Berlin', { accountId: 'acc_2', at: Date.parse('2026-11-23T17:45:00Z') })
    expect(form).toMatchObject({ accountId: 'acc_2', platforms: ['feed'], date: '2026-11-23', time: '18:45', when: 'at' })
  })

  it('keeps a scheduled post scheduled, and lets a draft stay a draft or be scheduled by its own call', () => {
    const scheduled = editPostForm(makePost({ id: 'pst_s', scheduled_at: '2026-11-24T09:00:00Z' }), 'Europe/Berlin')
    expect(whenChoices(scheduled)).toEqual(['at'])
    expect(typeAll(scheduled, { type: 'next-field' }).field).toBe('date') // from the content, no choice to visit

    const draft = editPostForm(makePost({ id: 'pst_d', scheduled_at: null, status: 'draft', created_at: '2026-11-20T08:00:00Z' }), 'Europe/Berlin')
    // A draft with no planned time has none in the form, not its creation time.
    expect(draft).toMatchObject({ when: 'draft', date: '', time: '', editsDraft: true })
    expect(whenChoices(draft)).toEqual(['draft', 'at', 'queue'])
    expect(formRequest(draft, 'Europe/Berlin')).toMatchObject({ ok: true, update: { content: 'Hello world', platforms: ['mastodon'] }, schedule: null })
    const at = formRequest({ ...draft, when: 'at', date: '2026-11-25', time: '08:00' }, 'Europe/Berlin')
    expect(at).toMatchObject({ ok: true, update: { content: 'Hello world', platforms: ['mastodon'] }, schedule: { scheduled_at: '2026-11-25T07:00:00.000Z' } })
    expect(at.ok && 'scheduled_at' in at.update).toBe(false)
    expect(formRequest({ ...draft, when: 'queue' }, 'Europe/Berlin')).toMatchObject({ ok: true, schedule: { queue: true } })

    // PUT keeps what it is not sent: a planned time can be moved, not removed.
    const timed = editPostForm(makePost({ id: 'pst_t', scheduled_at: '2026-11-24T09:00:00Z', status: 'draft' }), 'Europe/Berlin')
    expect(formRequest({ ...timed, date: '', time: '' }, 'Europe/Berlin')).toMatchObject({ ok: false, errors: { date: expect.stringMatching(/planned time/) } })
  })

  it("puts the daemon's queue refusal on the when field", () => {
    const error = validationFailed([{ pointer: '#/queue', code: 'queue_empty', detail: 'account acc_2 has no queue slots' }])
    expect(formErrorsFrom(error)).toEqual({ when: 'account acc_2 has no queue slots' })
  })
})
