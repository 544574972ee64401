# frozen_string_literal: true

module Smm
  # Every error this SDK raises is an Smm::Error, so `rescue Smm::Error` catches them all.
  class Error < StandardError; end

  # The client was given something it cannot work with (an http:// URL, no API key…);
  # raised before any request is sent.
  class ConfigurationError < Error; end

  # No HTTP answer: the connection was refused or reset, it timed out, or TLS failed
  # (a wrong CA, an expired certificate, a hostname mismatch). #cause holds the original.
  class ConnectionError < Error; end

  # The API answered with an error status. Its body is an RFC 9457 problem.
  class ApiError < Error
    attr_reader :status, :code, :problem, :request_id, :headers

    def initialize(status:, problem:, headers: {})
      @status = status
      @problem = problem
      @code = problem["code"] || "http_#{status}"
      @headers = headers
      @request_id = headers["x-request-id"]
      super("#{status} #{@code}: #{detail}")
    end

    def detail
      problem["detail"] || problem["title"] || "HTTP #{status}"
    end

    def title
      problem["title"]
    end

    # The per-field errors: an Array of Hashes with "pointer", "code" and "detail".
    def errors
      problem["errors"] || []
    end
  end

  # 429: too many requests. #retry_after is the wait the API asked for, in seconds.
  class RateLimitError < ApiError
    attr_reader :retry_after

    def initialize(retry_after:, **rest)
      @retry_after = retry_after
      super(**rest)
    end
  end

  # 412: the version given in If-Match is no longer the resource's.
  class PreconditionFailedError < ApiError; end

  # A webhook delivery whose headers, signature or timestamp do not check out.
  class WebhookVerificationError < Error; end
end
