"""The SDK against the live daemon the harness started: every promise of issue 12 a user relies on."""
import json
import os
import ssl
import time
import unittest
import urllib.request
import uuid
from datetime import datetime, timedelta, timezone

import smm

from _live import advance_clock, needs_daemon, wait_for_delivery


def client(**options) -> smm.Client:
    # The daemon's clock is manual: a rate limit's wait is spent on it, not in wall time.
    return smm.Client(sleep=advance_clock, **options)


def tomorrow() -> datetime:
    # Other tests move the daemon's clock by minutes; a day ahead stays scheduled throughout.
    return datetime.now(timezone.utc) + timedelta(days=1)


@needs_daemon
class Posts(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.smm = client()
        cls.account = cls.smm.accounts.create(name="python-sdk %s" % uuid.uuid4().hex[:8])
        cls.smm.accounts.connect(cls.account.id, platform="feed")

    def create(self, content: str, **extra) -> smm.Post:
        extra.setdefault("scheduled_at", tomorrow())
        return self.smm.posts.create(account_id=self.account.id, content=content, platforms=["feed"], **extra)

    def test_me_reads_the_keys_owner(self) -> None:
        me = self.smm.me()
        self.assertIsInstance(me, smm.User)
        self.assertTrue(me.id)

    def test_the_account_has_its_feed_connection(self) -> None:
        account = self.smm.accounts.get(self.account.id)
        self.assertEqual([c.platform for c in account.connections], ["feed"])
        self.assertIn(self.account.id, [a.id for a in self.smm.accounts.list(limit=1)])

    def test_create_then_get(self) -> None:
        when = tomorrow().replace(microsecond=0)
        post = self.smm.posts.create(account_id=self.account.id, content="hello from python", platforms=["feed"], scheduled_at=when)
        self.assertEqual(post.status, "scheduled")
        read = self.smm.posts.get(post.id)
        self.assertEqual((read.id, read.content, read.platforms), (post.id, "hello from python", ["feed"]))
        self.assertEqual(datetime.fromisoformat(read.scheduled_at.replace("Z", "+00:00")), when)

    def test_an_rfc3339_string_is_a_valid_scheduled_at(self) -> None:
        post = self.smm.posts.create(account_id=self.account.id, content="string time", platforms=["feed"], scheduled_at="2099-01-02T03:04:05Z")
        self.assertTrue(post.scheduled_at.startswith("2099-01-02T03:04:05"))

    def test_list_follows_every_page(self) -> None:
        account = self.smm.accounts.create(name="paged")
        self.smm.accounts.connect(account.id, platform="feed")
        made = [self.smm.posts.create(account_id=account.id, content="page %d" % i, platforms=["feed"], scheduled_at=tomorrow() + timedelta(minutes=i)).id
                for i in range(5)]
        listed = [p.id for p in self.smm.posts.list(account_id=account.id, limit=2)]
        self.assertEqual(listed, made)  # 3 pages of 2, 2 and 1, in scheduled order
        self.assertEqual([p.id for p in self.smm.posts.list(account_id=account.id, status="cancelled", limit=2)], [])

    def test_update_with_a_stale_version_is_a_typed_412(self) -> None:
        post = self.create("first")
        read = self.smm.posts.get(post.id)
        updated = self.smm.posts.update(post.id, content="second", if_match=read.etag)
        self.assertEqual(updated.content, "second")
        self.assertNotEqual(updated.etag, read.etag)
        with self.assertRaises(smm.PreconditionFailedError) as caught:
            self.smm.posts.update(post.id, content="third", if_match=read.etag)
        error = caught.exception
        self.assertIsInstance(error, smm.ApiError)
        self.assertEqual((error.status, error.code), (412, "precondition_failed"))
        self.assertEqual(error.problem["status"], 412)
        self.assertEqual(self.smm.posts.get(post.id).content, "second")

    def test_cancel(self) -> None:
        post = self.create("to cancel")
        self.assertEqual(self.smm.posts.cancel(post.id).status, "cancelled")
        self.assertEqual(self.smm.posts.get(post.id).status, "cancelled")

    def test_a_series_lists_by_series_id_skips_one_and_stops(self) -> None:
        first = self.create("every day", repeat={"interval": "P1D", "count": 3})
        self.assertEqual((first.occurrence, first.repeat.interval, first.repeat.count), (1, "P1D", 3))
        self.assertTrue(first.series_id.startswith("ser_"))
        self.assertEqual(self.smm.posts.cancel(first.id).status, "cancelled")  # skips this one: the next is scheduled
        listed = list(self.smm.posts.list(series_id=first.series_id))
        self.assertEqual([(p.occurrence, p.status) for p in listed], [(1, "cancelled"), (2, "scheduled")])
        self.assertEqual(self.smm.posts.cancel(listed[1].id, series=True).status, "cancelled")
        self.assertEqual([p.status for p in self.smm.posts.list(series_id=first.series_id)], ["cancelled", "cancelled"])
        with self.assertRaises(smm.ValidationError) as caught:
            self.smm.posts.cancel(self.create("one-off").id, series=True)
        self.assertEqual(caught.exception.errors[0]["pointer"], "#/series")

    def test_the_same_idempotency_key_makes_one_post(self) -> None:
        key, when = str(uuid.uuid4()), tomorrow()
        first = self.create("once", idempotency_key=key, scheduled_at=when)
        second = self.create("once", idempotency_key=key, scheduled_at=when)
        self.assertEqual(first.id, second.id)
        self.assertEqual(sum(1 for p in self.smm.posts.list(account_id=self.account.id) if p.content == "once"), 1)

    def test_validate_measures_and_creates_nothing(self) -> None:
        account = self.smm.accounts.create(name="validate")
        self.smm.accounts.connect(account.id, platform="feed")
        checked = self.smm.posts.validate(account_id=account.id, content="Hello there", platforms=["feed"], scheduled_at="2099-01-02T03:04:05Z")
        self.assertIsInstance(checked, smm.PostValidation)
        self.assertEqual(checked.to_dict(), {"valid": True, "scheduled_at": "2099-01-02T03:04:05.000Z",
                                             "targets": [{"platform": "feed", "length": 11, "limit": 10000, "parts": [], "warnings": []}]})
        with self.assertRaises(smm.ValidationError) as caught:
            self.smm.posts.validate(account_id=account.id, content="x", platforms=["myspace"])
        self.assertTrue(any(e["pointer"] == "#/platforms/0" for e in caught.exception.errors), caught.exception.errors)
        self.assertEqual(list(self.smm.posts.list(account_id=account.id)), [])

    def test_create_many_makes_all_in_order_or_none(self) -> None:
        posts = [{"account_id": self.account.id, "content": "bulk %d" % i, "platforms": ["feed"], "scheduled_at": tomorrow()} for i in range(3)]
        self.assertEqual(self.smm.posts.validate_many(posts), 3)
        made = self.smm.posts.create_many(posts)
        self.assertEqual([p.content for p in made], ["bulk 0", "bulk 1", "bulk 2"])
        self.assertEqual(self.smm.posts.get(made[1].id).content, "bulk 1")
        with self.assertRaises(smm.ValidationError) as caught:
            self.smm.posts.create_many(posts[:1] + [{**posts[1], "platforms": ["myspace"]}])
        self.assertTrue(any(e["pointer"] == "#/posts/1/platforms/0" for e in caught.exception.errors), caught.exception.errors)

    def test_a_draft_waits_until_scheduled(self) -> None:
        draft = self.smm.posts.create(account_id=self.account.id, content="an idea", platforms=["feed"], draft=True)
        self.assertEqual((draft.status, draft.scheduled_at), ("draft", None))
        self.assertIn(draft.id, [p.id for p in self.smm.posts.list(account_id=self.account.id, status="draft")])
        when = tomorrow().replace(microsecond=0)
        with self.assertRaises(smm.PreconditionFailedError):
            self.smm.posts.schedule(draft.id, scheduled_at=when, if_match='"v999"')
        scheduled = self.smm.posts.schedule(draft.id, scheduled_at=when, if_match=draft.etag)
        self.assertEqual(scheduled.status, "scheduled")
        self.assertEqual(datetime.fromisoformat(scheduled.scheduled_at.replace("Z", "+00:00")), when)
        with self.assertRaises(smm.ConflictError) as caught:
            self.smm.posts.schedule(draft.id)
        self.assertEqual(caught.exception.code, "post_not_editable")

    def test_queue_slots_take_queued_posts_in_turn(self) -> None:
        account = self.smm.accounts.create(name="queued")
        self.smm.accounts.connect(account.id, platform="feed")
        with self.assertRaises(smm.ValidationError) as caught:
            self.smm.posts.create(account_id=account.id, content="nowhere", platforms=["feed"], queue=True)
        self.assertEqual(caught.exception.code, "queue_empty")
        queue = self.smm.accounts.set_queue(account.id, [{"day": "friday", "time": "17:30"}, {"day": "monday", "time": "09:00"}])
        self.assertIsInstance(queue, smm.Queue)
        self.assertEqual([s.to_dict() for s in queue.slots], [{"day": "monday", "time": "09:00"}, {"day": "friday", "time": "17:30"}])
        self.assertEqual(len(queue.next), 10)
        self.assertEqual(self.smm.accounts.get_queue(account.id).next, queue.next)
        first = self.smm.posts.create(account_id=account.id, content="queued", platforms=["feed"], queue=True)
        self.assertEqual(first.scheduled_at, queue.next[0])
        draft = self.smm.posts.create(account_id=account.id, content="later", platforms=["feed"], draft=True)
        self.assertEqual(self.smm.posts.schedule(draft.id, queue=True).scheduled_at, queue.next[1])

    def test_a_thread_and_a_platforms_own_version_read_back(self) -> None:
        thread = [{"content": "part one"}, {"content": "part two", "media_urls": ["https://example.com/two.png"]}]
        post = self.create("the post", thread=thread, overrides={"feed": {"content": "the feed's own text", "thread": [{"content": "feed part"}]}})
        read = self.smm.posts.get(post.id)
        self.assertEqual([p.to_dict() for p in read.thread], [{"content": "part one", "media_urls": []},
                                                             {"content": "part two", "media_urls": ["https://example.com/two.png"]}])
        self.assertIsNone(read.first_comment)
        self.assertEqual(read.overrides.to_dict(), {"feed": {"content": "the feed's own text", "thread": [{"content": "feed part"}]}})
        self.assertEqual(read.overrides["feed"].content, "the feed's own text")
        self.assertIsInstance(read.targets[0], smm.Target)
        self.assertEqual((read.targets[0].parts, read.targets[0].error), ([], None))  # nothing is out yet
        checked = self.smm.posts.validate(account_id=self.account.id, content="the post", platforms=["feed"], thread=thread,
                                          overrides={"feed": {"thread": [{"content": "feed part"}]}})
        self.assertEqual([p.to_dict() for p in checked.targets[0].parts], [{"index": 1, "kind": "thread", "length": 9, "limit": 10000}])
        updated = self.smm.posts.update(post.id, thread=[], overrides={}, if_match=read.etag)
        self.assertEqual((updated.thread, updated.overrides.to_dict()), ([], {}))

    def test_a_thread_published_now_lists_each_part_out(self) -> None:
        post = self.smm.posts.create(account_id=self.account.id, content="now", platforms=["feed"],
                                     thread=[{"content": "one"}, {"content": "two"}])
        deadline = time.monotonic() + 20
        while post.status in ("scheduled", "publishing") and time.monotonic() < deadline:
            time.sleep(0.1)  # polling the daemon's real scheduler over the network, not waiting out a timer
            post = self.smm.posts.get(post.id)
        self.assertEqual(post.status, "published")
        target = post.targets[0]
        self.assertEqual([(p.index, p.kind, p.platform_post_id) for p in target.parts],
                         [(0, "post", post.id), (1, "thread", post.id + "-1"), (2, "thread", post.id + "-2")])
        self.assertIsInstance(target.parts[0], smm.PublishedPart)
        self.assertEqual((target.platform_post_id, target.url), (target.parts[0].platform_post_id, target.parts[0].url))
        self.assertTrue(target.parts[2].url.endswith("#" + post.id + "-2"))

    def test_a_first_comment_on_the_feed_is_refused_where_it_was_given(self) -> None:
        with self.assertRaises(smm.ValidationError) as caught:
            self.create("with a comment", first_comment="and a comment")
        error = caught.exception
        self.assertEqual(error.status, 422)
        self.assertEqual([(e["pointer"], e["code"]) for e in error.errors], [("#/first_comment", "not_supported")])
        self.assertIn("feed", error.errors[0]["detail"])
        dropped = self.create("with a comment", first_comment="and a comment", overrides={"feed": {"first_comment": None}})
        self.assertEqual((dropped.first_comment, dropped.overrides.to_dict()), ("and a comment", {"feed": {"first_comment": None}}))
        made = self.smm.posts.create_many([{"account_id": self.account.id, "content": "bulk", "platforms": ["feed"],
                                            "scheduled_at": tomorrow(), "thread": [{"content": "bulk part"}]}])
        self.assertEqual(made[0].thread[0].content, "bulk part")

    def test_a_field_error_names_the_field(self) -> None:
        with self.assertRaises(smm.ValidationError) as caught:
            self.smm.posts.create(account_id=self.account.id, content="x", platforms=["myspace"])
        error = caught.exception
        self.assertEqual(error.status, 422)
        self.assertTrue(any(e["pointer"] == "#/platforms/0" for e in error.errors), error.errors)
        self.assertTrue(error.request_id)

    def test_an_unknown_post_is_not_found(self) -> None:
        with self.assertRaises(smm.NotFoundError) as caught:
            self.smm.posts.get("post_does_not_exist")
        self.assertEqual(caught.exception.status, 404)

    def test_a_bad_key_is_an_authentication_error(self) -> None:
        with self.assertRaises(smm.AuthenticationError):
            client(api_key="smm_wrong").me()


@needs_daemon
class RateLimit(unittest.TestCase):
    def test_a_429_is_retried_after_its_retry_after(self) -> None:
        limited = os.environ["SMM_TEST_LIMITED_API_KEY"]
        strict = client(api_key=limited, max_retries=0)
        with self.assertRaises(smm.RateLimitError) as caught:
            for _ in range(3):  # the plan allows 2 a minute
                strict.me()
        asked = caught.exception.retry_after
        self.assertGreater(asked, 0)
        self.assertEqual(caught.exception.status, 429)

        waits = []

        def sleep(seconds: float) -> None:
            waits.append(seconds)
            advance_clock(seconds)

        patient = smm.Client(api_key=limited, sleep=sleep)
        self.assertTrue(patient.me().id)
        self.assertEqual(waits, [asked])


@needs_daemon
class Webhooks(unittest.TestCase):
    def test_a_delivery_of_the_daemon_verifies_with_the_endpoint_secret(self) -> None:
        api = client()
        hook = api.webhooks.create(url=os.environ["SMM_TEST_RECEIVER_URL"], events=["*"], description="python sdk")
        self.assertTrue(hook.secret.startswith("whsec_"))
        api.webhooks.test(hook.id)

        def ours(delivery) -> bool:
            body = json.loads(delivery["body"])
            return body.get("type") == "webhook.test" and body["data"].get("webhook_id") == hook.id

        delivery = wait_for_delivery(ours)
        # The daemon's clock is the harness's manual one: "now" for the five-minute window is its time.
        now = advance_clock(0)
        event = smm.verify_webhook(delivery["body"].encode("utf-8"), delivery["headers"], hook.secret, now=now)
        self.assertEqual(event.type, "webhook.test")
        self.assertEqual(event.data.webhook_id, hook.id)
        with self.assertRaises(smm.WebhookVerificationError):
            smm.verify_webhook(delivery["body"].encode("utf-8"), delivery["headers"], api.webhooks.rotate_secret(hook.id).secret, now=now)


@needs_daemon
class Coverage(unittest.TestCase):
    def test_every_operation_of_the_openapi_document_has_a_method(self) -> None:
        api = client()
        document = api.openapi()
        # A protocol's own operations (tus uploads) are left to that protocol's clients.
        operations = sorted(op["operationId"] for item in document["paths"].values() for op in item.values()
                            if isinstance(op, dict) and "operationId" in op and "x-smm-protocol" not in op)
        missing = [op for op in operations if op not in smm.OPERATIONS]
        self.assertEqual(missing, [], "operations of /v1/openapi.json with no method in smm.OPERATIONS")
        for operation, dotted in smm.OPERATIONS.items():
            target = api
            for name in dotted.split("."):
                target = getattr(target, name, None)
            self.assertTrue(callable(target), "%s maps to %s, which is no method of smm.Client" % (operation, dotted))
        self.assertEqual(sorted(set(smm.OPERATIONS) - set(operations)), [], "methods mapped to operations the API no longer has")

    def test_the_rest_of_the_api_answers_through_the_sdk(self) -> None:
        api = client()
        self.assertEqual(api.health().status, "ok")
        account = api.accounts.create(name="feeds")
        api.accounts.connect(account.id, platform="feed")
        self.assertIn("<rss", api.feeds.rss(account.id))
        self.assertIn("<feed", api.feeds.atom(account.id))
        self.assertEqual(api.feeds.json(account.id).items, [])
        api.accounts.disconnect(account.id, "feed")
        self.assertEqual(api.accounts.get(account.id).connections, [])
        key = api.api_keys.create(name="short-lived", scopes=["profile:read"])
        self.assertIn(key.id, [k.id for k in api.api_keys.list()])
        api.api_keys.revoke(key.id)
        with self.assertRaises(smm.AuthenticationError):
            client(api_key=key.secret).me()
        self.assertTrue(api.ai.generate(prompt="A launch party on Friday", platforms=["feed"]).to_dict())
        self.assertTrue(api.analytics.get().to_dict())

    def test_platforms_say_how_they_connect_and_what_a_post_may_hold(self) -> None:
        platforms = {p.name: p for p in client().platforms.list()}
        self.assertEqual(list(platforms)[:2], ["feed", "mastodon"])
        self.assertEqual(platforms["mastodon"].credentials, ["instance_url", "access_token"])
        self.assertEqual((platforms["bluesky"].limits.text.max, platforms["bluesky"].limits.text.count), (300, "graphemes"))
        self.assertEqual(platforms["telegram"].limits.text.caption_max, 1024)
        self.assertIsNone(platforms["feed"].limits.media.max)


@needs_daemon
class Tls(unittest.TestCase):
    def test_a_certificate_from_another_ca_is_an_error(self) -> None:
        other = ssl.get_default_verify_paths().cafile or ssl.get_default_verify_paths().openssl_cafile
        with self.assertRaises(smm.TlsError) as caught:
            client(ca_file=other, max_retries=3).me()
        self.assertIn("not trusted", str(caught.exception))

    def test_the_harness_certificate_is_needed_at_all(self) -> None:
        # Sanity check of the above: the daemon's certificate is self-signed, so plain urllib refuses it too.
        with self.assertRaises(urllib.error.URLError):
            urllib.request.urlopen(os.environ["SMM_URL"] + "/openapi.json", context=ssl.create_default_context(), timeout=10)


if __name__ == "__main__":
    unittest.main()
