"""XDV201/XDV202/XDV203 as rules: their documentation examples, registration and the cheap scan."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from xdevlint import engine, registry
from xdevlint.config import Config
from xdevlint.engine import lint_source
from xdevlint.rules.rule import code_blocks
from xdevlint.rules.xdv201_temp_not_cleaned_on_error import TempNotCleanedOnError
from xdevlint.rules.xdv202_swallowed_move_error import SwallowedMoveError
from xdevlint.rules.xdv203_temp_never_removed import TempNeverRemoved
from xdevlint.stages.scan import Scan
from tests.fixture_cases import FIXTURES, case_files, fixture_config
from tests.process import run

RULES = (TempNotCleanedOnError, SwallowedMoveError, TempNeverRemoved)


def codes(source: str, rule: type) -> list:
    config = replace(Config(root="/"), select=(rule.CODE,))
    return [f.code for f in lint_source(source.encode(), "example.py", config).findings]


@pytest.mark.parametrize("rule", RULES, ids=[r.CODE for r in RULES])
def test_documentation(rule: type) -> None:
    doc = rule.documentation()
    assert list(doc) == ["What it does", "Why is this bad?", "Example", "Use instead", "Fix safety", "Options"]
    (example,) = code_blocks(doc["Example"])
    assert codes(example, rule) == [rule.CODE]
    for block in code_blocks(doc["Use instead"]):
        assert codes(block, rule) == []


def test_registered() -> None:
    assert registry.by_code("XDV201") is TempNotCleanedOnError
    assert registry.by_code("XDV202") is SwallowedMoveError
    assert registry.by_code("XDV203") is TempNeverRemoved
    assert set(registry.select(["XDV2"], [])) == set(RULES)


def test_cheap_scan_rules_out_unrelated_files() -> None:
    from xdevlint.analysis.locations import DEFAULT

    plain = Scan("def f(s):\n    try:\n        return s.replace('a', 'b')\n    except ValueError:\n        pass\n")
    assert not TempNotCleanedOnError.may_apply(plain, DEFAULT)
    assert not SwallowedMoveError.may_apply(plain, DEFAULT)
    aliased = Scan("import shutil as sh\ntry:\n    sh.copy2(a, b)\nexcept OSError:\n    pass\n")
    assert SwallowedMoveError.may_apply(aliased, DEFAULT)
    assert TempNotCleanedOnError.may_apply(Scan("from tempfile import mkdtemp as md\nd = md()\n"), DEFAULT)
    # Stored on the object, or cleaned by its context manager: nothing to track.
    stored = "import tempfile\nself.tmp = tempfile.mkdtemp()\nwith tempfile.TemporaryDirectory() as d:\n    pass\n"
    assert not TempNotCleanedOnError.may_apply(Scan(stored), DEFAULT)
    assert not TempNeverRemoved.may_apply(Scan(stored), DEFAULT)
    # Removed by the function itself, or deleted on close: never kept.
    removed = "import os, tempfile\ndef f():\n    fd, p = tempfile.mkstemp()\n    os.unlink(p)\n    g = tempfile.NamedTemporaryFile()\n"
    assert not TempNeverRemoved.may_apply(Scan(removed), DEFAULT)
    assert TempNeverRemoved.may_apply(Scan("import tempfile\ndef f():\n    d = tempfile.mkdtemp()\n    print(d)\n"), DEFAULT)


def test_per_file_ignores_silence_tests() -> None:
    source = "import os, tempfile\ndef test_x(dst):\n    fd, t = tempfile.mkstemp()\n    os.write(fd, b'x')\n    os.replace(t, dst)\n"
    config = replace(Config(root="/proj"), select=("XDV2",), per_file_ignores=(("tests/*", ("XDV201",)),))
    assert lint_source(source.encode(), "/proj/src/app.py", config).findings
    assert not lint_source(source.encode(), "/proj/tests/test_x.py", config).findings


def test_fixture_balance() -> None:
    from tests.fixture_cases import FIXTURES, case_files, expected_findings

    cases = [p for p in case_files() if p.relative_to(FIXTURES).parts[0] in ("XDV201", "XDV202")]
    flagged = [p for p in cases if expected_findings(p)]
    assert len(cases) >= 40
    assert len(cases) - len(flagged) >= len(flagged)


#: A move under each of XDV202's ``with`` shapes, in files with no ``try`` statement
#: around a move: the scan must keep them for the ``with`` alone.
GUARDED_BY_WITH = {
    "contextlib.suppress": "import contextlib, os\nwith contextlib.suppress(OSError):\n    os.replace(tmp, b)\n",
    "suppress aliased": "from contextlib import suppress as quiet\nimport pathlib\nwith quiet(Exception):\n    pathlib.Path(tmp).rename(b)\n",
    "module aliased": "import contextlib as cl\nfrom os import rename\nwith cl.suppress(OSError):\n    rename(tmp, b)\n",
    "contextmanager": (
        "import os\nfrom contextlib import contextmanager\n@contextmanager\ndef quiet():\n    try:\n        yield\n"
        "    except OSError:\n        pass\nwith quiet():\n    os.link(tmp, b)\n"
    ),
}


@pytest.mark.parametrize("source", GUARDED_BY_WITH.values(), ids=GUARDED_BY_WITH.keys())
def test_cheap_scan_keeps_moves_under_a_suppressing_with(source: str) -> None:
    from xdevlint.analysis.locations import DEFAULT

    assert SwallowedMoveError.may_apply(Scan(source), DEFAULT)
    assert codes(source, SwallowedMoveError) == ["XDV202"]


def test_cheap_scan_drops_a_with_that_cannot_suppress() -> None:
    """No ``try``, and no word that can name ``suppress`` or a ``@contextmanager``."""
    from xdevlint.analysis.locations import DEFAULT

    source = "import os\nwith open(a) as f:\n    os.replace(a, b)\n"
    assert not SwallowedMoveError.may_apply(Scan(source), DEFAULT)


def test_cheap_scan_keeps_a_move_function_handed_to_a_call() -> None:
    from xdevlint.analysis.locations import DEFAULT

    source = "import asyncio, os\nasync def f(tmp, b):\n    try:\n        await asyncio.to_thread(os.replace, tmp, b)\n    except OSError:\n        pass\n"
    assert SwallowedMoveError.may_apply(Scan(source), DEFAULT)
    assert codes(source, SwallowedMoveError) == ["XDV202"]


def test_symlink_is_no_move() -> None:
    source = "import os\ntry:\n    os.symlink(tmp, b)\nexcept OSError:\n    pass\n"
    assert codes(source, SwallowedMoveError) == []
    assert codes(source.replace("symlink", "link"), SwallowedMoveError) == ["XDV202"]


def test_a_move_counts_only_of_a_staged_file() -> None:
    """A hard link publishes a staged file (``tmp``) or adds a name to one that stays put
    (``path``): only the first loses data when its failure is swallowed. A rename or
    replace of a file nothing says is staged hides no ``EXDEV`` to expect either."""
    source = "import os\ntry:\n    os.link({}, b)\nexcept OSError:\n    pass\n"
    for move in ("os.link", "os.replace", "os.rename"):
        assert codes(source.format("tmp").replace("os.link", move), SwallowedMoveError) == ["XDV202"]
        assert codes(source.format("path").replace("os.link", move), SwallowedMoveError) == []


def test_a_helpers_move_counts_when_a_caller_passes_a_staged_file() -> None:
    """The evidence may come from the helper's callers: a temp handed to ``move(src, dst)``."""
    helper = "import os\ndef move(src, dst):\n    try:\n        os.rename(src, dst)\n    except OSError:\n        return False\n    return True\n"
    caller = "import tempfile\ndef save(dst):\n    fd, p = tempfile.mkstemp()\n    move(p, dst)\n"
    assert codes(helper, SwallowedMoveError) == []
    assert codes(helper + caller, SwallowedMoveError) == ["XDV202"]


