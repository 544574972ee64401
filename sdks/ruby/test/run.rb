# frozen_string_literal: true

# Runs every test: `ruby -Ilib -Itest test/run.rb` from sdks/ruby.
require "minitest/autorun"
Dir[File.join(__dir__, "**", "*_test.rb")].sort.each { |file| require file }
