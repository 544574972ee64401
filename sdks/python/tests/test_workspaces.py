"""Workspaces, members and roles against the live daemon: the owner's key and a second user's."""
import os
import unittest

import smm

from _live import advance_clock, needs_daemon


@needs_daemon
class Workspaces(unittest.TestCase):
    def setUp(self) -> None:
        self.owner = smm.Client(sleep=advance_clock)
        self.member = smm.Client(api_key=os.environ.get("SMM_TEST_MEMBER_API_KEY"), sleep=advance_clock)

    def test_members_act_by_their_role_and_lose_access_when_removed(self) -> None:
        me = self.member.me()
        team = self.owner.workspaces.create(name="Python team", approval_required=True, timezone="Europe/Berlin")
        self.assertIsInstance(team, smm.Workspace)
        self.assertEqual((team.role, team.personal, team.approval_required, team.timezone), ("owner", False, True, "Europe/Berlin"))

        added = self.owner.workspaces.add_member(team.id, email=os.environ["SMM_TEST_MEMBER_EMAIL"], role="viewer")
        self.assertEqual((added.user_id, added.role), (me.id, "viewer"))
        with self.assertRaises(smm.ConflictError) as twice:
            self.owner.workspaces.add_member(team.id, user_id=me.id, role="admin")
        self.assertEqual(twice.exception.code, "already_member")
        with self.assertRaises(smm.ValidationError) as unknown:
            self.owner.workspaces.add_member(team.id, user_id=me.id, role="boss")
        self.assertEqual(unknown.exception.errors[0]["pointer"], "#/role")
        self.assertIn((team.id, "viewer"), [(w.id, w.role) for w in self.member.workspaces.list()])

        # A viewer reads; managing accounts needs admin or owner.
        with self.assertRaises(smm.PermissionDeniedError) as denied:
            self.member.accounts.create(name="Not mine to make", workspace_id=team.id)
        self.assertEqual(denied.exception.code, "forbidden")
        self.assertEqual(self.owner.workspaces.set_role(team.id, me.id, "admin").role, "admin")
        account = self.member.accounts.create(name="Team brand", workspace_id=team.id)
        self.assertEqual(account.workspace_id, team.id)
        self.assertEqual([a.id for a in self.owner.accounts.list(workspace_id=team.id)], [account.id])
        self.assertEqual(sorted(m.role for m in self.owner.workspaces.members(team.id, limit=1)), ["admin", "owner"])

        # Removed, the member loses access at once.
        self.owner.workspaces.remove_member(team.id, me.id)
        with self.assertRaises(smm.NotFoundError):
            self.member.accounts.get(account.id)
        with self.assertRaises(smm.NotFoundError):
            self.member.workspaces.get(team.id)
        with self.assertRaises(smm.ConflictError) as last:
            self.owner.workspaces.remove_member(team.id, self.owner.me().id)
        self.assertEqual(last.exception.code, "last_owner")

        renamed = self.owner.workspaces.update(team.id, name="Python team (old)", approval_required=False)
        self.assertEqual((renamed.name, renamed.approval_required), ("Python team (old)", False))
        with self.assertRaises(smm.ConflictError) as busy:
            self.owner.workspaces.delete(team.id)
        self.assertEqual(busy.exception.code, "workspace_has_accounts")
        self.owner.accounts.delete(account.id)
        self.owner.workspaces.delete(team.id)
        with self.assertRaises(smm.NotFoundError):
            self.owner.workspaces.get(team.id)

    def test_an_editors_post_goes_through_approval_with_comments_and_is_in_the_audit_log(self) -> None:
        me = self.member.me()
        boss = self.owner.me()
        team = self.owner.workspaces.create(name="Python approvals", approval_required=True)
        self.owner.workspaces.add_member(team.id, user_id=me.id, role="editor")
        brand = self.owner.accounts.create(name="Approved brand", workspace_id=team.id)
        self.owner.accounts.connect(brand.id, platform="feed")
        post = self.member.posts.create(account_id=brand.id, content="Please check", platforms=["feed"],
                                        scheduled_at="2099-01-01T09:00:00Z")
        self.assertEqual(post.status, "pending_approval")
        with self.assertRaises(smm.PermissionDeniedError) as denied:
            self.member.posts.approve(post.id)
        self.assertEqual(denied.exception.code, "forbidden")
        self.assertEqual(self.owner.posts.reject(post.id, "Add the link").status, "rejected")
        comment = self.member.posts.add_comment(post.id, "Link added")
        self.assertIsInstance(comment, smm.Comment)
        self.assertEqual((comment.author.type, comment.author.name, comment.decision), ("user", me.name, None))
        self.assertEqual(self.member.posts.update(post.id, content="Please check: https://example.com").status, "pending_approval")
        approved = self.owner.posts.approve(post.id, comment="Thanks")
        self.assertEqual((approved.status, approved.scheduled_at), ("scheduled", post.scheduled_at))
        with self.assertRaises(smm.ConflictError) as again:
            self.owner.posts.approve(post.id)
        self.assertEqual((again.exception.code, again.exception.problem["post_status"]), ("post_not_pending", "scheduled"))

        self.assertEqual([(c.author.name, c.body, c.decision) for c in self.member.posts.comments(post.id, limit=1)],
                         [(boss.name, "Add the link", "rejected"), (me.name, "Link added", None), (boss.name, "Thanks", "approved")])
        kinds = [e.kind for e in self.owner.workspaces.audit_log(team.id, kind="post.*", limit=2)]
        self.assertEqual(kinds, ["post.approved", "post.approval_requested", "post.updated", "post.commented", "post.rejected",
                                 "post.approval_requested"])
        entry = next(self.owner.workspaces.audit_log(team.id, kind="post.approved", from_="2000-01-01T00:00:00Z"))
        self.assertIsInstance(entry, smm.AuditEntry)
        self.assertEqual((entry.actor.type, entry.actor.user_id, entry.object.id), ("user", boss.id, post.id))
        with self.assertRaises(smm.PermissionDeniedError):
            next(self.member.workspaces.audit_log(team.id))
        self.owner.posts.cancel(post.id)
        self.owner.accounts.delete(brand.id)
        self.owner.workspaces.delete(team.id)


if __name__ == "__main__":
    unittest.main()
