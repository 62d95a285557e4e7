"""``[tool.xdevlint]``: which file applies, what each key does, CLI overrides, and errors.

Real pyproject.toml files in ``tmp_path``; the CLI in-process where only the findings
matter, as a process where exit codes, stderr and tracebacks do.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import List, Sequence, Set, Tuple

import pytest

from tests.process import run
from xdevlint.frontends import cli

# XDV101 on line 6 (temp -> cache), XDV102 on line 7 (temp -> unknown).
BOTH_SOURCE = """\
import os
import tempfile

def publish(dst):
    tmp = tempfile.mktemp()
    os.rename(tmp, "/var/cache/blob")
    os.rename(tmp, dst)
"""
XDV101 = ("XDV101", 6)
XDV102 = ("XDV102", 7)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text))
    return path


def codes(args: Sequence[str], cwd: Path, monkeypatch, capsys) -> Set[Tuple[str, str, int]]:
    """(path, code, line) of every finding of an in-process run."""
    monkeypatch.chdir(cwd)
    status = cli.main(["--format", "json", *args])
    out = capsys.readouterr().out
    assert status in (0, 1)
    return {(item["path"], item["code"], item["line"]) for item in json.loads(out)}


def only(found: Set[Tuple[str, str, int]], path: str) -> Set[Tuple[str, int]]:
    return {(code, line) for p, code, line in found if p == path}


# -- which file applies ---------------------------------------------------------------


@pytest.fixture
def nested(tmp_path: Path) -> Path:
    """root (ignores XDV101) > sub (selects XDV1, ignores nothing) > pkg (no section) > m.py."""
    write(tmp_path / "pyproject.toml", '[tool.xdevlint]\nselect = ["XDV1"]\nignore = ["XDV101"]\n')
    write(tmp_path / "sub" / "pyproject.toml", '[tool.xdevlint]\nselect = ["XDV102"]\n')
    write(tmp_path / "sub" / "pkg" / "pyproject.toml", '[project]\nname = "pkg"\n')
    write(tmp_path / "sub" / "pkg" / "m.py", BOTH_SOURCE)
    write(tmp_path / "top.py", BOTH_SOURCE)
    return tmp_path


def test_closest_section_wins_and_a_nearer_pyproject_without_it_is_skipped(nested: Path, monkeypatch, capsys) -> None:
    found = codes(["."], nested, monkeypatch, capsys)
    assert only(found, "sub/pkg/m.py") == {XDV102}  # sub's select, not root's
    assert only(found, "top.py") == {XDV102}  # root's: XDV1 minus XDV101


def test_no_merging_with_outer_files(tmp_path: Path, monkeypatch, capsys) -> None:
    """The inner section replaces the outer whole: the outer ignore does not leak in."""
    write(tmp_path / "pyproject.toml", '[tool.xdevlint]\nselect = ["XDV1"]\nignore = ["XDV101"]\n')
    write(tmp_path / "inner" / "pyproject.toml", '[tool.xdevlint]\nselect = ["XDV1"]\n')
    write(tmp_path / "inner" / "m.py", BOTH_SOURCE)
    assert only(codes(["."], tmp_path, monkeypatch, capsys), "inner/m.py") == {XDV101, XDV102}


def test_settings_follow_the_file_not_the_working_directory(nested: Path, monkeypatch, capsys) -> None:
    found = codes([str(nested / "sub" / "pkg" / "m.py")], nested.parent, monkeypatch, capsys)
    assert {(c, line) for _, c, line in found} == {XDV102}


def test_config_option_uses_that_file_for_every_path(nested: Path, monkeypatch, capsys) -> None:
    explicit = write(nested / "elsewhere" / "custom.toml", '[tool.xdevlint]\nselect = ["XDV101"]\n')
    found = codes(["--config", str(explicit), "."], nested, monkeypatch, capsys)
    assert only(found, "sub/pkg/m.py") == only(found, "top.py") == {XDV101}


def test_isolated_ignores_every_file(nested: Path, monkeypatch, capsys) -> None:
    found = codes(["--isolated", "--select", "XDV1", "."], nested, monkeypatch, capsys)
    assert only(found, "sub/pkg/m.py") == only(found, "top.py") == {XDV101, XDV102}


# -- CLI flags override the file -------------------------------------------------------


@pytest.mark.parametrize(
    "flags, expected",
    [
        (["--select", "XDV101"], {XDV101}),
        (["--select", "XDV1", "--ignore", "XDV102"], {XDV101}),
        (["--extend-select", "XDV101"], {XDV101, XDV102}),
        (["--ignore", "XDV102"], set()),
        (["--ignore", "XDV1"], {XDV102}),  # the file's XDV102 is more specific than XDV1
    ],
)
def test_cli_selection_overrides_the_file(tmp_path: Path, monkeypatch, capsys, flags: List[str], expected) -> None:
    write(tmp_path / "pyproject.toml", '[tool.xdevlint]\nselect = ["XDV102"]\n')
    write(tmp_path / "m.py", BOTH_SOURCE)
    assert only(codes([*flags, "."], tmp_path, monkeypatch, capsys), "m.py") == expected


def test_cli_exclude_replaces_and_extend_exclude_adds(tmp_path: Path, monkeypatch, capsys) -> None:
    write(tmp_path / "pyproject.toml", '[tool.xdevlint]\nselect = ["XDV1"]\nexclude = ["gen"]\n')
    for name in ("gen/a.py", "vendor/b.py", "build/c.py", "d.py"):
        write(tmp_path / name, BOTH_SOURCE)
    paths = lambda *flags: {p for p, _, _ in codes([*flags, "."], tmp_path, monkeypatch, capsys)}  # noqa: E731
    # the file's exclude replaced the defaults, so build/ is checked
    assert paths() == {"vendor/b.py", "build/c.py", "d.py"}
    assert paths("--exclude", "vendor") == {"gen/a.py", "build/c.py", "d.py"}
    assert paths("--extend-exclude", "vendor") == {"build/c.py", "d.py"}


# -- per-file-ignores -------------------------------------------------------------------


def test_per_file_ignores_by_glob_relative_to_the_config_dir(tmp_path: Path, monkeypatch, capsys) -> None:
    project = tmp_path / "project"
    write(
        project / "pyproject.toml",
        """\
        [tool.xdevlint]
        select = ["XDV1"]
        [tool.xdevlint.per-file-ignores]
        "tests/*.py" = ["XDV101"]
        "legacy.py" = ["XDV1"]
        """,
    )
    for name in ("tests/t.py", "src/tests/t.py", "legacy.py", "src/legacy.py", "main.py"):
        write(project / name, BOTH_SOURCE)
    found = codes([str(project)], tmp_path, monkeypatch, capsys)  # run from outside the project
    by = lambda name: only(found, str(project / name))  # noqa: E731
    assert by("tests/t.py") == {XDV102}
    assert by("src/tests/t.py") == {XDV101, XDV102}  # the glob is anchored at the config dir
    assert by("legacy.py") == by("src/legacy.py") == set()  # a bare name matches by basename
    assert by("main.py") == {XDV101, XDV102}


# -- select / ignore specificity --------------------------------------------------------


@pytest.mark.parametrize(
    "select, ignore, expected",
    [
        (["XDV1"], ["XDV101"], {XDV102}),  # the more specific ignore wins
        (["XDV101"], ["XDV1"], {XDV101}),  # the more specific select wins
        (["ALL"], ["XDV"], set()),
        (["XDV"], ["ALL"], {XDV101, XDV102}),
        (["XDV102", "XDV101"], [], {XDV101, XDV102}),
    ],
)
def test_the_more_specific_selector_wins(tmp_path: Path, monkeypatch, capsys, select, ignore, expected) -> None:
    write(tmp_path / "pyproject.toml", f"[tool.xdevlint]\nselect = {json.dumps(select)}\nignore = {json.dumps(ignore)}\n")
    write(tmp_path / "m.py", BOTH_SOURCE)
    assert only(codes(["."], tmp_path, monkeypatch, capsys), "m.py") & {XDV101, XDV102} == expected


# -- user-defined locations -------------------------------------------------------------

SCRATCH = """\
[tool.xdevlint]
select = ["XDV101"]
[tool.xdevlint.locations.scratch]
env = ["SCRATCH_DIR"]
names = ["*scratch*"]
paths = ["/scratch"]
calls = ["jobs.storage.scratch_root"]
"""


@pytest.mark.parametrize(
    "source_expr",
    [
        'os.environ["SCRATCH_DIR"]',
        "scratch_area",
        '"/scratch/job"',
        "scratch_root()",
    ],
    ids=["env", "names", "paths", "calls"],
)
def test_a_user_location_makes_scratch_to_cache_a_cross_mount_move(tmp_path: Path, monkeypatch, capsys, source_expr) -> None:
    write(tmp_path / "pyproject.toml", SCRATCH)
    write(
        tmp_path / "m.py",
        f"""\
        import os
        from jobs.storage import scratch_root

        def publish(scratch_area, cache_dir):
            src = os.path.join({source_expr}, "shard")
            os.rename(src, os.path.join(cache_dir, "shard"))
        """,
    )
    assert only(codes(["."], tmp_path, monkeypatch, capsys), "m.py") == {("XDV101", 6)}
    # without the location the source has none, and nothing is reported
    assert only(codes(["--isolated", "--select", "XDV101", "."], tmp_path, monkeypatch, capsys), "m.py") == set()


def test_extend_env_keeps_the_default_variables(tmp_path: Path, monkeypatch, capsys) -> None:
    write(tmp_path / "pyproject.toml", '[tool.xdevlint]\nselect = ["XDV101"]\n[tool.xdevlint.locations.temp]\nextend-env = ["JOB_TMP"]\n')
    write(
        tmp_path / "m.py",
        """\
        import os

        def publish(cache_dir):
            os.rename(os.environ["JOB_TMP"] + "/a", os.path.join(cache_dir, "a"))
            os.rename(os.environ["TMPDIR"] + "/b", os.path.join(cache_dir, "b"))
        """,
    )
    assert only(codes(["."], tmp_path, monkeypatch, capsys), "m.py") == {("XDV101", 4), ("XDV101", 5)}


def test_replacing_names_drops_the_default_pattern(tmp_path: Path, monkeypatch, capsys) -> None:
    write(tmp_path / "pyproject.toml", '[tool.xdevlint]\nselect = ["XDV101"]\n[tool.xdevlint.locations.cache]\nnames = ["*store*"]\n')
    write(
        tmp_path / "m.py",
        """\
        import os
        import tempfile

        def publish(cache_dir, blob_store):
            os.rename(tempfile.mktemp(), os.path.join(cache_dir, "a"))
            os.rename(tempfile.mktemp(), os.path.join(blob_store, "b"))
            os.rename(tempfile.mktemp(), os.path.join(os.environ["HF_HOME"], "c"))
        """,
    )
    # *cache* no longer names the cache; *store* does; the env variables are still there
    assert only(codes(["."], tmp_path, monkeypatch, capsys), "m.py") == {("XDV101", 6), ("XDV101", 7)}


# -- errors: exit 2, the file, the key and what is allowed; never a traceback -----------


@pytest.mark.parametrize(
    "toml, key, allowed",
    [
        ('[tool.xdevlint]\nselct = ["XDV101"]\n', "selct", "allowed keys: select"),
        ('[tool.xdevlint]\nselect = "XDV101"\n', "select", "list of strings"),
        ('[tool.xdevlint]\nselect = ["XDV999"]\n', "select", "XDV101"),
        ('[tool.xdevlint]\nmove-function-atomic = "yes"\n', "move-function-atomic", "true or false"),
        ('[tool.xdevlint]\nmove-function = "not a name"\n', "move-function", "dotted name"),
        ('[tool.xdevlint.per-file-ignores]\n"a.py" = ["NOPE1"]\n', "per-file-ignores", "allowed"),
        ('[tool.xdevlint.locations.scratch]\nenvs = ["X"]\n', "locations.scratch.envs", "allowed keys: env"),
        ('[tool.xdevlint.locations.scratch]\ncalls = ["notdotted"]\n', "locations.scratch.calls", "dotted name"),
        ('[tool.xdevlint]\nselect = ["XDV101"\n', "file", "invalid TOML"),
    ],
    ids=["unknown-key", "not-a-list", "unknown-code", "not-a-bool", "bad-dotted", "pfi-code", "location-key", "location-call", "toml"],
)
def test_bad_configuration_exits_2_with_the_key(tmp_path: Path, toml: str, key: str, allowed: str) -> None:
    config = write(tmp_path / "pyproject.toml", toml)
    write(tmp_path / "m.py", BOTH_SOURCE)
    completed = run(".", cwd=tmp_path)
    assert completed.returncode == 2
    assert completed.stdout == ""
    assert "Traceback" not in completed.stderr
    assert str(config) in completed.stderr
    assert key in completed.stderr
    assert allowed in completed.stderr


def test_bad_explicit_config_file(tmp_path: Path) -> None:
    completed = run("--config", "missing.toml", ".", cwd=tmp_path)
    assert completed.returncode == 2
    assert "missing.toml" in completed.stderr and "Traceback" not in completed.stderr
