# frozen_string_literal: true

require "test_helper"
require "open3"
require "rbconfig"

# The README's snippets are these files: run, they must do what the README says.
class ExamplesTest < Minitest::Test
  ROOT = File.expand_path("..", __dir__)

  def setup
    Live.require_daemon!(self)
  end

  def run_example(name)
    # An example waits in wall time: with the daemon's manual clock, start it in a fresh rate-limit minute.
    Live.advance_clock(60)
    out, err, status = Open3.capture3(RbConfig.ruby, "-I#{ROOT}/lib", "#{ROOT}/examples/#{name}.rb")
    assert status.success?, "examples/#{name}.rb failed: #{out}#{err}"
    assert_empty err
    out
  end

  def test_quickstart_schedules_a_post
    id = run_example("quickstart")[/\A(\S+) is scheduled for /, 1]
    refute_nil id
    assert_equal "Hello from Ruby", Live.client.posts.get(id).content
  end

  def test_errors_prints_the_problem_and_its_fields
    out = run_example("errors")
    assert_match(/\A422 validation_error: .+ \(request req_\w+\)\n  #\/platforms\/0: must be one of: feed/, out)
  end

  def test_pagination_lists_every_scheduled_post
    client = Live.client
    account = Live.account(client, "example paging")
    3.times { |i| client.posts.create(account_id: account.id, content: "paging example #{i}", platforms: ["feed"], scheduled_at: Live.tomorrow) }
    out = run_example("pagination")
    3.times { |i| assert_includes out, "paging example #{i}" }
    assert_match(/^first three: \S+, \S+, \S+$/, out)
  end

  def test_threads_schedules_a_thread_with_the_feeds_own_version
    id, parts, text = run_example("threads").chomp.split(" ", 3)
    assert_equal ["2", "Threads are here: read all about it below."], [parts, text]
    post = Live.client.posts.get(id)
    assert_equal ["Changelog: https://example.com/changelog", { "feed" => { "content" => text, "first_comment" => nil } }],
                 [post.first_comment, post.overrides.to_h]
  end

  def test_retries_make_one_post_for_one_key
    first, second = run_example("retries").split("\n")
    assert_equal first, second
  end
end

# The README shows the examples as they are: a snippet edited in one place only fails here.
class ReadmeTest < Minitest::Test
  def test_every_example_is_in_the_readme_verbatim
    readme = File.read(File.join(ExamplesTest::ROOT, "README.md"))
    Dir[File.join(ExamplesTest::ROOT, "examples", "*.rb")].each do |file|
      assert_includes readme, "```ruby\n#{File.read(file).strip}\n```", "#{File.basename(file)} differs from the README"
    end
  end
end

# The README's method table names the method of every operation (Smm::OPERATIONS, which the
# daemon's OpenAPI document checks): a top-level one as `client.<method>`, a resource's in the
# row of `client.<resource>`.
class ReadmeMethodTableTest < Minitest::Test
  def test_it_names_every_method_of_an_operation
    rows = File.readlines(File.expand_path("../README.md", __dir__), chomp: true).select { |line| line.start_with?("|") }
    missing = Smm::OPERATIONS.reject do |_id, (*receivers, method)|
      rows.any? do |row|
        spans = row.scan(/`([^`]*)`/).flatten
        if receivers.empty?
          spans.any? { |span| span.match?(/\bclient\.#{method}\b/) }
        else
          row.split("|")[1].include?("client.#{receivers.first}") && spans.any? { |span| span.match?(/\b#{method}\b/) }
        end
      end
    end
    assert_empty missing.keys, "operations whose method the README's table leaves out"
  end
end
