"""The fix engine: fix kinds, imports, passes, verification, nothing lost, and the CLI."""

from __future__ import annotations

import io
import json
import os
import stat
import subprocess
import sys
import textwrap
from dataclasses import replace
from pathlib import Path
from typing import List, Optional, Tuple

import libcst as cst
import pytest

from xdevlint.fixes import apply as fixer
from xdevlint.frontends.cli import main
from xdevlint.config import Config
from xdevlint.engine import fix_source, lint_source
from xdevlint.fixing import unified_diff
from xdevlint.model import Applicability, Edit, FileResult, Finding, Fix, Replacement, Span


SAFE_MOVE = "xdevlint.safemove.safe_move"


def _config(**changes: object) -> Config:
    return replace(Config(), select=("XDV1",), **changes)  # type: ignore[arg-type]


def _fix(source: str, *, unsafe: bool = False, **changes: object) -> str:
    data = textwrap.dedent(source).encode()
    return fix_source(data, "mod.py", _config(**changes), unsafe=unsafe).fixed.decode()


# -- fix kind 1: at the source ------------------------------------------------------------


def test_dir_is_added_where_the_temp_is_created() -> None:
    source = """\
        import os
        import tempfile

        def save(data, cache_dir):
            fd, tmp = tempfile.mkstemp(suffix=".bin")
            os.write(fd, data)
            os.close(fd)
            os.replace(tmp, os.path.join(cache_dir, "data.bin"))
        """
    fixed = _fix(source)
    assert 'fd, tmp = tempfile.mkstemp(suffix=".bin", dir=cache_dir)\n' in fixed
    # A failing os.write leaks the temp: staged in the cache alone it would leak there for
    # good (issue 12 item 4), so the dir= fix comes with the temp's removal on the paths
    # that leak it (issue 33 item 2), and the pair is safe.
    assert "    try:\n        os.write(fd, data)\n" in fixed
    assert "    except BaseException:\n        with contextlib.suppress(FileNotFoundError):\n            os.unlink(tmp)\n        raise\n" in fixed
    assert '        os.replace(tmp, os.path.join(cache_dir, "data.bin"))' in fixed  # now a same-directory rename
    assert _fix(source, unsafe=True) == fixed


def test_a_destination_assigned_between_is_inlined_when_its_names_are_bound_before() -> None:
    fixed = _fix(
        """\
        import os
        import tempfile

        def save(data, cache_dir, name):
            fd, tmp = tempfile.mkstemp()
            os.close(fd)
            final = os.path.join(cache_dir, name)
            os.rename(tmp, final)
        """,
        unsafe=True,  # a failing os.close leaks the temp: the dir= fix is unsafe (issue 12 item 4)
    )
    assert "tempfile.mkstemp(dir=cache_dir)" in fixed


@pytest.mark.parametrize(
    "between",
    [
        "name = other(name)",  # a name of the destination is rebound in between
        "os.makedirs(cache_dir, exist_ok=True)",  # the directory may not exist at the creation
        "os.replace(tmp, other)",  # the temp goes somewhere else too
    ],
)
def test_no_source_fix_when_its_conditions_fail(between: str) -> None:
    source = f"""\
        import os
        import tempfile

        def save(cache_dir, name, other):
            fd, tmp = tempfile.mkstemp()
            {between}
            os.rename(tmp, os.path.join(cache_dir, name))
        """
    assert "dir=" not in _fix(source, unsafe=True)


def test_an_explicit_dir_is_the_authors_choice() -> None:
    source = """\
        import os
        import tempfile

        def rebuild(cache_dir):
            staging = tempfile.mkdtemp(dir="/dev/shm")
            os.rename(staging, os.path.join(cache_dir, "current"))
        """
    assert 'dir="/dev/shm"' in _fix(source, unsafe=True)


def test_dir_uses_the_local_name_of_os_path() -> None:
    fixed = _fix(
        """\
        import os as _os
        import tempfile

        def save(target):
            tmp = tempfile.mktemp()
            _os.rename(tmp, target)
        """
    )
    assert "tempfile.mktemp(dir=_os.path.dirname(target))" in fixed


