# frozen_string_literal: true

require "json"
require "net/http"
require "openssl"
require "securerandom"
require "time"
require "uri"

module Smm
  # The API over HTTPS: authentication, retries, idempotency keys and errors, for every resource.
  #
  #   client = Smm::Client.new                      # SMM_URL, SMM_API_KEY, SMM_CA_FILE
  #   client.posts.create(account_id: "acc_…", content: "Hello", platforms: ["feed"])
  class Client
    # Failures with no HTTP answer that another attempt may get past. TLS verification
    # failures are not among them: a wrong certificate stays wrong.
    NETWORK_ERRORS = [
      Errno::ECONNREFUSED, Errno::ECONNRESET, Errno::EPIPE, Errno::ETIMEDOUT, Errno::EHOSTUNREACH,
      Net::OpenTimeout, Net::ReadTimeout, EOFError, IOError, SocketError, OpenSSL::SSL::SSLError
    ].freeze

    attr_reader :base_url, :max_retries, :posts, :platforms, :accounts, :webhooks, :api_keys, :ai, :analytics, :feeds, :workspaces, :media

    # base_url: the API's, with /v1 (added when the URL has no path); https only.
    # max_retries: how many times a 429, a 5xx or a connection failure is retried.
    # max_retry_wait: a Retry-After longer than this (seconds) is raised, not waited for.
    # sleep: what waits between attempts (a callable taking seconds); tests inject their own.
    def initialize(base_url: nil, api_key: nil, ca_file: nil, max_retries: 2, timeout: 30,
                   max_retry_wait: 60, sleep: ->(seconds) { Kernel.sleep(seconds) })
      @base_url = Client.normalize_base_url(base_url || ENV["SMM_URL"])
      @api_key = api_key || ENV["SMM_API_KEY"]
      if @api_key.nil? || @api_key.empty?
        raise ConfigurationError, "No API key: pass api_key: or set SMM_API_KEY (create one with `smm keys create`)"
      end
      @ca_file = ca_file || ENV["SMM_CA_FILE"]
      if @ca_file && !File.readable?(@ca_file)
        raise ConfigurationError, "ca_file #{@ca_file.inspect} cannot be read"
      end
      unless max_retries.is_a?(Integer) && max_retries >= 0
        raise ConfigurationError, "max_retries must be a whole number >= 0, got #{max_retries.inspect}"
      end

      @max_retries = max_retries
      @max_retry_wait = max_retry_wait
      @timeout = timeout
      @sleep = sleep
      @uri = URI(@base_url)
      @posts = Posts.new(self)
      @platforms = Platforms.new(self)
      @accounts = Accounts.new(self)
      @webhooks = Webhooks.new(self)
      @api_keys = ApiKeys.new(self)
      @ai = Ai.new(self)
      @analytics = Analytics.new(self)
      @feeds = Feeds.new(self)
      @workspaces = Workspaces.new(self)
      @media = Media.new(self)
    end

    # An https URL, with /v1 added when it has no path; anything else is refused before any
    # request, so the key never travels in clear.
    def self.normalize_base_url(url)
      raise ConfigurationError, "No base URL: pass base_url: or set SMM_URL (e.g. https://smm.example.com/v1)" if url.nil? || url.empty?

      uri = begin
        URI(url)
      rescue URI::InvalidURIError => e
        raise ConfigurationError, "base_url #{url.inspect} is not a URL: #{e.message}"
      end
      unless uri.scheme&.downcase == "https"
        raise ConfigurationError, "base_url #{url.inspect} must use https://: the API key would travel in clear over #{uri.scheme || 'no scheme'}"
      end
      raise ConfigurationError, "base_url #{url.inspect} has no host" if uri.host.nil? || uri.host.empty?

      path = uri.path.sub(%r{/+\z}, "")
      path = "/v1" if path.empty?
      "https://#{uri.host.include?(':') ? "[#{uri.host}]" : uri.host}:#{uri.port}#{path}"
    end

    # Never shows the key (irb, logs and error reports print this).
    def inspect
      "#<#{self.class.name} #{@base_url} max_retries=#{@max_retries}>"
    end

    # GET /v1/me: the user the key belongs to, with their plan and limits.
    def me
      Record.wrap(request("GET", "/v1/me").body)
    end

    # PATCH /v1/me: changes your own name or IANA time zone (scope profile:write).
    def update_me(name: nil, timezone: nil)
      body = { name: name, timezone: timezone }.compact
      Record.wrap(request("PATCH", "/v1/me", body: body).body)
    end

    # GET /healthz (no key needed).
    def health
      Record.wrap(request("GET", "/healthz").body)
    end

    # GET /readyz (no key needed): the database answers within a second; Smm::Error store_unavailable when not.
    def ready
      Record.wrap(request("GET", "/readyz").body)
    end

    # GET /v1/openapi.json, as a Hash.
    def openapi
      request("GET", "/v1/openapi.json").body
    end

    # Sends one request, retrying 429, 5xx and connection failures up to max_retries times.
    # A POST always carries an Idempotency-Key (the one given, or a new one), the same on every
    # attempt, so a retried create never makes two resources.
    # path is the OpenAPI path (`/v1/posts/{id}`), filled from params.
    # upload: an Smm::Upload sends a file or bytes as they are instead of a JSON body.
    def request(method, path, params: {}, query: nil, body: nil, idempotency_key: nil, if_match: nil, upload: nil)
      headers = {
        "Authorization" => "Bearer #{@api_key}",
        "Accept" => "application/json",
        "User-Agent" => "smm-ruby/#{VERSION} ruby/#{RUBY_VERSION}"
      }
      headers["Idempotency-Key"] = idempotency_key || SecureRandom.uuid if method == "POST"
      headers["If-Match"] = if_match if if_match
      payload = nil
      if upload
        payload = upload
        headers["Content-Type"] = upload.content_type
      elsif !body.nil?
        headers["Content-Type"] = "application/json"
        payload = JSON.generate(body)
      end
      target = URI("#{@uri.scheme}://#{@uri.host}:#{@uri.port}#{expand(path, params)}")
      target.query = URI.encode_www_form(query.compact) if query && !query.compact.empty?

      attempt = 0
      loop do
        wait = nil
        begin
          response = send_once(method, target, headers, payload)
        rescue *NETWORK_ERRORS => e
          # A connection cut mid-TLS is a network failure like any other; a certificate refused is not.
          if e.is_a?(OpenSSL::SSL::SSLError) && e.message.match?(/certificate|hostname/i)
            raise ConnectionError, "TLS with #{@uri.host}:#{@uri.port} failed: #{e.message}" \
                                   "#{@ca_file ? " (trusting #{@ca_file})" : ' (set ca_file: or SMM_CA_FILE for a self-signed daemon)'}"
          end
          raise ConnectionError, "#{method} #{target} failed after #{attempt + 1} attempt(s): #{e.class}: #{e.message}" if attempt >= @max_retries

          wait = backoff(attempt)
        end
        if response
          return response if response.status < 400

          error = Client.error_for(response)
          raise error unless attempt < @max_retries && Client.retryable?(error)

          wait = error.is_a?(RateLimitError) ? error.retry_after : (Client.retry_after(response.headers) || backoff(attempt))
          raise error if wait > @max_retry_wait
        end
        @sleep.call(wait)
        attempt += 1
      end
    end

    # One answer: status, lower-cased headers, and the body (parsed when JSON).
    Response = Struct.new(:status, :headers, :body, keyword_init: true) do
      def etag
        headers["etag"]
      end
    end

    def self.error_for(response)
      problem = response.body.is_a?(Hash) ? response.body : { "detail" => response.body.to_s }
      args = { status: response.status, problem: problem, headers: response.headers }
      case response.status
      when 429 then RateLimitError.new(retry_after: retry_after(response.headers) || 1, **args)
      when 412 then PreconditionFailedError.new(**args)
      else ApiError.new(**args)
      end
    end

    # Worth another attempt: rate limited, a server failure, or the first attempt of this very
    # request (same Idempotency-Key) still being processed after a timeout.
    def self.retryable?(error)
      error.status == 429 || error.status >= 500 || error.code == "idempotency_key_in_use"
    end

    # Retry-After in seconds (delta-seconds or an HTTP date), or nil.
    def self.retry_after(headers)
      value = headers["retry-after"]
      return nil if value.nil?
      return Integer(value, 10) if value.match?(/\A\d+\z/)

      [(Time.httpdate(value) - Time.now).ceil, 0].max
    rescue ArgumentError
      nil
    end

    private

    def expand(path, params)
      filled = path.gsub(/\{(\w+)\}/) do
        value = params.fetch(Regexp.last_match(1).to_sym) { raise ArgumentError, "missing path parameter #{Regexp.last_match(1)}" }
        raise ArgumentError, "#{Regexp.last_match(1)} must not be empty" if value.to_s.empty?

        URI.encode_www_form_component(value.to_s).gsub("+", "%20")
      end
      # The OpenAPI paths start with /v1; the base URL says where /v1 really is.
      prefix = @uri.path.sub(%r{/v1\z}, "")
      filled.start_with?("/v1/") ? "#{@uri.path}#{filled.delete_prefix('/v1')}" : "#{prefix}#{filled}"
    end

    def backoff(attempt)
      [0.5 * (2**attempt), 8].min
    end

    def send_once(method, target, headers, payload)
      http = Net::HTTP.new(target.host, target.port)
      http.use_ssl = true
      http.verify_mode = OpenSSL::SSL::VERIFY_PEER
      http.verify_hostname = true
      http.ca_file = @ca_file if @ca_file
      http.open_timeout = @timeout
      http.read_timeout = @timeout
      request = Net::HTTPGenericRequest.new(method, !payload.nil?, method != "HEAD", target.request_uri, headers)
      raw = if payload.is_a?(Upload)
              # Streamed: read from its start for this attempt, never whole in memory.
              payload.open do |stream|
                request.body_stream = stream
                request.content_length = payload.length
                http.start { |connection| connection.request(request) }
              end
            else
              request.body = payload if payload
              http.start { |connection| connection.request(request) }
            end
      response_headers = raw.each_header.to_h
      text = raw.body.to_s
      parsed = if text.empty?
                 nil
               elsif response_headers["content-type"].to_s.match?(%r{\Aapplication/(problem\+)?json|\+json})
                 JSON.parse(text)
               else
                 text
               end
      Response.new(status: raw.code.to_i, headers: response_headers, body: parsed)
    rescue JSON::ParserError => e
      raise ConnectionError, "#{method} #{target} answered malformed JSON (#{e.message})"
    end
  end
end
