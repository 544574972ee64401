# frozen_string_literal: true

require "test_helper"

# Workspaces, members and roles against the daemon: the owner's key and a second user's.
class WorkspacesTest < Minitest::Test
  def setup
    Live.require_daemon!(self)
    @owner = Live.client
    @member = Live.client(api_key: ENV.fetch("SMM_TEST_MEMBER_API_KEY"))
  end

  def api_error(status, code)
    error = assert_raises(Smm::ApiError) { yield }
    assert_equal [status, code], [error.status, error.code], error.message
    error
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

  def test_an_editors_post_goes_through_approval_with_comments_and_is_in_the_audit_log
    me = @member.me
    boss = @owner.me
    team = @owner.workspaces.create(name: "Ruby approvals", approval_required: true)
    @owner.workspaces.add_member(team.id, user_id: me.id, role: "editor")
    brand = @owner.accounts.create(name: "Approved brand", workspace_id: team.id)
    @owner.accounts.connect(brand.id, platform: "feed")
    post = @member.posts.create(account_id: brand.id, content: "Please check", platforms: ["feed"], scheduled_at: "2099-01-01T09:00:00Z")
    assert_equal "pending_approval", post.status
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
    @owner.posts.cancel(post.id)
    @owner.accounts.delete(brand.id)
    @owner.workspaces.delete(team.id)
  end
end
