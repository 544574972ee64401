// Retries: 429 (after Retry-After), 5xx and dropped connections are retried with backoff and jitter.
// A POST keeps one Idempotency-Key across its retries, so a retried create never makes two posts.
import { SmmClient } from '@smm/sdk'

const client = new SmmClient({ maxRetries: 4, onRetry: (e) => console.error(`retry ${e.attempt} in ${e.delayMs} ms: ${e.error.message}`) })
const [account] = (await client.accounts.listPage({ limit: 1 })).data
const key = `newsletter-${new Date().toISOString().slice(0, 10)}` // your own key: safe to run this script twice
const post = await client.posts.create({ account_id: account.id, content: 'Once only', platforms: ['feed'] }, { idempotencyKey: key })
const again = await client.posts.create({ account_id: account.id, content: 'Once only', platforms: ['feed'] }, { idempotencyKey: key })
console.log(post.id === again.id)
