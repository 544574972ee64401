"""The client: one attribute per resource, one method per operation of the API."""
import json
import os
import time
from datetime import datetime, timezone
from typing import Any, Callable, Dict, Iterator, List, Optional, Type, TypeVar, Union

from ._records import Account, ApiKey, AuditEntry, Comment, ReviewLink, Connection, Member, PendingConnection, Platform, Post, PostValidation, Queue, Record, User, Webhook, Workspace
from ._transport import Transport, Upload

R = TypeVar("R", bound=Record)
Time = Union[datetime, str]


class _Unset:
    def __repr__(self) -> str:
        return "UNSET"


#: "Leave this field as it is" in an update (None means JSON null where the API allows it).
UNSET: Any = _Unset()


def _rfc3339(value: Optional[Time], name: str) -> Optional[str]:
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, datetime):
        if value.tzinfo is None:
            raise ValueError("%s must be timezone-aware (e.g. datetime.now(timezone.utc)), got a naive datetime" % name)
        return value.astimezone(timezone.utc).isoformat().replace("+00:00", "Z")
    raise TypeError("%s must be a datetime or an RFC 3339 string, got %s" % (name, type(value).__name__))


def _fields(**values: Any) -> Dict[str, Any]:
    return {k: v for k, v in values.items() if v is not UNSET}


def _repeat(repeat: Dict[str, Any]) -> Dict[str, Any]:
    out = {k: v for k, v in repeat.items() if v is not None}
    if "until" in out:
        out["until"] = _rfc3339(out["until"], "repeat.until")
    return out


def _post_body(*, account_id: str, content: str, platforms: List[str], scheduled_at: Optional[Time],
               media_urls: Optional[List[str]], media: Optional[List[Dict[str, Any]]], draft: bool, queue: bool, repeat: Optional[Dict[str, Any]],
               thread: Optional[List[Dict[str, Any]]], first_comment: Optional[str],
               overrides: Optional[Dict[str, Dict[str, Any]]]) -> Dict[str, Any]:
    """What create and validate send: the same post. None leaves a field out; inside `overrides` a None
    is sent as null, which there means "none on this platform"."""
    return _fields(account_id=account_id, content=content, platforms=platforms,
                   scheduled_at=_rfc3339(scheduled_at, "scheduled_at") or UNSET,
                   media_urls=UNSET if media_urls is None else media_urls,
                   media=UNSET if media is None else media,
                   draft=True if draft else UNSET, queue=True if queue else UNSET,
                   repeat=UNSET if repeat is None else _repeat(repeat),
                   thread=UNSET if thread is None else thread,
                   first_comment=UNSET if first_comment is None else first_comment,
                   overrides=UNSET if overrides is None else overrides)


def _bulk_item(post: Dict[str, Any]) -> Dict[str, Any]:
    item = {k: v for k, v in post.items() if v is not None}
    if "scheduled_at" in item:
        item["scheduled_at"] = _rfc3339(item["scheduled_at"], "scheduled_at")
    if "repeat" in item:
        item["repeat"] = _repeat(item["repeat"])
    return item


class _Resource:
    def __init__(self, transport: Transport) -> None:
        self._t = transport

    def _one(self, cls: Type[R], method: str, path: str, **kwargs: Any) -> R:
        response = self._t.request(method, path, **kwargs)
        return cls(response.json(), etag=response.headers.get("etag"))

    def _none(self, method: str, path: str, **kwargs: Any) -> None:
        self._t.request(method, path, **kwargs)

    def _pages(self, cls: Type[R], path: str, query: Dict[str, Any]) -> Iterator[R]:
        """Every item of every page, following `next_cursor`; a page is fetched only when needed."""
        cursor = None
        while True:
            page = self._t.request("GET", path, query={**query, "cursor": cursor}).json()
            for item in page["data"]:
                yield cls(item)
            cursor = page.get("next_cursor")
            if not cursor:
                return


