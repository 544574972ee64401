"""Verifying the webhooks the daemon sends (Standard Webhooks: HMAC-SHA256 over id.timestamp.body)."""
import base64
import binascii
import hashlib
import hmac
import json
import time
from typing import Any, Mapping, Optional

from ._errors import WebhookVerificationError
from ._records import WebhookEvent

#: How far a webhook's timestamp may be from now, either way: older deliveries may be replays.
TOLERANCE_SECONDS = 5 * 60


def _header(headers: Any, name: str) -> str:
    # Accepts a dict with any capitalisation, http.client/email Message objects and WSGI-style pairs.
    if hasattr(headers, "get") and not isinstance(headers, Mapping):
        value = headers.get(name)
    else:
        items = headers.items() if isinstance(headers, Mapping) else headers
        value = next((v for k, v in items if str(k).lower() == name), None)
    if value is None or value == "":
        raise WebhookVerificationError("missing %s header" % name)
    return str(value)


def _key(secret: str) -> bytes:
    raw = secret[len("whsec_"):] if secret.startswith("whsec_") else secret
    try:
        return base64.b64decode(raw, validate=True)
    except (binascii.Error, ValueError) as error:
        raise ValueError("secret must be the endpoint's whsec_… secret (base64 after the prefix)") from error


def sign_webhook(payload: bytes, msg_id: str, timestamp: int, secret: str) -> str:
    """The `v1,…` signature of one message: what the daemon sends in `webhook-signature`."""
    content = b"%s.%d.%s" % (msg_id.encode("utf-8"), timestamp, payload)
    return "v1," + base64.b64encode(hmac.new(_key(secret), content, hashlib.sha256).digest()).decode("ascii")


def verify_webhook(payload: bytes, headers: Any, secret: str, *, now: Optional[float] = None,
                   tolerance: int = TOLERANCE_SECONDS) -> WebhookEvent:
    """The event of a delivery whose signature is right and recent, else WebhookVerificationError.

    `payload` is the raw request body (bytes, exactly as received: re-encoded JSON does not verify),
    `headers` the request's headers, `secret` the endpoint's `whsec_…` secret.
    """
    if isinstance(payload, str):
        payload = payload.encode("utf-8")
    msg_id = _header(headers, "webhook-id")
    stamp = _header(headers, "webhook-timestamp")
    signatures = _header(headers, "webhook-signature")
    try:
        timestamp = int(stamp)
    except ValueError:
        raise WebhookVerificationError("webhook-timestamp %r is not a Unix time in seconds" % stamp) from None
    current = time.time() if now is None else now
    if timestamp < current - tolerance:
        raise WebhookVerificationError("webhook-timestamp is %d s old, more than the %d s allowed: a replay?" % (current - timestamp, tolerance))
    if timestamp > current + tolerance:
        raise WebhookVerificationError("webhook-timestamp is %d s in the future, more than the %d s allowed" % (timestamp - current, tolerance))
    expected = sign_webhook(payload, msg_id, timestamp, secret).encode("ascii")
    # Several space-separated signatures (one per secret during a rotation): any v1 match will do.
    if not any(hmac.compare_digest(candidate.encode("utf-8"), expected) for candidate in signatures.split(" ") if candidate.startswith("v1,")):
        raise WebhookVerificationError("no signature in webhook-signature matches: wrong secret or altered body")
    try:
        event = json.loads(payload)
    except ValueError:
        raise WebhookVerificationError("the signed payload is not JSON") from None
    if not isinstance(event, dict):
        raise WebhookVerificationError("the signed payload is not a JSON object")
    verified = WebhookEvent(event)
    verified.webhook_id = msg_id
    return verified
