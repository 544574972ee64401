"""What the live suites need: the daemon the harness started (test/helpers/sdk-harness.ts).

Run alone (`python3 -m unittest`) without those variables, the live tests skip with this message;
`npx vitest run test/sdk-python.test.ts` starts a daemon and sets them.
"""
import json
import os
import time
import unittest
import urllib.request
from datetime import datetime
from typing import Any, Dict, List, Tuple

VARIABLES = ("SMM_URL", "SMM_API_KEY", "SMM_CA_FILE", "SMM_TEST_TLS_KEY_FILE", "SMM_TEST_LIMITED_API_KEY", "SMM_TEST_RECEIVER_URL", "SMM_TEST_CONTROL_URL",
             "SMM_TEST_MEMBER_API_KEY", "SMM_TEST_MEMBER_EMAIL")
MISSING = [name for name in VARIABLES if not os.environ.get(name)]
SKIP_REASON = "no daemon to test against (%s unset): run `npx vitest run test/sdk-python.test.ts` from the repository root" % ", ".join(MISSING)


def needs_daemon(cls: Any) -> Any:
    return unittest.skipIf(bool(MISSING), SKIP_REASON)(cls)


def control(method: str, path: str, body: Any = None) -> Any:
    """The harness's control server (plain HTTP on loopback): moves the daemon's clock, lists deliveries."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(os.environ["SMM_TEST_CONTROL_URL"] + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def advance_clock(seconds: float) -> float:
    """Moves the daemon's clock; returns its new time (Unix seconds). 0 just reads it."""
    now = control("POST", "/clock/advance", {"seconds": seconds})["now"]
    return datetime.fromisoformat(now.replace("Z", "+00:00")).timestamp()


def wait_for_delivery(predicate: Any, timeout: float = 20.0) -> Dict[str, Any]:
    """The first delivery the receiver got that matches; polls the other process, bounded in time."""
    deadline = time.monotonic() + timeout
    seen: List[Dict[str, Any]] = []
    while time.monotonic() < deadline:
        seen = control("GET", "/webhooks")
        for delivery in seen:
            if predicate(delivery):
                return delivery
        time.sleep(0.1)
    raise AssertionError("no matching webhook delivery within %ss; the receiver got %d: %r" % (timeout, len(seen), seen))


def pending_post(test: unittest.TestCase, owner: Any, member: Any, name: str, content: str) -> Tuple[Any, Any]:
    """A workspace requiring approval where `member` is an editor, with a feed account, and a post the
    member wrote there, waiting for approval. The workspace goes when the test ends."""
    team = owner.workspaces.create(name=name, approval_required=True)
    owner.workspaces.add_member(team.id, user_id=member.me().id, role="editor")
    brand = owner.accounts.create(name=name + " brand", workspace_id=team.id)
    owner.accounts.connect(brand.id, platform="feed")
    test.addCleanup(owner.workspaces.delete, team.id)
    test.addCleanup(owner.accounts.delete, brand.id, cancel_posts=True)
    post = member.posts.create(account_id=brand.id, content=content, platforms=["feed"], scheduled_at="2099-01-01T09:00:00Z")
    test.assertEqual(post.status, "pending_approval")
    return team, post
