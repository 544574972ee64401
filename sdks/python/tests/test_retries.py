"""Retries over real connections that fail: a TCP relay in front of the daemon drops answers on purpose."""
import http.server
import os
import socket
import ssl
import threading
import unittest
import uuid
from datetime import datetime, timedelta, timezone
from typing import List

import smm

from _live import advance_clock, needs_daemon


class FlakyRelay:
    """Listens on loopback and relays each TLS connection to the daemon, byte for byte. On the first
    `drop` connections the daemon gets the whole request but the client never gets the answer: the
    connection closes mid-call, as when a proxy or the network fails after the server did the work."""

    APPLICATION_DATA = 0x17  # TLS record type: from the client, its request (or its TLS 1.3 Finished)

    def __init__(self, upstream: str, drop: int, listen: str = "127.0.0.1") -> None:
        host, _, port = upstream.rpartition(":")
        self.upstream = (host, int(port))
        self.drop = drop
        self.connections = 0
        #: For each dropped connection, how many bytes the daemon answered that the client never got.
        self.dropped_bytes: List[int] = []
        self.server = socket.create_server((listen, 0))
        self.port = self.server.getsockname()[1]
        self.threads: List[threading.Thread] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            self.connections += 1
            thread = threading.Thread(target=self._relay, args=(client, self.connections <= self.drop), daemon=True)
            self.threads.append(thread)
            thread.start()

    def _relay(self, client: socket.socket, drop_answer: bool) -> None:
        encrypted = threading.Event()  # set once the client sends application data: the handshake is over for it

        with client, socket.create_connection(self.upstream) as upstream:
            def pump_up() -> None:
                pending = b""
                try:
                    while True:
                        data = client.recv(65536)
                        if not data:
                            break
                        pending += data
                        while len(pending) >= 5 and len(pending) >= 5 + int.from_bytes(pending[3:5], "big"):
                            if pending[0] == self.APPLICATION_DATA:
                                encrypted.set()
                            pending = pending[5 + int.from_bytes(pending[3:5], "big"):]
                        upstream.sendall(data)
                except OSError:
                    pass
            threading.Thread(target=pump_up, daemon=True).start()
            dropped = 0
            records = b""
            # The SDK asks for `Connection: close`: after its answer the daemon sends a TLS close_notify
            # alert, which the dropped connection must end on (the daemon would otherwise wait for the
            # client's own close_notify). An alert is record type 0x15 in TLS 1.2 and, encrypted in
            # TLS 1.3, an application-data record of 19 bytes (2-byte alert, 1-byte type, 16-byte tag).
            while True:
                data = upstream.recv(65536)
                if not data:
                    break
                if not (drop_answer and encrypted.is_set()):
                    client.sendall(data)
                    continue
                dropped += len(data)
                records += data
                closed = False
                while len(records) >= 5 and len(records) >= 5 + int.from_bytes(records[3:5], "big"):
                    length = int.from_bytes(records[3:5], "big")
                    closed = closed or records[0] == 0x15 or (records[0] == self.APPLICATION_DATA and length == 19)
                    records = records[5 + length:]
                if closed:
                    break
            if drop_answer:
                self.dropped_bytes.append(dropped)
            # shutdown, not just close: it also wakes pump_up's recv, and the client sees the end now.
            for end in (client, upstream):
                try:
                    end.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def close(self) -> None:
        self.server.close()
        for thread in self.threads:
            thread.join(5)


def daemon_address() -> str:
    netloc = os.environ["SMM_URL"].split("/")[2]
    return netloc.replace("localhost", "127.0.0.1")


