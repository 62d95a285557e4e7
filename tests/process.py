"""Running ``python -m xdevlint`` as its own process, for tests where the boundary matters
(exit codes, stdin, colour, tracebacks, crashes of the native parser)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional, Union

REPO = Path(__file__).resolve().parent.parent


def run(
    *args: str,
    cwd: Union[str, Path],
    stdin: Optional[bytes] = None,
    env: Optional[Dict[str, str]] = None,
    timeout: float = 120,
) -> subprocess.CompletedProcess:
    """The finished process, output as text; colour is off unless ``env`` turns it on."""
    environment = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    environment["PYTHONPATH"] = str(REPO)  # this checkout, whatever the venv has installed
    environment.update(env or {})
    completed = subprocess.run(
        [sys.executable, "-m", "xdevlint", *args],
        cwd=str(cwd),
        input=stdin,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=environment,
        timeout=timeout,
    )
    return subprocess.CompletedProcess(
        completed.args,
        completed.returncode,
        completed.stdout.decode("utf-8", "replace"),
        completed.stderr.decode("utf-8", "replace"),
    )


def findings(completed: subprocess.CompletedProcess) -> List[Dict[str, Any]]:
    """The JSON report of a ``--format json`` run that did not crash."""
    assert completed.returncode in (0, 1), (completed.returncode, completed.stderr)
    assert "Traceback" not in completed.stderr, completed.stderr
    return json.loads(completed.stdout)
