"""The needles of the vocabularies' patterns, kept on disk between processes. Reading every pattern
with the regex parser costs more than half a second at each start, and gives the same answer for
the same pattern, Python and needle reader, so the answers are stored once and read back.

The store is a JSON file in `$CLAIMWATCH_CACHE_DIR` (else `$XDG_CACHE_HOME/claimwatch`, else
`~/.cache/claimwatch`); `CLAIMWATCH_CACHE_DIR=` (empty) keeps nothing. Its name holds the Python
version and a digest of the needle reader, so a new reader never trusts an old answer. A store that
cannot be read or written is passed over: the patterns are read as if it were not there.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path

from watchers import needles

log = logging.getLogger("claimwatch.needles")
LIMIT = 8 * 1024 * 1024  # a store larger than this is not read


def location(environ: Mapping[str, str] = os.environ) -> Path | None:
    """The store's file; None when `CLAIMWATCH_CACHE_DIR` is set empty."""
    folder = environ.get("CLAIMWATCH_CACHE_DIR")
    if folder is None:
        base = environ.get("XDG_CACHE_HOME")
        if not base:
            try:
                base = str(Path.home() / ".cache")
            except RuntimeError:  # no home to find (a service account without one): keep nothing
                return None
        folder = str(Path(base) / "claimwatch")
    if not folder:
        return None
    reader = hashlib.sha256(Path(needles.__file__).read_bytes()).hexdigest()[:12]
    return Path(folder) / f"needles-py{sys.version_info[0]}{sys.version_info[1]}-{reader}.json"


def load(path: Path | None) -> int:
    """Take what the store holds; the number of patterns taken."""
    if path is None:
        return 0
    try:
        if path.stat().st_size > LIMIT:
            log.debug("needle store %s is over %d bytes: not read", path, LIMIT)
            return 0
        stored = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return 0
    except (OSError, ValueError) as exc:
        log.debug("needle store %s not read: %s", path, exc)
        return 0
    return needles.remember(stored)


def save(path: Path | None) -> bool:
    """Write every pattern read so far, when some were read anew; True when written. The file is
    replaced whole, so a reader in another process sees the old store or the new one."""
    fresh = needles.reads() if path is not None else None
    if fresh is None:
        return False
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".needles-", suffix=".json")
    except OSError as exc:
        log.debug("needle store %s not written: %s", path, exc)
        return False
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            json.dump(fresh, out, ensure_ascii=False, separators=(",", ":"))
        os.replace(temporary, path)
    except OSError as exc:
        log.debug("needle store %s not written: %s", path, exc)
        Path(temporary).unlink(missing_ok=True)
        return False
    return True