# -- fix kind 2: the move function ---------------------------------------------------------

CROSSING = """\
    \"\"\"Docstring.\"\"\"
    from __future__ import annotations

    import os

    STAGED = "/tmp/x"


    def publish(cache_dir):
        os.rename(STAGED, os.path.join(cache_dir, "x"))
    """


def test_default_move_function_is_unsafe_and_imported_after_future() -> None:
    result = fix_source(textwrap.dedent(CROSSING).encode(), "mod.py", _config())
    assert not result.changed  # shutil.move is not atomic: --fix alone leaves it
    (finding,) = result.result.findings
    assert finding.fix is not None and finding.fix.applicability is Applicability.UNSAFE
    fixed = _fix(CROSSING, unsafe=True)
    assert fixed.startswith('"""Docstring."""\nfrom __future__ import annotations\n\nimport os\nimport shutil\n')
    assert 'shutil.move(STAGED, os.path.join(cache_dir, "x"))' in fixed


def test_safe_move_is_a_safe_fix() -> None:
    fixed = _fix(CROSSING, move_function=SAFE_MOVE)
    assert "from xdevlint.safemove import safe_move\n" in fixed
    assert 'safe_move(STAGED, os.path.join(cache_dir, "x"))' in fixed


def test_a_user_function_declared_atomic_is_safe() -> None:
    fixed = _fix(CROSSING, move_function="myproj.io.atomic_move", move_function_atomic=True)
    assert "from myproj.io import atomic_move\n" in fixed and "atomic_move(STAGED" in fixed


@pytest.mark.parametrize(
    "imports, call",
    [
        ("import shutil\n", "shutil.move(STAGED"),
        ("from shutil import move\n", "move(STAGED"),
        ("from shutil import move as mv\n", "mv(STAGED"),
        ("import shutil as sh\n", "sh.move(STAGED"),
    ],
)
def test_an_existing_import_is_reused_never_duplicated(imports: str, call: str) -> None:
    source = f'import os\n{imports}STAGED = "/tmp/x"\n\ndef f(cache_dir):\n    os.rename(STAGED, os.path.join(cache_dir, "x"))\n'
    fixed = fix_source(source.encode(), "mod.py", _config(), unsafe=True).fixed.decode()
    assert fixed.count("import") == source.count("import")
    assert call in fixed


def test_a_shadowing_local_name_is_not_used() -> None:
    source = (
        'import os\n\nSTAGED = "/tmp/x"\n\n'
        'def f(cache_dir):\n    safe_move = None\n    os.rename(STAGED, os.path.join(cache_dir, "x"))\n'
    )
    fixed = fix_source(source.encode(), "mod.py", _config(move_function=SAFE_MOVE)).fixed.decode()
    assert "import xdevlint.safemove\n" in fixed
    assert "xdevlint.safemove.safe_move(STAGED" in fixed


def test_a_used_path_rename_value_keeps_its_type_and_is_unsafe() -> None:
    source = """\
        from pathlib import Path

        def promote(cache_dir: Path):
            staged = Path("/tmp/x")
            os.makedirs(cache_dir, exist_ok=True)
            return staged.rename(cache_dir / "x")
        """
    data = textwrap.dedent(source).encode()
    (finding,) = lint_source(data, "mod.py", _config(move_function=SAFE_MOVE)).findings
    assert finding.fix is not None and finding.fix.applicability is Applicability.UNSAFE
    fixed = _fix(source, unsafe=True, move_function=SAFE_MOVE)
    assert 'return Path(safe_move(staged, cache_dir / "x"))' in fixed


def test_keyword_arguments_become_positional() -> None:
    source = 'import os\n\ndef f(cache_dir):\n    os.rename(dst=os.path.join(cache_dir, "x"), src="/tmp/x")\n'
    fixed = fix_source(source.encode(), "mod.py", _config(), unsafe=True).fixed.decode()
    assert 'shutil.move("/tmp/x", os.path.join(cache_dir, "x"))' in fixed


