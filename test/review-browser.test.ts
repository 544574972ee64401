import { existsSync } from 'node:fs'
import { chromium, type Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestDaemon, type TestDaemon } from './helpers/daemon.js'
import { png } from './helpers/media-files.js'
import { liftLimits, person } from './helpers/posts.js'

/** Debian's chromium (`apt-get install chromium`; .ci/run installs it). */
const CHROMIUM = process.env.SMM_TEST_CHROMIUM ?? '/usr/bin/chromium'

let t: TestDaemon
let browser: Browser
beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`This test opens a review page in a real headless browser and needs Chromium at ${CHROMIUM}: install Debian's chromium package (apt-get install chromium), or set SMM_TEST_CHROMIUM to its path.`)
  }
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] })
  t = await startTestDaemon({ allowPrivateNetwork: true })
  await liftLimits(t)
}, 60_000)
afterAll(async () => {
  await browser?.close()
  await t?.stop()
})

describe('a review link in a browser', () => {
  it('shows the post as it will go out, runs no script and breaks no CSP, and approves it: the post is scheduled', async () => {
    const workspace = (await t.http.post('/v1/workspaces', { name: 'Agency', approval_required: true, timezone: 'America/New_York' }, { key: t.key })).body
    const account = (await t.http.post('/v1/accounts', { name: 'Client brand', workspace_id: workspace.id }, { key: t.key })).body.id
    expect((await t.http.post(`/v1/accounts/${account}/connections`, { platform: 'feed' }, { key: t.key })).status).toBe(201)
    const editor = await person(t, 'Eddie')
    expect((await t.http.post(`/v1/workspaces/${workspace.id}/members`, { user_id: editor.userId, role: 'editor' }, { key: t.key })).status).toBe(201)
    const media = (await t.http.request('POST', '/v1/media?alt_text=A%20red%20square', { key: editor.key, raw: png(8, 8), headers: { 'content-type': 'image/png' } })).body
    const at = new Date(t.clock.now() + 86_400_000).toISOString()
    const post = await t.http.post(
      '/v1/posts',
      { account_id: account, content: 'Big news <script>document.title="pwned"</script>', platforms: ['feed'], scheduled_at: at, media: [{ id: media.id }], thread: [{ content: 'And more to come' }] },
      { key: editor.key },
    )
    expect(post.body.status).toBe('pending_approval')
    const link = (await t.http.post(`/v1/posts/${post.body.id}/review-links`, {}, { key: t.key })).body

    const context = await browser.newContext({ ignoreHTTPSErrors: true, javaScriptEnabled: true })
    const page = await context.newPage()
    const violations: string[] = []
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text())
    })
    const opened = await page.goto(link.url)
    expect(opened?.status()).toBe(200)
    expect(await page.title()).toBe('Review a post · smm')
    const text = await page.locator('body').innerText()
    expect(text).toContain('Big news <script>document.title="pwned"</script>')
    expect(text).toContain('And more to come')
    expect(text).toContain('Agency · Client brand')
    const local = new Intl.DateTimeFormat('en-GB', { timeZone: 'America/New_York', dateStyle: 'full', timeStyle: 'short' }).format(Date.parse(at))
    expect(text).toContain(`To go out ${local} (America/New_York)`)
    // The media is shown from the daemon (allowed by img-src), with its alt text.
    expect(await page.evaluate(`document.querySelector('img[alt="A red square"]').naturalWidth`)).toBe(8)
    // The style applied (its hash is in the CSP); nothing was refused.
    expect(await page.evaluate('getComputedStyle(document.body).fontFamily')).toContain('system-ui')
    expect(violations).toEqual([])

    await page.fill('#name', 'Carla from the client')
    await page.fill('#comment', 'Looks great')
    await Promise.all([page.waitForLoadState('load'), page.click('button[value="approve"]')])
    expect(await page.locator('[role="status"]').innerText()).toBe('Thank you: you approved this post.')
    expect(await page.locator('#status').innerText()).toBe('This post is scheduled: there is nothing to decide now')
    expect(violations).toEqual([])

    const scheduled = await t.http.get(`/v1/posts/${post.body.id}`, { key: editor.key })
    expect(scheduled.body).toMatchObject({ status: 'scheduled', scheduled_at: at })
    const comments = (await t.http.get(`/v1/posts/${post.body.id}/comments`, { key: editor.key })).body.data
    expect(comments).toEqual([expect.objectContaining({ author: { type: 'review_link', review_link_id: link.id, name: 'Carla from the client' }, body: 'Looks great', decision: 'approved' })])

    await context.close()
  })
})
