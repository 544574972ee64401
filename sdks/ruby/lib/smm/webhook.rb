# frozen_string_literal: true

require "json"
require "openssl"

module Smm
  # Verifies the webhooks smm delivers (the Standard Webhooks scheme).
  module Webhook
    # How far a delivery's webhook-timestamp may be from now, either way, in seconds.
    TOLERANCE = 5 * 60

    module_function

    # payload: the raw body, exactly as received (not re-serialised JSON); headers: a Hash (any
    # case, "webhook-id" or Rack's "HTTP_WEBHOOK_ID"); secret: the endpoint's `whsec_…` secret.
    # Returns the event (#type, #timestamp, #data) or raises WebhookVerificationError.
    def verify(payload, headers, secret, now: Time.now)
      id = header(headers, "webhook-id")
      timestamp = header(headers, "webhook-timestamp")
      signatures = header(headers, "webhook-signature")
      raise WebhookVerificationError, "not a timestamp: webhook-timestamp #{timestamp.inspect}" unless timestamp.match?(/\A\d{1,15}\z/)

      age = now.to_i - Integer(timestamp, 10)
      raise WebhookVerificationError, "webhook-timestamp is #{age} s old: older than #{TOLERANCE} s, refused as a replay" if age > TOLERANCE
      raise WebhookVerificationError, "webhook-timestamp is #{-age} s in the future: more than #{TOLERANCE} s" if -age > TOLERANCE

      expected = sign(id, timestamp, payload, secret)
      matched = signatures.split(" ").any? do |entry|
        version, signature = entry.split(",", 2)
        version == "v1" && signature&.bytesize == expected.bytesize && OpenSSL.fixed_length_secure_compare(signature, expected)
      end
      raise WebhookVerificationError, "no v1 signature in webhook-signature matches this payload and secret" unless matched

      Record.new(JSON.parse(payload))
    rescue JSON::ParserError => e
      raise WebhookVerificationError, "the signed payload is not JSON: #{e.message}"
    end

    # The base64 HMAC-SHA256 of "id.timestamp.payload" with the secret (whsec_ prefix optional).
    def sign(id, timestamp, payload, secret)
      key = begin
        # (base64 lives in a gem of its own from Ruby 3.4; pack's "m0" is strict base64 in the core)
        secret.to_s.delete_prefix("whsec_").unpack1("m0")
      rescue ArgumentError
        raise WebhookVerificationError, "the secret is not a whsec_ secret (base64 after the prefix)"
      end
      [OpenSSL::HMAC.digest("SHA256", key, "#{id}.#{timestamp}.#{payload}")].pack("m0")
    end

    def header(headers, name)
      headers = headers.each_header.to_h if headers.respond_to?(:each_header) # a Net::HTTP request
      rack = "HTTP_#{name.upcase.tr('-', '_')}"
      found = headers.find { |key, _| key.to_s.casecmp?(name) || key.to_s == rack }
      value = found && (found[1].is_a?(Array) ? found[1].join(" ") : found[1].to_s)
      raise WebhookVerificationError, "missing #{name} header" if value.nil? || value.empty?

      value
    end
    private_class_method :header
  end
end
