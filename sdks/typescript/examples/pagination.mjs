// Pagination: list() follows next_cursor for you; listPage() gives one page at a time.
import { SmmClient } from '@smm/sdk'

const client = new SmmClient()
let count = 0
for await (const post of client.posts.list({ status: 'scheduled', limit: 50 })) count += post.id ? 1 : 0
const first = await client.posts.listPage({ limit: 1 })
console.log(count, first.next_cursor !== null)
