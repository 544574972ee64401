# frozen_string_literal: true

require "smm"

client = Smm::Client.new
# An Enumerable over every page: the next page is fetched as you reach it.
client.posts.list(status: "scheduled", limit: 50).each do |post|
  puts "#{post.scheduled_at} #{post.id} #{post.content[0, 40]}"
end
puts "first three: #{client.posts.list(limit: 2).first(3).map(&:id).join(', ')}"
