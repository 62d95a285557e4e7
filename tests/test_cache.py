"""The result cache: what it keys on, what it refuses to trust, and two runs sharing it."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List, Tuple

import pytest

import xdevlint.batch
import xdevlint.cache
import xdevlint.config
from xdevlint.cache import Cache, build_fingerprint, config_fingerprint
from xdevlint.config import Config
from xdevlint.frontends.cli import main
from tests.process import REPO

BAD = """\
import os
import tempfile


def save(data, cache_dir):
    fd, tmp = tempfile.mkstemp()
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    os.rename(tmp, os.path.join(cache_dir, "x"))
"""
SWALLOW = """\
import os


def move(tmp, b):
    try:
        os.rename(tmp, b)
    except OSError:
        pass
"""
CLEAN = "import os\n\n\ndef f(s):\n    return s.replace('a', 'b')\n"


def project(root: Path) -> Path:
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "bad.py").write_text(BAD)
    (root / "pkg" / "swallow.py").write_text(SWALLOW)
    (root / "pkg" / "clean.py").write_text(CLEAN)
    return root


def lint(*args: str) -> Tuple[int, List[Dict[str, Any]]]:
    out = io.StringIO()
    code = main(["--format", "json", "--jobs", "1", *args], stdout=out)
    return code, json.loads(out.getvalue())


@pytest.fixture
def checked(monkeypatch: pytest.MonkeyPatch) -> List[str]:
    """The paths the engine really checks (cache misses), in order."""
    seen: List[str] = []
    real = xdevlint.batch.run_task

    def spy(task: Any) -> Any:
        seen.append(os.path.basename(task.path))
        return real(task)

    monkeypatch.setattr(xdevlint.batch, "run_task", spy)
    return seen


def test_a_second_run_is_served_from_the_cache(tmp_path: Path, checked: List[str]) -> None:
    root = project(tmp_path / "p")
    cache = tmp_path / "cache"
    first = lint(str(root), "--cache-dir", str(cache))
    assert sorted(checked) == ["bad.py", "clean.py", "swallow.py"]
    checked.clear()
    second = lint(str(root), "--cache-dir", str(cache))
    assert checked == []
    assert second == first
    assert {f["code"] for f in first[1]} == {"XDV101", "XDV201", "XDV202"}
    assert (cache / ".gitignore").read_text().splitlines()[-1] == "*"


def test_a_cached_fix_keeps_its_import_edits(tmp_path: Path, checked: List[str]) -> None:
    """``fix.edits`` from the cache are the whole fix: the import a client must add too."""
    root = project(tmp_path / "p")
    cache = tmp_path / "cache"
    first = lint(str(root / "pkg" / "bad.py"), "--cache-dir", str(cache))
    second = lint(str(root / "pkg" / "bad.py"), "--cache-dir", str(cache))
    assert checked == ["bad.py"] and second == first
    contents = [edit["content"] for f in first[1] if f.get("fix") for edit in f["fix"]["edits"]]
    assert any(content.startswith("from xdevlint.safemove import") or content.startswith("import ") for content in contents)


def test_changed_bytes_are_checked_again(tmp_path: Path, checked: List[str]) -> None:
    root = project(tmp_path / "p")
    lint(str(root))
    checked.clear()
    (root / "pkg" / "clean.py").write_text(SWALLOW)
    _, findings = lint(str(root))
    assert checked == ["clean.py"]
    assert [f["code"] for f in findings if f["path"].endswith("clean.py")] == ["XDV202"]


def test_changed_configuration_is_checked_again(tmp_path: Path, checked: List[str]) -> None:
    root = project(tmp_path / "p")
    lint(str(root))
    checked.clear()
    (root / "pyproject.toml").write_text('[tool.xdevlint]\nignore = ["XDV202"]\n')
    _, findings = lint(str(root))
    assert sorted(checked) == ["bad.py", "clean.py", "swallow.py"]
    assert "XDV202" not in {f["code"] for f in findings}
    checked.clear()
    _, again = lint(str(root), "--ignore", "XDV101")  # an option changes the configuration too
    assert len(checked) == 3 and {f["code"] for f in again} == {"XDV201", "XDV202"}


def test_a_changed_line_length_is_checked_again(tmp_path: Path, checked: List[str]) -> None:
    """Fixes keep to ruff's or black's line length, so their edits depend on it."""
    root = project(tmp_path / "p")
    lint(str(root))
    checked.clear()
    (root / "pyproject.toml").write_text("[tool.ruff]\nline-length = 40\n")
    xdevlint.config._line_length.cache_clear()  # one process here; each CLI run reads it afresh
    lint(str(root))
    assert sorted(checked) == ["bad.py", "clean.py", "swallow.py"]


def test_another_xdevlint_build_does_not_read_the_entries(tmp_path: Path, checked: List[str], monkeypatch: pytest.MonkeyPatch) -> None:
    root = project(tmp_path / "p")
    lint(str(root))
    checked.clear()
    before = build_fingerprint()
    monkeypatch.setattr(xdevlint.cache, "__version__", "99.0")
    assert build_fingerprint() != before
    lint(str(root))
    assert len(checked) == 3


def test_key_covers_bytes_path_configuration_and_build(tmp_path: Path) -> None:
    cache = Cache(tmp_path)
    config = Config(root=Path("/p"))
    base = cache.key(b"x = 1\n", "/p/a.py", config)
    assert base == cache.key(b"x = 1\n", "/p/a.py", config)
    other_build = Cache(tmp_path)
    other_build.build = "0" * 16  # another xdevlint
    others = {
        cache.key(b"x = 2\n", "/p/a.py", config),
        cache.key(b"x = 1\n", "/p/b.py", config),
        cache.key(b"x = 1\n", "/p/a.py", Config(root=Path("/p"), ignore=("XDV2",))),
        other_build.key(b"x = 1\n", "/p/a.py", config),
    }
    assert base not in others and len(others) == 4


def test_configuration_fingerprint_sees_every_setting() -> None:
    base = Config(root=Path("/p"))
    variants = [
        Config(root=Path("/p"), ignore=("XDV1",)),
        Config(root=Path("/p"), move_function="xdevlint.safemove.safe_move"),
        Config(root=Path("/p"), per_file_ignores=(("tests/*", ("XDV2",)),)),
        Config(root=Path("/q")),
    ]
    prints = {config_fingerprint(c) for c in [base, *variants]}
    assert len(prints) == 5
    assert config_fingerprint(Config(root=Path("/p"))) == config_fingerprint(base)


def packs(cache: Path) -> List[Path]:
    return sorted(cache.glob("*/*.json"))


@pytest.mark.parametrize(
    "damage",
    [
        lambda text: "{not json",
        lambda text: "",
        lambda text: json.dumps({"format": 999, "entries": json.loads(text)["entries"]}),
        lambda text: json.dumps([1, 2, 3]),
    ],
    ids=["garbage", "empty", "other-format", "not-a-pack"],
)
def test_a_corrupt_pack_is_ignored_and_rewritten(tmp_path: Path, checked: List[str], damage: Any) -> None:
    root = project(tmp_path / "p")
    cache = tmp_path / "cache"
    first = lint(str(root), "--cache-dir", str(cache))
    (pack,) = packs(cache)
    pack.write_text(damage(pack.read_text()))
    checked.clear()
    assert lint(str(root), "--cache-dir", str(cache)) == first
    assert len(checked) == 3
    assert len(json.loads(pack.read_text())["entries"]) == 3  # rewritten whole
    checked.clear()
    second = lint(str(root), "--cache-dir", str(cache))
    assert second == first and checked == []


def test_foreign_or_malformed_entries_are_not_trusted(tmp_path: Path, checked: List[str]) -> None:
    root = project(tmp_path / "p")
    cache = tmp_path / "cache"
    first = lint(str(root), "--cache-dir", str(cache))
    (pack,) = packs(cache)
    data = json.loads(pack.read_text())
    entries = data["entries"]
    bad = next(k for k in entries if k.endswith("bad.py"))
    clean = next(k for k in entries if k.endswith("clean.py"))
    swallow = next(k for k in entries if k.endswith("swallow.py"))
    # a result that belongs to other bytes: clean.py's entry claims bad.py's findings
    key = entries[clean]["key"]
    entries[clean] = dict(entries[bad], key=key[:-1] + ("1" if key.endswith("0") else "0"))  # never the right key
    # the right key, but a finding that is not one
    entries[swallow]["findings"] = [{"span": "1:1", "code": "XDV202"}]
    # the right key, but no findings list at all
    entries[bad] = {"key": entries[bad]["key"], "edits": False}
    pack.write_text(json.dumps(data))
    checked.clear()
    assert lint(str(root), "--cache-dir", str(cache)) == first
    assert sorted(checked) == ["bad.py", "clean.py", "swallow.py"]


def test_runs_with_other_settings_keep_their_own_entries(tmp_path: Path, checked: List[str]) -> None:
    root = project(tmp_path / "p")
    cache = tmp_path / "cache"
    lint(str(root), "--cache-dir", str(cache))
    lint(str(root), "--cache-dir", str(cache), "--select", "XDV2")
    checked.clear()
    lint(str(root), "--cache-dir", str(cache))
    lint(str(root), "--cache-dir", str(cache), "--select", "XDV2")
    assert checked == []  # neither run overwrote the other's entries


def test_no_cache_reads_and_writes_nothing(tmp_path: Path, checked: List[str]) -> None:
    root = project(tmp_path / "p")
    cache = tmp_path / "cache"
    lint(str(root), "--cache-dir", str(cache), "--no-cache")
    lint(str(root), "--cache-dir", str(cache), "--no-cache")
    assert len(checked) == 6
    assert not cache.exists()


def test_default_location_is_the_project_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = project(tmp_path / "p")
    (root / "pyproject.toml").write_text("[tool.xdevlint]\n")
    monkeypatch.delenv("XDEVLINT_CACHE_DIR")
    lint(str(root / "pkg"))
    assert packs(root / ".xdevlint_cache")
    monkeypatch.setenv("XDEVLINT_CACHE_DIR", str(tmp_path / "env"))
    lint(str(root / "pkg"))
    assert packs(tmp_path / "env")


def test_fix_skips_files_whose_cached_result_has_nothing_to_fix(tmp_path: Path, checked: List[str]) -> None:
    root = project(tmp_path / "p")
    lint(str(root))  # fills the cache
    fixed = checked
    fixed.clear()
    out = io.StringIO()
    assert main(["--fix", "--jobs", "1", str(root)], stdout=out) == 1  # swallow.py's XDV202 has no fix
    # clean.py has no finding and swallow.py's only one has no fix: the cached results say
    # there is nothing to do there; bad.py's temp is staged beside the cache and removed on error
    assert fixed == ["bad.py"]
    source = (root / "pkg" / "bad.py").read_text()
    assert "mkstemp(dir=cache_dir)" in source and "os.unlink(tmp)" in source
    fixed.clear()
    main(["--fix", "--unsafe-fixes", "--jobs", "1", str(root)], stdout=io.StringIO())
    assert fixed == []  # the fixed bytes' result was cached by the fixing run


def test_two_runs_sharing_a_cache(tmp_path: Path) -> None:
    """Two processes check the same tree at once, sharing one cache: both report the
    same, and the cache they leave serves a third run whole."""
    root = tmp_path / "p"
    (root / "a").mkdir(parents=True)
    (root / "b").mkdir()
    for index in range(30):
        (root / "a" / f"m{index}.py").write_text(BAD if index % 3 == 0 else CLEAN + f"# {index}\n")
        (root / "b" / f"n{index}.py").write_text(SWALLOW if index % 4 == 0 else CLEAN + f"# {index}\n")
    cache = tmp_path / "cache"
    env = dict(os.environ, PYTHONPATH=str(REPO), XDEVLINT_CACHE_DIR=str(cache))
    command = [sys.executable, "-m", "xdevlint", "--format", "json", "--jobs", "1", str(root)]
    runs = [subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env) for _ in range(2)]
    outputs = [run.communicate(timeout=300) for run in runs]
    assert [run.returncode for run in runs] == [1, 1], [err for _, err in outputs]
    assert outputs[0][0] == outputs[1][0]
    for pack in packs(cache):
        json.loads(pack.read_text())  # whole JSON, never half of two writes
    assert not list(cache.glob("*/.*.tmp"))
    third = subprocess.run(command, capture_output=True, env=env, timeout=300)
    assert third.stdout == outputs[0][0]
    listed = Cache(cache)
    config = Config()
    for path in sorted(root.rglob("*.py")):
        data = path.read_bytes()
        assert listed.get(str(path), listed.key(data, str(path), config), True, config) is not None, path


def test_other_builds_left_for_a_day_are_removed(tmp_path: Path) -> None:
    root = project(tmp_path / "p")
    cache = tmp_path / "cache"
    old, recent, foreign = cache / "0123456789abcdef", cache / "fedcba9876543210", cache / "keep-me"
    for folder in (old, recent, foreign):
        folder.mkdir(parents=True)
        (folder / "x.json").write_text("{}")
    long_ago = __import__("time").time() - 2 * xdevlint.cache.STALE_SECONDS
    os.utime(old, (long_ago, long_ago))
    os.utime(foreign, (long_ago, long_ago))
    lint(str(root), "--cache-dir", str(cache))
    assert not old.exists()
    assert recent.exists() and foreign.exists()  # in use lately; not a build's folder
    assert list(Cache(cache).root.glob("*.json"))


def test_a_file_changed_while_the_run_reads_it_is_reported_as_it_is_now_and_not_cached(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cache key is made from the bytes read at discovery; the check reads the file
    again where it runs (no run holds every file in memory). When the two differ, the
    result is of the bytes checked, and it is not stored under the other bytes' key."""
    root = project(tmp_path / "p")
    bad, cache = root / "pkg" / "bad.py", tmp_path / "cache"
    real = xdevlint.batch.run_task
    changed: List[str] = []

    def rewrite_first(task: Any) -> Any:
        if task.path.endswith("bad.py") and not changed:
            bad.write_text(CLEAN)  # between the cache's read and the check's
            changed.append(task.path)
        return real(task)

    monkeypatch.setattr(xdevlint.batch, "run_task", rewrite_first)
    _, findings = lint(str(bad), "--cache-dir", str(cache))
    assert changed and findings == []  # what the file holds now
    bad.write_text(BAD)  # the bytes the key was made from: not served "clean" from the cache
    _, again = lint(str(bad), "--cache-dir", str(cache))
    assert {f["code"] for f in again} == {"XDV101", "XDV201"}


def test_an_init_file_added_above_a_file_checks_it_again(tmp_path: Path, checked: List[str]) -> None:
    """Which package a file belongs to decides what its absolute imports name (a base class
    of the project's own), so it is part of the key."""
    root = tmp_path / "p"
    (root / "hub" / "sub").mkdir(parents=True)
    (root / "hub" / "sub" / "__init__.py").write_text("")
    (root / "hub" / "sub" / "mock.py").write_text(PROJECT_BASE)
    cache = tmp_path / "cache"
    _, alone = lint(str(root), "--cache-dir", str(cache))
    assert [f["code"] for f in alone] == ["XDV203"]  # ``hub`` is not this file's package
    (root / "hub" / "__init__.py").write_text("")
    checked.clear()
    _, inside = lint(str(root), "--cache-dir", str(cache))
    assert "mock.py" in checked and inside == []


PROJECT_BASE = """\
from tempfile import NamedTemporaryFile

from hub.app import Hub


class MockHub(Hub):
    def __init__(self):
        self.pid_file = NamedTemporaryFile(delete=False).name
        super().__init__()
"""
