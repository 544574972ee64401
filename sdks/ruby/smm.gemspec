# frozen_string_literal: true

require_relative "lib/smm/version"

Gem::Specification.new do |spec|
  spec.name = "smm"
  spec.version = Smm::VERSION
  spec.summary = "Ruby SDK for smm, the self-hosted social media management service"
  spec.description = "Every operation of the smm API over HTTPS, with paging, retries that never " \
                     "post twice, typed errors and webhook verification. Standard library only."
  spec.authors = ["The smm developers"]
  spec.license = "MIT"
  spec.required_ruby_version = ">= 3.1"
  spec.files = Dir["lib/**/*.rb"] + Dir["sig/*.rbs"] + ["README.md"]
  spec.require_paths = ["lib"]
  spec.metadata["rubygems_mfa_required"] = "true"
end
