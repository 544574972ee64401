# frozen_string_literal: true

require "smm"

# A Rack app for the URL given to client.webhooks.create; secret: the whsec_… it answered.
class WebhookReceiver
  def initialize(secret)
    @secret = secret
  end

  def call(env)
    event = Smm::Webhook.verify(env["rack.input"].read, env, @secret) # the raw body, unparsed
    puts "#{event.type}: #{event.data.to_h}"
    [204, {}, []]
  rescue Smm::WebhookVerificationError => e
    [400, { "content-type" => "text/plain" }, [e.message]]
  end
end
