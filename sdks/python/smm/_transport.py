"""HTTPS transport: base URL rules, TLS, JSON, typed errors, bounded retries with one Idempotency-Key."""
import http.client
import io
import json
import os
import random
import ssl
import time
import uuid
from email.utils import parsedate_to_datetime
from typing import Any, BinaryIO, Callable, Dict, Iterator, Mapping, Optional, Tuple, Union
from urllib.parse import quote, urlencode, urlsplit

from ._errors import ApiError, TlsError, TransportError, api_error

USER_AGENT = "smm-python/0.1"
#: Statuses worth another attempt: rate limited, or the server (or a proxy) failed.
RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})


def normalize_base_url(base_url: str) -> Tuple[str, int, str]:
    """(host, port, path prefix) of an https base URL; one without a path gets `/v1`."""
    parts = urlsplit(base_url)
    if parts.scheme != "https":
        raise ValueError("base_url must start with https:// (got %r): the API key would travel in clear over %s" % (base_url, parts.scheme or "no scheme"))
    if not parts.hostname:
        raise ValueError("base_url %r has no host" % base_url)
    path = parts.path.rstrip("/") or "/v1"
    return parts.hostname, parts.port or 443, path


def _retry_after(value: Optional[str]) -> Optional[float]:
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        return max(0.0, parsedate_to_datetime(value).timestamp() - time.time())
    except (TypeError, ValueError):
        return None


class Upload:
    """A body sent as it is, with its content type: bytes, or a file read as it is sent (never whole in
    memory), opened anew for each attempt. `on_progress(sent, total)` is told as the bytes leave."""

    CHUNK = 64 * 1024

    def __init__(self, source: Union[bytes, bytearray, memoryview, str, "os.PathLike[str]"], content_type: str,
                 on_progress: Optional[Callable[[int, int], None]] = None) -> None:
        if isinstance(source, (bytes, bytearray, memoryview)):
            data = bytes(source)
            self.length = len(data)
            self._open: Callable[[], BinaryIO] = lambda: io.BytesIO(data)
        else:
            path = os.fspath(source)
            self.length = os.path.getsize(path)  # raises FileNotFoundError before anything is sent
            self._open = lambda: open(path, "rb")
        self.content_type = content_type
        self.on_progress = on_progress

    def chunks(self) -> Iterator[bytes]:
        with self._open() as stream:
            sent = 0
            while True:
                chunk = stream.read(self.CHUNK)
                if not chunk:
                    return
                yield chunk
                sent += len(chunk)
                if self.on_progress:
                    self.on_progress(sent, self.length)


class Response:
    def __init__(self, status: int, headers: Mapping[str, str], body: bytes) -> None:
        self.status = status
        self.headers = headers
        self.body = body

    def json(self) -> Any:
        return json.loads(self.body) if self.body else None


