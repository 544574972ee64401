# frozen_string_literal: true

require "minitest/autorun"
require "minitest/mock"
require "json"
require "net/http"
require "smm"

# What the suites share: the daemon the harness started (test/helpers/sdk-harness.ts) and its
# control server, which moves the daemon's clock and lists the webhook deliveries received.
module Live
  VARIABLES = %w[SMM_URL SMM_API_KEY SMM_CA_FILE SMM_TEST_LIMITED_API_KEY SMM_TEST_RECEIVER_URL SMM_TEST_CONTROL_URL
                 SMM_TEST_MEMBER_API_KEY SMM_TEST_MEMBER_EMAIL].freeze

  module_function

  # Skips a test that needs the daemon when the variables are absent (a developer running the
  # suite alone); `npx vitest run test/sdk-ruby.test.ts` sets them and fails on any skip.
  def require_daemon!(test)
    absent = VARIABLES.reject { |name| ENV[name] && !ENV[name].empty? }
    return if absent.empty?

    test.skip("needs a running daemon: #{absent.join(', ')} unset; run `npx vitest run test/sdk-ruby.test.ts` from the repository root")
  end

  def control(method, path, body = nil)
    uri = URI("#{ENV.fetch('SMM_TEST_CONTROL_URL')}#{path}")
    request = method == "POST" ? Net::HTTP::Post.new(uri, "Content-Type" => "application/json") : Net::HTTP::Get.new(uri)
    request.body = JSON.generate(body) if body
    response = Net::HTTP.start(uri.host, uri.port) { |http| http.request(request) }
    raise "control #{method} #{path}: #{response.code} #{response.body}" unless response.code == "200"

    JSON.parse(response.body)
  end

  # The sleep a test injects into a client: moves the daemon's clock instead of waiting.
  def advance_clock(seconds)
    control("POST", "/clock/advance", { seconds: seconds })
  end

  # The daemon's time: its clock is the harness's manual one, which other tests move ahead of
  # the wall clock, so "now" for a webhook's five-minute window is this.
  def daemon_time
    Time.iso8601(advance_clock(0).fetch("now"))
  end

  def deliveries
    control("GET", "/webhooks")
  end

  # The daemon's clock is manual: a rate limit's Retry-After is spent on it, not in wall time
  # (the suite's requests all fall in one minute of it, and its plan allows 100 a minute).
  def client(**options)
    Smm::Client.new(sleep: ->(seconds) { advance_clock(seconds) }, **options)
  end

  # A fresh account with a feed connection: each test works in its own.
  def account(client, name)
    account = client.accounts.create(name: name)
    client.accounts.connect(account.id, platform: "feed")
    account
  end

  def tomorrow
    Time.now.utc + 86_400
  end
end
