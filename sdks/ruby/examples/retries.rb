# frozen_string_literal: true

require "smm"

# 429 (after its Retry-After), 5xx and connection failures are retried up to max_retries times.
client = Smm::Client.new(max_retries: 4)
account = client.accounts.create(name: "Orders")
client.accounts.connect(account.id, platform: "feed")
# The same request with the same Idempotency-Key, on a retry or after a crash, never makes a
# second post (the same key with a different body is refused: 422 idempotency_key_reused).
key = "order-#{Time.now.to_i}-announcement"
at = Time.now + 600
2.times do
  post = client.posts.create(account_id: account.id, content: "Order shipped", platforms: ["feed"],
                             scheduled_at: at, idempotency_key: key)
  puts post.id
end