class Transport:
    def __init__(self, base_url: str, api_key: str, *, ca_file: Optional[str], max_retries: int, timeout: float, sleep: Callable[[float], None]) -> None:
        if not api_key:
            raise ValueError("api_key is required (or set SMM_API_KEY)")
        if max_retries < 0:
            raise ValueError("max_retries must be >= 0, got %r" % max_retries)
        self.host, self.port, self.prefix = normalize_base_url(base_url)
        self.api_key = api_key
        self.max_retries = max_retries
        self.timeout = timeout
        self.sleep = sleep
        if ca_file is not None and not os.path.isfile(ca_file):
            raise ValueError("ca_file %r does not exist" % ca_file)
        # Certificate and hostname are always checked; ca_file only adds a trusted root.
        self.context = ssl.create_default_context(cafile=ca_file)

    def path(self, template: str, **params: str) -> str:
        """`/v1/posts/{id}` style: the API's prefix plus the template with each value escaped."""
        return self.prefix + template.format(**{k: quote(str(v), safe="") for k, v in params.items()})

    def root_path(self, template: str, **params: str) -> str:
        """A path outside `/v1` (health, feeds): the prefix's parent plus the template."""
        parent = self.prefix[: -len("/v1")] if self.prefix.endswith("/v1") else self.prefix
        return parent + template.format(**{k: quote(str(v), safe="") for k, v in params.items()})

    def request(self, method: str, path: str, *, query: Optional[Mapping[str, Any]] = None, body: Any = None,
                headers: Optional[Mapping[str, str]] = None, idempotency_key: Optional[str] = None) -> Response:
        """One call, retried on 429/5xx/connection failures up to max_retries times; raises ApiError."""
        url = path
        if query:
            pairs = [(k, v) for k, v in query.items() if v is not None]
            if pairs:
                url += "?" + urlencode(pairs)
        sent: Dict[str, str] = {"Authorization": "Bearer " + self.api_key, "Accept": "application/json", "User-Agent": USER_AGENT,
                             # One connection per call: nothing half-read is ever reused after a failure.
                             "Connection": "close"}
        if headers:
            sent.update(headers)
        payload: Union[None, bytes, Upload] = None
        if isinstance(body, Upload):
            payload = body
            sent["Content-Type"] = body.content_type
            sent["Content-Length"] = str(body.length)
        elif body is not None:
            payload = json.dumps(body).encode("utf-8")
            sent["Content-Type"] = "application/json"
        if method == "POST":
            # Every POST carries a key, the same on every attempt: a retried create makes one resource.
            sent["Idempotency-Key"] = idempotency_key or str(uuid.uuid4())
        attempt = 0
        while True:
            try:
                response = self._send(method, url, payload, sent)
            except ssl.SSLCertVerificationError as error:
                # A certificate the client cannot trust is never retried, nor ignored.
                raise TlsError("the server's TLS certificate is not trusted for %s: %s (give ca_file, or SMM_CA_FILE, "
                               "the daemon's certificate if it is self-signed)" % (self.host, error.verify_message or error)) from error
            except (OSError, http.client.HTTPException) as error:
                if attempt >= self.max_retries:
                    raise TransportError("%s %s failed after %d attempt(s): %s" % (method, path, attempt + 1, error)) from error
                self.sleep(self._backoff(attempt, None))
                attempt += 1
                continue
            if response.status < 400:
                return response
            retry_after = _retry_after(response.headers.get("retry-after"))
            if response.status in RETRY_STATUSES and attempt < self.max_retries:
                self.sleep(self._backoff(attempt, retry_after))
                attempt += 1
                continue
            raise self._error(response, retry_after)

    @staticmethod
    def _backoff(attempt: int, retry_after: Optional[float]) -> float:
        if retry_after is not None:
            return retry_after
        return min(8.0, 0.5 * 2 ** attempt) * (0.5 + random.random() / 2)

    def _send(self, method: str, url: str, payload: Union[None, bytes, Upload], headers: Mapping[str, str]) -> Response:
        connection = http.client.HTTPSConnection(self.host, self.port, timeout=self.timeout, context=self.context)
        try:
            # An upload is read from its start again on every attempt, a chunk at a time.
            body = payload.chunks() if isinstance(payload, Upload) else payload
            connection.request(method, url, body=body, headers=dict(headers))
            raw = connection.getresponse()
            body = raw.read()
            return Response(raw.status, {k.lower(): v for k, v in raw.getheaders()}, body)
        finally:
            connection.close()

    @staticmethod
    def _error(response: Response, retry_after: Optional[float]) -> ApiError:
        try:
            problem = response.json()
        except ValueError:
            problem = None
        if not isinstance(problem, dict):
            text = response.body.decode("utf-8", "replace")[:200]
            problem = {"status": response.status, "title": "HTTP %d" % response.status, "detail": text or "HTTP %d" % response.status}
        return api_error(response.status, problem, response.headers.get("x-request-id"), retry_after)
