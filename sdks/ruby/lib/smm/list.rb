# frozen_string_literal: true

module Smm
  # Every item of a list, page after page: the next page is fetched (following `next_cursor`)
  # only when the items before it have been used. `limit` is the page size.
  #
  #   client.posts.list(status: "scheduled").each { |post| puts post.id }
  #   client.posts.list.first(5)
  class List
    include Enumerable

    def initialize(client, path, params: {}, query: {})
      @client = client
      @path = path
      @params = params
      @query = query
    end

    def each
      return enum_for(:each) unless block_given?

      cursor = nil
      loop do
        page = @client.request("GET", @path, params: @params, query: @query.merge(cursor: cursor)).body
        page.fetch("data").each { |item| yield Record.wrap(item) }
        cursor = page["next_cursor"]
        break unless page["has_more"] && cursor
      end
    end
  end
end
