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


if __name__ == "__main__":
    unittest.main()