@needs_daemon
class RetriedCreate(unittest.TestCase):
    def setUp(self) -> None:
        self.api = smm.Client(sleep=advance_clock)
        self.account = self.api.accounts.create(name="retries")
        self.api.accounts.connect(self.account.id, platform="feed")
        self.waits: List[float] = []

    def through(self, relay: FlakyRelay, **options) -> smm.Client:
        host = os.environ["SMM_URL"].split("/")[2].rsplit(":", 1)[0]
        return smm.Client("https://%s:%d/v1" % (host, relay.port), sleep=self.waits.append, **options)

    def test_a_create_whose_answer_was_lost_is_retried_with_the_same_key_and_makes_one_post(self) -> None:
        relay = FlakyRelay(daemon_address(), drop=1)
        self.addCleanup(relay.close)
        content = "lost answer %s" % uuid.uuid4().hex
        post = self.through(relay).posts.create(account_id=self.account.id, content=content, platforms=["feed"],
                                                scheduled_at=datetime.now(timezone.utc) + timedelta(days=1))
        self.assertEqual(relay.connections, 2)
        self.assertGreater(relay.dropped_bytes[0], 200, "the daemon answered the first attempt; the client lost it")
        self.assertEqual(len(self.waits), 1)
        # The daemon did the first attempt's work; only the same Idempotency-Key makes the second a replay.
        same = [p.id for p in self.api.posts.list(account_id=self.account.id) if p.content == content]
        self.assertEqual(same, [post.id])

    def test_retries_are_bounded_and_then_a_transport_error(self) -> None:
        relay = FlakyRelay(daemon_address(), drop=100)
        self.addCleanup(relay.close)
        with self.assertRaises(smm.TransportError) as caught:
            self.through(relay, max_retries=3).me()
        self.assertEqual(relay.connections, 4)
        self.assertEqual(len(self.waits), 3)
        self.assertIn("after 4 attempt(s)", str(caught.exception))


class FailingServer:
    """Stands in for the daemon under its own certificate and key, answering `failures` 503s (with
    Retry-After) before the real answer: what a daemon whose database is unreachable says."""

    def __init__(self, failures: int) -> None:
        self.failures = failures
        self.requests: List[str] = []
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (the standard library's name)
                outer.requests.append(self.path)
                if len(outer.requests) <= outer.failures:
                    body = b'{"type":"urn:smm:problem:store_unavailable","title":"Service Unavailable","status":503,' \
                           b'"detail":"The database cannot be reached right now.","code":"store_unavailable","instance":"req_1"}'
                    self.send_response(503)
                    self.send_header("Content-Type", "application/problem+json")
                    self.send_header("Retry-After", "2")
                else:
                    body = b'{"id":"usr_1","name":"owner","plan":"standard","timezone":"UTC"}'
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                pass

        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(os.environ["SMM_CA_FILE"], os.environ["SMM_TEST_TLS_KEY_FILE"])
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@needs_daemon
class ServerErrors(unittest.TestCase):
    def client(self, server: FailingServer, waits: List[float], **options) -> smm.Client:
        return smm.Client("https://127.0.0.1:%d/v1" % server.port, sleep=waits.append, **options)

    def test_a_503_is_retried_after_its_retry_after_and_the_answer_comes_through(self) -> None:
        server = FailingServer(failures=2)
        self.addCleanup(server.close)
        waits: List[float] = []
        me = self.client(server, waits).me()
        self.assertEqual(me.id, "usr_1")
        self.assertEqual(server.requests, ["/v1/me"] * 3)
        self.assertEqual(waits, [2.0, 2.0])

    def test_retries_of_a_5xx_are_bounded_and_then_the_problem_is_raised(self) -> None:
        server = FailingServer(failures=100)
        self.addCleanup(server.close)
        waits: List[float] = []
        with self.assertRaises(smm.ApiError) as caught:
            self.client(server, waits, max_retries=1).me()
        self.assertEqual((caught.exception.status, caught.exception.code), (503, "store_unavailable"))
        self.assertEqual(len(server.requests), 2)
        self.assertEqual(waits, [2.0])


@needs_daemon
class HostName(unittest.TestCase):
    def test_a_certificate_for_another_host_is_an_error(self) -> None:
        # 127.0.0.2 is loopback too, but not a name in the daemon's certificate.
        relay = FlakyRelay(daemon_address(), drop=0, listen="127.0.0.2")
        self.addCleanup(relay.close)
        with self.assertRaises(smm.TlsError) as caught:
            smm.Client("https://127.0.0.2:%d/v1" % relay.port, max_retries=2, sleep=lambda s: None).me()
        self.assertIn("127.0.0.2", str(caught.exception))
        self.assertEqual(relay.connections, 1)  # never retried


if __name__ == "__main__":
    unittest.main()