XDV201_FIXABLE = [
    p for p in case_files()
    if p.relative_to(FIXTURES).parts[0] == "XDV201"
    and any(f.code == "XDV201" and f.fix is not None for f in lint_source(p.read_bytes(), str(p), fixture_config(p)).findings)
]


@pytest.mark.parametrize("unsafe", [False, True], ids=["safe", "unsafe"])
@pytest.mark.parametrize("path", XDV201_FIXABLE, ids=[p.name for p in XDV201_FIXABLE])
def test_xdv201_cleanup_fix_neither_hides_nor_adds_xdv202(path: Path, unsafe: bool) -> None:
    """XDV201's fix puts cleanup (and ``contextlib.suppress(FileNotFoundError)``) into
    handlers: removing the temp does not make the cause visible, so every XDV202 finding
    stays, and the narrow ``suppress`` it adds is never one."""
    config = fixture_config(path)
    before = [f for f in lint_source(path.read_bytes(), str(path), config).findings if f.code == "XDV202"]
    fixed = engine.fix_source(path.read_bytes(), str(path), config, unsafe=unsafe)
    after = [f for f in lint_source(fixed.fixed, str(path), config).findings if f.code == "XDV202"]
    assert [f.message for f in after] == [f.message for f in before]


def test_the_dir_fix_of_the_incident_worker_leaves_xdv202_nothing_to_report() -> None:
    """XDV202 is about a rename that can fail with EXDEV: once the unsafe ``dir=`` fix stages
    the shard beside its destination, the rename is proven to stay on one filesystem and
    its swallowing clause loses no EXDEV."""
    worker = FIXTURES / "incident" / "migrate_worker.py"
    config = replace(Config(root=FIXTURES), select=("ALL",))
    assert "XDV202" in {f.code for f in lint_source(worker.read_bytes(), str(worker), config).findings}
    # Unsafe fixes too: the worker's temp leaks when a write fails, so its dir= fix is unsafe.
    fixed = engine.fix_source(worker.read_bytes(), str(worker), config, unsafe=True)
    assert {f.code for f in fixed.applied} == {"XDV101", "XDV201"}
    assert "os.unlink(tmp_path)" in fixed.fixed.decode() and "dir=cache_dir" in fixed.fixed.decode()
    assert [f for f in lint_source(fixed.fixed, str(worker), config).findings if f.code in ("XDV101", "XDV202")] == []