class Posts(_Resource):
    def create(self, *, account_id: str, content: str, platforms: List[str], scheduled_at: Optional[Time] = None,
               media_urls: Optional[List[str]] = None, media: Optional[List[Dict[str, Any]]] = None,
               draft: bool = False, queue: bool = False, repeat: Optional[Dict[str, Any]] = None, thread: Optional[List[Dict[str, Any]]] = None,
               first_comment: Optional[str] = None, overrides: Optional[Dict[str, Dict[str, Any]]] = None,
               idempotency_key: Optional[str] = None) -> Post:
        """Schedules a post (now when `scheduled_at` is None; with `queue=True` at the account's next free
        queue slot), or with `draft=True` keeps it as a draft until `schedule`. `media` ([{"id": "med_…",
        "alt_text": …}]) attaches uploaded media (`media.upload`), after any `media_urls`. `repeat` ({"interval": "P1W",
        "count": 4} or with "until") makes it the first occurrence of a series. `thread` ([{"content",
        "media_urls"}], up to 24) follows the post, `first_comment` goes under it, and `overrides`
        ({"x": {"content": …, "thread": [], "first_comment": None}}) gives one platform its own version.
        The same `idempotency_key` never makes two posts."""
        body = _post_body(account_id=account_id, content=content, platforms=platforms, scheduled_at=scheduled_at,
                          media_urls=media_urls, media=media, draft=draft, queue=queue, repeat=repeat, thread=thread,
                          first_comment=first_comment, overrides=overrides)
        return self._one(Post, "POST", self._t.path("/posts"), body=body, idempotency_key=idempotency_key)

    def validate(self, *, account_id: str, content: str, platforms: List[str], scheduled_at: Optional[Time] = None,
                 media_urls: Optional[List[str]] = None, media: Optional[List[Dict[str, Any]]] = None,
                 draft: bool = False, queue: bool = False, repeat: Optional[Dict[str, Any]] = None, thread: Optional[List[Dict[str, Any]]] = None,
                 first_comment: Optional[str] = None, overrides: Optional[Dict[str, Dict[str, Any]]] = None) -> PostValidation:
        """Checks a post exactly as `create` would, creating nothing: each platform's length and limit (and
        each thread part's and first comment's, in `targets[].parts`), or the ValidationError `create`
        would raise. No post is stored."""
        body = _post_body(account_id=account_id, content=content, platforms=platforms, scheduled_at=scheduled_at,
                          media_urls=media_urls, media=media, draft=draft, queue=queue, repeat=repeat, thread=thread,
                          first_comment=first_comment, overrides=overrides)
        return self._one(PostValidation, "POST", self._t.path("/posts/validate"), body=body)

    def create_many(self, posts: List[Dict[str, Any]], *, idempotency_key: Optional[str] = None) -> List[Post]:
        """Schedules up to 500 posts (each a dict of `create`'s fields) in one request: all, or none when
        any is invalid (ValidationError, pointers like `#/posts/3/content`). The posts come back in order."""
        response = self._t.request("POST", self._t.path("/posts/bulk"), body={"posts": [_bulk_item(p) for p in posts]},
                                   idempotency_key=idempotency_key)
        return [Post(item) for item in response.json()["data"]]

    def validate_many(self, posts: List[Dict[str, Any]]) -> int:
        """Checks posts as `create_many` would, creating nothing: their count, or ValidationError."""
        response = self._t.request("POST", self._t.path("/posts/bulk"), body={"posts": [_bulk_item(p) for p in posts], "dry_run": True})
        return int(response.json()["count"])

    def get(self, id: str) -> Post:
        """The post; its `etag` is what `update(if_match=...)` takes."""
        return self._one(Post, "GET", self._t.path("/posts/{id}", id=id))

    def list(self, account_id: Optional[str] = None, status: Optional[str] = None, limit: Optional[int] = None, *,
             platform: Optional[str] = None, from_: Optional[Time] = None, to: Optional[Time] = None,
             order: Optional[str] = None, series_id: Optional[str] = None, workspace_id: Optional[str] = None) -> Iterator[Post]:
        """Every matching post, page after page (`limit` is the page size); `series_id`: a series' occurrences;
        `workspace_id`: one workspace's (default: every workspace you belong to)."""
        query = {"account_id": account_id, "status": status, "limit": limit, "platform": platform,
                 "from": _rfc3339(from_, "from_"), "to": _rfc3339(to, "to"), "order": order, "series_id": series_id,
                 "workspace_id": workspace_id}
        return self._pages(Post, self._t.path("/posts"), query)

    def update(self, id: str, *, content: str = UNSET, platforms: List[str] = UNSET, scheduled_at: Time = UNSET,
               media_urls: List[str] = UNSET, media: List[Dict[str, Any]] = UNSET,
               thread: List[Dict[str, Any]] = UNSET, first_comment: Optional[str] = UNSET,
               overrides: Dict[str, Dict[str, Any]] = UNSET, if_match: Optional[str] = None) -> Post:
        """Changes the given fields of a scheduled post or a draft: `thread=[]` drops the thread,
        `first_comment=None` the first comment, and `overrides` replaces the whole set (`{}` drops them).
        With `if_match` (a post's `etag`), a post changed since then raises PreconditionFailedError
        instead of being overwritten."""
        body = _fields(content=content, platforms=platforms, media_urls=media_urls, media=media, thread=thread,
                       first_comment=first_comment, overrides=overrides,
                       scheduled_at=UNSET if scheduled_at is UNSET else _rfc3339(scheduled_at, "scheduled_at"))
        headers = {"If-Match": if_match} if if_match else None
        return self._one(Post, "PUT", self._t.path("/posts/{id}", id=id), body=body, headers=headers)

    def schedule(self, id: str, *, scheduled_at: Optional[Time] = None, queue: bool = False, if_match: Optional[str] = None,
                 idempotency_key: Optional[str] = None) -> Post:
        """Schedules a draft: at `scheduled_at`, at the account's next free queue slot (`queue=True`), or
        now. With `if_match` (the draft's `etag`), a draft changed since raises PreconditionFailedError."""
        body = _fields(scheduled_at=_rfc3339(scheduled_at, "scheduled_at") or UNSET, queue=True if queue else UNSET)
        headers = {"If-Match": if_match} if if_match else None
        return self._one(Post, "POST", self._t.path("/posts/{id}/schedule", id=id), body=body, headers=headers,
                         idempotency_key=idempotency_key)

    def cancel(self, id: str, *, series: bool = False) -> Post:
        """Cancels a scheduled post or a draft. An occurrence of a series: alone (the series goes on with the next),
        or with `series=True` the series stops too (every scheduled occurrence cancelled, none follows)."""
        return self._one(Post, "DELETE", self._t.path("/posts/{id}", id=id), query={"series": "true" if series else None})

    def retry(self, id: str, *, idempotency_key: Optional[str] = None) -> Post:
        """Publishes a failed or partially published post's failed targets again."""
        return self._one(Post, "POST", self._t.path("/posts/{id}/retry", id=id), idempotency_key=idempotency_key)

    def approve(self, id: str, *, comment: Optional[str] = None) -> Post:
        """Approves a post waiting for approval (admins and owners): it is scheduled, or published at once
        if its time has passed. A `comment` is kept with the post, as the approval's."""
        return self._one(Post, "POST", self._t.path("/posts/{id}/approve", id=id), body=_fields(comment=UNSET if comment is None else comment))

    def reject(self, id: str, comment: str) -> Post:
        """Asks for changes to a post waiting for approval (admins and owners); `comment` says what. The post
        is `rejected` until an edit makes it wait for approval again."""
        return self._one(Post, "POST", self._t.path("/posts/{id}/reject", id=id), body={"comment": comment})

    def comments(self, id: str, limit: Optional[int] = None) -> Iterator[Comment]:
        """The post's comments, oldest first: the team's, reviewers', and each decision's."""
        return self._pages(Comment, self._t.path("/posts/{id}/comments", id=id), {"limit": limit})

    def add_comment(self, id: str, body: str, *, idempotency_key: Optional[str] = None) -> Comment:
        """Comments on a post (any member, viewers too)."""
        return self._one(Comment, "POST", self._t.path("/posts/{id}/comments", id=id), body={"body": body}, idempotency_key=idempotency_key)

    def create_review_link(self, id: str, *, expires_in: Optional[int] = None) -> ReviewLink:
        """Makes a link (admins and owners) whose `url` lets someone without an account approve the post
        or ask for changes; `expires_in` seconds (default a week). The URL is shown only here."""
        return self._one(ReviewLink, "POST", self._t.path("/posts/{id}/review-links", id=id), body=_fields(expires_in=UNSET if expires_in is None else expires_in))

    def review_links(self, id: str) -> Iterator[ReviewLink]:
        """The post's review links, oldest first, each with its `state`."""
        return self._pages(ReviewLink, self._t.path("/posts/{id}/review-links", id=id), {})

    def revoke_review_link(self, id: str, link_id: str) -> None:
        """Revokes a review link: its page says so from then on."""
        self._none("DELETE", self._t.path("/posts/{id}/review-links/{link_id}", id=id, link_id=link_id))