@pytest.mark.parametrize("call", ['os.link("/tmp/x", cache_dir + "/x")', 'Path(cache_dir).hardlink_to("/tmp/x")'])
def test_links_get_no_fix(call: str) -> None:
    source = f"import os\nfrom pathlib import Path\n\ndef f(cache_dir):\n    {call}\n"
    (finding,) = lint_source(source.encode(), "mod.py", _config()).findings
    assert finding.fix is None


def test_os_renames_is_always_unsafe() -> None:
    source = 'import os\n\ndef f(cache_dir):\n    os.renames("/tmp/x", os.path.join(cache_dir, "runs", "x"))\n'
    (finding,) = lint_source(source.encode(), "mod.py", _config(move_function=SAFE_MOVE)).findings
    assert finding.fix is not None and finding.fix.applicability is Applicability.UNSAFE


def test_fixes_carry_their_textual_edits() -> None:
    source = 'import os\n\ndef f(cache_dir):\n    os.rename("/tmp/x", os.path.join(cache_dir, "x"))\n'
    (finding,) = lint_source(source.encode(), "mod.py", _config()).findings
    assert finding.fix is not None
    assert finding.fix.edits == (Edit(Span(4, 5, 4, 14), "shutil.move"),)


def test_edits_are_left_out_when_not_asked_for() -> None:
    """Text output and flake8 never print edits, so they are not rendered for them."""
    source = 'import os\n\ndef f(cache_dir):\n    os.rename("/tmp/x", os.path.join(cache_dir, "x"))\n'
    (finding,) = lint_source(source.encode(), "mod.py", _config(), edits=False).findings
    assert finding.fix is not None and finding.fix.replacements and finding.fix.edits == ()
    fixed = fix_source(source.encode(), "mod.py", _config(), unsafe=True).fixed.decode()
    assert "shutil.move(" in fixed  # the fixer, which needs them, still has them


# -- passes, overlap, verification --------------------------------------------------------


def _fake_analyse(make_fixes):  # type: ignore[no-untyped-def]
    """An ``analyse`` whose findings carry the fixes ``make_fixes(module)`` returns."""

    def analyse(data: bytes) -> Tuple[FileResult, Optional[cst.Module]]:
        module = cst.parse_module(data)
        wrapper = cst.MetadataWrapper(module, unsafe_skip_copy=True)
        positions = wrapper.resolve(cst.metadata.PositionProvider)
        findings = []
        for node, new in make_fixes(module):
            where = positions[node]
            span = Span(where.start.line, where.start.column + 1, where.end.line, where.end.column + 1)
            fix = Fix(Applicability.SAFE, "f", (Replacement(node, new),), (), (Edit(span, module.code_for_node(new)),))
            findings.append(Finding("m.py", span, "XDV101", "n", "m", fix))
        return FileResult("m.py", tuple(sorted(findings)), data), module

    return analyse


def _nodes(module: cst.Module, kind: type) -> List[cst.CSTNode]:
    found: List[cst.CSTNode] = []

    class Collect(cst.CSTVisitor):
        def on_visit(self, node: cst.CSTNode) -> bool:
            if isinstance(node, kind):
                found.append(node)
            return True

    module.visit(Collect())
    return found


def test_overlapping_fixes_wait_for_the_next_pass() -> None:
    def fixes(module: cst.Module):  # type: ignore[no-untyped-def]
        out = []
        for call in _nodes(module, cst.Call):
            if isinstance(call.func, cst.Name) and call.func.value == "wrap":  # type: ignore[attr-defined]
                out.append((call, call.with_changes(func=cst.Name("done"))))  # type: ignore[attr-defined]
        for name in _nodes(module, cst.Name):
            if name.value == "a":  # type: ignore[attr-defined]
                out.append((name, cst.Name("b")))
        return out

    result = fixer.fix(b"x = wrap(a)\n", "m.py", _fake_analyse(fixes))
    assert result.fixed == b"x = done(b)\n"
    assert len(result.applied) == 2


def test_a_fix_that_breaks_the_code_leaves_the_file_untouched() -> None:
    def fixes(module: cst.Module):  # type: ignore[no-untyped-def]
        # ``return`` at module level: libcst parses it, compile() refuses it
        return [(n, cst.Return(value=cst.Name("a"))) for n in _nodes(module, cst.Assign)]

    result = fixer.fix(b"x = a\n", "m.py", _fake_analyse(fixes))
    assert result.fixed == result.source == b"x = a\n"
    assert result.error is not None and "left unchanged" in result.error
    assert any(f.code == "XDV000" for f in result.result.findings)


