"""The ``xdevlint`` command as a user runs it: a real process, its output and exit code."""

from __future__ import annotations

import json
import os
import pty
import re
import select
import subprocess
import sys
from pathlib import Path
from typing import Dict, Optional, Tuple

import pytest

from tests.process import REPO, findings, run
from xdevlint import __version__, registry

SOURCE = """\
import os
import tempfile

def publish(dst):
    tmp = tempfile.mktemp()
    done = 1; os.rename(tmp, "/var/cache/blob")
"""
ANSI = re.compile(r"\x1b\[[0-9;]*m")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "m.py").write_text(SOURCE)
    (tmp_path / "clean.py").write_text("import os\nprint(os.getcwd())\n")
    return tmp_path


def test_text_output(project: Path) -> None:
    completed = run("--select", "XDV101", "m.py", cwd=project)
    assert completed.returncode == 1
    assert completed.stderr == ""
    lines = completed.stdout.splitlines()
    assert re.fullmatch(r"m\.py:6:15: XDV101 `os\.rename` moves a temp path to cache; .*EXDEV.*", lines[0])
    # the excerpt: the reported line, and a caret run under exactly the call
    source_line = next(line for line in lines if line.startswith("6 |"))
    caret_line = lines[lines.index(source_line) + 1]
    assert source_line == '6 |     done = 1; os.rename(tmp, "/var/cache/blob")'
    start = caret_line.index("^")
    assert source_line[start:start + caret_line.count("^")] == 'os.rename(tmp, "/var/cache/blob")'
    assert "Found 1 finding in 1 file." in lines
    assert not ANSI.search(completed.stdout)


def test_summary_counts_findings_and_files(project: Path) -> None:
    (project / "n.py").write_text(SOURCE + SOURCE.replace("def publish", "def publish2").split("\n", 3)[3])
    completed = run("--select", "XDV101", ".", cwd=project)
    assert "Found 3 findings in 2 files." in completed.stdout.splitlines()


def test_clean_run(project: Path) -> None:
    completed = run("clean.py", cwd=project)
    assert (completed.returncode, completed.stdout, completed.stderr) == (0, "All checks passed.\n", "")


def test_no_colour_when_not_a_terminal_or_with_no_color(project: Path) -> None:
    assert not ANSI.search(run("--select", "XDV101", "m.py", cwd=project).stdout)
    assert not ANSI.search(run("--select", "XDV101", "m.py", cwd=project, env={"NO_COLOR": "1"}).stdout)


