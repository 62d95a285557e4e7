"""Bad input never crashes the run: each file that cannot be read, decoded, parsed or
analysed is one XDV000 finding with the reason and position, and the others are checked.

Everything here is real: files written to ``tmp_path``, symlinks, FIFOs, and a
``python -m xdevlint`` process, so a segfault or a traceback in the native parser would
show as what it is.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import sys
import time
from pathlib import Path
from typing import Any, Dict, List, Set, Tuple

import pytest

from tests.conftest import FIXTURES, REPO
from tests.process import findings, run
from xdevlint.frontends import cli
from xdevlint.config import Config
from xdevlint.engine import lint_source
from xdevlint.rules.xdv101_cross_mount_rename import CrossMountRename
from xdevlint.stages.sections import LARGE

GOOD = FIXTURES / "XDV101" / "mkstemp_to_xet_cache.py"
GOOD_FINDING = ("XDV101", 12, 5)  # its `# expect: XDV101` line

MOVE = 'import os\nimport tempfile\nfd, tmp = tempfile.mkstemp()\nos.rename(tmp, "/var/cache/x")\n'
MOVE_AT = ("XDV101", 4, 1)

#: name -> (bytes, the findings as (code, line, column), a word each XDV000 message has)
CASES: Dict[str, Tuple[bytes, Set[Tuple[str, int, int]], str]] = {
    "empty.py": (b"", set(), ""),
    "whitespace_only.py": (b"   \n\t\n\n  \n \x0c\n", set(), ""),
    "crlf.py": (MOVE.replace("\n", "\r\n").encode(), {MOVE_AT}, ""),
    # all three line breaks in one file (the native parser used to panic on CR + CRLF)
    "mixed_endings.py": (
        b'import os\rimport tempfile\r\nfd, tmp = tempfile.mkstemp()\nos.rename(tmp, "/var/cache/x")\r',
        {MOVE_AT},
        "",
    ),
    "cr_only.py": (MOVE.replace("\n", "\r").encode(), {MOVE_AT}, ""),
    # form feeds on lines of their own, as in code that uses them for page breaks
    "form_feeds.py": (
        b'\x0cimport os\n\x0c\nimport tempfile\nfd, tmp = tempfile.mkstemp()\n\x0c\nos.rename(tmp, "/var/cache/x")\n',
        {("XDV101", 6, 1)},
        "",
    ),
    "tabs.py": (
        b'import os\nimport tempfile\nif True:\n\tfd, tmp = tempfile.mkstemp()\n\tos.rename(tmp, "/var/cache/x")\n',
        {("XDV101", 5, 2)},
        "",
    ),
    "not_utf8.py": (b'import os\nname = "caf\xe9"\nos.rename(tmp, cache)\n', {("XDV000", 2, 12)}, "0xe9"),
    "latin1_cookie.py": (b"# -*- coding: latin-1 -*-\n" + b'name = "caf\xe9"\n' + MOVE.encode(), {("XDV101", 6, 1)}, ""),
    "unknown_codec.py": (b"# coding: no-such-codec\n" + MOVE.encode(), {("XDV000", 1, 1)}, "no-such-codec"),
    "bom.py": (b"\xef\xbb\xbf" + MOVE.encode(), {MOVE_AT}, ""),
    "python2.py": (
        b'import os, tempfile\nprint "moving"\nos.rename(tempfile.mktemp(), "/var/cache/x")\n',
        {("XDV000", 2, 1)},
        "print",
    ),
    "nested_parens.py": (
        ("import os, tempfile\nx = " + "(" * 5000 + "1" + ")" * 5000 + '\nos.rename(tempfile.mktemp(), "/var/cache/x")\n').encode(),
        {("XDV000", 2, 0)},  # the column is CPython's: where the 201st bracket opens
        "nested",
    ),
    "long_concatenation.py": (
        ("import os, tempfile\nx = " + " + ".join(['"a"'] * 100_000) + '\nos.rename(tempfile.mktemp(), "/var/cache/x")\n').encode(),
        {("XDV000", 1, 1)},
        "nested",
    ),
}


def _report(items: List[dict], root: Path) -> Dict[str, Set[Tuple[str, int, int]]]:
    by_file: Dict[str, Set[Tuple[str, int, int]]] = {}
    for item in items:
        name = os.path.relpath(item["path"], root) if os.path.isabs(item["path"]) else item["path"]
        by_file.setdefault(name, set()).add((item["code"], item["line"], item["column"]))
    return by_file


def _without_column(found: Set[Tuple[str, int, int]], expected: Set[Tuple[str, int, int]]) -> Set[Tuple[str, int, int]]:
    """Columns of 0 in ``expected`` mean 'any column': compare line and code only."""
    if any(column == 0 for _, _, column in expected):
        return {(code, line, 0) for code, line, _ in found}
    return found


@pytest.fixture(scope="module")
def bad_tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("bad")
    shutil.copy(GOOD, root / "good.py")
    for name, (data, _, _) in CASES.items():
        (root / name).write_bytes(data)
    (root / "link_to_good.py").symlink_to("good.py")
    (root / "dangling.py").symlink_to("nowhere.py")
    (root / "loop_a.py").symlink_to("loop_b.py")
    (root / "loop_b.py").symlink_to("loop_a.py")
    (root / "package.py").mkdir()  # a directory with a .py name is walked, not read
    (root / "package.py" / "inner.py").write_bytes(MOVE.encode())
    (root / "sub").mkdir()
    (root / "sub" / "up").symlink_to("..", target_is_directory=True)  # a directory loop
    os.mkfifo(root / "pipe.py")  # nobody writes to it: reading it would block forever
    return root


@pytest.fixture(scope="module")
def bad_run(bad_tree: Path) -> Tuple[Dict[str, Set[Tuple[str, int, int]]], List[dict], str]:
    started = time.monotonic()
    completed = run("--format", "json", "--select", "XDV1", ".", cwd=bad_tree, timeout=300)
    elapsed = time.monotonic() - started
    items = findings(completed)
    assert completed.returncode == 1
    assert completed.stderr == ""
    assert elapsed < 120, f"the bad-input run took {elapsed:.0f}s"
    return _report(items, bad_tree), items, completed.stdout


def test_the_good_file_is_still_checked(bad_run) -> None:
    by_file, _, _ = bad_run
    assert by_file["good.py"] == {GOOD_FINDING}


@pytest.mark.parametrize("name", sorted(CASES))
def test_each_bad_file(bad_run, name: str) -> None:
    by_file, items, _ = bad_run
    _, expected, word = CASES[name]
    found = by_file.get(name, set())
    assert _without_column(found, expected) == expected
    for item in items:
        if item["path"] == name and item["code"] == "XDV000":
            assert word in item["message"], item["message"]
            assert item["name"] == "analysis-error"


def test_symlink_to_a_good_file_is_checked(bad_run) -> None:
    by_file, _, _ = bad_run
    assert by_file["link_to_good.py"] == {GOOD_FINDING}


def test_dangling_symlink_and_symlink_loop_are_reported(bad_run) -> None:
    by_file, items, _ = bad_run
    assert by_file["dangling.py"] == {("XDV000", 1, 1)}
    assert by_file["loop_a.py"] == by_file["loop_b.py"] == {("XDV000", 1, 1)}
    messages = {item["path"]: item["message"] for item in items if item["code"] == "XDV000"}
    assert "no such file" in messages["dangling.py"].lower()
    assert "symbolic links" in messages["loop_a.py"].lower()


def test_directory_named_like_a_module_is_walked(bad_run) -> None:
    by_file, _, _ = bad_run
    assert by_file[os.path.join("package.py", "inner.py")] == {MOVE_AT}


def test_directory_loop_is_walked_once(bad_run) -> None:
    """``sub/up -> ..`` leads back to the root; the walk must neither hang nor repeat it."""
    by_file, _, _ = bad_run
    assert not any(name.startswith(os.path.join("sub", "up")) for name in by_file)


def test_fifo_found_by_the_walk_is_reported_not_read(bad_run) -> None:
    by_file, items, _ = bad_run
    assert by_file["pipe.py"] == {("XDV000", 1, 1)}
    assert "not a regular file" in next(i["message"] for i in items if i["path"] == "pipe.py")


def test_fifo_named_explicitly_does_not_block(bad_tree: Path) -> None:
    completed = run("--format", "json", "pipe.py", "good.py", cwd=bad_tree, timeout=60)
    by_file = _report(findings(completed), bad_tree)
    assert by_file["pipe.py"] == {("XDV000", 1, 1)}
    assert GOOD_FINDING in by_file["good.py"]


def test_text_report_of_bad_input_has_no_traceback(bad_tree: Path) -> None:
    completed = run("--select", "XDV1", ".", cwd=bad_tree, timeout=300)
    assert completed.returncode == 1
    assert "Traceback" not in completed.stdout + completed.stderr
    assert "good.py:12:5: XDV101" in completed.stdout
    assert "nested_parens.py:2:" in completed.stdout


@pytest.mark.skipif(not os.path.exists("/proc/self/mem"), reason="needs Linux /proc")
def test_file_that_fails_to_read(tmp_path: Path) -> None:
    """Root ignores permission bits, so ``chmod 000`` proves nothing here; reading
    ``/proc/self/mem`` from offset 0 fails with EIO for anyone, which is a real read error."""
    shutil.copy(GOOD, tmp_path / "good.py")
    completed = run("--format", "json", "/proc/self/mem", "good.py", cwd=tmp_path)
    items = findings(completed)
    errors = [i for i in items if i["path"] == "/proc/self/mem"]
    assert [(i["code"], i["line"], i["column"]) for i in errors] == [("XDV000", 1, 1)]
    assert "cannot read" in errors[0]["message"]
    assert any(i["path"] == "good.py" and i["code"] == "XDV101" for i in items)


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their mode")
def test_file_without_read_permission(tmp_path: Path) -> None:
    secret = tmp_path / "secret.py"
    secret.write_bytes(MOVE.encode())
    secret.chmod(0)
    shutil.copy(GOOD, tmp_path / "good.py")
    by_file = _report(findings(run("--format", "json", ".", cwd=tmp_path)), tmp_path)
    assert by_file["secret.py"] == {("XDV000", 1, 1)}
    assert GOOD_FINDING in by_file["good.py"]


def _bench(name: str) -> Any:
    spec = importlib.util.spec_from_file_location(name, REPO / "bench" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


LARGE_FILE = _bench("large_file")


#: The 10 MB module of ``bench/large_file.py`` (196,000 small functions, one temp -> cache
#: rename at its end), through the command in text and in JSON (whose fixes carry textual
#: edits): the finding comes out, in at most 20 s and under 1 GB of peak memory. Before
#: the prefocus and the cut focus: text 159 s and 3 GB; JSON past 8 GB and 8 minutes.
@pytest.mark.parametrize("output", ["text", "json"])
def test_a_10mb_module_is_checked_in_bounded_time_and_memory(tmp_path: Path, output: str) -> None:
    size, lines = LARGE_FILE.write(tmp_path / "big.py", 10)
    assert size >= 10_000_000
    command = [sys.executable, "-m", "xdevlint", "check", "--no-cache", "--output-format", output, "big.py"]
    wall, peak, status, stdout, stderr = LARGE_FILE.measure(command, tmp_path, {**os.environ, "PYTHONPATH": str(REPO)})
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 1, stderr[-2000:]
    if output == "json":
        found = [(i["code"], i["line"], i["column"]) for i in json.loads(stdout)]
    else:
        found = [(m[3], int(m[1]), int(m[2])) for m in re.finditer(r"^big\.py:(\d+):(\d+): (XDV\d+) ", stdout, re.M)]
    assert ("XDV101", lines, 5) in found, stdout[-2000:]
    assert peak < 1_000_000_000, f"peak RSS {peak / 1e6:.0f} MB"
    assert wall < 20, f"{size / 1e6:.1f} MB took {wall:.1f} s"


def test_a_large_file_is_fixed_by_its_edits_as_a_small_one_by_its_tree(tmp_path: Path) -> None:
    """``--fix`` on a file over ``LARGE`` applies the fixes' textual edits to the cut-down
    analysis instead of rewriting a tree of the whole file: the same rewrite as the tree
    makes of a small file of the same shape (the functions between are left as they
    were), the finding and its XDV201 gone."""
    big_size, _ = LARGE_FILE.write(tmp_path / "big.py", 1.1)
    LARGE_FILE.write(tmp_path / "small.py", 0.002)
    big, small = (tmp_path / "big.py").read_text(), (tmp_path / "small.py").read_text()
    assert big_size > LARGE > len(small)
    done = run("--fix", "--no-cache", "big.py", "small.py", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    big_fixed, small_fixed = (tmp_path / "big.py").read_text(), (tmp_path / "small.py").read_text()
    assert small_fixed != small and "dir=CACHE_DIR" in small_fixed and "os.unlink(tmp)" in small_fixed
    first, last = small.index("\ndef f_"), small.index("\ndef publish")
    head, tail = small_fixed[: small_fixed.index("\ndef f_")], small_fixed[small_fixed.index("\ndef publish") :]
    assert big_fixed == head + big[big.index("\ndef f_") : big.index("\ndef publish")] + tail
    assert small[first:last] in big  # the same functions, more of them
    assert findings(run("--format", "json", "--no-cache", "big.py", cwd=tmp_path)) == []


def test_a_file_over_max_file_size_is_xdv000_and_the_others_are_checked(tmp_path: Path) -> None:
    """Over ``max-file-size`` (``--max-file-size``, or the key in the configuration), a
    file is one XDV000 that says why, and is not parsed; the run goes on."""
    LARGE_FILE.write(tmp_path / "big.py", 1.5)
    shutil.copy(GOOD, tmp_path / "good.py")
    for option in (("--max-file-size", "1MB"), ("--config", 'max-file-size = "1 MB"')):
        items = findings(run("--format", "json", "--no-cache", *option, ".", cwd=tmp_path))
        by_file = _report(items, tmp_path)
        assert by_file["big.py"] == {("XDV000", 1, 1)} and GOOD_FINDING in by_file["good.py"]
        message = next(i["message"] for i in items if i["path"] == "big.py")
        assert message == "not checked: the file is 1.5 MB, over max-file-size (1 MB)"
    (tmp_path / "pyproject.toml").write_text("[tool.xdevlint]\nmax-file-size = 1000000\n")
    assert _report(findings(run("--format", "json", "--no-cache", ".", cwd=tmp_path)), tmp_path)["big.py"] == {("XDV000", 1, 1)}
    # the default (20 MB) and 0 (no limit) check it
    (tmp_path / "pyproject.toml").write_text("[tool.xdevlint]\nmax-file-size = 0\n")
    assert "XDV101" in {c for c, _, _ in _report(findings(run("--format", "json", "--no-cache", ".", cwd=tmp_path)), tmp_path)["big.py"]}
    (tmp_path / "pyproject.toml").write_text("[tool.xdevlint]\nmax-file-size = \"lots\"\n")
    done = run("--no-cache", ".", cwd=tmp_path)
    assert done.returncode == 2
    assert "max-file-size: expected a size such as 20000000" in done.stderr and "Traceback" not in done.stderr
    done = run("--no-cache", "--isolated", "--max-file-size", "-3", ".", cwd=tmp_path)
    assert done.returncode == 2 and "--max-file-size" in done.stderr


def test_internal_error_in_a_rule_is_reported_for_that_file(tmp_path: Path, monkeypatch, capsys) -> None:
    """No input makes a rule fail, so one is made to, in-process, on one file only: that
    file gets XDV000, the other file is still checked, and nothing is raised."""
    original = CrossMountRename.visit_Call

    def visit_Call(self, node):  # libcst batches only methods named visit_*/leave_*
        if self.context.path.endswith("a.py"):
            raise KeyError("boom")
        return original(self, node)

    monkeypatch.setattr(CrossMountRename, "visit_Call", visit_Call)
    shutil.copy(GOOD, tmp_path / "a.py")
    shutil.copy(GOOD, tmp_path / "b.py")
    monkeypatch.chdir(tmp_path)
    code = cli.main(["--format", "json", "--select", "XDV1", "."])
    items = json.loads(capsys.readouterr().out)
    assert code == 1
    by_file = _report(items, tmp_path)
    assert by_file == {"a.py": {("XDV000", 1, 1)}, "b.py": {GOOD_FINDING}}
    message = next(i["message"] for i in items if i["path"] == "a.py")
    assert "internal error" in message and "KeyError" in message


class PanicException(BaseException):
    """The shape of pyo3's ``pyo3_runtime.PanicException``: a BaseException, not an Exception.

    pyo3 creates the real class only when the first panic happens, and no input known to
    this libcst version panics (mixed CR/CRLF line endings were fixed upstream in
    LibCST#1007), so a class of the same shape stands in for it.
    """


def test_panic_exception_from_the_parser_is_caught(monkeypatch) -> None:
    import libcst.native

    def panicking(source: str, **_: object):
        raise PanicException("byte index 14 is out of bounds of `x = 1`")

    monkeypatch.setattr(libcst.native, "parse_module", panicking)
    result = lint_source(MOVE.encode(), "x.py", Config())
    assert [(f.code, f.line, f.column) for f in result.findings] == [("XDV000", 1, 1)]
    assert "PanicException" in result.findings[0].message
