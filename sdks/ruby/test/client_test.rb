# frozen_string_literal: true

require "test_helper"
require "local_server"

# The client's transport, against a local HTTPS server that answers as scripted.
class ClientTest < Minitest::Test
  POST = '{"id":"pst_1","status":"scheduled"}'
  JSON_TYPE = { "Content-Type" => "application/json" }.freeze

  def setup
    @slept = []
  end

  def teardown
    @server&.close
  end

  def client(**options)
    Smm::Client.new(base_url: @server.url, api_key: "smm_test", ca_file: @server.ca_file,
                    sleep: ->(seconds) { @slept << seconds }, **options)
  end

  def create(client, **options)
    client.posts.create(account_id: "acc_1", content: "hi", platforms: ["feed"], **options)
  end

  def test_an_http_base_url_is_refused_before_any_request
    listener = TCPServer.new("127.0.0.1", 0)
    error = assert_raises(Smm::ConfigurationError) do
      Smm::Client.new(base_url: "http://127.0.0.1:#{listener.addr[1]}/v1", api_key: "smm_test")
    end
    assert_match(/must use https:\/\//, error.message)
    assert_equal :wait_readable, listener.accept_nonblock(exception: false), "no connection was attempted"
  ensure
    listener&.close
  end

  def test_a_base_url_without_a_path_gets_v1
    assert_equal "https://api.example.com:443/v1", Smm::Client.normalize_base_url("https://api.example.com")
    assert_equal "https://api.example.com:8443/smm/v1", Smm::Client.normalize_base_url("https://api.example.com:8443/smm/v1/")
  end

  def test_inspect_never_shows_the_key
    shown = Smm::Client.new(base_url: "https://api.example.com", api_key: "smm_secret_value").inspect
    assert_equal "#<Smm::Client https://api.example.com:443/v1 max_retries=2>", shown
  end

  def test_a_missing_key_or_url_says_which_variable
    without = ENV.to_h.slice("SMM_URL", "SMM_API_KEY")
    ENV.delete("SMM_URL")
    ENV.delete("SMM_API_KEY")
    assert_match(/SMM_URL/, assert_raises(Smm::ConfigurationError) { Smm::Client.new(api_key: "k") }.message)
    assert_match(/SMM_API_KEY/, assert_raises(Smm::ConfigurationError) { Smm::Client.new(base_url: "https://x.example") }.message)
  ensure
    ENV.update(without)
  end

  def test_a_retried_create_resends_the_same_idempotency_key
    @server = LocalServer.new([:drop, [503, JSON_TYPE, '{"code":"unavailable","detail":"busy"}'], [201, JSON_TYPE, POST]])
    post = create(client)
    assert_equal "pst_1", post.id
    keys = @server.requests.map { |r| r.headers["idempotency-key"] }
    assert_equal 3, keys.size
    assert_equal 1, keys.uniq.size, "every attempt carries the first one's key"
    refute_empty keys.first
    assert_equal [0.5, 1.0], @slept
  end

  def test_a_create_still_in_flight_under_its_key_is_retried_after_retry_after
    in_use = '{"code":"idempotency_key_in_use","detail":"still being processed"}'
    @server = LocalServer.new([[409, JSON_TYPE.merge("Retry-After" => "1"), in_use], [201, JSON_TYPE, POST]])
    assert_equal "pst_1", create(client).id
    assert_equal [1], @slept
    assert_equal 1, @server.requests.map { |r| r.headers["idempotency-key"] }.uniq.size
  end

  def test_the_callers_idempotency_key_is_sent
    @server = LocalServer.new([[201, JSON_TYPE, POST]])
    create(client, idempotency_key: "order-42")
    assert_equal "order-42", @server.requests.first.headers["idempotency-key"]
  end

  def test_retries_are_bounded_then_the_error_is_raised
    problem = '{"code":"internal_error","detail":"boom","status":500,"instance":"/v1/posts"}'
    @server = LocalServer.new([[500, JSON_TYPE.merge("X-Request-Id" => "req_9"), problem]] * 2)
    error = assert_raises(Smm::ApiError) { create(client(max_retries: 1)) }
    assert_equal [500, "internal_error", "boom", "req_9"], [error.status, error.code, error.problem["detail"], error.request_id]
    assert_equal 2, @server.requests.size
  end

  def test_a_client_error_is_not_retried
    problem = '{"code":"validation_failed","detail":"bad","errors":[{"pointer":"/content","code":"too_long","detail":"too long"}]}'
    @server = LocalServer.new([[422, JSON_TYPE, problem]])
    error = assert_raises(Smm::ApiError) { create(client) }
    assert_equal [422, "/content"], [error.status, error.errors.first["pointer"]]
    assert_equal 1, @server.requests.size
    assert_empty @slept
  end

  def test_a_retry_after_longer_than_max_retry_wait_is_raised_not_waited
    @server = LocalServer.new([[429, JSON_TYPE.merge("Retry-After" => "3600"), '{"code":"rate_limited","detail":"slow down"}']])
    error = assert_raises(Smm::RateLimitError) { client.me }
    assert_equal 3600, error.retry_after
    assert_empty @slept
  end

  def test_a_connection_refused_is_retried_then_raised
    @server = LocalServer.new([])
    port = @server.port
    @server.close
    @server = nil
    c = Smm::Client.new(base_url: "https://127.0.0.1:#{port}", api_key: "k", sleep: ->(s) { @slept << s })
    assert_raises(Smm::ConnectionError) { c.me }
    assert_equal [0.5, 1.0], @slept
  end

  def test_a_certificate_from_another_ca_is_an_error
    @server = LocalServer.new([[200, JSON_TYPE, "{}"]])
    _key, _cert, other = LocalServer.certificate("127.0.0.1")
    c = Smm::Client.new(base_url: @server.url, api_key: "k", ca_file: other.path, sleep: ->(s) { @slept << s })
    error = assert_raises(Smm::ConnectionError) { c.me }
    assert_match(/TLS .* failed: .*certificate verify failed/, error.message)
    assert_empty @slept, "a wrong certificate is not retried"
  ensure
    other&.unlink
  end

  def test_a_certificate_for_another_host_is_an_error
    @server = LocalServer.new([[200, JSON_TYPE, "{}"]], hostname: "elsewhere.example")
    error = assert_raises(Smm::ConnectionError) { client.me }
    # OpenSSL checks the name during the handshake ("hostname mismatch"); older openssl gems checked after it ("does not match").
    assert_match(/TLS .* failed: .*(hostname mismatch|does not match)/, error.message)
    assert_empty @server.requests
  end

  def test_an_expired_certificate_is_an_error
    @server = LocalServer.new([[200, JSON_TYPE, "{}"]], expires: Time.now - 60)
    error = assert_raises(Smm::ConnectionError) { client.me }
    assert_match(/certificate has expired/, error.message)
    assert_empty @server.requests
  end
end