def test_messages_do_not_depend_on_hash_order(tmp_path: Path) -> None:
    """The same findings, byte for byte, under two hash seeds (sets of nodes and names
    must never decide what a message says)."""
    outputs = [
        run("--select", "XDV202", "--format", "json", str(FIXTURES / "XDV202"), cwd=tmp_path, env={"PYTHONHASHSEED": seed}).stdout
        for seed in ("1", "2")
    ]
    assert outputs[0] == outputs[1]
    assert outputs[0].count('"XDV202"') >= 20


@pytest.mark.parametrize("code", ["XDV201", "XDV203"])
def test_fixture_balance_per_rule(code: str) -> None:
    """Each temp rule's own fixtures: at least as many must-not-flag as must-flag."""
    from tests.fixture_cases import FIXTURES, case_files, expected_findings

    cases = [p for p in case_files() if p.relative_to(FIXTURES).parts[0] == code]
    flagged = [p for p in cases if any(c == code for _, _, c in expected_findings(p))]
    assert len(flagged) >= 10
    assert len(cases) - len(flagged) >= len(flagged)


def _messages(path: Path) -> list:
    return [f.message for f in lint_source(path.read_bytes(), str(path), fixture_config(path)).findings]


def test_the_likeliest_failure_is_named() -> None:
    """A join that can hardly fail comes first; the message names the ``make`` that can."""
    (message,) = _messages(FIXTURES / "XDV201" / "likeliest_failure_is_named.py")
    assert 'is left behind when `subprocess.check_call(["make", "-C", work, label, *sources])` fails' in message
    assert "(and 2 other error paths)" in message  # the join and the listing are still among them


