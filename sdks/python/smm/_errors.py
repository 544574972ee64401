"""The errors the SDK raises: one base class, API errors carrying the RFC 9457 problem."""
from typing import Any, Dict, List, Mapping, Optional, Type


class SmmError(Exception):
    """Base class of every error this SDK raises on purpose."""


class TransportError(SmmError):
    """The request got no HTTP answer (connection refused or reset, timeout), after every retry."""


class TlsError(TransportError):
    """The server's certificate is not trusted (unknown CA, expired, wrong host name); never retried."""


class ApiError(SmmError):
    """The API answered with an error status; `problem` is its RFC 9457 body."""

    def __init__(self, status: int, problem: Mapping[str, Any], request_id: Optional[str] = None) -> None:
        self.status = status
        self.problem: Dict[str, Any] = dict(problem)
        self.code: str = str(problem.get("code") or "http_%d" % status)
        self.detail: str = str(problem.get("detail") or problem.get("title") or "HTTP %d" % status)
        self.errors: List[Dict[str, Any]] = list(problem.get("errors") or [])
        self.request_id: Optional[str] = request_id or problem.get("request_id")
        fields = "; ".join("%s: %s" % (e.get("pointer", ""), e.get("detail", "")) for e in self.errors)
        super().__init__("%d %s: %s%s" % (status, self.code, self.detail, " (" + fields + ")" if fields else ""))


class AuthenticationError(ApiError):
    """401: the API key is missing, unknown, revoked or expired."""


class PermissionDeniedError(ApiError):
    """403: the key lacks the scope the operation needs (`insufficient_scope`), or your role in the workspace does not allow it (`forbidden`)."""


class NotFoundError(ApiError):
    """404: no such resource (or not yours)."""


class ConflictError(ApiError):
    """409: the resource is not in a state that allows the change."""


class PreconditionFailedError(ApiError):
    """412: the resource changed since the version sent in If-Match; GET it again."""


class ValidationError(ApiError):
    """400/422: the request is malformed or a field is invalid (see `errors`)."""


class RateLimitError(ApiError):
    """429: too many requests; `retry_after` is the wait the API asked for, in seconds."""

    def __init__(self, status: int, problem: Mapping[str, Any], request_id: Optional[str] = None, retry_after: float = 0.0) -> None:
        super().__init__(status, problem, request_id)
        self.retry_after = retry_after


class WebhookVerificationError(SmmError):
    """A webhook's headers or signature are missing, malformed, wrong or too old."""


_BY_STATUS: Dict[int, Type[ApiError]] = {
    400: ValidationError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    412: PreconditionFailedError,
    422: ValidationError,
}


def api_error(status: int, problem: Mapping[str, Any], request_id: Optional[str], retry_after: Optional[float]) -> ApiError:
    if status == 429:
        return RateLimitError(status, problem, request_id, retry_after or 0.0)
    return _BY_STATUS.get(status, ApiError)(status, problem, request_id)