class Platforms(_Resource):
    def list(self) -> Iterator[Platform]:
        """The platforms this daemon publishes to: how each connects and its limits (needs `accounts:read`)."""
        return self._pages(Platform, self._t.path("/platforms"), {})


class Accounts(_Resource):
    def create(self, *, name: str, workspace_id: Optional[str] = None, idempotency_key: Optional[str] = None) -> Account:
        """A new account, in `workspace_id` (default: your personal workspace)."""
        body = _fields(name=name, workspace_id=UNSET if workspace_id is None else workspace_id)
        return self._one(Account, "POST", self._t.path("/accounts"), body=body, idempotency_key=idempotency_key)

    def get(self, id: str) -> Account:
        return self._one(Account, "GET", self._t.path("/accounts/{id}", id=id))

    def list(self, platform: Optional[str] = None, limit: Optional[int] = None, *, workspace_id: Optional[str] = None) -> Iterator[Account]:
        """Every account of your workspaces (or of `workspace_id`), page after page."""
        return self._pages(Account, self._t.path("/accounts"), {"platform": platform, "limit": limit, "workspace_id": workspace_id})

    def update(self, id: str, *, name: str) -> Account:
        """Renames the account (`account.updated`)."""
        return self._one(Account, "PATCH", self._t.path("/accounts/{id}", id=id), body={"name": name})

    def delete(self, id: str, *, cancel_posts: bool = False) -> None:
        """Deletes the account with its connections, posts and feed. One with scheduled posts is
        deleted only with `cancel_posts=True` (each post gets `post.cancelled`); otherwise 409."""
        self._none("DELETE", self._t.path("/accounts/{id}", id=id), query={"cancel_posts": "true" if cancel_posts else None})

    def get_queue(self, id: str) -> Queue:
        """The account's weekly queue slots (in the user's time zone) and its next free slot times."""
        return self._one(Queue, "GET", self._t.path("/accounts/{id}/queue", id=id))

    def set_queue(self, id: str, slots: List[Dict[str, str]]) -> Queue:
        """Replaces the account's queue slots, e.g. [{"day": "monday", "time": "09:00"}] ([] empties it)."""
        return self._one(Queue, "PUT", self._t.path("/accounts/{id}/queue", id=id), body={"slots": slots})

    def connect(self, id: str, *, platform: str, credentials: Optional[Dict[str, Any]] = None,
                options: Optional[Dict[str, str]] = None,
                idempotency_key: Optional[str] = None) -> Union[Connection, PendingConnection]:
        """Connects a platform to the account (`feed` needs no credentials). An OAuth platform (x,
        linkedin, threads, facebook, instagram) answers a `PendingConnection`: open its
        `authorize_url` and approve; `options` such as {"page_id": "…"} go with it."""
        body = _fields(platform=platform, credentials=UNSET if credentials is None else credentials,
                       options=UNSET if options is None else options)
        response = self._t.request("POST", self._t.path("/accounts/{id}/connections", id=id), body=body, idempotency_key=idempotency_key)
        data = response.json()
        return PendingConnection(data) if data.get("status") == "pending" and "authorize_url" in data else Connection(data)

    def disconnect(self, id: str, platform: str) -> None:
        self._none("DELETE", self._t.path("/accounts/{id}/connections/{platform}", id=id, platform=platform))


