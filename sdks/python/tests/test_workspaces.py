"""Workspaces, members and roles, approval, comments, the audit log and review links against the live daemon:
the owner's key and a second user's."""
import os
import ssl
import unittest
import urllib.error
import urllib.request
from datetime import datetime, timedelta
from typing import Dict, Tuple

import smm

from _live import advance_clock, needs_daemon, pending_post


def _time(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def open_page(url: str) -> Tuple[int, Dict[str, str], str]:
    """GETs a review link's URL as a reviewer's browser would: plain HTTPS, no key."""
    context = ssl.create_default_context(cafile=os.environ["SMM_CA_FILE"])
    try:
        with urllib.request.urlopen(url, context=context, timeout=10) as response:
            return response.status, dict(response.headers), response.read().decode("utf-8")
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read().decode("utf-8")


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

    def test_an_editors_post_goes_through_approval_with_comments_into_the_audit_log_and_the_workspaces_lists(self) -> None:
        me = self.member.me()
        boss = self.owner.me()
        team, post = pending_post(self, self.owner, self.member, "Python approvals", "Please check")
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

        # The workspace's posts and analytics are its members', its webhooks its admins'.
        self.assertEqual([p.id for p in self.member.posts.list(workspace_id=team.id)], [post.id])
        day = {"from_": "2099-01-01", "to": "2099-01-01"}
        self.assertEqual(self.member.analytics.get(workspace_id=team.id, **day).totals.posts_scheduled, 1)
        self.assertEqual(self.member.analytics.get(**day).totals.posts_scheduled, 0)
        hook = {"url": os.environ["SMM_TEST_RECEIVER_URL"], "events": ["webhook.test"], "workspace_id": team.id}
        with self.assertRaises(smm.PermissionDeniedError):
            self.member.webhooks.create(**hook)
        made = self.owner.webhooks.create(**hook)
        self.assertEqual(made.workspace_id, team.id)
        self.assertEqual([w.id for w in self.owner.webhooks.list(workspace_id=team.id)], [made.id])


    def test_a_link_opens_the_page_without_a_key_until_it_is_revoked(self) -> None:
        team, post = pending_post(self, self.owner, self.member, "Python review", "Python <b>launch</b> day")

        # A link approves in an admin's stead: an editor may not make one for their own post.
        with self.assertRaises(smm.PermissionDeniedError) as denied:
            self.member.posts.create_review_link(post.id)
        self.assertEqual(denied.exception.code, "forbidden")
        with self.assertRaises(smm.ValidationError) as short:
            self.owner.posts.create_review_link(post.id, expires_in=30)
        self.assertEqual(short.exception.errors[0]["pointer"], "#/expires_in")
        hour = self.owner.posts.create_review_link(post.id, expires_in=3600)
        week = self.owner.posts.create_review_link(post.id)
        origin = os.environ["SMM_URL"][: -len("/v1")]
        for link in (hour, week):
            self.assertIsInstance(link, smm.ReviewLink)
            self.assertTrue(link.id.startswith("rvl_"), link)
            self.assertTrue(link.url.startswith(origin + "/review/"), link.url)
            self.assertEqual((link.post_id, link.state, link.revoked_at, link.created_by.type), (post.id, "active", None, "user"))
        self.assertEqual(_time(hour.expires_at) - _time(hour.created_at), timedelta(hours=1))
        self.assertEqual(_time(week.expires_at) - _time(week.created_at), timedelta(days=7))

        # The URL is a page anyone holding it opens, without a key: the post as it will go out, escaped, and the form.
        status, headers, page = open_page(hour.url)
        self.assertEqual(status, 200)
        self.assertTrue(headers["Content-Type"].startswith("text/html"), headers)
        self.assertIn("default-src 'none'", headers["Content-Security-Policy"])
        self.assertIn("Python &#60;b&#62;launch&#60;/b&#62; day", page)
        self.assertNotIn("<b>launch</b>", page)
        self.assertIn('name="csrf"', page)

        # Revoked (a second later on the daemon's clock), a link opens nothing, at once; the other still works.
        advance_clock(1)
        self.assertIsNone(self.owner.posts.revoke_review_link(post.id, hour.id))
        with self.assertRaises(smm.NotFoundError):
            self.owner.posts.revoke_review_link(post.id, "rvl_nope")
        status, _, page = open_page(hour.url)
        self.assertEqual(status, 410)
        self.assertIn("This link was revoked", page)
        self.assertNotIn("launch", page)
        self.assertEqual(open_page(week.url)[0], 200)

        links = list(self.owner.posts.review_links(post.id))
        self.assertEqual([(l.id, l.state) for l in links], [(hour.id, "revoked"), (week.id, "active")])
        self.assertIsNotNone(links[0].revoked_at)
        self.assertNotIn("url", links[0].to_dict())
        with self.assertRaises(smm.PermissionDeniedError):
            list(self.member.posts.review_links(post.id))

        # Both are in the audit log, and its time range keeps the one or the other.
        kinds = "post.review_link_created,post.review_link_revoked"
        entries = list(self.owner.workspaces.audit_log(team.id, kind=kinds, limit=1))
        self.assertEqual([(e.kind, e.object.id) for e in entries],
                         [("post.review_link_revoked", post.id), ("post.review_link_created", post.id), ("post.review_link_created", post.id)])
        revoked_at = links[0].revoked_at
        self.assertEqual([e.kind for e in self.owner.workspaces.audit_log(team.id, kind=kinds, to=revoked_at)],
                         ["post.review_link_created", "post.review_link_created"])
        self.assertEqual([e.kind for e in self.owner.workspaces.audit_log(team.id, kind=kinds, from_=_time(revoked_at))],
                         ["post.review_link_revoked"])



if __name__ == "__main__":
    unittest.main()