def test_io_is_named_before_a_project_call_or_a_request_object() -> None:
    """Three levels: a project's call may fail, building a ``Request`` only on a bad URL,
    the network on any day; the message names ``urlopen``."""
    (message,) = _messages(FIXTURES / "XDV201" / "likeliest_failure_is_io_not_a_project_call.py")
    assert "is left behind when `response = urlopen(request, timeout=timeout)` fails" in message


def test_a_later_pass_of_the_loop_is_named_as_such() -> None:
    messages = _messages(FIXTURES / "XDV201" / "loop_temps_gathered_before_a_later_one_fails.py")
    assert messages[0].startswith("`dirs[...]` from `tempfile.mkdtemp(")
    assert "is left behind when the loop's next `dirs.append(tempfile.mkdtemp(" in messages[0]


def test_xdv203_says_why_no_path_lets_go() -> None:
    (error_only,) = _messages(FIXTURES / "XDV203" / "removed_only_in_an_except_clause.py")
    assert "is never removed: only an `except` clause removes, moves or hands it on" in error_only
    (inside,) = _messages(FIXTURES / "XDV203" / "file_inside_a_temp_dir_on_self_removed.py")
    assert inside.startswith("the directory holding `self.loc` from `tempfile.mkdtemp()` is never removed: it is kept on `self.loc`")
    (item,) = _messages(FIXTURES / "XDV203" / "env_item_handed_to_exec.py")
    assert item.startswith("`env[...]` from `tempfile.mkdtemp()` is never removed")
    # A statement that would hand the temp on but runs before it exists is no ``except``
    # clause: the message must not say the temp is let go of only on error.
    (before,) = _messages(FIXTURES / "XDV203" / "holder_returned_only_before_the_temp_is_made.py")
    assert "is never removed: no path removes, moves, hands on or registers it" in before


@pytest.mark.parametrize(
    "statement",
    [
        "target = Path(work)", "names.append('x')", "os.makedirs(work, exist_ok=True)", "Path(work).mkdir(exist_ok=True)",
        "target = (Path(work) / 'out').as_posix()", "names.append(Path(work).with_suffix('.old').joinpath('x'))",
        "log.debug('building in %s', ' '.join([work]))", "names.append(os.fsencode(work))",
    ],
)
def test_what_cannot_fail_is_never_the_failure(statement: str) -> None:
    """A statement that cannot raise between the creation and the ``try`` starts no error path."""
    source = (
        "import os, shutil, subprocess, tempfile\nfrom pathlib import Path\n"
        f"def build():\n    names = []\n    work = tempfile.mkdtemp()\n    {statement}\n"
        "    try:\n        subprocess.check_call(['make', work])\n    finally:\n        shutil.rmtree(work)\n"
    )
    assert codes(source, TempNotCleanedOnError) == []
    flagged = source.replace("exist_ok=True", "exist_ok=False").replace("names.append", "session.get")
    if flagged != source:  # a directory made anew, or a method of an object that may do I/O: it may fail
        assert codes(flagged, TempNotCleanedOnError) == ["XDV201"]


@pytest.mark.parametrize(
    "statement",
    [
        "os.chmod(work, 0o750)",
        "assert isinstance(work, str)",
        "target = os.path.join(work, 'out')",
        "other.append('x')",
        "label = work.strip().lower()",
    ],
)
def test_a_temp_only_a_bug_could_leave_behind_is_not_reported(statement: str) -> None:
    """Issue 31: between the creation and the hand-off, only statements that fail on a
    bug (the mode of the directory just made, an assertion, path arithmetic, a list's
    append): nothing is left behind in practice. I/O, another temp (a full disk) or a
    call not known here is an error path."""
    source = (
        "import os, tempfile\n"
        f"def make(other):\n    work = tempfile.mkdtemp()\n    {statement}\n    return work\n"
    )
    assert codes(source, TempNotCleanedOnError) == []
    for failing in ("open(os.path.join(work, 'f'), 'w').close()", "tempfile.mkstemp()", "other.prepare(work)", "os.chmod(other, 0o750)"):
        assert codes(source.replace(statement, f"{statement}\n    {failing}"), TempNotCleanedOnError) == ["XDV201"], failing


