"""The flake8 plugin, through real ``flake8`` processes: parity with the CLI, flake8's
own filtering (select, noqa, per-file-ignores) and the plugin's options."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import textwrap
from collections import defaultdict
from pathlib import Path
from typing import Dict, List, Sequence, Set, Tuple

import pytest

import xdevlint.analyser
from xdevlint import __version__
from xdevlint.frontends.cli import main
from xdevlint.frontends.flake8_plugin import XdevlintChecker
from tests.fixture_cases import FIXTURES, case_files, selection_for

CASES = case_files()
FORMAT = "--format=%(path)s\t%(row)d\t%(col)d\t%(code)s"

Found = Set[Tuple[str, int, int, str]]

#: One temp file moved into a cache, and one moved to a place of unknown location
#: (checked with the XDV1 rules: other families may have their say about it too).
BAD = textwrap.dedent(
    """\
    import os
    import tempfile


    def publish(cache_dir, target):
        tmp = tempfile.mkstemp()[1]
        os.rename(tmp, os.path.join(cache_dir, "blob"))
        other = tempfile.mkstemp()[1]
        os.replace(other, target)
    """
)


def flake8(args: Sequence[str], cwd: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "flake8", *args], cwd=cwd, input=stdin, capture_output=True, text=True, check=False
    )


def parse(output: str) -> Found:
    found: Found = set()
    for line in output.splitlines():
        path, row, col, code = line.split("\t")
        found.add((path, int(row), int(col), code))
    return found


def codes_at(result: subprocess.CompletedProcess[str]) -> List[Tuple[int, str]]:
    return sorted((row, code) for _, row, _, code in parse(result.stdout))


def flake8_selection(selection: Tuple[str, ...]) -> str:
    """flake8's --select for a fixture's selection; the CLI keeps XDV000 whatever --select says."""
    codes = ["XDV" if code == "ALL" else code for code in selection]
    return ",".join(codes + ["XDV000"])


def cli_findings(paths: Sequence[str], selection: Tuple[str, ...], config: Path) -> Found:
    out = io.StringIO()
    # XDV001 (unused noqa) is the CLI's own: flake8 applies noqa itself
    main(["--config", str(config), "--select", ",".join(selection), "--extend-ignore", "XDV001", "--format", "json", *paths],
         stdout=out)
    return {(item["path"], item["line"], item["column"], item["code"]) for item in json.loads(out.getvalue())}


@pytest.fixture(scope="module")
def parity(tmp_path_factory: pytest.TempPathFactory) -> Dict[str, Tuple[Found, Found]]:
    """flake8's and the CLI's findings per fixture, one process per selection.

    Both get the same empty settings file, so a [tool.xdevlint] the repository's own
    pyproject.toml may grow cannot make them differ.
    """
    config = tmp_path_factory.mktemp("parity") / "xdevlint.toml"
    config.write_text("")
    groups: Dict[Tuple[str, ...], List[str]] = defaultdict(list)
    for path in CASES:
        groups[selection_for(path)].append(str(path))
    by_file: Dict[str, Tuple[Found, Found]] = {str(path): (set(), set()) for path in CASES}
    for selection, paths in groups.items():
        select = flake8_selection(selection)
        result = flake8(["--isolated", "-j1", "--xdevlint-config", str(config), "--select", select, FORMAT, *paths], FIXTURES)
        assert result.returncode in (0, 1), result.stderr
        assert "Traceback" not in result.stderr, result.stderr
        for item in parse(result.stdout):
            by_file[item[0]][0].add(item)
        for item in cli_findings(paths, selection, config):
            by_file[item[0]][1].add(item)
    return by_file


def test_flake8_loads_the_plugin(tmp_path: Path) -> None:
    result = flake8(["--version"], cwd=tmp_path)
    assert f"xdevlint: {__version__}" in result.stdout


@pytest.mark.parametrize("path", CASES, ids=[str(p.relative_to(FIXTURES)) for p in CASES])
def test_flake8_reports_what_the_cli_reports(path: Path, parity: Dict[str, Tuple[Found, Found]]) -> None:
    from_flake8, from_cli = parity[str(path)]
    assert from_flake8 == from_cli


def test_parity_is_not_vacuous(parity: Dict[str, Tuple[Found, Found]]) -> None:
    flagged = [path for path, (from_flake8, _) in parity.items() if from_flake8]
    assert len(flagged) >= 40
    assert {code for found, _ in parity.values() for *_, code in found} >= {"XDV101", "XDV102"}


def test_flake8_select_ignore_and_extend_ignore(tmp_path: Path) -> None:
    (tmp_path / "bad.py").write_text(BAD)
    assert codes_at(flake8(["--isolated", "--select", "XDV1", FORMAT, "bad.py"], tmp_path)) == [(7, "XDV101"), (9, "XDV102")]
    assert codes_at(flake8(["--isolated", "--select", "XDV102", FORMAT, "bad.py"], tmp_path)) == [(9, "XDV102")]
    ignored = flake8(["--isolated", "--select", "XDV1", "--extend-ignore", "XDV101", FORMAT, "bad.py"], tmp_path)
    assert codes_at(ignored) == [(9, "XDV102")]


def test_an_opt_in_code_runs_only_when_named_whole(tmp_path: Path) -> None:
    """XDV103 is off unless --select/--extend-select names it, as with the CLI: a
    prefix (``XDV``, ``XDV1``) does not turn it on."""
    (tmp_path / "move.py").write_text("import os\n\n\ndef publish(a, b):\n    os.rename(a, b)\n")
    assert codes_at(flake8(["--isolated", "--select", "XDV", FORMAT, "move.py"], tmp_path)) == []
    assert codes_at(flake8(["--isolated", "--select", "XDV1", FORMAT, "move.py"], tmp_path)) == []
    named = flake8(["--isolated", "--select", "XDV", "--extend-select", "XDV103", FORMAT, "move.py"], tmp_path)
    assert codes_at(named) == [(5, "XDV103")]
    assert codes_at(flake8(["--isolated", "--select", "XDV103", FORMAT, "move.py"], tmp_path)) == [(5, "XDV103")]


def test_flake8_runs_every_rule(tmp_path: Path) -> None:
    """Whatever xdevlint's own selection: under flake8, flake8's --select decides."""
    (tmp_path / "bad.py").write_text(BAD)
    (tmp_path / "pyproject.toml").write_text('[tool.xdevlint]\nselect = ["XDV102"]\n')
    (tmp_path / "empty.toml").write_text("")
    from_flake8 = parse(flake8(["--isolated", "--select", "XDV", FORMAT, "bad.py"], tmp_path).stdout)
    everything = cli_findings([str(tmp_path / "bad.py")], ("ALL",), tmp_path / "empty.toml")
    cli = {(Path(path).name, line, col, code) for path, line, col, code in everything}
    assert from_flake8 == cli
    assert {"XDV101", "XDV102"} <= {code for *_, code in from_flake8}


def test_flake8_applies_noqa_itself(tmp_path: Path) -> None:
    source = BAD.replace('"blob"))', '"blob"))  # noqa: XDV101').replace("other, target)", "other, target)  # noqa")
    (tmp_path / "quiet.py").write_text(source)
    assert codes_at(flake8(["--isolated", "--select", "XDV1", FORMAT, "quiet.py"], tmp_path)) == []
    # The plugin filters nothing itself: with flake8's noqa off, both come back.
    loud = flake8(["--isolated", "--select", "XDV1", "--disable-noqa", FORMAT, "quiet.py"], tmp_path)
    assert codes_at(loud) == [(7, "XDV101"), (9, "XDV102")]


def test_noqa_codes_in_any_case_as_in_the_cli(tmp_path: Path) -> None:
    """flake8 compares noqa codes as written; `# NOQA: xdv101` silences XDV101 in both front ends."""
    source = BAD.replace('"blob"))', '"blob"))  # NOQA: xdv101').replace("other, target)", "other, target)  # noqa: xdv2")
    (tmp_path / "quiet.py").write_text(source)
    (tmp_path / "none.toml").write_text("")
    assert codes_at(flake8(["--isolated", "--select", "XDV1", FORMAT, "quiet.py"], tmp_path)) == [(9, "XDV102")]
    assert {(row, code) for _, row, _, code in cli_findings([str(tmp_path / "quiet.py")], ("XDV1",), tmp_path / "none.toml")} == {
        (9, "XDV102")
    }
    loud = flake8(["--isolated", "--select", "XDV1", "--disable-noqa", FORMAT, "quiet.py"], tmp_path)
    assert codes_at(loud) == [(7, "XDV101"), (9, "XDV102")]


def test_flake8_per_file_ignores(tmp_path: Path) -> None:
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_bad.py").write_text(BAD)
    (tmp_path / "bad.py").write_text(BAD)
    (tmp_path / "setup.cfg").write_text("[flake8]\nselect = XDV1\nper-file-ignores =\n    tests/*: XDV102\n")
    result = flake8([FORMAT, "bad.py", "tests/test_bad.py"], tmp_path)
    assert sorted(parse(result.stdout)) == [
        ("bad.py", 7, 5, "XDV101"),
        ("bad.py", 9, 5, "XDV102"),
        ("tests/test_bad.py", 7, 5, "XDV101"),
    ]


SCRATCH = textwrap.dedent(
    """\
    import os
    import tempfile


    def stage():
        tmp = tempfile.mkdtemp()
        os.rename(tmp, "/mnt/scratch/out")
    """
)
SCRATCH_TOML = '[tool.xdevlint.locations.scratch]\npaths = ["/mnt/scratch"]\n'


def test_reads_the_closest_pyproject(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "stage.py").write_text(SCRATCH)
    base = ["--select", "XDV1", FORMAT, "pkg/stage.py"]
    # temp -> an unknown place is XDV102; once /mnt/scratch is a location, temp -> scratch is XDV101.
    assert codes_at(flake8(base, tmp_path)) == [(7, "XDV102")]
    (tmp_path / "pyproject.toml").write_text(SCRATCH_TOML)
    assert codes_at(flake8(base, tmp_path)) == [(7, "XDV101")]


def test_xdevlint_config_option(tmp_path: Path) -> None:
    (tmp_path / "stage.py").write_text(SCRATCH)
    (tmp_path / "conf").mkdir()
    (tmp_path / "conf" / "xdevlint.toml").write_text(SCRATCH_TOML)
    base = ["--select", "XDV1", FORMAT, "stage.py"]
    assert codes_at(flake8(["--isolated", "--xdevlint-config", "conf/xdevlint.toml", *base], tmp_path)) == [(7, "XDV101")]
    (tmp_path / ".flake8").write_text("[flake8]\nxdevlint-config = conf/xdevlint.toml\n")
    assert codes_at(flake8(base, tmp_path)) == [(7, "XDV101")]


def test_xdevlint_locations_option(tmp_path: Path) -> None:
    (tmp_path / "stage.py").write_text(SCRATCH)
    base = ["--isolated", "--select", "XDV1", FORMAT, "stage.py"]
    assert codes_at(flake8(["--xdevlint-locations", "scratch.paths=/mnt/scratch", *base], tmp_path)) == [(7, "XDV101")]
    (tmp_path / "tox.ini").write_text("[flake8]\nxdevlint-locations =\n    scratch.env=SCRATCH\n    scratch.paths=/mnt/scratch\n")
    assert codes_at(flake8(base[1:], tmp_path)) == [(7, "XDV101")]


@pytest.mark.parametrize(
    "args, message",
    [
        (["--xdevlint-locations", "scratch"], "expected NAME.KEY=VALUE"),
        (["--xdevlint-locations", "scratch.colour=red"], "unknown key"),
        (["--xdevlint-move-function", "not a name"], "move-function"),
        (["--xdevlint-config", "missing.toml"], "cannot read"),
    ],
)
def test_bad_options_stop_the_run_cleanly(tmp_path: Path, args: List[str], message: str) -> None:
    (tmp_path / "stage.py").write_text(SCRATCH)
    result = flake8(["--isolated", "--select", "XDV1", *args, "stage.py"], tmp_path)
    assert result.returncode != 0
    assert message in result.stdout + result.stderr
    assert "Traceback" not in result.stdout + result.stderr


def test_bad_pyproject_fails_the_file_cleanly(tmp_path: Path) -> None:
    (tmp_path / "stage.py").write_text(SCRATCH)
    (tmp_path / "pyproject.toml").write_text("[tool.xdevlint]\ncolour = 'red'\n")
    result = flake8(["-j1", "--select", "XDV1", "stage.py"], tmp_path)
    assert result.returncode != 0
    assert "unknown key" in result.stdout
    assert "Traceback" not in result.stdout + result.stderr


def test_unparsable_file_is_flake8s_e999_alone(tmp_path: Path) -> None:
    (tmp_path / "broken.py").write_text("import os\nos.rename('/tmp/a', CACHE +\n")
    result = flake8(["--isolated", FORMAT, "broken.py"], tmp_path)
    assert [code for _, code in codes_at(result)] == ["E999"]


def test_file_libcst_cannot_analyse_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    """Python parsed it (flake8 calls us only then), so no E999 will say it went unchecked."""

    def panic(*args: object, **kwargs: object) -> None:
        raise RuntimeError("native parser panicked")

    monkeypatch.setattr(xdevlint.analyser.cst, "parse_module", panic)
    checker = XdevlintChecker(None, BAD.splitlines(keepends=True), "bad.py")  # type: ignore[arg-type]
    (result,) = list(checker.run())
    assert result[:2] == (1, 0)
    assert result[2].startswith("XDV000 cannot parse: RuntimeError: native parser panicked")
    assert result[3] is XdevlintChecker


def test_stdin(tmp_path: Path) -> None:
    result = flake8(["--isolated", "--select", "XDV1", "--stdin-display-name", "piped.py", FORMAT, "-"], tmp_path, BAD)
    assert sorted(parse(result.stdout)) == [("piped.py", 7, 5, "XDV101"), ("piped.py", 9, 5, "XDV102")]


def test_prescan_keeps_libcst_away_from_unrelated_files(monkeypatch: pytest.MonkeyPatch) -> None:
    """flake8 runs the plugin on every file: most must not reach libcst at all."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("libcst parsed a file the cheap scan should rule out")

    monkeypatch.setattr(xdevlint.analyser.cst, "parse_module", refuse)
    source = "import os\n\n\ndef tidy(name):\n    return name.replace('-', '_').strip()\n"
    assert list(XdevlintChecker(None, source.splitlines(keepends=True), "tidy.py").run()) == []  # type: ignore[arg-type]


