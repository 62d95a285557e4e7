"""A pytest plugin (entry point ``pytest11``): the ``cross_mount_tmp`` fixture, so that a
test suite exercises the real ``EXDEV`` path of its moves.

On most developer machines the temp directory and the project share one disk, so
``os.rename(tempfile.mkstemp()[1], dest)`` passes every test and fails in the container
where ``/tmp`` is a tmpfs. ``cross_mount_tmp`` points ``TMPDIR`` and ``tempfile.tempdir``
at a fresh directory on a *different* filesystem from the test's working directory (and
from pytest's ``tmp_path``): the first writable one of ``$XDEVLINT_CROSS_MOUNT_DIRS``
(``os.pathsep``-separated), else of ``/dev/shm``, ``/run/user/<uid>``, ``/run/shm``,
``/tmp``, ``/var/tmp``; as root with none of them, a tmpfs it mounts for the session. It
skips the test, saying why, when there is no second filesystem.

``--xdevlint-guard`` (or ``xdevlint_guard = true`` in the ini options) switches on the
runtime guard, :mod:`xdevlint.frontends.pytest_guard`: moves between locations and temps
left behind, seen while the tests run. This module only declares its options: it imports
nothing of xdevlint's engine, nor the guard, unless the guard is on, so loading it costs
every pytest run nothing.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import tempfile
import uuid
from pathlib import Path
from typing import Iterator, List, Optional, Sequence

import pytest

#: Directories to choose from, instead of the built-in list (``os.pathsep``-separated).
CANDIDATES_ENV = "XDEVLINT_CROSS_MOUNT_DIRS"

#: ``--xdevlint-guard=MODE``; ``off`` turns off what the ini options turned on.
GUARD_MODES = ("report", "fail", "off")
_INI_TRUE = ("true", "yes", "on", "1", "report")
_INI_FALSE = ("false", "no", "off", "0", "")


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("xdevlint", "xdevlint: moves across mount points and temps left behind")
    # ``--xdevlint-guard`` takes no separate value, so ``pytest --xdevlint-guard tests/`` runs
    # tests/; the modes are options of their own, spelt with ``=`` (argparse matches an exact
    # option string before it splits one at ``=``).
    group.addoption(
        "--xdevlint-guard", dest="xdevlint_guard", action="store_const", const="report", default=None,
        help="watch moves between locations and temps left behind while the tests run; "
        "--xdevlint-guard=report (the same: a section in the summary), =fail (the test errors at "
        "teardown), =off (whatever the ini options say)",
    )
    for mode in GUARD_MODES:
        group.addoption(
            f"--xdevlint-guard={mode}", dest="xdevlint_guard", action="store_const", const=mode, default=None,
            help=argparse.SUPPRESS,
        )
    group.addoption(
        "--xdevlint-guard-json", dest="xdevlint_guard_json", default=None, metavar="PATH",
        help="write the guard's findings to PATH as JSON (turns the guard on in report mode unless it is on)",
    )
    parser.addini("xdevlint_guard", "turn on the xdevlint runtime guard: true (report), fail, or false", default="false")


def guard_mode(config: pytest.Config) -> Optional[str]:
    """The guard's mode for this run, None when it is off: the command line wins over the ini options."""
    option = config.getoption("xdevlint_guard")
    if option is None:
        value = str(config.getini("xdevlint_guard")).strip().lower()
        if value in _INI_TRUE:
            option = "report"
        elif value == "fail":
            option = "fail"
        elif value not in _INI_FALSE:
            raise pytest.UsageError(f"xdevlint_guard = {value!r} in the ini options: expected true, fail or false")
    if option is None and config.getoption("xdevlint_guard_json"):
        option = "report"
    return None if option in (None, "off") else option


def pytest_configure(config: pytest.Config) -> None:
    mode = guard_mode(config)
    if mode is not None:
        from xdevlint.frontends import pytest_guard

        pytest_guard.start(config, mode, config.getoption("xdevlint_guard_json"))


def candidates() -> List[str]:
    configured = os.environ.get(CANDIDATES_ENV)
    if configured is not None:
        return [part for part in configured.split(os.pathsep) if part]
    return ["/dev/shm", f"/run/user/{os.getuid()}" if hasattr(os, "getuid") else "", "/run/shm", "/tmp", "/var/tmp"]


def other_filesystem(avoid: Sequence[str], choices: Sequence[str]) -> Optional[str]:
    """The first writable directory in ``choices`` whose device is none of ``avoid``'s."""
    devices = set()
    for path in avoid:
        try:
            devices.add(os.stat(path).st_dev)
        except OSError:
            continue
    for choice in choices:
        if not choice or not os.path.isdir(choice) or not os.access(choice, os.W_OK | os.X_OK):
            continue
        if os.stat(choice).st_dev not in devices:
            return choice
    return None


@pytest.fixture(scope="session")
def _xdevlint_session_tmpfs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Optional[str]]:
    """A tmpfs mounted for the session, for root on a machine with one filesystem; None
    when it cannot be mounted."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0 or shutil.which("mount") is None:
        yield None
        return
    point = tmp_path_factory.mktemp("xdevlint-tmpfs")
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=256m,mode=1777", "xdevlint-cross-mount", str(point)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False,
    )
    if done.returncode != 0:
        yield None
        return
    try:
        yield str(point)
    finally:
        subprocess.run(["umount", str(point)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)


@pytest.fixture
def cross_mount_tmp(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A fresh temp directory on another filesystem than the working directory; for the
    test, ``tempfile`` creates its files there (``TMPDIR`` and ``tempfile.tempdir``)."""
    avoid = [os.getcwd(), str(tmp_path_factory.getbasetemp())]
    choices = candidates()
    base = other_filesystem(avoid, choices)
    if base is None and os.environ.get(CANDIDATES_ENV) is None:
        base = request.getfixturevalue("_xdevlint_session_tmpfs")
    if base is None:
        pytest.skip(
            "cross_mount_tmp: no writable directory on another filesystem than the working directory "
            f"(tried {', '.join(c for c in choices if c)}; set {CANDIDATES_ENV}, or run as root to mount a tmpfs)"
        )
    directory = Path(base) / f"xdevlint-cross-mount-{uuid.uuid4().hex[:12]}"
    directory.mkdir(mode=0o700)
    saved_env, saved_tempdir = os.environ.get("TMPDIR"), tempfile.tempdir
    os.environ["TMPDIR"] = str(directory)
    tempfile.tempdir = str(directory)
    try:
        yield directory
    finally:
        tempfile.tempdir = saved_tempdir
        if saved_env is None:
            os.environ.pop("TMPDIR", None)
        else:
            os.environ["TMPDIR"] = saved_env
        shutil.rmtree(directory, ignore_errors=True)