KEPT_ON_A_PROJECT_BASE = """\
from tempfile import NamedTemporaryFile

{imports}


class MockHub({base}):
    def __init__(self):
        self.pid_file = NamedTemporaryFile(delete=False).name
        super().__init__()
"""


@pytest.mark.parametrize(
    "imports, base, reported",
    [
        ("from hub.app import Hub", "Hub", False),  # the file's own package, by absolute name
        ("import hub.app", "hub.app.Hub", False),
        ("import hub.app as app", "app.Hub", False),
        ("from ..app import Hub", "Hub", False),  # relative: the project's, as before
        ("from hubble.app import Hub", "Hub", True),  # another package: a library
        ("from cwltool.app import Hub", "Hub", True),
    ],
)
def test_a_base_of_the_files_own_package_may_remove_what_self_keeps(
    tmp_path: Path, imports: str, base: str, reported: bool
) -> None:
    """XDV203 cannot say "no method removes it" of a class whose base is the project's own, in
    a module not in view, whether imported relatively or by the package's absolute name."""
    package = tmp_path / "src" / "hub" / "testing"
    package.mkdir(parents=True)
    (tmp_path / "src" / "hub" / "__init__.py").write_text("")
    (package / "__init__.py").write_text("")
    path = package / "mock.py"
    path.write_text(KEPT_ON_A_PROJECT_BASE.format(imports=imports, base=base))
    config = replace(Config(root=str(tmp_path)), select=("XDV203",))
    found = [f.code for f in lint_source(path.read_bytes(), str(path), config).findings]
    assert found == (["XDV203"] if reported else [])
    # The same file outside any package: ``hub`` is nobody's own there (a relative import
    # still names the project's).
    alone = tmp_path / "mock.py"
    alone.write_text(path.read_text())
    relative = imports.startswith("from ..")
    assert [f.code for f in lint_source(alone.read_bytes(), str(alone), config).findings] == ([] if relative else ["XDV203"])


def test_the_package_of_a_file(tmp_path: Path) -> None:
    from xdevlint.stages.package import package_of

    (tmp_path / "ns" / "pkg" / "sub").mkdir(parents=True)
    for init in ("ns/pkg/__init__.py", "ns/pkg/sub/__init__.py"):
        (tmp_path / init).write_text("")
    assert package_of(str(tmp_path / "ns" / "pkg" / "sub" / "m.py")) == "pkg"  # ``ns`` has none: not a package
    assert package_of(str(tmp_path / "ns" / "pkg" / "m.py")) == "pkg"
    assert package_of(str(tmp_path / "ns" / "m.py")) is None
    (tmp_path / "my-tools").mkdir()
    (tmp_path / "my-tools" / "__init__.py").write_text("")
    assert package_of(str(tmp_path / "my-tools" / "m.py")) is None  # no import can name it
    assert package_of("<stdin>") is None


@pytest.mark.parametrize("statement", ["out = open(fd, 'w')", "out = io.open(fd, 'wb')", "out = os.fdopen(fd, 'w')", "os.close(fd)"])
def test_opening_the_descriptor_just_made_is_no_failure(statement: str) -> None:
    """``open(fd)`` of ``fd, tmp = mkstemp()`` is ``os.fdopen``: it fails only on a bug (a bad
    mode), so it starts no error path; ``open`` of a path may find no such file."""
    source = (
        "import io, os, tempfile\n"
        f"def make(other):\n    fd, work = tempfile.mkstemp()\n    {statement}\n    return work\n"
    )
    assert codes(source, TempNotCleanedOnError) == []
    for failing in ("out = open(other, 'w')", "out = open(fd2, 'w')", "other.prepare(work)"):
        assert codes(source.replace(statement, f"{statement}\n    {failing}"), TempNotCleanedOnError) == ["XDV201"], failing


