# frozen_string_literal: true

require "smm"

client = Smm::Client.new
account = client.accounts.create(name: "Threads")
client.accounts.connect(account.id, platform: "feed")
post = client.posts.create(
  account_id: account.id, platforms: ["feed"], scheduled_at: Time.now + 3600,
  content: "We shipped threads 🧵",
  thread: [{ content: "Each part goes out after the post, in order." },
           { content: "Up to 24 of them, with media.", media_urls: ["https://example.com/parts.png"] }],
  first_comment: "Changelog: https://example.com/changelog", # a reply or comment under the post where the platform has them
  # The feed's own version: its own text, and no first comment (the feed has neither replies nor comments).
  overrides: { feed: { content: "Threads are here: read all about it below.", first_comment: nil } }
)
puts "#{post.id} #{post.thread.size} #{post.overrides.feed.content}"
