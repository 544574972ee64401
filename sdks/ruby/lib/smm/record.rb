# frozen_string_literal: true

module Smm
  # A resource the API answered (a post, an account, a webhook…): each JSON field is a method
  # (`post.id`, `post.status`, `post.targets.first.platform`), and `#[]` / `#to_h` give the raw
  # data. `#etag` is the version a GET or a write answered, for `update(…, if_match:)`.
  class Record
    attr_reader :etag

    def initialize(data, etag: nil)
      @data = data
      @etag = etag
    end

    def self.wrap(value)
      case value
      when Hash then new(value)
      when Array then value.map { |item| wrap(item) }
      else value
      end
    end

    def [](key)
      @data[key.to_s]
    end

    def to_h
      @data
    end

    def ==(other)
      other.is_a?(Record) && other.to_h == @data
    end

    def inspect
      "#<#{self.class.name} #{@data.inspect}>"
    end

    private

    def respond_to_missing?(name, include_private = false)
      @data.key?(name.to_s) || super
    end

    def method_missing(name, *args)
      key = name.to_s
      return super unless args.empty? && @data.key?(key)

      Record.wrap(@data[key])
    end
  end
end