@pytest.mark.parametrize(
    "write, reported",
    [
        ("handle.write(json.dumps(record))", False),  # the disk fails, with OSError; json.dumps only on a bug
        ("handle.writelines([json.dumps(record)])", False),
        ("handle.write(render(record))", True),  # ``render`` may raise anything
        ("other.write(json.dumps(record))", True),  # not the temp's file: anything
    ],
)
def test_an_os_error_handler_covers_writes_of_the_temps_own_file(write: str, reported: bool) -> None:
    source = (
        "import json, os, tempfile\n"
        "def save(record, path, render, other):\n"
        "    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path))\n"
        "    try:\n"
        "        with os.fdopen(fd, 'w') as handle:\n"
        f"            {write}\n"
        "        os.replace(tmp, path)\n"
        "    except OSError:\n"
        "        os.unlink(tmp)\n"
        "        raise\n"
    )
    assert codes(source, TempNotCleanedOnError) == (["XDV201"] if reported else [])


def test_xdv203_names_the_file_made_at_or_beside_a_deleted_temps_name() -> None:
    """The object deleted its own file: the message names what made a file again at its
    name, or beside it, which is the temp the finding is about."""
    (again,) = _messages(FIXTURES / "XDV203" / "name_written_again_after_close.py")
    assert again.startswith("the new file at `f.name` from `tempfile.NamedTemporaryFile(delete=True, suffix=\".xlsx\")`")
    assert "the object deleted its own file, and `write_workbook(table, f.name, \"Sheet1\")` made one again at its name" in again
    beside = _messages(FIXTURES / "XDV203" / "file_made_beside_a_deleting_temp.py")
    assert len(beside) == 4 and all(m.startswith("the file made beside `") for m in beside)
    assert "and `converter.run(f.name, f\"{f.name}.mp3\")` made one beside it that no path removes" in beside[1]
    # the writer given the path inside a spec string, not the reader after it (nemo's lattices)
    assert "and `decoder.decode_write_lattice(scores, f\"ark,t:{lattice}\")` made one beside it" in beside[3]
    (leak,) = _messages(FIXTURES / "XDV201" / "name_written_again_removed_after_failing_steps.py")
    assert leak.startswith("the new file at `f.name` from ") and "when `rows = list(read_workbook(f.name))` fails" in leak


def test_a_csv_writer_is_not_named_as_the_failure() -> None:
    """``csv.writer(f)`` fails only on a bug; the row written next is the likeliest failure."""
    (message,) = _messages(FIXTURES / "XDV201" / "likeliest_failure_is_a_write_not_a_csv_writer.py")
    assert "is left behind when `writer.writerows(rows)` fails" in message


def test_a_rename_beside_its_own_name_is_not_named_as_the_failure() -> None:
    """``os.rename(tmp, tmp + ".tar.gz")`` stays in the temp directory: the download after it
    is the likeliest failure, and no fix is offered (removing ``tmp`` would miss the file)."""
    path = FIXTURES / "XDV201" / "rename_beside_its_own_name_is_not_the_failure.py"
    (finding,) = lint_source(path.read_bytes(), str(path), fixture_config(path)).findings
    assert 'is left behind when `subprocess.check_call(["curl", "-fsSo", target, url])` fails' in finding.message
    assert finding.fix is None


def test_opening_the_temp_just_made_to_write_is_not_named_as_the_failure() -> None:
    (message,) = _messages(FIXTURES / "XDV201" / "file_opened_at_its_path_is_not_the_failure.py")
    assert "is left behind when `fout.write(" in message and "open(tmp" not in message
