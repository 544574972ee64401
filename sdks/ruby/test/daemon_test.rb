# frozen_string_literal: true

require "test_helper"
require "stringio"

# The SDK against the real daemon the harness started, over real TLS.
class DaemonTest < Minitest::Test
  def setup
    Live.require_daemon!(self)
    @client = Live.client
  end

  def create_post(account, content, scheduled_at: Live.tomorrow, **options)
    @client.posts.create(account_id: account.id, content: content, platforms: ["feed"], scheduled_at: scheduled_at, **options)
  end

  def test_every_operation_in_the_openapi_document_has_a_method
    # A protocol's own operations (tus uploads) are left to that protocol's clients.
    operations = @client.openapi.fetch("paths").values.flat_map { |item| item.values.reject { |op| op["x-smm-protocol"] }.map { |op| op["operationId"] } }.compact
    refute_empty operations
    missing = operations.reject { |id| Smm::OPERATIONS.key?(id) }
    assert_empty missing, "operations with no method in Smm::OPERATIONS: #{missing.join(', ')}"
    Smm::OPERATIONS.each do |id, (*receivers, name)|
      target = receivers.reduce(@client) { |object, receiver| object.public_send(receiver) }
      assert_respond_to target, name, "#{id} maps to a method that does not exist"
    end
  end

  def test_me_and_health
    assert_kind_of String, @client.me.id
    assert_equal "ok", @client.health.status
  end

  def test_create_get_update_and_cancel_a_post
    account = Live.account(@client, "ruby lifecycle")
    post = create_post(account, "Hello from Ruby")
    assert_match(/\A\S+\z/, post.id)
    assert_equal "scheduled", post.status
    assert_equal ["feed"], post.platforms

    read = @client.posts.get(post.id)
    assert_equal [post.id, "Hello from Ruby"], [read.id, read.content]
    refute_nil read.etag

    updated = @client.posts.update(post.id, content: "Edited", if_match: read.etag)
    assert_equal "Edited", updated.content
    stale = assert_raises(Smm::PreconditionFailedError) { @client.posts.update(post.id, content: "Late", if_match: read.etag) }
    assert_equal [412, "precondition_failed"], [stale.status, stale.code]
    assert_kind_of Smm::ApiError, stale
    assert_equal "Edited", @client.posts.get(post.id).content

    cancelled = @client.posts.cancel(post.id)
    assert_equal "cancelled", cancelled.status
    assert_equal "cancelled", @client.posts.get(post.id).status
  end

  def test_a_series_is_listed_by_series_id_skips_one_and_stops
    account = Live.account(@client, "ruby series")
    first = create_post(account, "every day", repeat: { interval: "P1D", count: 3 })
    assert_equal [1, "P1D", 3], [first.occurrence, first.repeat.interval, first.repeat.count]
    assert_match(/\Aser_/, first.series_id)
    @client.posts.cancel(first.id) # skips this one: the next is scheduled
    listed = @client.posts.list(series_id: first.series_id).to_a
    assert_equal [[1, "cancelled"], [2, "scheduled"]], listed.map { |p| [p.occurrence, p.status] }
    assert_equal "cancelled", @client.posts.cancel(listed[1].id, series: true).status
    assert_equal %w[cancelled cancelled], @client.posts.list(series_id: first.series_id).map(&:status)
    refused = assert_raises(Smm::ApiError) { @client.posts.cancel(create_post(account, "once").id, series: true) }
    assert_equal [422, "#/series"], [refused.status, refused.errors.first["pointer"]]
  end

  def test_a_draft_waits_until_scheduled_and_queued_posts_take_slots_in_turn
    account = Live.account(@client, "ruby queue")
    draft = @client.posts.create(account_id: account.id, content: "An idea", platforms: ["feed"], draft: true)
    assert_equal ["draft", nil], [draft.status, draft.scheduled_at]
    empty = assert_raises(Smm::ApiError) { @client.posts.create(account_id: account.id, content: "x", platforms: ["feed"], queue: true) }
    assert_equal [422, "queue_empty"], [empty.status, empty.code]

    queue = @client.accounts.set_queue(account.id, slots: [{ day: "friday", time: "17:30" }, { day: "monday", time: "09:00" }])
    assert_equal [%w[monday 09:00], %w[friday 17:30]], queue.slots.map { |s| [s.day, s.time] }
    assert_equal 10, queue.next.length
    assert_equal queue.next, @client.accounts.queue(account.id).next
    queued = @client.posts.create(account_id: account.id, content: "Queued", platforms: ["feed"], queue: true)
    assert_equal queue.next[0], queued.scheduled_at

    assert_raises(Smm::PreconditionFailedError) { @client.posts.schedule(draft.id, queue: true, if_match: '"v999"') }
    scheduled = @client.posts.schedule(draft.id, queue: true, if_match: draft.etag)
    assert_equal ["scheduled", queue.next[1]], [scheduled.status, scheduled.scheduled_at]
    again = assert_raises(Smm::ApiError) { @client.posts.schedule(draft.id) }
    assert_equal [409, "post_not_editable"], [again.status, again.code]
  end

  def test_a_thread_and_a_platforms_own_version_read_back
    account = Live.account(@client, "ruby threads")
    thread = [{ content: "part one" }, { content: "part two", media_urls: ["https://example.com/two.png"] }]
    post = create_post(account, "the post", thread: thread,
                                            overrides: { feed: { content: "the feed's own text", thread: [{ content: "feed part" }] } })
    read = @client.posts.get(post.id)
    assert_equal [{ "content" => "part one", "media_urls" => [] }, { "content" => "part two", "media_urls" => ["https://example.com/two.png"] }],
                 read.thread.map(&:to_h)
    assert_nil read.first_comment
    assert_equal({ "feed" => { "content" => "the feed's own text", "thread" => [{ "content" => "feed part" }] } }, read.overrides.to_h)
    assert_equal [[], nil], [read.targets.first.parts, read.targets.first.error] # nothing is out yet
    checked = @client.posts.validate(account_id: account.id, content: "the post", platforms: ["feed"], thread: thread,
                                     overrides: { feed: { thread: [{ content: "feed part" }] } })
    assert_equal [{ "index" => 1, "kind" => "thread", "length" => 9, "limit" => 10_000 }], checked.targets.first.parts.map(&:to_h)
    updated = @client.posts.update(post.id, thread: [], overrides: {}, if_match: read.etag)
    assert_equal [[], {}], [updated.thread, updated.overrides.to_h]
  end

  def test_a_thread_published_now_lists_each_part_out
    account = Live.account(@client, "ruby published thread")
    post = @client.posts.create(account_id: account.id, content: "now", platforms: ["feed"], thread: [{ content: "one" }, { content: "two" }])
    deadline = Time.now + 20
    while %w[scheduled publishing].include?(post.status) && Time.now < deadline
      sleep 0.1 # polling the daemon's real scheduler over the network, not waiting out a timer
      post = @client.posts.get(post.id)
    end
    assert_equal "published", post.status
    target = post.targets.first
    assert_equal [[0, "post", post.id], [1, "thread", "#{post.id}-1"], [2, "thread", "#{post.id}-2"]],
                 target.parts.map { |part| [part.index, part.kind, part.platform_post_id] }
    assert_equal [target.platform_post_id, target.url], [target.parts.first.platform_post_id, target.parts.first.url]
    assert target.parts.last.url.end_with?("##{post.id}-2"), target.parts.last.url
  end

  def test_a_first_comment_on_the_feed_is_refused_where_it_was_given
    account = Live.account(@client, "ruby first comment")
    error = assert_raises(Smm::ApiError) { create_post(account, "with a comment", first_comment: "and a comment") }
    assert_equal [422, [["#/first_comment", "not_supported"]]], [error.status, error.errors.map { |e| [e["pointer"], e["code"]] }]
    assert_match(/feed/, error.errors.first["detail"])
    dropped = create_post(account, "with a comment", first_comment: "and a comment", overrides: { feed: { first_comment: nil } })
    assert_equal ["and a comment", { "feed" => { "first_comment" => nil } }], [dropped.first_comment, dropped.overrides.to_h]
    assert_equal "and a comment", @client.posts.update(dropped.id, content: "kept").first_comment # left out: left as it is
    assert_nil @client.posts.update(dropped.id, first_comment: nil).first_comment
    made = @client.posts.create_many([{ account_id: account.id, content: "bulk", platforms: ["feed"], scheduled_at: Live.tomorrow,
                                        thread: [{ content: "bulk part" }] }])
    assert_equal "bulk part", made.first.thread.first.content
  end

  def test_accounts_connections_and_feeds
    account = Live.account(@client, "ruby accounts")
    assert_equal [["feed", "active"]], @client.accounts.get(account.id).connections.map { |c| [c.platform, c.status] }
    assert_includes @client.accounts.list(platform: "feed", limit: 1).map(&:id), account.id
    assert_match(/\A<\?xml.*<rss/m, @client.feeds.rss(account.id))
    assert_match(/<feed xmlns="http:\/\/www.w3.org\/2005\/Atom"/, @client.feeds.atom(account.id))
    assert_equal "https://jsonfeed.org/version/1.1", @client.feeds.json(account.id)["version"]
    assert_nil @client.accounts.disconnect(account.id, platform: "feed")
    assert_empty @client.accounts.get(account.id).connections
  end

  def test_platforms_say_how_they_connect_and_what_a_post_may_hold
    platforms = @client.platforms.list.to_h { |p| [p.name, p] }
    assert_equal %w[feed mastodon], platforms.keys.first(2)
    assert_equal %w[instance_url access_token], platforms["mastodon"].credentials
    assert_equal [300, "graphemes"], [platforms["bluesky"].limits.text.max, platforms["bluesky"].limits.text.count]
    assert_equal 1024, platforms["telegram"].limits.text.caption_max
    assert_nil platforms["feed"].limits.media.max
  end

  def test_api_keys_create_list_and_revoke
    key = @client.api_keys.create(name: "ruby reader", scopes: ["profile:read"], expires_at: Live.tomorrow)
    assert_match(/\S{16,}/, key.secret)
    assert_equal @client.me.id, Live.client(api_key: key.secret).me.id
    assert_includes @client.api_keys.list(limit: 1).map(&:id), key.id
    assert_nil @client.api_keys.revoke(key.id)
    assert_equal 401, assert_raises(Smm::ApiError) { Live.client(api_key: key.secret, max_retries: 0).me }.status
  end

  def test_create_many_makes_all_in_order_or_none
    account = Live.account(@client, "ruby bulk").id
    posts = Array.new(3) { |i| { account_id: account, content: "bulk #{i}", platforms: ["feed"], scheduled_at: Live.tomorrow } }
    assert_equal 3, @client.posts.validate_many(posts)
    made = @client.posts.create_many(posts)
    assert_equal ["bulk 0", "bulk 1", "bulk 2"], made.map(&:content)
    bad = [posts[0], posts[1].merge(platforms: ["myspace"])]
    error = assert_raises(Smm::ApiError) { @client.posts.create_many(bad) }
    assert_equal [422, ["#/posts/1/platforms/0"]], [error.status, error.errors.map { |e| e["pointer"] }]
  end

  def test_webhooks_update_list_and_deliveries
    webhook = @client.webhooks.create(url: ENV.fetch("SMM_TEST_RECEIVER_URL"), events: ["post.published"])
    updated = @client.webhooks.update(webhook.id, events: ["post.failed"], enabled: false)
    assert_equal [["post.failed"], false], [updated.events, updated.enabled]
    assert_equal ["post.failed"], @client.webhooks.get(webhook.id).events
    assert_includes @client.webhooks.list(limit: 1).map(&:id), webhook.id
    assert_empty @client.webhooks.deliveries(webhook.id).to_a
  ensure
    @client.webhooks.delete(webhook.id) if webhook
  end

  def test_ai_drafts_and_analytics
    drafts = @client.ai.generate(prompt: "Our roastery opens on Saturday", platforms: ["bluesky"], variants: 2)
    assert_equal 2, drafts.variants.size
    assert(drafts.variants.all? { |v| v.content.length.between?(1, 300) })
    report = @client.analytics.get(from: Time.now.utc - (7 * 86_400), interval: "week")
    assert_equal "week", report.interval
    assert_kind_of Integer, report.totals.posts_scheduled
  end

  def test_an_unknown_post_is_a_typed_404
    error = assert_raises(Smm::ApiError) { @client.posts.get("pst_does_not_exist") }
    assert_equal 404, error.status
    refute_empty error.code
    refute_nil error.request_id
  end

  def test_a_bad_field_names_it
    account = Live.account(@client, "ruby invalid")
    error = assert_raises(Smm::ApiError) { @client.posts.create(account_id: account.id, content: "x", platforms: ["myspace"]) }
    assert_equal 422, error.status
    assert(error.errors.any? { |e| e["pointer"].include?("/platforms/0") }, error.problem.inspect)
  end

  def test_validate_measures_and_creates_nothing
    account = Live.account(@client, "ruby validate")
    checked = @client.posts.validate(account_id: account.id, content: "Hello there", platforms: ["feed"],
                                     scheduled_at: "2099-01-02T03:04:05Z")
    assert_equal true, checked.valid
    assert_equal "2099-01-02T03:04:05.000Z", checked.scheduled_at
    assert_equal [{ "platform" => "feed", "length" => 11, "limit" => 10_000, "parts" => [], "warnings" => [] }], checked.targets.map(&:to_h)
    error = assert_raises(Smm::ApiError) { @client.posts.validate(account_id: account.id, content: "x", platforms: ["myspace"]) }
    assert(error.errors.any? { |e| e["pointer"] == "#/platforms/0" }, error.problem.inspect)
    assert_empty @client.posts.list(account_id: account.id).to_a
  end

  def test_list_follows_every_page
    account = Live.account(@client, "ruby paging")
    ids = Array.new(5) { |i| create_post(account, "page #{i}").id }
    listed = @client.posts.list(account_id: account.id, limit: 2)
    assert_kind_of Enumerable, listed
    assert_equal ids.sort, listed.map(&:id).sort
    assert_equal ids.sort, @client.posts.list(account_id: account.id, status: "scheduled", limit: 2).to_a.map(&:id).sort
    assert_empty @client.posts.list(account_id: account.id, status: "published").to_a
  end

  def test_the_same_idempotency_key_twice_makes_one_post
    account = Live.account(@client, "ruby idempotency")
    key = "ruby-#{Time.now.to_f}"
    # The very same request twice, as a retry sends it (the same scheduled_at too).
    at = Live.tomorrow
    first = create_post(account, "Only once", idempotency_key: key, scheduled_at: at)
    second = create_post(account, "Only once", idempotency_key: key, scheduled_at: at)
    assert_equal first.id, second.id
    assert_equal [first.id], @client.posts.list(account_id: account.id).map(&:id)
  end

  def test_a_429_is_retried_after_retry_after
    strict = Live.client(api_key: ENV.fetch("SMM_TEST_LIMITED_API_KEY"), max_retries: 0)
    error = nil
    3.times do
      strict.me
    rescue Smm::RateLimitError => e
      error = e
      break
    end
    refute_nil error, "the limited key met no 429 in three calls"
    assert_equal 429, error.status
    assert_operator error.retry_after, :>, 0

    waits = []
    patient = Live.client(api_key: ENV.fetch("SMM_TEST_LIMITED_API_KEY"),
                          sleep: lambda { |seconds|
                            waits << seconds
                            Live.advance_clock(seconds)
                          })
    assert_equal "limited", patient.me.name
    assert_equal [error.retry_after], waits
  end

  def test_a_webhook_delivered_by_the_daemon_verifies
    webhook = @client.webhooks.create(url: ENV.fetch("SMM_TEST_RECEIVER_URL"), events: ["*"], description: "ruby suite")
    assert_match(/\Awhsec_/, webhook.secret)
    event_id = @client.webhooks.test(webhook.id).event_id
    delivery = nil
    deadline = Time.now + 20
    until delivery || Time.now > deadline
      delivery = Live.deliveries.find { |d| d["headers"]["webhook-id"] == event_id }
      sleep 0.1 unless delivery # polling a real delivery over the network, not waiting out a timer
    end
    refute_nil delivery, "no delivery of #{event_id} reached the receiver in 20 s"

    now = Live.daemon_time
    event = Smm::Webhook.verify(delivery["body"], delivery["headers"], webhook.secret, now: now)
    assert_equal "webhook.test", event.type
    assert_raises(Smm::WebhookVerificationError) do
      Smm::Webhook.verify(delivery["body"].sub("webhook.test", "post.published"), delivery["headers"], webhook.secret, now: now)
    end
    assert_equal 204, receive_with_the_example(delivery, webhook.secret, now).first
    assert_equal 400, receive_with_the_example(delivery.merge("body" => "#{delivery['body']} "), webhook.secret, now).first

    rotated = @client.webhooks.rotate_secret(webhook.id)
    assert_raises(Smm::WebhookVerificationError) { Smm::Webhook.verify(delivery["body"], delivery["headers"], rotated.secret, now: now) }
  ensure
    @client.webhooks.delete(webhook.id) if webhook
  end

  # examples/webhooks.rb, the README's receiver, given the delivery as Rack would give it.
  # The README's receiver as it is written (verifying against Time.now), run at the daemon's time.
  def receive_with_the_example(delivery, secret, now)
    require_relative "../examples/webhooks"
    env = delivery["headers"].to_h { |name, value| ["HTTP_#{name.upcase.tr('-', '_')}", value] }
    env["rack.input"] = StringIO.new(delivery["body"])
    status = nil
    out, = capture_io { Time.stub(:now, now) { status = WebhookReceiver.new(secret).call(env) } }
    assert_match(/\Awebhook.test: /, out) if status.first == 204
    status
  end

  def test_a_wrong_ca_is_an_error
    require "local_server"
    _key, _cert, file = LocalServer.certificate("127.0.0.1")
    error = assert_raises(Smm::ConnectionError) { Live.client(ca_file: file.path, max_retries: 0).me }
    assert_match(/certificate verify failed/, error.message)
  ensure
    file&.unlink
  end
end
