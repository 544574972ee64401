# frozen_string_literal: true

# The Ruby SDK of smm, the self-hosted social media management service. Standard library only.
require_relative "smm/version"
require_relative "smm/errors"
require_relative "smm/record"
require_relative "smm/list"
require_relative "smm/upload"
require_relative "smm/client"
require_relative "smm/resources"
require_relative "smm/operations"
require_relative "smm/webhook"