class Webhooks(_Resource):
    def create(self, *, url: str, events: List[str], description: Optional[str] = None, workspace_id: Optional[str] = None,
               idempotency_key: Optional[str] = None) -> Webhook:
        """Registers an endpoint for the events of `workspace_id` (default: your personal workspace); the
        answer's `secret` (verify with it) is shown only this once."""
        body = _fields(url=url, events=events, description=UNSET if description is None else description,
                       workspace_id=UNSET if workspace_id is None else workspace_id)
        return self._one(Webhook, "POST", self._t.path("/webhooks"), body=body, idempotency_key=idempotency_key)

    def get(self, id: str) -> Webhook:
        return self._one(Webhook, "GET", self._t.path("/webhooks/{id}", id=id))

    def list(self, limit: Optional[int] = None, *, workspace_id: Optional[str] = None) -> Iterator[Webhook]:
        return self._pages(Webhook, self._t.path("/webhooks"), {"limit": limit, "workspace_id": workspace_id})

    def update(self, id: str, *, url: str = UNSET, events: List[str] = UNSET, description: Optional[str] = UNSET,
               enabled: bool = UNSET) -> Webhook:
        """Changes the given fields (`description=None` clears it)."""
        body = _fields(url=url, events=events, description=description, enabled=enabled)
        return self._one(Webhook, "PATCH", self._t.path("/webhooks/{id}", id=id), body=body)

    def delete(self, id: str) -> None:
        self._none("DELETE", self._t.path("/webhooks/{id}", id=id))

    def test(self, id: str, *, idempotency_key: Optional[str] = None) -> Record:
        """Sends a `webhook.test` event to the endpoint."""
        return self._one(Record, "POST", self._t.path("/webhooks/{id}/test", id=id), idempotency_key=idempotency_key)

    def rotate_secret(self, id: str, *, idempotency_key: Optional[str] = None) -> Webhook:
        """A new secret (in the answer, once); the old one keeps signing for a while."""
        return self._one(Webhook, "POST", self._t.path("/webhooks/{id}/rotate-secret", id=id), idempotency_key=idempotency_key)

    def resend_delivery(self, id: str, delivery_id: str) -> Record:
        """Sends one delivery again now, same webhook-id and body; `delivery_id` is its event id
        (msg_…) or the id of one of its attempts (dlv_…)."""
        path = self._t.path("/webhooks/{id}/deliveries/{delivery_id}/resend", id=id, delivery_id=delivery_id)
        return self._one(Record, "POST", path)

    def deliveries(self, id: str, limit: Optional[int] = None) -> Iterator[Record]:
        """Every delivery attempt to the endpoint, newest first."""
        return self._pages(Record, self._t.path("/webhooks/{id}/deliveries", id=id), {"limit": limit})


