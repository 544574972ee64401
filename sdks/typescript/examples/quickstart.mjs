// Quick start: schedule a post. SMM_URL, SMM_API_KEY and SMM_CA_FILE are read from the environment.
import { SmmClient } from '@smm/sdk'

const client = new SmmClient()
const account = await client.accounts.create({ name: 'Quick start' })
await client.accounts.connect(account.id, { platform: 'feed' })
const post = await client.posts.create({ account_id: account.id, content: 'Hello from the SDK', platforms: ['feed'], scheduled_at: new Date(Date.now() + 3_600_000) })
console.log(post.id, post.status)
