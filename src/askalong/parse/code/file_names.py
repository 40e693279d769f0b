"""What a file's name (or its ``#!`` line) says it is: source code, a build or
configuration file, and the grammar it is read with."""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from askalong.parse.code.languages import (
    CODE_NAMES,
    CODE_SUFFIXES,
    CONFIG_NAMES,
    CONFIG_SUFFIXES,
    GRAMMARS,
    JAVASCRIPT,
    LUA,
    PERL,
    PHP,
    PYTHON,
    RUBY,
    Grammar,
)

_SHEBANG = re.compile(rb"#![ \t]*/\S*(?:[ \t]+(\w+))?")
_SHEBANG_GRAMMARS = {
    "python": PYTHON, "python3": PYTHON, "node": JAVASCRIPT, "ruby": RUBY, "lua": LUA,
    "php": PHP, "perl": PERL,
}  # fmt: skip


def is_code_name(name: str) -> bool:
    """Whether a file name says source code (its ending or a build file's name)."""
    path = PurePosixPath(name.replace("\\", "/"))
    return path.suffix.lower() in CODE_SUFFIXES or path.name.lower() in CODE_NAMES | CONFIG_NAMES


def is_config_name(name: str) -> bool:
    """Whether a file name says build or configuration file (``pom.xml``, ``go.mod``)."""
    path = PurePosixPath(name.replace("\\", "/"))
    return path.suffix.lower() in CONFIG_SUFFIXES or path.name.lower() in CONFIG_NAMES


def has_shebang(data: bytes) -> bool:
    return _SHEBANG.match(data[:200]) is not None


def grammar_for(name: str, data: bytes = b"") -> Grammar | None:
    """The grammar a file is read with: by its ending, else by its ``#!`` interpreter."""
    suffix = PurePosixPath(name.replace("\\", "/")).suffix.lower()
    if suffix in GRAMMARS:
        return GRAMMARS[suffix]
    found = _SHEBANG.match(data[:200])
    if found is None or found.group(1) is None:
        interpreter = b"" if found is None else found.group(0).rsplit(b"/", 1)[-1]
    else:
        interpreter = found.group(1)
    return _SHEBANG_GRAMMARS.get(interpreter.decode("ascii", "ignore"))
