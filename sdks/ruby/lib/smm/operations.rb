# frozen_string_literal: true

module Smm
  # Every operation of the API (its OpenAPI operationId) and the method that calls it, as
  # receiver path then method name: `%i[posts create]` is `client.posts.create`. The suite fails
  # when /v1/openapi.json has an operation missing here, so adding one is a method plus a line.
  OPERATIONS = {
    "getHealth" => %i[health],
    "getOpenApi" => %i[openapi],
    "getMe" => %i[me],
    "updateMe" => %i[update_me],
    "listApiKeys" => %i[api_keys list],
    "createApiKey" => %i[api_keys create],
    "revokeApiKey" => %i[api_keys revoke],
    "generateContent" => %i[ai generate],
    "listWebhooks" => %i[webhooks list],
    "createWebhook" => %i[webhooks create],
    "getWebhook" => %i[webhooks get],
    "updateWebhook" => %i[webhooks update],
    "deleteWebhook" => %i[webhooks delete],
    "testWebhook" => %i[webhooks test],
    "rotateWebhookSecret" => %i[webhooks rotate_secret],
    "listWebhookDeliveries" => %i[webhooks deliveries],
    "resendWebhookDelivery" => %i[webhooks resend_delivery],
    "listPlatforms" => %i[platforms list],
    "listAccounts" => %i[accounts list],
    "createAccount" => %i[accounts create],
    "getAccount" => %i[accounts get],
    "updateAccount" => %i[accounts update],
    "deleteAccount" => %i[accounts delete],
    "connectAccount" => %i[accounts connect],
    "disconnectAccount" => %i[accounts disconnect],
    "getQueue" => %i[accounts queue],
    "setQueue" => %i[accounts set_queue],
    "listPosts" => %i[posts list],
    "createPost" => %i[posts create],
    "validatePost" => %i[posts validate],
    "createPosts" => %i[posts create_many],
    "getPost" => %i[posts get],
    "updatePost" => %i[posts update],
    "schedulePost" => %i[posts schedule],
    "cancelPost" => %i[posts cancel],
    "retryPost" => %i[posts retry],
    "getRssFeed" => %i[feeds rss],
    "getAtomFeed" => %i[feeds atom],
    "getJsonFeed" => %i[feeds json],
    "getHtmlFeed" => %i[feeds html],
    "getAnalytics" => %i[analytics get]
  }.freeze
end
