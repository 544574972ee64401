# frozen_string_literal: true

require "stringio"

module Smm
  # A body sent as it is (a media file): a file read from the disk as it is sent, never whole in
  # memory, or bytes; opened anew for each attempt, so a retry sends it again from its start.
  class Upload
    attr_reader :content_type, :length

    # source: a path (a String or a Pathname), or the bytes themselves as a binary String (what
    # File.binread gives). on_progress, if given, is called with (sent, total) as the bytes leave.
    def initialize(source, content_type, on_progress = nil)
      @content_type = content_type
      @on_progress = on_progress
      if source.is_a?(String) && source.encoding == Encoding::BINARY
        @bytes = source
        @length = source.bytesize
      else
        @path = source.to_s
        @length = File.size(@path) # Errno::ENOENT before anything is sent
      end
    end

    # Yields the bytes as an IO-like stream that counts what is read from it, then closes it.
    def open
      io = @bytes ? StringIO.new(@bytes) : File.open(@path, "rb")
      yield Counting.new(io, @length, @on_progress)
    ensure
      io&.close
    end

    # What Net::HTTP reads the body from (IO.copy_stream calls #read): tells on_progress as it goes.
    class Counting
      def initialize(io, total, on_progress)
        @io = io
        @total = total
        @on_progress = on_progress
        @sent = 0
      end

      def read(length = nil, buffer = nil)
        chunk = @io.read(length, buffer)
        if chunk
          @sent += chunk.bytesize
          @on_progress&.call(@sent, @total)
        end
        chunk
      end
    end
    private_constant :Counting
  end
end