def _on_a_terminal(cwd: Path, env: Optional[Dict[str, str]] = None, args: Tuple[str, ...] = ()) -> str:
    """Run xdevlint with its stdout on a real pseudo-terminal; return what it wrote."""
    main, secondary = pty.openpty()
    environment = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    environment.update({"PYTHONPATH": str(REPO), "TERM": "xterm"}, **(env or {}))
    process = subprocess.Popen(
        [sys.executable, "-m", "xdevlint", *args, "--select", "XDV101", "m.py"],
        cwd=str(cwd), stdout=secondary, stderr=secondary, stdin=subprocess.DEVNULL, env=environment,
    )
    os.close(secondary)
    chunks = []
    while True:
        ready, _, _ = select.select([main], [], [], 60)
        if not ready:
            process.kill()
            raise AssertionError("xdevlint on a terminal produced no output for 60s")
        try:
            chunk = os.read(main, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(main)
    assert process.wait(timeout=60) == 1
    return b"".join(chunks).decode()


def test_colour_on_a_terminal(project: Path) -> None:
    output = _on_a_terminal(project)
    assert ANSI.search(output)
    assert "XDV101" in ANSI.sub("", output)


def test_no_colour_on_a_terminal_with_no_color(project: Path) -> None:
    output = _on_a_terminal(project, {"NO_COLOR": "1"})
    assert "XDV101" in output and not ANSI.search(output)


def test_a_stub_has_nothing_to_report(project: Path) -> None:
    """A ``.pyi`` never runs: the same code as ``m.py`` is reported in no stub, named or walked."""
    (project / "m.pyi").write_text(SOURCE)
    assert run("m.pyi", cwd=project).stdout == "All checks passed.\n"
    walked = run("--output-format", "json", ".", cwd=project)
    assert {item["path"] for item in json.loads(walked.stdout)} == {"m.py"}


def test_json_output(project: Path) -> None:
    completed = run("--format", "json", "--select", "XDV101", "m.py", "clean.py", cwd=project)
    assert completed.returncode == 1
    items = findings(completed)
    assert len(items) == 1
    item = items[0]
    assert set(item) == {"code", "name", "message", "path", "line", "column", "end_line", "end_column", "fix", "related"}
    assert (item["code"], item["name"], item["path"]) == ("XDV101", "cross-mount-rename", "m.py")
    # 1-based line and columns, the end exclusive: the slice is the call
    assert (item["line"], item["column"], item["end_line"]) == (6, 15, 6)
    line = SOURCE.splitlines()[item["line"] - 1]
    assert line[item["column"] - 1:item["end_column"] - 1] == 'os.rename(tmp, "/var/cache/blob")'
    fix = item["fix"]
    assert fix is None or fix["applicability"] in ("safe", "unsafe") and isinstance(fix["message"], str) and isinstance(fix["edits"], list)


def test_json_output_of_a_clean_run_is_an_empty_list(project: Path) -> None:
    completed = run("--format", "json", "clean.py", cwd=project)
    assert (completed.returncode, json.loads(completed.stdout)) == (0, [])


def test_exit_zero(project: Path) -> None:
    assert run("--exit-zero", "m.py", cwd=project).returncode == 0


@pytest.mark.parametrize(
    "args, message",
    [
        (["--no-such-flag", "m.py"], "unrecognized arguments: --no-such-flag"),
        (["--select", "XDV999", "m.py"], "XDV999"),
        (["--ignore", "NOPE", "m.py"], "NOPE"),
        (["--extend-select", "E501", "m.py"], "E501"),
        (["--format", "xml", "m.py"], "invalid choice: 'xml'"),
    ],
)
def test_usage_errors_exit_2(project: Path, args, message: str) -> None:
    completed = run(*args, cwd=project)
    assert completed.returncode == 2
    assert message in completed.stderr
    assert "Traceback" not in completed.stderr
    assert completed.stdout == ""


def test_bad_config_exits_2(project: Path) -> None:
    (project / "pyproject.toml").write_text('[tool.xdevlint]\nselect = ["XDV101"]\nfrobnicate = true\n')
    completed = run("m.py", cwd=project)
    assert completed.returncode == 2 and "frobnicate" in completed.stderr and "Traceback" not in completed.stderr


def test_unparsable_file_is_a_finding_not_a_usage_error(project: Path) -> None:
    """(A file the cheap scan rules out, with no move in it, is never parsed at all.)"""
    (project / "bad.py").write_text('import os, tempfile\ndef f(:\n    os.rename(tempfile.mktemp(), "/var/cache/x")\n')
    completed = run("bad.py", cwd=project)
    assert completed.returncode == 1
    assert "bad.py:2:7: XDV000 cannot parse: invalid syntax" in completed.stdout


def test_version(project: Path) -> None:
    completed = run("--version", cwd=project)
    assert (completed.returncode, completed.stdout.strip()) == (0, f"xdevlint {__version__}")


def test_rules_lists_every_code(project: Path) -> None:
    completed = run("rules", cwd=project)
    assert completed.returncode == 0
    listed = [line.split()[:2] for line in completed.stdout.splitlines()]
    engine = [[code, name] for code, name, *_ in registry.ENGINE_CODES]
    assert listed == sorted(engine + [[rule.CODE, rule.NAME] for rule in registry.ALL_RULES])
    assert listed[0] == ["XDV000", "analysis-error"]


def test_rules_with_options(project: Path) -> None:
    """`xdevlint rules --format json` lists the rules; it once checked a path named "rules"."""
    completed = run("rules", "--format", "json", "--select", "XDV2", cwd=project)
    assert completed.returncode == 0, completed.stderr
    listed = json.loads(completed.stdout)
    assert [entry["code"] for entry in listed] == ["XDV201", "XDV202", "XDV203"]
    assert listed[0]["name"] == "temp-not-cleaned-on-error" and listed[0]["summary"]
    assert run("rules", "--output-format", "json", cwd=project).stdout == run("rules", "--format", "json", cwd=project).stdout
    bad = run("rules", "--select", "NOPE", cwd=project)
    assert bad.returncode == 2 and "NOPE" in bad.stderr


def test_rule_all_as_json(project: Path) -> None:
    completed = run("rule", "--all", "--output-format", "json", cwd=project)
    assert completed.returncode == 0, completed.stderr
    entries = json.loads(completed.stdout)
    assert [e["code"] for e in entries] == list(registry.known_codes())
    by_code = {e["code"]: e for e in entries}
    assert by_code["XDV101"]["explanation"].startswith("# cross-mount-rename (XDV101)\n\n## What it does\n")
    assert by_code["XDV201"]["fix"] == registry.by_code("XDV201").FIX_TITLE
    one = json.loads(run("rule", "xdv202", "--output-format", "json", cwd=project).stdout)
    assert one == by_code["XDV202"]
    text = run("rule", "--all", cwd=project).stdout
    assert all(f"({code})\n" in text for code in registry.known_codes())
    assert run("rule", cwd=project).returncode == 2
    assert run("rule", "XDV101", "--all", cwd=project).returncode == 2


def test_xdv000_is_a_known_code(project: Path) -> None:
    explained = run("rule", "XDV000", cwd=project)
    assert explained.returncode == 0 and explained.stdout.startswith("# analysis-error (XDV000)\n")
    # it says plainly which files are never parsed
    assert "is not parsed, so its syntax errors are left to Python, flake8 or ruff" in " ".join(explained.stdout.split())
    (project / "bad.py").write_text('import os, tempfile\ndef f(:\n    os.rename(tempfile.mktemp(), "/var/cache/x")\n')
    assert [i["code"] for i in findings(run("--format", "json", "bad.py", cwd=project))] == ["XDV000"]
    # selecting other codes keeps it: a file that was not checked must not pass silently
    assert [i["code"] for i in findings(run("--format", "json", "--select", "XDV2", "bad.py", cwd=project))] == ["XDV000"]
    for option in ("--ignore", "--extend-ignore"):
        completed = run("--format", "json", option, "XDV000", "bad.py", cwd=project)
        assert completed.returncode == 0 and json.loads(completed.stdout) == []
    (project / "pyproject.toml").write_text('[tool.xdevlint]\nper-file-ignores = {"bad.py" = ["XDV000"]}\n')
    assert json.loads(run("--format", "json", "bad.py", cwd=project).stdout) == []
    # ...and an explicit select wins over a less specific ignore, as for every code
    completed = run("--format", "json", "--ignore", "XDV", "--select", "XDV000,XDV101", "--isolated", "bad.py", cwd=project)
    assert [i["code"] for i in findings(completed)] == ["XDV000"]


def test_check_command(project: Path) -> None:
    """`xdevlint check PATHS`, as ruff users type it; once, a file named "check" was checked."""
    assert run("check", "m.py", cwd=project).stdout == run("m.py", cwd=project).stdout
    completed = run("check", "--select", "XDV101", "--format", "json", cwd=project)
    assert [(i["path"], i["code"]) for i in findings(completed)] == [("m.py", "XDV101")]
    (project / "check").mkdir()
    (project / "check" / "n.py").write_text(SOURCE)
    completed = run("check", "check", "--format", "json", "--select", "XDV101", cwd=project)
    assert [i["path"] for i in findings(completed)] == ["check/n.py"]


def test_quiet_prints_findings_only(project: Path) -> None:
    for flag in ("-q", "--quiet"):
        completed = run(flag, "--select", "XDV101", "m.py", cwd=project)
        assert completed.returncode == 1, completed.stderr
        assert completed.stdout.startswith("m.py:6:15: XDV101 ") and "Found" not in completed.stdout
        clean = run(flag, "clean.py", cwd=project)
        assert (clean.returncode, clean.stdout, clean.stderr) == (0, "", "")
    (project / "empty").mkdir()
    assert run("-q", "empty", cwd=project).stderr == ""
    assert "No Python files" in run("empty", cwd=project).stderr


def test_concise_format(project: Path) -> None:
    completed = run("--output-format", "concise", "m.py", "clean.py", cwd=project)
    assert completed.returncode == 1
    lines = completed.stdout.splitlines()
    listed = [i for i in findings(run("--format", "json", "m.py", cwd=project))]
    assert lines[: len(listed)] == [
        f"{i['path']}:{i['line']}:{i['column']}: {i['code']}{' [*]' if i['fix'] and i['fix']['applicability'] == 'safe' else ''} "
        f"{i['message']}"
        for i in listed
    ]
    assert lines[len(listed)] == f"Found {len(listed)} finding{'s' if len(listed) != 1 else ''} in 1 file."
    assert run("--format", "concise", "-q", "m.py", cwd=project).stdout.splitlines() == lines[: len(listed)]


def test_color_option_and_environment(project: Path) -> None:
    def coloured(*args: str, env: Optional[Dict[str, str]] = None) -> bool:
        completed = run(*args, "--select", "XDV101", "m.py", cwd=project, env=env)
        assert "XDV101" in ANSI.sub("", completed.stdout)
        return bool(ANSI.search(completed.stdout))

    assert not coloured()  # a pipe
    assert coloured("--color", "always")
    assert coloured("--color", "always", env={"NO_COLOR": "1"})  # the option wins over the environment
    assert not coloured("--color", "never", env={"FORCE_COLOR": "1"})
    assert coloured(env={"FORCE_COLOR": "1"})
    assert not coloured(env={"FORCE_COLOR": "1", "NO_COLOR": "1"})
    assert coloured("--format", "concise", "--color", "always")
    assert not ANSI.search(_on_a_terminal(project, args=("--color", "never")))


def test_inline_config(project: Path) -> None:
    (project / "pyproject.toml").write_text('[tool.xdevlint]\nselect = ["XDV2"]\n')
    assert run("--format", "json", "m.py", cwd=project).stdout.strip() == "[]"
    completed = run("--format", "json", "--config", 'select = ["XDV101"]', "m.py", cwd=project)
    assert [i["code"] for i in findings(completed)] == ["XDV101"]
    # several settings, and a command-line option over an inline setting
    completed = run("--format", "json", "--config", 'select = ["XDV1"]', "--config", "extend-ignore = ['XDV102']",
                    "--select", "XDV2", "m.py", cwd=project)
    assert findings(completed) == []
    bad = run("--config", "frobnicate = 1", "m.py", cwd=project)
    assert bad.returncode == 2 and "--config: frobnicate: unknown key" in bad.stderr
    bad = run("--config", "select = [", "m.py", cwd=project)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    (project / "other.toml").write_text('select = ["XDV101"]\n')
    completed = run("--format", "json", "--config", "other.toml", "m.py", cwd=project)
    assert [i["code"] for i in findings(completed)] == ["XDV101"]


def test_extend_ignore(project: Path) -> None:
    every = [i["code"] for i in findings(run("--format", "json", "m.py", cwd=project))]
    assert "XDV101" in every
    kept = [i["code"] for i in findings(run("--format", "json", "--extend-ignore", "XDV101", "m.py", cwd=project))]
    assert kept == [code for code in every if code != "XDV101"]
    (project / "pyproject.toml").write_text('[tool.xdevlint]\nextend-ignore = ["XDV1"]\n')
    assert all(not i["code"].startswith("XDV1") for i in findings(run("--format", "json", "m.py", cwd=project)))


@pytest.mark.parametrize("name", ["xdevlint.toml", ".xdevlint.toml"])
def test_xdevlint_toml_is_found_beside_pyproject(project: Path, name: str) -> None:
    (project / "pyproject.toml").write_text('[tool.xdevlint]\nselect = ["XDV2"]\n')
    (project / "pkg").mkdir()
    (project / "pkg" / "m.py").write_text(SOURCE)
    (project / name).write_text('select = ["XDV101"]\n')  # wins over pyproject.toml in the same directory
    completed = run("--format", "json", "pkg/m.py", cwd=project)
    assert [i["code"] for i in findings(completed)] == ["XDV101"]
    (project / "pkg" / "pyproject.toml").write_text('[tool.xdevlint]\nselect = ["XDV2"]\n')  # the closest wins
    assert findings(run("--format", "json", "pkg/m.py", cwd=project)) == []
    (project / name).write_text("frobnicate = 1\n")
    bad = run("m.py", cwd=project)
    assert bad.returncode == 2 and name in bad.stderr and "frobnicate" in bad.stderr


@pytest.mark.parametrize("rule", registry.ALL_RULES, ids=lambda r: r.CODE)
def test_rule_prints_its_documentation(project: Path, rule) -> None:
    completed = run("rule", rule.CODE.lower(), cwd=project)
    assert completed.returncode == 0
    assert completed.stdout.startswith(f"# {rule.NAME} ({rule.CODE})\n")
    for heading, body in rule.documentation().items():
        assert f"## {heading}\n{body}\n" in completed.stdout


def test_unknown_rule_exits_2(project: Path) -> None:
    completed = run("rule", "NOPE", cwd=project)
    assert completed.returncode == 2 and "NOPE" in completed.stderr and completed.stdout == ""


def test_a_directory_named_rules_is_still_checked(project: Path) -> None:
    (project / "rules").mkdir()
    (project / "rules" / "m.py").write_text(SOURCE)
    completed = run("--select", "XDV101", "./rules", cwd=project)
    assert completed.returncode == 1 and "XDV101" in completed.stdout


def test_console_script_and_module_agree(project: Path) -> None:
    """``python -m xdevlint`` is what every test here runs; the installed script is the same."""
    script = Path(sys.executable).with_name("xdevlint")
    if not script.exists():
        pytest.skip("no console script beside this interpreter")
    by_script = subprocess.run([str(script), "--format", "json", "--select", "XDV101", "m.py"], cwd=project,
                               capture_output=True, text=True, timeout=120)
    by_module = run("--format", "json", "--select", "XDV101", "m.py", cwd=project)
    assert (by_script.returncode, json.loads(by_script.stdout)) == (by_module.returncode, json.loads(by_module.stdout))
