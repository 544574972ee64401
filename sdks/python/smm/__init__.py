"""The Python SDK of smm: `smm.Client` for the API, `smm.verify_webhook` for its webhooks."""
from ._client import UNSET, Client
from ._errors import (ApiError, AuthenticationError, ConflictError, NotFoundError, PermissionDeniedError,
                      PreconditionFailedError, RateLimitError, SmmError, TlsError, TransportError, ValidationError,
                      WebhookVerificationError)
from ._operations import OPERATIONS
from ._records import (Account, ApiKey, AuditEntry, Comment, ReviewLink, Connection, Member, PublishedPart, PendingConnection, Platform, Post, PostValidation, Queue, Record, Target, User,
                       Webhook, WebhookEvent, Workspace)
from ._webhooks import sign_webhook, verify_webhook

__version__ = "0.1.0"
__all__ = [
    "Account", "ApiError", "ApiKey", "Connection", "PendingConnection", "AuthenticationError", "Client", "ConflictError", "NotFoundError", "OPERATIONS",
    "PublishedPart", "PermissionDeniedError", "Platform", "Post", "PostValidation", "PreconditionFailedError", "Queue", "RateLimitError", "Record", "SmmError", "Target", "TlsError",
    "TransportError", "UNSET", "User", "ValidationError", "Webhook", "WebhookEvent", "WebhookVerificationError", "Member", "Workspace", "Comment", "AuditEntry", "ReviewLink",
    "sign_webhook", "verify_webhook",
]
