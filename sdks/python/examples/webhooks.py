"""A WSGI app that accepts smm's webhooks: `python3 -m wsgiref.simple_server` style, or any WSGI server."""
import os

import smm

SECRET = os.environ.get("SMM_WEBHOOK_SECRET", "")  # the whsec_… secret shown when the webhook was created


def app(environ, start_response):
    body = environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0))  # the raw bytes, not re-encoded JSON
    headers = {key[5:].replace("_", "-").lower(): value for key, value in environ.items() if key.startswith("HTTP_")}
    try:
        event = smm.verify_webhook(body, headers, SECRET)
    except smm.WebhookVerificationError as error:
        start_response("400 Bad Request", [("Content-Type", "text/plain")])
        return [str(error).encode()]
    print("got", event.type, event.webhook_id)  # webhook_id is the same on every retry: dedupe on it
    start_response("204 No Content", [])
    return []


if __name__ == "__main__":
    from wsgiref.simple_server import make_server
    make_server("127.0.0.1", 8000, app).serve_forever()
