// Errors: an HTTP error is an SmmApiError carrying the RFC 9457 problem; a 429 is a RateLimitError.
import { ConnectionError, RateLimitError, SmmApiError, SmmClient } from '@smm/sdk'

const client = new SmmClient()
try {
  await client.posts.create({ account_id: 'acc_missing', content: 'Hello', platforms: ['nowhere'] })
} catch (error) {
  if (error instanceof RateLimitError) console.log(`slow down: retry in ${error.retryAfter} s`)
  else if (error instanceof SmmApiError) console.log(error.status, error.code, error.errors.map((e) => e.pointer).join(' '), error.requestId)
  else if (error instanceof ConnectionError) console.log('no answer:', error.code)
  else throw error
}
