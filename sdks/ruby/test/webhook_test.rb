# frozen_string_literal: true

require "test_helper"

# Smm::Webhook.verify against the Standard Webhooks test vector and every way a delivery is bad.
class WebhookTest < Minitest::Test
  # The vector published with the Standard Webhooks specification and reference libraries.
  SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
  ID = "msg_p5jXN8AQM9LWM0D4loKWxJek"
  TIMESTAMP = 1_614_265_330
  PAYLOAD = '{"test": 2432232314}'
  SIGNATURE = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
  AT = Time.at(TIMESTAMP)

  def headers(signature = SIGNATURE, timestamp: TIMESTAMP.to_s, id: ID)
    { "webhook-id" => id, "webhook-timestamp" => timestamp, "webhook-signature" => signature }
  end

  def refused(message, payload: PAYLOAD, headers: headers(), secret: SECRET, now: AT)
    error = assert_raises(Smm::WebhookVerificationError) { Smm::Webhook.verify(payload, headers, secret, now: now) }
    assert_match message, error.message
  end

  def test_the_vector_signs_as_published
    assert_equal SIGNATURE.delete_prefix("v1,"), Smm::Webhook.sign(ID, TIMESTAMP, PAYLOAD, SECRET)
  end

  def test_the_vector_verifies_and_returns_the_event
    assert_equal 2_432_232_314, Smm::Webhook.verify(PAYLOAD, headers, SECRET, now: AT).test
  end

  def test_the_secret_prefix_is_optional
    assert_equal 2_432_232_314, Smm::Webhook.verify(PAYLOAD, headers, SECRET.delete_prefix("whsec_"), now: AT)["test"]
  end

  def test_one_matching_signature_among_several_is_enough
    several = "v1,bm9wZQ== v2,#{SIGNATURE.delete_prefix('v1,')} #{SIGNATURE}"
    assert_equal 2_432_232_314, Smm::Webhook.verify(PAYLOAD, headers(several), SECRET, now: AT).test
  end

  def test_headers_in_any_case_or_as_rack_sees_them
    rack = { "HTTP_WEBHOOK_ID" => ID, "HTTP_WEBHOOK_TIMESTAMP" => TIMESTAMP.to_s, "HTTP_WEBHOOK_SIGNATURE" => SIGNATURE }
    assert Smm::Webhook.verify(PAYLOAD, rack, SECRET, now: AT)
    capitalised = { "Webhook-Id" => [ID], "Webhook-Timestamp" => [TIMESTAMP.to_s], "Webhook-Signature" => [SIGNATURE] }
    assert Smm::Webhook.verify(PAYLOAD, capitalised, SECRET, now: AT)
  end

  def test_headers_of_a_net_http_request
    request = Net::HTTP::Post.new("/hook", headers)
    assert Smm::Webhook.verify(PAYLOAD, request, SECRET, now: AT)
  end

  def test_a_changed_body_id_or_secret_is_refused
    refused(/no v1 signature/, payload: '{"test": 2432232315}')
    refused(/no v1 signature/, headers: headers(id: "msg_other"))
    refused(/no v1 signature/, secret: "whsec_#{['a' * 32].pack('m0')}")
  end

  def test_a_signature_of_another_version_or_length_is_refused
    refused(/no v1 signature/, headers: headers(SIGNATURE.sub("v1,", "v2,")))
    refused(/no v1 signature/, headers: headers("v1,#{SIGNATURE.delete_prefix('v1,')[0, 20]}"))
    refused(/no v1 signature/, headers: headers("garbage"))
  end

  def test_a_timestamp_older_or_newer_than_five_minutes_is_refused
    refused(/301 s old/, now: AT + 301)
    refused(/301 s in the future/, now: AT - 301)
    assert Smm::Webhook.verify(PAYLOAD, headers, SECRET, now: AT + 300)
  end

  def test_malformed_or_missing_headers_are_refused_not_crashes
    refused(/missing webhook-signature/, headers: headers.reject { |k, _| k == "webhook-signature" })
    refused(/missing webhook-id/, headers: headers.merge("webhook-id" => ""))
    refused(/not a timestamp/, headers: headers(timestamp: "1614265330.5"))
    refused(/not a timestamp/, headers: headers(timestamp: "yesterday"))
    refused(/not a whsec_ secret/, secret: "whsec_not base64!")
  end

  def test_a_signed_body_that_is_not_json_is_refused
    body = "not json"
    signature = "v1,#{Smm::Webhook.sign(ID, TIMESTAMP, body, SECRET)}"
    refused(/not JSON/, payload: body, headers: headers(signature))
  end
end
