"""Records: API objects as attribute bags (`post.id`, `post.status`), annotated for type checkers."""
from typing import Any, Dict, List, Mapping, Optional


def _wrap(value: Any) -> Any:
    if isinstance(value, Mapping):
        return Record(value)
    if isinstance(value, list):
        return [_wrap(v) for v in value]
    return value


class Record:
    """An object the API returned. Every JSON field is an attribute; `to_dict()` gives the JSON back."""

    def __init__(self, data: Mapping[str, Any], etag: Optional[str] = None) -> None:
        self._data: Dict[str, Any] = dict(data)
        #: The ETag the API sent with this object (posts): pass it as `if_match` to update safely.
        self.etag = etag
        for key, value in self._data.items():
            self.__dict__[key] = _wrap(value)

    def __getattr__(self, name: str) -> Any:
        # Only reached for fields the API left out: say which, rather than a bare AttributeError.
        raise AttributeError("%s has no field %r (fields: %s)" % (type(self).__name__, name, ", ".join(self._data)))

    def __getitem__(self, key: str) -> Any:
        """`record["from"]`: the fields whose names are no valid attribute (KeyError when absent)."""
        if key not in self._data:
            raise KeyError(key)
        return self.__dict__[key]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Record) and other._data == self._data

    def __repr__(self) -> str:
        return "%s(%r)" % (type(self).__name__, self._data)

    def to_dict(self) -> Dict[str, Any]:
        return dict(self._data)


class User(Record):
    id: str
    name: str
    plan: str
    timezone: str


class Account(Record):
    id: str
    workspace_id: str
    name: str
    connections: List[Record]


class Connection(Record):
    """An account's link to one platform: status active, reauth_required, or pending (OAuth, being approved)."""
    platform: str
    handle: str
    display_name: str
    status: str
    connected_at: str


class PendingConnection(Record):
    """An OAuth platform's answer to connect: open `authorize_url` and approve before `expires_at`."""
    platform: str
    status: str
    authorize_url: str
    expires_at: str


class Platform(Record):
    name: str
    label: str
    #: "credentials" (the connect call takes `credentials`) or "oauth2" (approved in a browser).
    auth: str
    #: The credential fields `accounts.connect` takes for it.
    credentials: List[str]
    #: `limits.text.max`, `.count` (how a character is counted), `.caption_max`…; `limits.media.max`…
    limits: Record


class PublishedPart(Record):
    """One part of a target that is out on its platform."""
    #: 0 the post, then the first comment (if any), then the thread parts in order.
    index: int
    #: "post", "first_comment" or "thread".
    kind: str
    platform_post_id: Optional[str]
    url: Optional[str]
    published_at: str


class Target(Record):
    """How a post fares on one platform."""
    platform: str
    #: pending, publishing, published, failed or unconfirmed.
    status: str
    attempts: int
    platform_post_id: Optional[str]
    url: Optional[str]
    published_at: Optional[str]
    #: Why it failed: `code`, `detail`, and in a post of several parts `part`, the index of the part
    #: that failed (the parts before it are out); None unless it failed.
    error: Optional[Record]
    #: The parts already out, in order; a retry resumes after the last of them.
    parts: List[PublishedPart]

    def __init__(self, data: Mapping[str, Any], etag: Optional[str] = None) -> None:
        super().__init__(data, etag)
        self.__dict__["parts"] = [PublishedPart(part) for part in self._data.get("parts", [])]


class Post(Record):
    id: str
    account_id: str
    content: str
    media_urls: List[str]
    platforms: List[str]
    #: The parts published after the post, in order: each `content` and `media_urls`.
    thread: List[Record]
    #: Published right under the post; None when there is none.
    first_comment: Optional[str]
    #: Per-platform versions as given, keyed by platform (`post.overrides["x"]`); empty when none.
    overrides: Record
    #: None only for a draft given no time yet.
    scheduled_at: Optional[str]
    #: draft, scheduled, publishing, published, partially_published, failed or cancelled.
    status: str
    targets: List[Target]
    #: The series (`ser_…`) this post is an occurrence of, which one (from 1), and how it repeats
    #: (`interval`, `count`, `until`, `timezone`, `starts_at`); None for a one-off post.
    series_id: Optional[str]
    occurrence: Optional[int]
    repeat: Optional[Record]

    def __init__(self, data: Mapping[str, Any], etag: Optional[str] = None) -> None:
        super().__init__(data, etag)
        self.__dict__["targets"] = [Target(target) for target in self._data.get("targets", [])]


class Queue(Record):
    """An account's weekly queue: `slots` ({"day", "time"} in `timezone`) and the `next` free slot times."""
    timezone: str
    slots: List[Record]
    next: List[str]


class PostValidation(Record):
    """What `posts.validate` answers for a post `posts.create` would accept."""
    valid: bool
    #: When it would be published, as create would store it (now when none was given).
    scheduled_at: str
    #: One per platform: `platform`, `length` (counted that platform's way) and `limit`, for "212/280";
    #: `parts` measures its first comment and thread parts likewise (`index`, `kind`, `length`, `limit`);
    #: `warnings` (`pointer`, `code`, `detail`) says what goes out there otherwise than given, though valid:
    #: `alt_text_not_sent` at an uploaded media whose alt text the platform has no place for.
    targets: List[Record]


class Webhook(Record):
    id: str
    url: str
    events: List[str]
    enabled: bool
    #: Only in the answer of create and rotate_secret: keep it, it is never shown again.
    secret: str


class ApiKey(Record):
    id: str
    name: str
    scopes: List[str]
    #: Only in the answer of create: keep it, it is never shown again.
    secret: str


class WebhookEvent(Record):
    """A verified webhook: `type`, `timestamp`, `data`, plus the `webhook_id` header (stable across retries)."""

    type: str
    timestamp: str
    data: Record
    webhook_id: str


class Workspace(Record):
    """A workspace you belong to, with your `role` in it (owner, admin, editor, viewer)."""
    id: str
    name: str
    approval_required: bool
    personal: bool
    timezone: str
    role: str


class Member(Record):
    """A member of a workspace: `user_id`, `name`, `email` and `role`."""
    user_id: str
    name: str
    email: Optional[str]
    role: str


class Comment(Record):
    """A comment on a post: its `author` (`type` user, review_link or system, and `name`), `body`, and
    `decision` (approved or rejected) when it came with one."""
    id: str
    post_id: str
    author: Record
    body: str
    decision: Optional[str]
    created_at: str


class ReviewLink(Record):
    """A link that lets someone without an account approve a post or ask for changes: its `state`
    (active, expired or revoked); `url` only where it was made (only its token's hash is kept)."""
    id: str
    post_id: str
    created_by: Record
    created_at: str
    expires_at: str
    revoked_at: Optional[str]
    state: str


class AuditEntry(Record):
    """One thing done in a workspace: its `kind` (an event type), the `actor`, the `object` it was done
    to (`type` and `id`), a one-line `summary`, and when."""
    id: str
    kind: str
    actor: Record
    object: Record
    summary: str
    created_at: str
