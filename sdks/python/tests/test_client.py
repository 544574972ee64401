"""What the client refuses before any request is sent."""
import os
import unittest
from datetime import datetime
from unittest import mock

import smm


class BaseUrl(unittest.TestCase):
    def test_http_is_refused_before_any_request(self) -> None:
        with self.assertRaises(ValueError) as caught:
            smm.Client("http://127.0.0.1:1/v1", "smm_key")
        self.assertIn("https://", str(caught.exception))
        self.assertIn("in clear", str(caught.exception))

    def test_a_url_without_a_path_gets_v1(self) -> None:
        api = smm.Client("https://smm.example.com", "smm_key")
        self.assertEqual(api._t.path("/posts/{id}", id="a/b"), "/v1/posts/a%2Fb")
        self.assertEqual(api._t.root_path("/healthz"), "/healthz")

    def test_a_url_with_a_path_keeps_it(self) -> None:
        api = smm.Client("https://example.com/smm/v1/", "smm_key")
        self.assertEqual(api._t.path("/me"), "/smm/v1/me")
        self.assertEqual(api._t.root_path("/healthz"), "/smm/healthz")

    def test_the_environment_fills_in_what_is_not_given(self) -> None:
        with mock.patch.dict(os.environ, {"SMM_URL": "https://env.example.com/v1", "SMM_API_KEY": "smm_env", "SMM_CA_FILE": ""}):
            api = smm.Client()
        self.assertEqual((api._t.host, api._t.api_key), ("env.example.com", "smm_env"))

    def test_no_url_or_no_key_says_which(self) -> None:
        with mock.patch.dict(os.environ, {}, clear=True):
            with self.assertRaisesRegex(ValueError, "SMM_URL"):
                smm.Client()
            with self.assertRaisesRegex(ValueError, "SMM_API_KEY"):
                smm.Client("https://example.com")

    def test_a_missing_ca_file_is_named(self) -> None:
        with self.assertRaisesRegex(ValueError, "/nowhere.pem"):
            smm.Client("https://example.com", "k", ca_file="/nowhere.pem")


class Arguments(unittest.TestCase):
    def test_a_naive_datetime_is_refused(self) -> None:
        api = smm.Client("https://127.0.0.1:1", "k", max_retries=0)
        with self.assertRaisesRegex(ValueError, "scheduled_at must be timezone-aware"):
            api.posts.create(account_id="a", content="c", platforms=["feed"], scheduled_at=datetime(2030, 1, 1))


if __name__ == "__main__":
    unittest.main()
