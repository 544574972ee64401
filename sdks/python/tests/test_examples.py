"""The README's snippets are these files: each runs here, so the documentation cannot rot."""
import io
import os
import re
import runpy
import subprocess
import sys
import tempfile
import time
import unittest
import zipfile
from contextlib import redirect_stdout
from pathlib import Path
from unittest import mock

import smm

from _live import advance_clock, needs_daemon

SECRET = "whsec_c2VjcmV0LWZvci10aGUtZXhhbXBsZQ=="
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def run(name: str) -> str:
    # An example waits in wall time; with the daemon's manual clock, start it in a fresh rate-limit minute.
    advance_clock(60)
    # The SDK from this checkout, as `pip install ./sdks/python` would provide it.
    env = {**os.environ, "PYTHONPATH": str(EXAMPLES.parent)}
    done = subprocess.run([sys.executable, str(EXAMPLES / name)], env=env, capture_output=True, text=True, timeout=60)
    if done.returncode != 0:
        raise AssertionError("examples/%s exited %d:\n%s%s" % (name, done.returncode, done.stdout, done.stderr))
    return done.stdout


@needs_daemon
class Examples(unittest.TestCase):
    def test_quickstart_schedules_a_post(self) -> None:
        post_id, status = run("quickstart.py").split()
        self.assertEqual(smm.Client().posts.get(post_id).status, status)
        self.assertEqual(status, "scheduled")

    def test_errors(self) -> None:
        lines = run("errors.py").splitlines()
        self.assertTrue(lines[0].startswith("422 "), lines)
        self.assertIn("#/platforms/0", "\n".join(lines))
        self.assertTrue(lines[-1].startswith("404 not_found"), lines)

    def test_pagination(self) -> None:
        run("quickstart.py")
        self.assertIn("Hello from Python!", run("pagination.py"))

    def test_threads(self) -> None:
        post_id, parts, _ = run("threads.py").split(" ", 2)
        post = smm.Client().posts.get(post_id)
        self.assertEqual(int(parts), 2)
        self.assertEqual((len(post.thread), post.first_comment), (2, "Changelog: https://example.com/changelog"))
        self.assertEqual(post.overrides.feed.to_dict(), {"content": "Threads are here: read all about it below.", "first_comment": None})

    def test_retries(self) -> None:
        self.assertTrue(run("retries.py").startswith("updated pst_"))


class WebhookExample(unittest.TestCase):
    def call(self, body: bytes, headers: dict) -> str:
        with mock.patch.dict(os.environ, {"SMM_WEBHOOK_SECRET": SECRET}):
            app = runpy.run_path(str(EXAMPLES / "webhooks.py"))["app"]
        environ = {"wsgi.input": io.BytesIO(body), "CONTENT_LENGTH": str(len(body))}
        environ.update({"HTTP_" + k.upper().replace("-", "_"): v for k, v in headers.items()})
        statuses = []
        with redirect_stdout(io.StringIO()):
            app(environ, lambda status, _headers: statuses.append(status))
        return statuses[0]

    def test_a_signed_delivery_is_accepted_and_a_forged_one_refused(self) -> None:
        body = b'{"type": "webhook.test", "timestamp": "2026-01-01T00:00:00Z", "data": {}}'
        now = int(time.time())
        signature = smm.sign_webhook(body, "msg_1", now, SECRET)
        headers = {"webhook-id": "msg_1", "webhook-timestamp": str(now), "webhook-signature": signature}
        self.assertEqual(self.call(body, headers), "204 No Content")
        self.assertEqual(self.call(body.replace(b"test", b"tost"), headers), "400 Bad Request")


class Documentation(unittest.TestCase):
    def test_the_readme_shows_each_example_verbatim(self) -> None:
        readme = (EXAMPLES.parent / "README.md").read_text(encoding="utf-8")
        for example in sorted(EXAMPLES.glob("*.py")):
            self.assertIn("```python\n" + example.read_text(encoding="utf-8") + "```", readme, "README.md lost examples/%s" % example.name)

    def test_the_package_builds_a_wheel_with_its_type_marker(self) -> None:
        sys.path.insert(0, str(EXAMPLES.parent / "_build"))
        self.addCleanup(sys.path.remove, str(EXAMPLES.parent / "_build"))
        import backend
        with tempfile.TemporaryDirectory() as out:
            with zipfile.ZipFile(Path(out) / backend.build_wheel(out)) as wheel:
                names = wheel.namelist()
        self.assertIn("smm/py.typed", names)
        self.assertIn("smm/__init__.py", names)
        self.assertIn("smm-%s.dist-info/METADATA" % smm.__version__, names)


if __name__ == "__main__":
    unittest.main()


class ReadmeMethodTable(unittest.TestCase):
    """The README's method table names the method of every operation (smm.OPERATIONS, which the
    daemon's OpenAPI document checks): a top-level one as `client.<method>`, a resource's in the
    row of `client.<resource>`."""

    def test_it_names_every_method_of_an_operation(self) -> None:
        readme = (EXAMPLES.parent / "README.md").read_text(encoding="utf-8")
        rows = [line for line in readme.splitlines() if line.startswith("|")]

        def named(dotted: str) -> bool:
            *resource, method = dotted.split(".")
            for row in rows:
                spans = re.findall(r"`([^`]*)`", row)
                if not resource and any(re.search(r"\bclient\.%s\b" % method, span) for span in spans):
                    return True
                if resource and "client.%s" % resource[0] in row.split("|")[1] and any(re.search(r"\b%s\b" % method, span) for span in spans):
                    return True
            return False

        missing = ["%s (%s)" % (operation, dotted) for operation, dotted in smm.OPERATIONS.items() if not named(dotted)]
        self.assertEqual(missing, [], "operations whose method the README's table leaves out")