class ApiKeys(_Resource):
    def create(self, *, name: str, scopes: Optional[List[str]] = None, expires_at: Optional[Time] = None,
               idempotency_key: Optional[str] = None) -> ApiKey:
        """A new key; the answer's `secret` is shown only this once."""
        body = _fields(name=name, scopes=UNSET if scopes is None else scopes,
                       expires_at=UNSET if expires_at is None else _rfc3339(expires_at, "expires_at"))
        return self._one(ApiKey, "POST", self._t.path("/api-keys"), body=body, idempotency_key=idempotency_key)

    def list(self, limit: Optional[int] = None) -> Iterator[ApiKey]:
        return self._pages(ApiKey, self._t.path("/api-keys"), {"limit": limit})

    def revoke(self, id: str) -> None:
        self._none("DELETE", self._t.path("/api-keys/{id}", id=id))


class Ai(_Resource):
    def generate(self, *, prompt: str, platforms: Optional[List[str]] = None, tone: Optional[str] = None,
                 variants: Optional[int] = None, language: Optional[str] = None, hashtags: Optional[bool] = None,
                 idempotency_key: Optional[str] = None) -> Record:
        """Drafts of post content for the prompt (nothing is scheduled)."""
        body = {k: v for k, v in dict(prompt=prompt, platforms=platforms, tone=tone, variants=variants,
                                      language=language, hashtags=hashtags).items() if v is not None}
        return self._one(Record, "POST", self._t.path("/ai/generate"), body=body, idempotency_key=idempotency_key)


class Analytics(_Resource):
    def get(self, *, from_: Optional[Time] = None, to: Optional[Time] = None, account_id: Optional[str] = None,
            platform: Optional[str] = None, post_id: Optional[str] = None, interval: Optional[str] = None,
            workspace_id: Optional[str] = None) -> Record:
        """A report on one workspace: `workspace_id`, or the account's or post's, or your personal one."""
        query = {"from": _rfc3339(from_, "from_"), "to": _rfc3339(to, "to"), "account_id": account_id,
                 "platform": platform, "post_id": post_id, "interval": interval, "workspace_id": workspace_id}
        return self._one(Record, "GET", self._t.path("/analytics"), query=query)


