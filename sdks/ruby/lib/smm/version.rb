# frozen_string_literal: true

module Smm
  VERSION = "0.1.0"
end
