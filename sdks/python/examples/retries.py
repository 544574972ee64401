import uuid
from datetime import datetime, timedelta, timezone

import smm

# 429s (after their Retry-After), 5xx and connection failures are retried up to max_retries times.
client = smm.Client(max_retries=5)
account = client.accounts.create(name="Retries")
client.accounts.connect(account.id, platform="feed")

# Every POST carries an Idempotency-Key; pass your own to make a retry across restarts safe too.
key, when = str(uuid.uuid4()), datetime.now(timezone.utc) + timedelta(days=1)
first = client.posts.create(account_id=account.id, content="Once", platforms=["feed"], scheduled_at=when, idempotency_key=key)
again = client.posts.create(account_id=account.id, content="Once", platforms=["feed"], scheduled_at=when, idempotency_key=key)
assert first.id == again.id

# Optimistic concurrency: update only the version you read.
post = client.posts.get(first.id)
try:
    client.posts.update(post.id, content="Edited", if_match=post.etag)
except smm.PreconditionFailedError:
    print("changed by someone else meanwhile: get it again")
except smm.ConflictError:
    print("no longer scheduled (already published?)")
else:
    print("updated", post.id)