class Workspaces(_Resource):
    """Workspaces you belong to and their members: accounts, posts and webhooks live in a workspace,
    and its members act on them by their role."""

    def list(self, limit: Optional[int] = None) -> Iterator[Workspace]:
        """The workspaces you belong to, each with your `role`."""
        return self._pages(Workspace, self._t.path("/workspaces"), {"limit": limit})

    def create(self, *, name: str, approval_required: bool = False, timezone: Optional[str] = None,
               idempotency_key: Optional[str] = None) -> Workspace:
        """A workspace to share accounts; you are its owner (its zone defaults to yours)."""
        body = _fields(name=name, approval_required=approval_required, timezone=UNSET if timezone is None else timezone)
        return self._one(Workspace, "POST", self._t.path("/workspaces"), body=body, idempotency_key=idempotency_key)

    def get(self, id: str) -> Workspace:
        return self._one(Workspace, "GET", self._t.path("/workspaces/{id}", id=id))

    def update(self, id: str, *, name: str = UNSET, approval_required: bool = UNSET, timezone: str = UNSET) -> Workspace:
        """Renames it, requires approval of editors' posts, or changes its zone."""
        body = _fields(name=name, approval_required=approval_required, timezone=timezone)
        return self._one(Workspace, "PATCH", self._t.path("/workspaces/{id}", id=id), body=body)

    def delete(self, id: str) -> None:
        """Deletes a shared workspace that has no accounts left (owner only)."""
        self._none("DELETE", self._t.path("/workspaces/{id}", id=id))

    def members(self, id: str, limit: Optional[int] = None) -> Iterator[Member]:
        return self._pages(Member, self._t.path("/workspaces/{id}/members", id=id), {"limit": limit})

    def add_member(self, id: str, *, role: str, user_id: Optional[str] = None, email: Optional[str] = None,
                   idempotency_key: Optional[str] = None) -> Member:
        """Adds a user, by `user_id` or `email`, with a role (owner, admin, editor, viewer)."""
        body = _fields(role=role, user_id=UNSET if user_id is None else user_id, email=UNSET if email is None else email)
        return self._one(Member, "POST", self._t.path("/workspaces/{id}/members", id=id), body=body, idempotency_key=idempotency_key)

    def set_role(self, id: str, user_id: str, role: str) -> Member:
        return self._one(Member, "PATCH", self._t.path("/workspaces/{id}/members/{user_id}", id=id, user_id=user_id), body={"role": role})

    def remove_member(self, id: str, user_id: str) -> None:
        """Removes a member, who loses access at once (your own id: you leave)."""
        self._none("DELETE", self._t.path("/workspaces/{id}/members/{user_id}", id=id, user_id=user_id))

    def audit_log(self, id: str, *, kind: Optional[str] = None, from_: Optional[Time] = None, to: Optional[Time] = None,
                  limit: Optional[int] = None) -> Iterator[AuditEntry]:
        """What was done in the workspace, by whom, newest first (owners and admins). `kind`: event types
        separated by commas, `post.*` for a family; `from_` inclusive, `to` exclusive."""
        query = {"kind": kind, "from": _rfc3339(from_, "from_"), "to": _rfc3339(to, "to"), "limit": limit}
        return self._pages(AuditEntry, self._t.path("/workspaces/{id}/audit-log", id=id), query)


class Feeds(_Resource):
    """An account's public feed of published posts (the `feed` platform), as served to readers."""

    def _text(self, account_id: str, extension: str) -> str:
        path = self._t.root_path("/feeds/{account_id}." + extension, account_id=account_id)
        return self._t.request("GET", path).body.decode("utf-8")

    def rss(self, account_id: str) -> str:
        return self._text(account_id, "rss")

    def atom(self, account_id: str) -> str:
        return self._text(account_id, "atom")

    def json(self, account_id: str) -> Record:
        return Record(json.loads(self._text(account_id, "json")))

    def html(self, account_id: str) -> str:
        """The feed as a web page: each post an article anchored by its id."""
        return self._text(account_id, "html")


