# frozen_string_literal: true

require "test_helper"
require "openssl"
require "time"

# Workspaces, members and roles, approval, comments, the audit log and review links against the
# daemon: the owner's key and a second user's.
class WorkspacesTest < Minitest::Test
  def setup
    Live.require_daemon!(self)
    @owner = Live.client
    @member = Live.client(api_key: ENV.fetch("SMM_TEST_MEMBER_API_KEY"))
    @cleanup = []
  end

  def api_error(status, code)
    error = assert_raises(Smm::ApiError) { yield }
    assert_equal [status, code], [error.status, error.code], error.message
    error
  end

  # A workspace requiring approval where the member is an editor, with a feed account, and a post
  # the member wrote there, waiting for approval. The caller deletes the workspace (see #teardown).
  def pending_post(name, content)
    team = @owner.workspaces.create(name: name, approval_required: true)
    @owner.workspaces.add_member(team.id, user_id: @member.me.id, role: "editor")
    brand = @owner.accounts.create(name: "#{name} brand", workspace_id: team.id)
    @cleanup << [team, brand]
    @owner.accounts.connect(brand.id, platform: "feed")
    post = @member.posts.create(account_id: brand.id, content: content, platforms: ["feed"], scheduled_at: "2099-01-01T09:00:00Z")
    assert_equal "pending_approval", post.status
    [team, post]
  end

  def teardown
    @cleanup&.each do |team, brand|
      @owner.accounts.delete(brand.id, cancel_posts: true)
      @owner.workspaces.delete(team.id)
    end
  end

  # GETs a review link's URL as a reviewer's browser would: plain HTTPS, no key.
  def open_page(url)
    uri = URI(url)
    Net::HTTP.start(uri.host, uri.port, use_ssl: true, ca_file: ENV.fetch("SMM_CA_FILE"), verify_mode: OpenSSL::SSL::VERIFY_PEER) do |http|
      response = http.get(uri.request_uri)
      [response.code.to_i, response, response.body.force_encoding(Encoding::UTF_8)]
    end
  end

  def test_members_act_by_their_role_and_lose_access_when_removed
    me = @member.me
    team = @owner.workspaces.create(name: "Ruby team", approval_required: true, timezone: "Europe/Berlin")
    assert_equal ["owner", false, true, "Europe/Berlin"], [team.role, team.personal, team.approval_required, team.timezone]

    added = @owner.workspaces.add_member(team.id, email: ENV.fetch("SMM_TEST_MEMBER_EMAIL"), role: "viewer")
    assert_equal [me.id, "viewer"], [added.user_id, added.role]
    api_error(409, "already_member") { @owner.workspaces.add_member(team.id, user_id: me.id, role: "admin") }
    unknown = api_error(422, "validation_error") { @owner.workspaces.add_member(team.id, user_id: me.id, role: "boss") }
    assert_equal "#/role", unknown.errors.first["pointer"]
    assert_includes @member.workspaces.list.map { |w| [w.id, w.role] }, [team.id, "viewer"]

    # A viewer reads; managing accounts needs admin or owner.
    api_error(403, "forbidden") { @member.accounts.create(name: "Not mine to make", workspace_id: team.id) }
    assert_equal "admin", @owner.workspaces.set_role(team.id, user_id: me.id, role: "admin").role
    account = @member.accounts.create(name: "Team brand", workspace_id: team.id)
    assert_equal team.id, account.workspace_id
    assert_equal [account.id], @owner.accounts.list(workspace_id: team.id).map(&:id)
    assert_equal %w[admin owner], @owner.workspaces.members(team.id, limit: 1).map(&:role).sort

    # Removed, the member loses access at once.
    @owner.workspaces.remove_member(team.id, user_id: me.id)
    api_error(404, "not_found") { @member.accounts.get(account.id) }
    api_error(404, "not_found") { @member.workspaces.get(team.id) }
    api_error(409, "last_owner") { @owner.workspaces.remove_member(team.id, user_id: @owner.me.id) }

    renamed = @owner.workspaces.update(team.id, name: "Ruby team (old)", approval_required: false)
    assert_equal ["Ruby team (old)", false], [renamed.name, renamed.approval_required]
    api_error(409, "workspace_has_accounts") { @owner.workspaces.delete(team.id) }
    @owner.accounts.delete(account.id)
    @owner.workspaces.delete(team.id)
    api_error(404, "not_found") { @owner.workspaces.get(team.id) }
  end

  def test_an_editors_post_goes_through_approval_with_comments_into_the_audit_log_and_the_workspaces_lists
    me = @member.me
    boss = @owner.me
    team, post = pending_post("Ruby approvals", "Please check")
    api_error(403, "forbidden") { @member.posts.approve(post.id) }
    assert_equal "rejected", @owner.posts.reject(post.id, comment: "Add the link").status
    comment = @member.posts.add_comment(post.id, "Link added")
    assert_equal ["user", me.name, nil], [comment.author.type, comment.author.name, comment.decision]
    assert_equal "pending_approval", @member.posts.update(post.id, content: "Please check: https://example.com").status
    approved = @owner.posts.approve(post.id, comment: "Thanks")
    assert_equal ["scheduled", post.scheduled_at], [approved.status, approved.scheduled_at]
    again = api_error(409, "post_not_pending") { @owner.posts.approve(post.id) }
    assert_equal "scheduled", again.problem["post_status"]

    assert_equal [[boss.name, "Add the link", "rejected"], [me.name, "Link added", nil], [boss.name, "Thanks", "approved"]],
                 @member.posts.comments(post.id, limit: 1).map { |c| [c.author.name, c.body, c.decision] }
    assert_equal %w[post.approved post.approval_requested post.updated post.commented post.rejected post.approval_requested],
                 @owner.workspaces.audit_log(team.id, kind: "post.*", limit: 2).map(&:kind)
    entry = @owner.workspaces.audit_log(team.id, kind: "post.approved", from: Time.utc(2000)).first
    assert_equal ["user", boss.id, post.id], [entry.actor.type, entry.actor.user_id, entry.object.id]
    api_error(403, "forbidden") { @member.workspaces.audit_log(team.id).first }

    # The workspace's posts and analytics are its members', its webhooks its admins'.
    assert_equal [post.id], @member.posts.list(workspace_id: team.id).map(&:id)
    assert_equal 1, @member.analytics.get(workspace_id: team.id, from: "2099-01-01", to: "2099-01-01").totals.posts_scheduled
    assert_equal 0, @member.analytics.get(from: "2099-01-01", to: "2099-01-01").totals.posts_scheduled
    hook = { url: ENV.fetch("SMM_TEST_RECEIVER_URL"), events: ["webhook.test"], workspace_id: team.id }
    api_error(403, "forbidden") { @member.webhooks.create(**hook) }
    made = @owner.webhooks.create(**hook)
    assert_equal team.id, made.workspace_id
    assert_equal [made.id], @owner.webhooks.list(workspace_id: team.id).map(&:id)
  end

  def test_a_link_opens_the_page_without_a_key_until_it_is_revoked
    team, post = pending_post("Ruby review", "Ruby <b>launch</b> day")

    # A link approves in an admin's stead: an editor may not make one for their own post.
    api_error(403, "forbidden") { @member.posts.create_review_link(post.id) }
    short = api_error(422, "validation_error") { @owner.posts.create_review_link(post.id, expires_in: 30) }
    assert_equal "#/expires_in", short.errors.first["pointer"]
    hour = @owner.posts.create_review_link(post.id, expires_in: 3600)
    week = @owner.posts.create_review_link(post.id)
    origin = ENV.fetch("SMM_URL").delete_suffix("/v1")
    [hour, week].each do |link|
      assert link.id.start_with?("rvl_"), link.inspect
      assert link.url.start_with?("#{origin}/review/"), link.url
      assert_equal [post.id, "active", nil, "user"], [link.post_id, link.state, link.revoked_at, link.created_by.type]
    end
    assert_equal 3600, Time.iso8601(hour.expires_at) - Time.iso8601(hour.created_at)
    assert_equal 7 * 86_400, Time.iso8601(week.expires_at) - Time.iso8601(week.created_at)

    # The URL is a page anyone holding it opens, without a key: the post as it will go out, escaped, and the form.
    status, response, page = open_page(hour.url)
    assert_equal 200, status
    assert response["Content-Type"].start_with?("text/html"), response["Content-Type"]
    assert_includes response["Content-Security-Policy"], "default-src 'none'"
    assert_includes page, "Ruby &#60;b&#62;launch&#60;/b&#62; day"
    refute_includes page, "<b>launch</b>"
    assert_includes page, 'name="csrf"'

    # Revoked (a second later on the daemon's clock), a link opens nothing, at once; the other still works.
    Live.advance_clock(1)
    assert_nil @owner.posts.revoke_review_link(post.id, hour.id)
    api_error(404, "not_found") { @owner.posts.revoke_review_link(post.id, "rvl_nope") }
    status, _, page = open_page(hour.url)
    assert_equal 410, status
    assert_includes page, "This link was revoked"
    refute_includes page, "launch"
    assert_equal 200, open_page(week.url).first

    links = @owner.posts.review_links(post.id).to_a
    assert_equal [[hour.id, "revoked"], [week.id, "active"]], links.map { |l| [l.id, l.state] }
    refute_nil links.first.revoked_at
    refute links.first.to_h.key?("url")
    api_error(403, "forbidden") { @member.posts.review_links(post.id).first }

    # Both are in the audit log, and its time range keeps the one or the other.
    kinds = "post.review_link_created,post.review_link_revoked"
    assert_equal [["post.review_link_revoked", post.id], ["post.review_link_created", post.id], ["post.review_link_created", post.id]],
                 @owner.workspaces.audit_log(team.id, kind: kinds, limit: 1).map { |e| [e.kind, e.object.id] }
    revoked_at = Time.iso8601(links.first.revoked_at)
    assert_equal %w[post.review_link_created post.review_link_created], @owner.workspaces.audit_log(team.id, kind: kinds, to: revoked_at).map(&:kind)
    assert_equal %w[post.review_link_revoked], @owner.workspaces.audit_log(team.id, kind: kinds, from: revoked_at).map(&:kind)
  end
end
