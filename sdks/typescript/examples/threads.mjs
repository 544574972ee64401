// A thread with a first comment, and the feed's own version. SMM_URL, SMM_API_KEY and SMM_CA_FILE from the environment.
import { SmmClient } from '@smm/sdk'

const client = new SmmClient()
const account = await client.accounts.create({ name: 'Threads' })
await client.accounts.connect(account.id, { platform: 'feed' })
const post = await client.posts.create({
  account_id: account.id, platforms: ['feed'], scheduled_at: new Date(Date.now() + 3_600_000),
  content: 'We shipped threads 🧵',
  thread: [
    { content: 'Each part goes out after the post, in order.' },
    { content: 'Up to 24 of them, with media.', media_urls: ['https://example.com/parts.png'] },
  ],
  first_comment: 'Changelog: https://example.com/changelog', // a reply or comment under the post where the platform has them
  // The feed's own version: its own text, and no first comment (the feed has neither replies nor comments).
  overrides: { feed: { content: 'Threads are here: read all about it below.', first_comment: null } },
})
console.log(post.id, post.thread.length, post.overrides.feed?.content)