class MediaFiles(_Resource):
    """Images and videos you upload (/v1/media), and their bytes by public URL."""

    def upload(self, file: Union[str, "os.PathLike[str]", bytes], *, content_type: str, alt_text: Optional[str] = None,
               on_progress: Optional[Callable[[int, int], None]] = None, idempotency_key: Optional[str] = None) -> Record:
        """Uploads a file (a path, streamed from the disk as it is sent) or bytes, of `content_type`:
        image/jpeg, image/png, image/gif, image/webp, video/mp4 or video/quicktime. `on_progress(sent,
        total)` is told as the bytes leave. Refusals raise ApiError: media_type_mismatch (the bytes are
        another type), unsupported_media_type, media_too_large, media_quota_exceeded."""
        return self._one(Record, "POST", self._t.path("/media"), body=Upload(file, content_type, on_progress),
                         query={"alt_text": alt_text}, idempotency_key=idempotency_key)

    def get(self, id: str) -> Record:
        return self._one(Record, "GET", self._t.path("/media/{id}", id=id))

    def list(self, limit: Optional[int] = None) -> Iterator[Record]:
        """Your media, newest first."""
        return self._pages(Record, self._t.path("/media"), {"limit": limit})

    def update(self, id: str, *, alt_text: Optional[str]) -> Record:
        """Changes the alt text (None removes it)."""
        return self._one(Record, "PATCH", self._t.path("/media/{id}", id=id), body={"alt_text": alt_text})

    def delete(self, id: str) -> None:
        """Deletes it; ApiError media_in_use while a draft, scheduled or publishing post uses it."""
        self._none("DELETE", self._t.path("/media/{id}", id=id))

    def file(self, file: str) -> bytes:
        """The bytes behind a media's public URL, by its last segment (<token>.<ext>)."""
        return self._t.request("GET", self._t.root_path("/media/{file}", file=file)).body


class Client:
    """A client of one smm API.

    `base_url` (https only; `/v1` is added when it has no path) and `api_key` default to the
    SMM_URL and SMM_API_KEY environment variables, `ca_file` to SMM_CA_FILE. 429s (after their
    Retry-After), 5xx and connection failures are retried up to `max_retries` times; `sleep` is
    what waits between attempts (tests inject their own).
    """

    def __init__(self, base_url: Optional[str] = None, api_key: Optional[str] = None, *, ca_file: Optional[str] = None,
                 max_retries: int = 2, timeout: float = 30.0, sleep: Callable[[float], None] = time.sleep) -> None:
        base_url = base_url or os.environ.get("SMM_URL")
        if not base_url:
            raise ValueError("base_url is required (or set SMM_URL), e.g. https://smm.example.com/v1")
        api_key = api_key or os.environ.get("SMM_API_KEY") or ""
        ca_file = ca_file or os.environ.get("SMM_CA_FILE") or None
        self._t = Transport(base_url, api_key, ca_file=ca_file, max_retries=max_retries, timeout=timeout, sleep=sleep)
        self.posts = Posts(self._t)
        self.platforms = Platforms(self._t)
        self.accounts = Accounts(self._t)
        self.webhooks = Webhooks(self._t)
        self.api_keys = ApiKeys(self._t)
        self.ai = Ai(self._t)
        self.analytics = Analytics(self._t)
        self.feeds = Feeds(self._t)
        self.workspaces = Workspaces(self._t)
        self.media = MediaFiles(self._t)

    def me(self) -> User:
        """The key's owner: plan, limits, time zone."""
        return User(self._t.request("GET", self._t.path("/me")).json())

    def update_me(self, *, name: str = UNSET, timezone: str = UNSET) -> User:
        """Changes your own name or IANA time zone (needs the `profile:write` scope)."""
        return User(self._t.request("PATCH", self._t.path("/me"), body=_fields(name=name, timezone=timezone)).json())

    def health(self) -> Record:
        """The daemon's health check (no key needed)."""
        return Record(self._t.request("GET", self._t.root_path("/healthz")).json())

    def ready(self) -> Record:
        """Whether the daemon can serve: its database answers within a second (no key needed; 503 `store_unavailable` when not)."""
        return Record(self._t.request("GET", self._t.root_path("/readyz")).json())

    def openapi(self) -> Dict[str, Any]:
        """The API's OpenAPI document."""
        return self._t.request("GET", self._t.path("/openapi.json")).json()
