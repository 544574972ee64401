"""verify_webhook against the Standard Webhooks reference vector and every way a delivery can be wrong."""
import unittest

import smm

# The published Standard Webhooks test vector (standard-webhooks/standard-webhooks, libraries' tests).
SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
MSG_ID = "msg_p5jXN8AQM9LWM0D4loKWxJek"
TIMESTAMP = 1614265330
PAYLOAD = b'{"test": 2432232314}'
SIGNATURE = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="


def headers(**overrides: str) -> dict:
    base = {"webhook-id": MSG_ID, "webhook-timestamp": str(TIMESTAMP), "webhook-signature": SIGNATURE}
    base.update({k.replace("_", "-"): v for k, v in overrides.items()})
    return base


class StandardWebhooksVector(unittest.TestCase):
    def test_signing_reproduces_the_reference_signature(self) -> None:
        self.assertEqual(smm.sign_webhook(PAYLOAD, MSG_ID, TIMESTAMP, SECRET), SIGNATURE)

    def test_the_vector_verifies_and_gives_the_event(self) -> None:
        event = smm.verify_webhook(PAYLOAD, headers(), SECRET, now=TIMESTAMP)
        self.assertEqual(event["test"], 2432232314)
        self.assertEqual(event.webhook_id, MSG_ID)

    def test_header_names_are_case_insensitive(self) -> None:
        mixed = {"Webhook-Id": MSG_ID, "WEBHOOK-TIMESTAMP": str(TIMESTAMP), "Webhook-Signature": SIGNATURE}
        self.assertEqual(smm.verify_webhook(PAYLOAD, mixed, SECRET, now=TIMESTAMP)["test"], 2432232314)

    def test_a_secret_without_the_whsec_prefix_works(self) -> None:
        smm.verify_webhook(PAYLOAD, headers(), SECRET[len("whsec_"):], now=TIMESTAMP)

    def test_any_of_several_signatures_may_match(self) -> None:
        several = headers(webhook_signature="v1,bm9wZQ== v1a,whatever " + SIGNATURE)
        smm.verify_webhook(PAYLOAD, several, SECRET, now=TIMESTAMP)

    def test_within_five_minutes_either_way_is_accepted(self) -> None:
        smm.verify_webhook(PAYLOAD, headers(), SECRET, now=TIMESTAMP + 299)
        smm.verify_webhook(PAYLOAD, headers(), SECRET, now=TIMESTAMP - 299)


class Rejected(unittest.TestCase):
    def assertRejected(self, message: str, payload: bytes = PAYLOAD, hdrs: dict = None, secret: str = SECRET, now: float = TIMESTAMP) -> None:
        with self.assertRaises(smm.WebhookVerificationError) as caught:
            smm.verify_webhook(payload, headers() if hdrs is None else hdrs, secret, now=now)
        self.assertIn(message, str(caught.exception))

    def test_an_altered_body(self) -> None:
        self.assertRejected("no signature", payload=b'{"test": 2432232315}')

    def test_an_altered_id_or_timestamp(self) -> None:
        self.assertRejected("no signature", hdrs=headers(webhook_id="msg_other"))
        self.assertRejected("no signature", hdrs=headers(webhook_timestamp=str(TIMESTAMP + 1)), now=TIMESTAMP + 1)

    def test_a_wrong_secret(self) -> None:
        self.assertRejected("no signature", secret="whsec_" + "A" * 32)

    def test_a_signature_older_than_five_minutes(self) -> None:
        self.assertRejected("301 s old", now=TIMESTAMP + 301)

    def test_a_timestamp_in_the_future(self) -> None:
        self.assertRejected("in the future", now=TIMESTAMP - 301)

    def test_missing_headers(self) -> None:
        for name in ("webhook-id", "webhook-timestamp", "webhook-signature"):
            hdrs = headers()
            del hdrs[name]
            self.assertRejected("missing " + name, hdrs=hdrs)

    def test_malformed_headers(self) -> None:
        self.assertRejected("not a Unix time", hdrs=headers(webhook_timestamp="yesterday"))
        self.assertRejected("no signature", hdrs=headers(webhook_signature="garbage"))
        self.assertRejected("no signature", hdrs=headers(webhook_signature="v2," + SIGNATURE[3:]))

    def test_a_signed_body_that_is_not_a_json_object(self) -> None:
        body = b"[1, 2]"
        signed = headers(webhook_signature=smm.sign_webhook(body, MSG_ID, TIMESTAMP, SECRET))
        self.assertRejected("not a JSON object", payload=body, hdrs=signed)


if __name__ == "__main__":
    unittest.main()
