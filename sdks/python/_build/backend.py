"""A PEP 517 build backend from the standard library alone, so `pip install ./sdks/python` needs no
package index: Debian's Python lacks `wheel`, which setuptools < 70.1 needs to build one, and the
machines that build smm reach no index. It packs `smm/` and the metadata of pyproject.toml."""
import base64
import hashlib
import io
import re
import tarfile
import zipfile
from pathlib import Path
from typing import Dict, List, Optional

ROOT = Path(__file__).resolve().parent.parent
PROJECT = (ROOT / "pyproject.toml").read_text(encoding="utf-8")


def _field(name: str) -> str:
    found = re.search(r'^%s\s*=\s*"([^"]*)"' % name, PROJECT, re.M)
    if not found:
        raise RuntimeError("pyproject.toml has no %s" % name)
    return found.group(1)


NAME, VERSION = _field("name"), _field("version")
DIST_INFO = "%s-%s.dist-info" % (NAME, VERSION)


def _metadata() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    return ("Metadata-Version: 2.1\nName: %s\nVersion: %s\nSummary: %s\nRequires-Python: %s\n"
            "Description-Content-Type: text/markdown\n\n%s" % (NAME, VERSION, _field("description"), _field("requires-python"), readme))


def _files() -> Dict[str, bytes]:
    files = {str(p.relative_to(ROOT)): p.read_bytes() for p in sorted((ROOT / NAME).rglob("*"))
             if p.is_file() and "__pycache__" not in p.parts}
    files[DIST_INFO + "/METADATA"] = _metadata().encode("utf-8")
    files[DIST_INFO + "/WHEEL"] = b"Wheel-Version: 1.0\nGenerator: smm-build\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    return files


def get_requires_for_build_wheel(config_settings: Optional[dict] = None) -> List[str]:
    return []


def get_requires_for_build_sdist(config_settings: Optional[dict] = None) -> List[str]:
    return []


def build_wheel(wheel_directory: str, config_settings: Optional[dict] = None, metadata_directory: Optional[str] = None) -> str:
    name = "%s-%s-py3-none-any.whl" % (NAME, VERSION)
    files = _files()
    record = io.StringIO()
    with zipfile.ZipFile(Path(wheel_directory) / name, "w", zipfile.ZIP_DEFLATED) as wheel:
        for path, data in files.items():
            wheel.writestr(path, data)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            record.write("%s,sha256=%s,%d\n" % (path, digest, len(data)))
        record.write(DIST_INFO + "/RECORD,,\n")
        wheel.writestr(DIST_INFO + "/RECORD", record.getvalue())
    return name


def build_sdist(sdist_directory: str, config_settings: Optional[dict] = None) -> str:
    base = "%s-%s" % (NAME, VERSION)
    with tarfile.open(Path(sdist_directory) / (base + ".tar.gz"), "w:gz") as sdist:
        for path in ["pyproject.toml", "README.md", "_build/backend.py", *[p for p in _files() if p.startswith(NAME + "/")]]:
            sdist.add(str(ROOT / path), arcname=base + "/" + path)
        info = tarfile.TarInfo(base + "/PKG-INFO")
        data = _metadata().encode("utf-8")
        info.size = len(data)
        sdist.addfile(info, io.BytesIO(data))
    return base + ".tar.gz"
