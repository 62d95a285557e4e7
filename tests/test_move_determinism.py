"""XDV101/XDV102 say the same thing whatever the hash seed: the analysis keeps sets of
nodes, tokens and names, and no message or finding may depend on their order."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.fixture_cases import FIXTURES


def _run(seed: str) -> str:
    env = {**os.environ, "PYTHONHASHSEED": seed}
    done = subprocess.run(
        [sys.executable, "-m", "xdevlint", "--select", "XDV101,XDV102", "--format", "json",
         str(FIXTURES / "XDV101"), str(FIXTURES / "XDV102")],
        capture_output=True, text=True, env=env,
    )
    assert done.returncode == 1, done.stderr
    return done.stdout


def test_findings_and_messages_do_not_depend_on_the_hash_seed() -> None:
    first = _run("1")
    assert '"XDV101"' in first and '"XDV102"' in first and "as called from `" in first and '"related"' in first
    assert _run("2") == first
