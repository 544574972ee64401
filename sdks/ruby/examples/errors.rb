# frozen_string_literal: true

require "smm"

client = Smm::Client.new
begin
  client.posts.create(account_id: "acc_nope", content: "Hi", platforms: ["myspace"])
rescue Smm::RateLimitError => e
  puts "slow down: try again in #{e.retry_after} s"
rescue Smm::ApiError => e
  puts "#{e.status} #{e.code}: #{e.detail} (request #{e.request_id})"
  e.errors.each { |field| puts "  #{field['pointer']}: #{field['detail']}" }
rescue Smm::ConnectionError => e
  puts "no answer: #{e.message}"
end
