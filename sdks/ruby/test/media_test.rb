# frozen_string_literal: true

require "digest"
require "pathname"
require "tmpdir"
require "zlib"
require "test_helper"

# Media against the daemon: a file streamed from its path or given as bytes, alt text, posts that use it.
class MediaTest < Minitest::Test
  def setup
    Live.require_daemon!(self)
    @smm = Live.client
  end

  # A grey PNG; padding bytes of comment (a tEXt chunk) make it as large as a test needs.
  def png(width, height, padding: 0)
    chunk = ->(kind, data) { [data.bytesize].pack("N") + kind + data + [Zlib.crc32(kind + data)].pack("N") }
    rows = ("\x00".b + ("\x80".b * width)) * height
    comment = padding.positive? ? chunk.call("tEXt".b, "Comment\x00".b + ("x".b * padding)) : "".b
    "\x89PNG\r\n\x1a\n".b + chunk.call("IHDR".b, [width, height, 8, 0, 0, 0, 0].pack("NNCCCCC")) + comment +
      chunk.call("IDAT".b, Zlib::Deflate.deflate(rows)) + chunk.call("IEND".b, "".b)
  end

  def test_a_path_is_streamed_from_the_disk_and_its_progress_told
    # A retried upload tells its progress again from 0. Minitest runs the tests in a random order,
    # and on the daemon's manual clock the suite's requests share a rate-limit minute: in some
    # orders this upload met a 429 and was sent twice. In a fresh minute it is sent once.
    Live.advance_clock(60)
    data = png(1200, 800, padding: 300_000)
    Dir.mktmpdir do |dir|
      path = Pathname(dir).join("field.png")
      File.binwrite(path, data)
      told = []
      media = @smm.media.upload(path, content_type: "image/png", alt_text: "A grey field") { |sent, total| told << [sent, total] }
      assert_equal ["image/png", 1200, 800, data.bytesize, "A grey field", Digest::SHA256.hexdigest(data)],
                   [media.content_type, media.width, media.height, media.bytes, media.alt_text, media.sha256]
      assert_operator told.size, :>, 2
      assert_equal [data.bytesize, data.bytesize], told.last
      assert_equal told.map(&:first).sort, told.map(&:first)
      assert_equal data, @smm.media.file(media.url.split("/").last).b
      # A path as a plain String works the same; a missing one raises before anything is sent.
      assert_equal data.bytesize, @smm.media.upload(path.to_s, content_type: "image/png").bytes
      assert_raises(Errno::ENOENT) { @smm.media.upload(File.join(dir, "missing.png"), content_type: "image/png") }
    end
  end

  def test_bytes_then_get_list_update_delete_and_posts
    error = assert_raises(Smm::ApiError) { @smm.media.upload(png(8, 8), content_type: "image/jpeg") }
    assert_equal [422, "media_type_mismatch"], [error.status, error.code]
    media = @smm.media.upload(png(300, 200), content_type: "image/png")
    assert_nil media.alt_text
    assert_equal media.id, @smm.media.get(media.id).id
    assert_includes @smm.media.list(limit: 2).map(&:id), media.id
    assert_equal "Two blocks", @smm.media.update(media.id, alt_text: "Two blocks").alt_text

    account = Live.account(@smm, "ruby media")
    post = @smm.posts.create(account_id: account.id, content: "With media", platforms: ["feed"], scheduled_at: Live.tomorrow,
                             media: [{ id: media.id, alt_text: "The post's own" }])
    assert_equal [[media.id, "The post's own", 300]], post.media.map { |m| [m.id, m.alt_text, m.width] }
    in_use = assert_raises(Smm::ApiError) { @smm.media.delete(media.id) }
    assert_equal [409, "media_in_use"], [in_use.status, in_use.code]
    assert_equal [], @smm.posts.update(post.id, media: []).media
    assert_nil @smm.media.delete(media.id)
    gone = assert_raises(Smm::ApiError) { @smm.media.get(media.id) }
    assert_equal 404, gone.status
  end
end
