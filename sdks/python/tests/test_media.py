"""Media against the live daemon: a file streamed from its path or given as bytes, alt text, and posts that use it."""
import hashlib
import os
import struct
import tempfile
import unittest
import uuid
import zlib
from datetime import datetime, timedelta, timezone

import smm

from _live import advance_clock, needs_daemon


def png(width: int, height: int, padding: int = 0) -> bytes:
    """A grey PNG; `padding` bytes of comment (a tEXt chunk) make it as large as a test needs."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    rows = b"".join(b"\x00" + b"\x80" * width for _ in range(height))
    comment = chunk(b"tEXt", b"Comment\x00" + b"x" * padding) if padding else b""
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)) + comment
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


@needs_daemon
class Media(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.smm = smm.Client(sleep=advance_clock)
        cls.account = cls.smm.accounts.create(name="python-sdk media %s" % uuid.uuid4().hex[:8])
        cls.smm.accounts.connect(cls.account.id, platform="feed")
        cls.dir = tempfile.TemporaryDirectory()

    @classmethod
    def tearDownClass(cls) -> None:
        cls.dir.cleanup()

    def test_a_path_is_streamed_from_the_disk_and_its_progress_told(self) -> None:
        data = png(1200, 800, padding=300_000)
        path = os.path.join(self.dir.name, "field.png")
        with open(path, "wb") as f:
            f.write(data)
        told = []
        media = self.smm.media.upload(path, content_type="image/png", alt_text="A grey field", on_progress=lambda sent, total: told.append((sent, total)))
        self.assertEqual((media.content_type, media.width, media.height, media.bytes, media.alt_text),
                         ("image/png", 1200, 800, len(data), "A grey field"))
        self.assertEqual(media.sha256, hashlib.sha256(data).hexdigest())
        # A chunk at a time, in order, to the whole file.
        self.assertGreater(len(told), 2)
        self.assertEqual(told[-1], (len(data), len(data)))
        self.assertEqual([s for s, _ in told], sorted(s for s, _ in told))
        self.assertEqual(self.smm.media.file(media.url.rsplit("/", 1)[1]), data)

    def test_bytes_then_get_list_update_delete(self) -> None:
        media = self.smm.media.upload(png(40, 30), content_type="image/png")
        self.assertIsNone(media.alt_text)
        self.assertEqual(self.smm.media.get(media.id).id, media.id)
        self.assertIn(media.id, [m.id for m in self.smm.media.list(limit=2)])
        self.assertEqual(self.smm.media.update(media.id, alt_text="Now described").alt_text, "Now described")
        self.assertIsNone(self.smm.media.update(media.id, alt_text=None).alt_text)
        self.smm.media.delete(media.id)
        with self.assertRaises(smm.NotFoundError):
            self.smm.media.get(media.id)

    def test_refusals_are_typed_errors_and_a_missing_file_sends_nothing(self) -> None:
        with self.assertRaises(smm.ValidationError) as caught:
            self.smm.media.upload(png(10, 10), content_type="image/jpeg")
        self.assertEqual(caught.exception.code, "media_type_mismatch")
        with self.assertRaises(FileNotFoundError):
            self.smm.media.upload(os.path.join(self.dir.name, "missing.png"), content_type="image/png")

    def test_posts_take_uploaded_media_with_their_own_alt_text(self) -> None:
        media = self.smm.media.upload(png(600, 600), content_type="image/png", alt_text="Its own")
        when = datetime.now(timezone.utc) + timedelta(days=1)
        post = self.smm.posts.create(account_id=self.account.id, content="With a picture", platforms=["feed"], scheduled_at=when,
                                     media=[{"id": media.id, "alt_text": "The post's own"}])
        self.assertEqual([(m.id, m.alt_text, m.width) for m in post.media], [(media.id, "The post's own", 600)])
        with self.assertRaises(smm.ConflictError) as caught:
            self.smm.media.delete(media.id)
        self.assertEqual(caught.exception.code, "media_in_use")
        updated = self.smm.posts.update(post.id, media=[])
        self.assertEqual(updated.media, [])
        self.smm.media.delete(media.id)


if __name__ == "__main__":
    unittest.main()
