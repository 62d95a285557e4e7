"""XDV201's cleanup fix: exact `--fix` outputs, a fixed point, and a real failed move.

`case.fixed.py` beside an XDV201 fixture is what `xdevlint --fix` makes of it (present
only when that changes the file), `case.unsafe.fixed.py` what `--fix --unsafe-fixes`
makes of it when that differs. Set `XDEVLINT_UPDATE_FIXED=1` to rewrite them, then
review the diff. The incident test forces the failure for real: `/dev/shm` (tmpfs) and
the working disk are different filesystems, so the worker's `os.rename` fails with EXDEV.
"""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable, Dict, List, Tuple

import pytest

from xdevlint import engine
from xdevlint.config import Config
from tests.fixture_cases import FIXTURES, case_files, check_output, expected_output, fixture_config

fix_source = engine.fix_source

CASES = [p for p in case_files() if p.relative_to(FIXTURES).parts[0] == "XDV201"]
SHM = Path("/dev/shm")


def _fixable(path: Path) -> bool:
    result = engine.lint_source(path.read_bytes(), str(path), fixture_config(path))
    return any(f.fix is not None for f in result.findings if f.code == "XDV201")


FIXABLE = [p for p in CASES if _fixable(p)]
IDS = [str(p.relative_to(FIXTURES)) for p in FIXABLE]


def test_enough_fixable_cases() -> None:
    assert len(FIXABLE) >= 8


def test_every_fixed_output_has_a_fixable_case() -> None:
    """A case whose fix went away must not keep its expected outputs (the exact-output
    tests would skip it silently)."""
    outputs = sorted(FIXTURES.glob("XDV201/*.fixed.py"))
    assert outputs
    for output in outputs:
        case = output.with_name(output.name.split(".", 1)[0] + ".py")
        assert case in FIXABLE, f"{output.name}: {case.name} has no fix"


@pytest.mark.parametrize("path", FIXABLE, ids=IDS)
def test_fixed_output_is_exact(path: Path) -> None:
    data = path.read_bytes()
    safe = fix_source(data, str(path), fixture_config(path))
    unsafe = fix_source(data, str(path), fixture_config(path), unsafe=True)
    assert safe.error is None and unsafe.error is None
    assert safe.changed or unsafe.changed
    check_output(expected_output(path, ".fixed.py"), safe.fixed if safe.changed else None)
    check_output(expected_output(path, ".unsafe.fixed.py"), unsafe.fixed if unsafe.fixed != safe.fixed else None)


@pytest.mark.parametrize("path", FIXABLE, ids=IDS)
@pytest.mark.parametrize("unsafe", [False, True], ids=["safe", "unsafe"])
def test_fixed_output_is_a_fixed_point(path: Path, unsafe: bool) -> None:
    result = fix_source(path.read_bytes(), str(path), fixture_config(path), unsafe=unsafe)
    compile(result.fixed, str(path), "exec", dont_inherit=True)
    again = fix_source(result.fixed, str(path), fixture_config(path), unsafe=unsafe)
    assert again.fixed == result.fixed


@pytest.mark.parametrize("path", FIXABLE, ids=IDS)
def test_unsafe_fixes_leave_no_xdv201(path: Path) -> None:
    result = fix_source(path.read_bytes(), str(path), fixture_config(path), unsafe=True)
    assert [f for f in result.result.findings if f.code == "XDV201"] == []


def _run_worker(script: Path, stage: Path, cache: Path) -> dict:
    env = {**os.environ, "TMPDIR": str(stage)}
    completed = subprocess.run(
        [sys.executable, str(script), "--shards", "3", "--shard-size", "4096", "--cache-dir", str(cache)],
        env=env, capture_output=True, text=True, timeout=60, check=True,
    )
    return json.loads(completed.stdout.strip().splitlines()[-1])


@pytest.mark.skipif(not SHM.is_dir() or os.stat(SHM).st_dev == os.stat(tempfile.gettempdir()).st_dev,
                    reason="needs /dev/shm on a filesystem of its own")
def test_fixed_incident_worker_leaves_no_orphans_when_the_move_fails(tmp_path: Path) -> None:
    worker = FIXTURES / "incident" / "migrate_worker.py"
    config = replace(Config(root=FIXTURES), select=("ALL",))
    fixed = fix_source(worker.read_bytes(), str(worker), config)
    assert fixed.error is None and fixed.changed
    assert "XDV201" in {f.code for f in fixed.applied}
    script = tmp_path / "migrate_worker.py"
    script.write_bytes(fixed.fixed)
    original = tmp_path / "original_worker.py"
    original.write_bytes(worker.read_bytes())
    cache = tmp_path / "cache"  # on the working disk
    stage = Path(tempfile.mkdtemp(dir=SHM, prefix="xdv201-"))
    try:
        # The failure is real: the unfixed worker orphans every shard in the stage.
        assert _run_worker(original, stage, cache) == {"moved": 0, "failed": 3}
        assert len(list(stage.iterdir())) == 3
        for leftover in stage.iterdir():
            leftover.unlink()
        summary = _run_worker(script, stage, cache)
        # Whatever the fixes did to the move (XDV101 stages beside the cache now), the
        # stage must be empty: no shard is left behind in /dev/shm.
        assert sum(summary.values()) == 3
        assert list(stage.iterdir()) == []
    finally:
        for leftover in stage.iterdir():
            leftover.unlink()
        stage.rmdir()


