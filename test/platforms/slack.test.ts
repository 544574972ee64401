import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { slack } from '../../daemon/platforms/slack.js'
import type { Connection, PlatformContext } from '../../daemon/platforms/types.js'
import { FakeSlack } from '../fixtures/slack-server.js'
import { connectionOf, platformContext, platformError } from '../fixtures/platform-context.js'
import { png } from '../helpers/media-files.js'
import { storedMedia } from '../helpers/stored-media.js'

let fake: FakeSlack
let ctx: PlatformContext
let connection: Connection

beforeAll(async () => {
  fake = await FakeSlack.start()
  ctx = await platformContext()
  connection = connectionOf('slack', { webhook_url: fake.hookUrl() }, await slack.verify({ webhook_url: fake.hookUrl() }, ctx))
})

afterAll(() => fake.server.close())

describe('slack', () => {
  it('connects by probing the webhook without posting anything', async () => {
    expect(connection.handle).toBe('T0001/B0001')
    expect(fake.messages).toEqual([])
    expect(slack.metrics).toBeUndefined()
    expect(slack.idempotencyWindowMs).toBe(0)
    // An incoming webhook answers no ts to reply to in a thread: parts are messages after the post, no first comment.
    expect([slack.thread, slack.firstComment]).toEqual(['consecutive', null])
  })

  it('refuses a removed webhook at connect time with Slack reason', async () => {
    const error = await platformError(slack.verify({ webhook_url: fake.hookUrl('T0001/B0009/gone') }, ctx))
    expect(error.kind).toBe('auth')
    expect(error.message).toContain('no_service')
  })

  it("checks Slack's 4,000-character guidance, media links included, counted as written (before escaping)", () => {
    expect(slack.check({ content: 'x'.repeat(4_000), media_urls: [] }, {})).toEqual([])
    expect(slack.check({ content: '&'.repeat(4_000), media_urls: [] }, {})).toEqual([])
    expect(slack.check({ content: 'x'.repeat(3_990), media_urls: ['https://m.example/cat.png'] }, {})[0]).toMatchObject({ code: 'too_long', detail: expect.stringContaining('Slack allows 4,000') })
  })

  it('escapes &, < and > so a post cannot notify the channel or forge a link', async () => {
    const content = 'Hey <!channel> <!here> <@U123> & <https://evil.example|bank> &amp;'
    await slack.publish(connection, { postId: 'pst_9', content, mediaUrls: ['https://cdn.example.com/a.png?x=1&y=2'] }, ctx)
    expect(fake.messages.at(-1)).toBe(
      'Hey &lt;!channel&gt; &lt;!here&gt; &lt;@U123&gt; &amp; &lt;https://evil.example|bank&gt; &amp;amp;\nhttps://cdn.example.com/a.png?x=1&amp;y=2',
    )
  })

  it('publishes text with media as links, and says no id comes back', async () => {
    const published = await slack.publish(connection, { postId: 'pst_1', content: 'Launch day', mediaUrls: ['https://cdn.example.com/launch.png'] }, ctx)
    expect(published).toEqual({ platform_post_id: null, url: null })
    expect(fake.messages.at(-1)).toBe('Launch day\nhttps://cdn.example.com/launch.png')
  })

  it('sends uploaded media as links to their public URLs, after the media URLs: a webhook cannot upload a file', async () => {
    const stored = await storedMedia()
    try {
      const photo = await stored.attach(png(64, 64), 'image/png', { alt_text: 'Slack keeps none', url: 'https://smm.example/media/tokenslack.png' })
      await slack.publish(connection, { postId: 'pst_10', content: 'Launch day', mediaUrls: ['https://cdn.example.com/launch.png'], media: [photo] }, ctx)
      expect(fake.messages.at(-1)).toBe('Launch day\nhttps://cdn.example.com/launch.png\nhttps://smm.example/media/tokenslack.png')
      expect([slack.uploadsMedia, slack.limits.media.send]).toEqual([true, 'link'])
    } finally {
      await stored.close()
    }
  })

  it('a 429 waits as long as Retry-After says, a 500 is transient, and the retry succeeds', async () => {
    fake.faults.push({ status: 429, body: 'rate_limited', headers: { 'retry-after': '30' } })
    expect(await platformError(slack.publish(connection, { postId: 'pst_2', content: 'Again', mediaUrls: [] }, ctx))).toMatchObject({ kind: 'transient', retryAfterMs: 30_000 })
    fake.faults.push({ status: 500, body: 'rollup_error' })
    expect((await platformError(slack.publish(connection, { postId: 'pst_2', content: 'Again', mediaUrls: [] }, ctx))).kind).toBe('transient')
    await slack.publish(connection, { postId: 'pst_2', content: 'Again', mediaUrls: [] }, ctx)
    expect(fake.messages.at(-1)).toBe('Again')
  })

  it('a refused payload is permanent with Slack error name', async () => {
    fake.faults.push({ status: 400, body: 'too_many_attachments' })
    const error = await platformError(slack.publish(connection, { postId: 'pst_3', content: 'x', mediaUrls: [] }, ctx))
    expect(error.kind).toBe('permanent')
    expect(error.message).toContain('too_many_attachments')
  })

  it('an archived channel or a removed webhook is an auth failure', async () => {
    fake.faults.push({ status: 410, body: 'channel_is_archived' })
    expect(await platformError(slack.publish(connection, { postId: 'pst_4', content: 'x', mediaUrls: [] }, ctx))).toMatchObject({ kind: 'auth' })
    fake.hooks.clear()
    const error = await platformError(slack.publish(connection, { postId: 'pst_4', content: 'x', mediaUrls: [] }, ctx))
    expect(error).toMatchObject({ kind: 'auth' })
    expect(error.message).toContain('no_service')
  })
})
