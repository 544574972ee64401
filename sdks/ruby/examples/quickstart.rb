# frozen_string_literal: true

require "smm"

client = Smm::Client.new # SMM_URL, SMM_API_KEY (and SMM_CA_FILE for a self-signed daemon)
account = client.accounts.create(name: "My blog")
client.accounts.connect(account.id, platform: "feed")
post = client.posts.create(account_id: account.id, content: "Hello from Ruby", platforms: ["feed"], scheduled_at: Time.now + 3600)
puts "#{post.id} is #{post.status} for #{post.scheduled_at}"