def _fixed_and_run(case: Path) -> Tuple[Any, Dict[str, Any]]:
    """``case`` fixed with unsafe fixes, and the namespace its fixed code ran in."""
    fixed = fix_source(case.read_bytes(), str(case), fixture_config(case), unsafe=True)
    namespace: Dict[str, Any] = {"__name__": "fixed_case"}
    exec(compile(fixed.fixed, str(case), "exec", dont_inherit=True), namespace)
    return fixed, namespace


def _counting(monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> Tuple[List[str], Callable[..., Any]]:
    """The paths ``module.name`` is called with from now on (the real one still runs), and the real one."""
    real = getattr(module, name)
    calls: List[str] = []

    def counting(path: str, *args: Any, **kwargs: Any) -> Any:
        calls.append(path)
        return real(path, *args, **kwargs)

    monkeypatch.setattr(module, name, counting)
    return calls, real


@pytest.mark.parametrize("error", [OSError, TypeError])
def test_two_fixes_on_one_temp_remove_it_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, error: type) -> None:
    """The safe handler fix and then the unsafe fix for what that handler does not catch
    hit one temp: whichever error ``json.dump`` raises, the fixed code removes the temp
    exactly once (a ``try`` nested in the one whose handler removes it would remove an
    ``OSError``'s temp twice)."""
    case = FIXTURES / "XDV201" / "handler_cleans_and_wrap_does_not_clean_again.py"
    fixed, namespace = _fixed_and_run(case)
    assert fixed.error is None and {f.code for f in fixed.applied} == {"XDV201"}

    def failing_dump(data: object, f: object, **kwargs: object) -> None:
        raise error("cannot write")

    monkeypatch.setitem(namespace, "json", type("FailingJson", (), {"dump": staticmethod(failing_dump)}))
    removed, _ = _counting(monkeypatch, os, "unlink")
    target = tmp_path / "cache" / "tree.json"
    for function in ("write_cache", "write_cache_cleaned"):
        removed.clear()
        if error is OSError:
            namespace[function](str(target), {"a": 1})  # swallowed, as the code means to
        else:
            with pytest.raises(TypeError):
                namespace[function](str(target), {"a": 1})
        assert len(removed) == 1, (function, removed)
        assert not os.path.exists(removed[0])
        assert list(target.parent.iterdir()) == []


class _Git:
    """A stand-in ``git`` whose full clone fails when ``fail`` says so."""

    def __init__(self, fail: bool) -> None:
        self.fail = fail
        self.closed = 0

    def clone(self, url: str, path: str, shallow: bool = False) -> None:
        if shallow:
            raise ValueError("no shallow clone")
        if self.fail:
            raise RuntimeError("clone failed")

    def close(self) -> None:
        self.closed += 1


@pytest.mark.parametrize("fail", [False, True], ids=["clones", "fails"])
def test_enclosing_try_is_extended_and_removes_once(monkeypatch: pytest.MonkeyPatch, fail: bool) -> None:
    """The ``try/finally`` around the creation gets the ``except BaseException`` clause
    (no ``try`` nested in its body): a failed clone removes the directory once, a
    successful one leaves it in the cache, and the ``finally`` still runs."""
    case = FIXTURES / "XDV201" / "enclosing_try_is_extended.py"
    fixed, namespace = _fixed_and_run(case)
    assert fixed.error is None
    clone = next(s for s in ast.parse(fixed.fixed).body if isinstance(s, ast.FunctionDef) and s.name == "clone")
    assert [type(s).__name__ for s in clone.body] == ["Assign", "Try"]
    outer = clone.body[1]
    assert isinstance(outer, ast.Try) and len(outer.handlers) == 1 and outer.finalbody
    removed, real_rmtree = _counting(monkeypatch, shutil, "rmtree")
    git = _Git(fail)
    if fail:
        with pytest.raises(RuntimeError):
            namespace["clone"]("git://x", git)
        assert len(removed) == 1 and not os.path.exists(removed[0])
        assert namespace["CACHE"] == {}
    else:
        namespace["clone"]("git://x", git)
        path = namespace["CACHE"]["git://x"]
        assert removed == [] and os.path.isdir(path)
        real_rmtree(path)
    assert git.closed == 1


@pytest.mark.parametrize("fail", [False, True], ids=["passes", "fails"])
def test_unittest_fix_registers_the_removal_once(monkeypatch: pytest.MonkeyPatch, fail: bool) -> None:
    """In a ``TestCase`` method the fix moves the test's own removal into
    ``self.addCleanup`` after the creation: the script is removed exactly once, after the
    test, whether the test passed or failed halfway (the original leaked it then)."""
    import unittest

    case = FIXTURES / "XDV201" / "unittest_registers_cleanup.py"
    fixed, namespace = _fixed_and_run(case)
    assert fixed.error is None
    removed, _ = _counting(monkeypatch, os, "remove")
    if fail:
        def failing_chmod(path: str, mode: int) -> None:
            raise PermissionError(path)

        monkeypatch.setattr(os, "chmod", failing_chmod)
    result = unittest.TestResult()
    namespace["ScriptTests"]("test_script").run(result)
    assert len(result.errors) == (1 if fail else 0) and not result.failures
    assert len(removed) == 1 and not os.path.exists(removed[0])