FLAKE8_PROBE = """
import json, sys
from flake8.main.cli import main
code = main(sys.argv[1:])
watched = ("libcst", "xdevlint.config", "xdevlint.engine", "xdevlint.model", "xdevlint.registry")
print(json.dumps(sorted(m for m in watched if m in sys.modules)))
"""
#: What a run that checks loads, and what deciding that an XDV prefix selects no rule does.
CHECKS = ["libcst", "xdevlint.config", "xdevlint.engine", "xdevlint.model", "xdevlint.registry"]
DECIDES = ["xdevlint.model", "xdevlint.registry"]


@pytest.mark.parametrize(
    "args, loads, reported",
    [
        ([], CHECKS, True),
        (["--select", "F"], [], False),
        (["--select", "E,F,W,C90"], [], False),
        (["--select", "F,XDV"], CHECKS, True),
        (["--select", "F", "--extend-select", "XDV2"], CHECKS, True),
        (["--select", "F,XDV000"], CHECKS, False),  # it must run to find an XDV000
        (["--extend-ignore", "XDV"], [], False),
        (["--ignore", "XDV1,XDV2,XDV0"], DECIDES, False),  # XDV3..XDV9 are left: the registry says none is a rule
        (["--select", "F,XDV9"], DECIDES, False),  # a prefix of no rule: the registry says so
        (["--select", "F,XDV10", "--extend-ignore", "XDV1"], CHECKS, True),  # the longer prefix wins
        (["--select", "F,XDV2", "--extend-ignore", "XDV20"], DECIDES, False),
    ],
)
def test_plugin_does_nothing_when_flake8_can_report_no_xdv_code(
    tmp_path: Path, args: List[str], loads: List[str], reported: bool
) -> None:
    """Decided once from flake8's options: no engine, no configuration, no libcst, and
    (when flake8 selects no XDV code at all) not even the model or the registry."""
    (tmp_path / "bad.py").write_text(
        "import os\nimport tempfile\n\n\ndef save(d):\n    fd, tmp = tempfile.mkstemp()\n    os.rename(tmp, os.path.join(d, 'x'))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", FLAKE8_PROBE, "-j1", "--isolated", *args, "bad.py"],
        cwd=tmp_path, capture_output=True, text=True,
    )
    assert "Traceback" not in done.stderr, done.stderr
    loaded = json.loads(done.stdout.strip().splitlines()[-1])
    assert loaded == loads
    assert (": XDV" in done.stdout) is reported
