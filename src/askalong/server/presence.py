"""Where a running ``askalong serve`` is reached: ``ASKALONG_HOME/server.json`` (mode 0600)
holds its process id and the loopback address and port it listens on. It is written once
the server listens and removed as it stops, so ``askalong ask`` on the same home asks it
instead of loading the library again (``cli/resident.py``). The file names no path and
is read from the home only; the token is the home's own (``server/token.py``). A file
whose process is gone (killed, the machine restarted) is stale and ignored.
"""

from __future__ import annotations

import json
import os
import secrets
from dataclasses import dataclass
from pathlib import Path

PRESENCE_FILE = "server.json"
PRIVATE = 0o600


@dataclass(frozen=True)
class Presence:
    pid: int
    host: str  # where this machine reaches it: loopback for a server on every address
    port: int

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"


def announce(home: Path, host: str, port: int) -> None:
    """Say that this process serves ``home`` at ``host:port`` (written whole, then moved
    into place: a reader never sees half a file)."""
    reach = {"0.0.0.0": "127.0.0.1", "::": "::1"}.get(host, host)
    record = {"pid": os.getpid(), "host": reach, "port": port}
    temporary = home / f".{PRESENCE_FILE}-{secrets.token_hex(8)}"
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE)
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        json.dump(record, handle)
    os.replace(temporary, home / PRESENCE_FILE)


def withdraw(home: Path) -> None:
    """Remove the file if it is this process's (a newer server's is left alone)."""
    found = _read(home)
    if found is not None and found.pid == os.getpid():
        (home / PRESENCE_FILE).unlink(missing_ok=True)


def running(home: Path) -> Presence | None:
    """The server serving ``home``, or None (no file, a malformed one, or its process gone)."""
    found = _read(home)
    return found if found is not None and _alive(found.pid) else None


def _read(home: Path) -> Presence | None:
    try:
        record = json.loads((home / PRESENCE_FILE).read_text(encoding="utf-8"))
        presence = Presence(int(record["pid"]), str(record["host"]), int(record["port"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return presence if presence.pid > 0 and 0 < presence.port < 65536 else None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)  # no signal sent: only whether the process exists
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process: it exists
    return True
