"""``single_blas_thread``: a one-question process asks OpenBLAS for no helper threads, only
before numpy loads it and only when the user has not chosen a count (issue 28: the helpers
spun after every small product, ~45 CPU ms of an ``askalong ask``)."""

from __future__ import annotations

import os
import subprocess
import sys

PROBE = (
    "import os, sys\n"
    "from askalong.providers.local.e5.threads import single_blas_thread\n"
    "{before}\n"
    "single_blas_thread()\n"
    "print(os.environ.get('OPENBLAS_NUM_THREADS'))\n"
)


def blas_setting(before: str = "", user: str | None = None) -> str:
    """OPENBLAS_NUM_THREADS once ``single_blas_thread`` ran in a fresh process."""
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    if user is not None:
        env["OPENBLAS_NUM_THREADS"] = user
    code = PROBE.format(before=before)
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip()


def test_one_thread_before_numpy_loads() -> None:
    assert blas_setting() == "1"


def test_the_users_count_is_kept() -> None:
    assert blas_setting(user="4") == "4"


def test_nothing_changes_once_numpy_is_loaded() -> None:
    # OpenBLAS read its count already: setting it now would only mislead.
    assert blas_setting(before="import numpy") == "None"


def test_the_ask_command_loads_no_numpy_before_choosing() -> None:
    code = "import sys, askalong.cli.ask, askalong.cli.resident\nprint('numpy' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.strip() == "False", done.stderr[-2000:]
