"""The login page must work for someone with no session: every file it loads, and every
module its script imports (followed to the end), is in the gate's OPEN_PATHS. A module
added to login.js's imports without opening it would leave the form without its script
(which then posted the password in the address); this test names the missing file."""

from __future__ import annotations

import posixpath
import re
from html.parser import HTMLParser
from pathlib import Path

from askalong.server.gate import LOGIN_PAGE, OPEN_PATHS

STATIC = Path(__file__).resolve().parents[2] / "src" / "askalong" / "server" / "static"
IMPORT = re.compile(r"""^\s*(?:import|export)\b[^"';]*?["'](\.{1,2}/[^"']+)["']""", re.M)


class _Loads(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.paths: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        for name in ("src", "href"):
            value = found.get(name)
            if value and value.startswith("/") and tag in ("script", "link"):
                self.paths.append(value)


def _imports(path: str) -> list[str]:
    source = (STATIC / path.lstrip("/")).read_text(encoding="utf-8")
    base = posixpath.dirname(path)
    return [posixpath.normpath(posixpath.join(base, spec)) for spec in IMPORT.findall(source)]


def _closure(start: list[str]) -> set[str]:
    seen: set[str] = set()
    todo = list(start)
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        if path.endswith(".js"):
            todo.extend(_imports(path))
    return seen


def login_loads() -> set[str]:
    page = _Loads()
    page.feed((STATIC / LOGIN_PAGE.lstrip("/")).read_text(encoding="utf-8"))
    return _closure(page.paths) | {LOGIN_PAGE}


def test_every_file_the_login_page_loads_is_open() -> None:
    missing = sorted(login_loads() - OPEN_PATHS)
    assert not missing, f"the login page loads {missing}, which the gate refuses without a session"


def test_nothing_else_is_open() -> None:
    extra = sorted(OPEN_PATHS - login_loads())
    assert not extra, f"OPEN_PATHS opens {extra}, which the login page does not load"


def test_the_closure_follows_imports() -> None:
    assert "/lib/strings/zh-Hans.js" in _closure(["/login/login.js"])