def test_passes_are_bounded() -> None:
    def fixes(module: cst.Module):  # type: ignore[no-untyped-def]
        # a -> b and b -> a forever
        swap = {"a": "b", "b": "a"}
        return [(n, cst.Name(swap[n.value])) for n in _nodes(module, cst.Name) if n.value in swap]  # type: ignore[attr-defined]

    result = fixer.fix(b"x = a\n", "m.py", _fake_analyse(fixes), max_passes=3)
    assert len(result.applied) == 3


# -- nothing lost ---------------------------------------------------------------------------

BODY = (
    b"import os\nimport tempfile  # keep me\n\n\ndef save(cache_dir):\n"
    b"    fd, tmp = tempfile.mkstemp(  # and me\n        suffix='.x',\n    )\n"
    b"    os.rename(tmp, os.path.join(cache_dir, 'x'))"
)
EXPECTED = (
    b"import contextlib\nimport os\nimport tempfile  # keep me\n\n\ndef save(cache_dir):\n"
    b"    fd, tmp = tempfile.mkstemp(  # and me\n        suffix='.x',\n        dir=cache_dir,\n    )\n"
    b"    try:\n        os.rename(tmp, os.path.join(cache_dir, 'x'))\n    except BaseException:\n"
    b"        with contextlib.suppress(FileNotFoundError):\n            os.unlink(tmp)\n        raise"
)


@pytest.mark.parametrize(
    "before, after",
    [
        (BODY + b"\n", EXPECTED + b"\n"),
        (BODY, EXPECTED),  # no final newline
        ((BODY + b"\n").replace(b"\n", b"\r\n"), (EXPECTED + b"\n").replace(b"\n", b"\r\n")),
        (b"\xef\xbb\xbf" + BODY + b"\n", b"\xef\xbb\xbf" + EXPECTED + b"\n"),
        (b"# -*- coding: latin-1 -*-\n# \xe9t\xe9\n" + BODY + b"\n", b"# -*- coding: latin-1 -*-\n# \xe9t\xe9\n" + EXPECTED + b"\n"),
    ],
    ids=["lf", "no-final-newline", "crlf", "bom", "latin-1"],
)
def test_fixing_keeps_comments_encoding_and_line_endings(before: bytes, after: bytes) -> None:
    # the temp staged beside the destination, and removed if the rename fails: safe
    result = fix_source(before, "mod.py", _config())
    assert result.fixed == after
    again = fix_source(result.fixed, "mod.py", _config(), unsafe=True)
    assert not again.changed


def test_a_trailing_comma_call_gets_the_new_argument_in_its_style() -> None:
    source = b"import os, tempfile\n\ndef f(cache_dir):\n    fd, tmp = tempfile.mkstemp(\n        suffix='.x',\n        prefix='p',\n    )\n    os.rename(tmp, os.path.join(cache_dir, 'x'))\n"
    fixed = fix_source(source, "mod.py", _config(), unsafe=True).fixed
    assert b"        prefix='p',\n        dir=cache_dir,\n    )\n" in fixed


# -- the CLI --------------------------------------------------------------------------------

# The temp is removed when the move fails, so staging it in the cache (dir=) is safe.
PROJECT_FILE = """\
import os
import tempfile


def save(cache_dir):
    fd, tmp = tempfile.mkstemp()
    try:
        os.rename(tmp, os.path.join(cache_dir, "x"))
    except OSError:
        os.unlink(tmp)
        raise


def spill(cache_dir):
    os.rename("/tmp/y", os.path.join(cache_dir, "y"))
"""


def _run(argv: List[str], stdin: Optional[bytes] = None) -> Tuple[int, str, str]:
    proc = subprocess.run(
        [sys.executable, "-m", "xdevlint", *argv], input=stdin, capture_output=True, check=False,
    )
    return proc.returncode, proc.stdout.decode(), proc.stderr.decode()


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "pyproject.toml").write_text('[tool.xdevlint]\nselect = ["XDV1"]\n')
    target = tmp_path / "mod.py"
    target.write_text(PROJECT_FILE)
    os.chmod(target, 0o640)
    return tmp_path


def test_cli_fix_writes_safe_fixes_and_reports_what_remains(project: Path) -> None:
    target = project / "mod.py"
    code, out, _ = _run(["--fix", "--show-fixes", str(target)])
    assert code == 1  # the unsafe one remains
    text = target.read_text()
    assert "tempfile.mkstemp(dir=cache_dir)" in text and 'os.rename("/tmp/y"' in text
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o640
    assert "Found 2 findings (1 fixed, 1 remaining)." in out
    assert "1 fixable with `xdevlint --fix --unsafe-fixes`." in out
    assert f"Fixed 1 finding:\n- {target}:\n    1 \N{MULTIPLICATION SIGN} XDV101 (cross-mount-rename)\n" in out
    code, out, _ = _run(["--fix", "--unsafe-fixes", str(target)])
    assert code == 0 and "Found 1 finding (1 fixed, 0 remaining)." in out
    assert 'shutil.move("/tmp/y"' in target.read_text()
    before = os.stat(target)
    code, out, _ = _run(["--fix", "--unsafe-fixes", str(target)])
    assert code == 0 and "All checks passed." in out
    assert os.stat(target).st_mtime_ns == before.st_mtime_ns  # nothing to do: not even rewritten


def test_cli_diff_writes_nothing_and_exits_1(project: Path) -> None:
    target = project / "mod.py"
    code, out, err = _run(["--diff", "--unsafe-fixes", str(target)])
    assert code == 1
    assert target.read_text() == PROJECT_FILE
    assert out.startswith(f"--- {target}\n+++ {target}\n")  # absolute: as it is, for patch -p0
    relative = unified_diff("pkg/mod.py", b"x = 1\n", b"x = 2\n")
    assert relative.startswith("--- a/pkg/mod.py\n+++ b/pkg/mod.py\n")
    assert "-    fd, tmp = tempfile.mkstemp()\n+    fd, tmp = tempfile.mkstemp(dir=cache_dir)\n" in out
    assert "+import shutil\n" in out
    assert "Would fix 2 findings (0 remaining)." in err
    target.write_text("x = 1\n")
    assert _run(["--diff", str(target)])[:2] == (0, "")


def test_cli_move_function_from_the_config(project: Path) -> None:
    (project / "pyproject.toml").write_text(
        '[tool.xdevlint]\nselect = ["XDV1"]\nmove-function = "xdevlint.safemove.safe_move"\n'
    )
    target = project / "mod.py"
    code, _, _ = _run(["--fix", str(target)])
    assert code == 0
    assert 'safe_move("/tmp/y", os.path.join(cache_dir, "y"))' in target.read_text()


def test_cli_stdin_fix_prints_the_fixed_source(project: Path) -> None:
    data = PROJECT_FILE.replace("\n", "\r\n").encode()
    code, out, err = _run(["--fix", "--stdin-filename", str(project / "mod.py"), "-"], stdin=data)
    assert code == 1  # the unsafe fix is not applied
    assert out.encode() == data.replace(b"tempfile.mkstemp()", b"tempfile.mkstemp(dir=cache_dir)")
    assert "XDV101" in err and (project / "mod.py").read_text() == PROJECT_FILE


def test_cli_json_shows_the_edits(project: Path) -> None:
    code, out, _ = _run(["--format", "json", str(project / "mod.py")])
    items = json.loads(out)
    assert [i["fix"]["applicability"] for i in items] == ["safe", "unsafe"]
    assert items[0]["fix"]["edits"] == [
        {"content": "tempfile.mkstemp(dir=cache_dir)", "location": {"line": 6, "column": 15}, "end_location": {"line": 6, "column": 33}}
    ]


def test_main_in_process_fix(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(project)
    out = io.StringIO()
    assert main(["--fix", "--unsafe-fixes", "mod.py"], stdout=out) == 0
    assert "(2 fixed, 0 remaining)" in out.getvalue()
