"""bench/ecosystem.py without the network: a wheel made here, real xdevlint runs over it,
and the findings and review files it reads and writes."""

from __future__ import annotations

import importlib.util
import platform
import re
import sys
import zipfile
from pathlib import Path
from types import ModuleType
from typing import Dict, List

import pytest

REPO = Path(__file__).resolve().parent.parent


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("ecosystem", REPO / "bench" / "ecosystem.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["ecosystem"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


eco = _load()

# A temp staged in /tmp and renamed into HF_HOME: the incident itself, flagged XDV101.
CROSS = '''\
import os
import tempfile


def store(data):
    fd, tmp = tempfile.mkstemp()
    os.write(fd, data)
    os.close(fd)
    os.rename(tmp, os.path.join(os.environ["HF_HOME"], "blob"))
'''


class Bench:
    """A corpus of one wheel, `demo==1.0`, and findings/review files of its own."""

    def __init__(self, tmp_path: Path, files: Dict[str, str]) -> None:
        self.corpus = tmp_path / "corpus"
        self.findings = tmp_path / "findings.txt"
        self.review = tmp_path / "review.md"
        (self.corpus / "dl").mkdir(parents=True)
        with zipfile.ZipFile(self.corpus / "dl" / "demo-1.0-py3-none-any.whl", "w") as wheel:
            wheel.writestr("demo/__init__.py", "")
            for name, text in files.items():
                wheel.writestr(f"demo/{name}", text)
        self.package = self.corpus / "src" / "demo-1.0" / "demo"

    def run(self, *options: str) -> int:
        return int(eco.main([
            "--corpus", str(self.corpus), "--pin", "demo==1.0", "--no-stdlib",
            "--findings", str(self.findings), "--review", str(self.review), *options,
        ]))

    def lines(self) -> List[str]:
        return self.findings.read_text(encoding="utf-8").splitlines()

    def rows(self) -> Dict[str, str]:
        """Review rows by key: `verdict | reason`."""
        return {
            key: f"{verdict.verdict} | {verdict.reason}"
            for key, verdict in eco.read_review(self.review).verdicts.items()
        }

    def judge(self, path_part: str, verdict: str, reason: str) -> None:
        """Fill the row(s) of findings in files whose path contains `path_part`, as a person would."""
        text = self.review.read_text(encoding="utf-8")
        text = re.sub(
            rf"^(\| `[^`]*{re.escape(path_part)}[^`]*` \|) unreviewed \|  \|$",
            lambda m: f"{m[1]} {verdict} | {reason} |", text, flags=re.M,
        )
        self.review.write_text(text, encoding="utf-8")


def test_a_run_writes_one_sorted_line_per_finding_relative_to_the_corpus(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bench = Bench(tmp_path, {"cross.py": CROSS, "again.py": CROSS})
    assert bench.run() == 0
    lines = bench.lines()
    assert lines[0] == f"# xdevlint ecosystem corpus, Python {platform.python_version()}: demo==1.0"
    findings = lines[1:]
    assert findings and all(re.fullmatch(r"src/demo-1\.0/demo/\w+\.py:\d+:\d+ XDV\d{3} \S.*", line) for line in findings)
    assert any(" XDV101 " in line for line in findings)
    assert findings == [f.render() for f in sorted(eco.parse_findings("\n".join(findings))[1])]
    assert findings[0].startswith("src/demo-1.0/demo/again.py:")  # files in name order
    assert str(tmp_path) not in bench.findings.read_text(encoding="utf-8")
    out = capsys.readouterr().out
    assert f"findings: 0 committed, {len(findings)} now (+{len(findings)} -0)" in out
    assert f"(a) {len(findings)} without a verdict" in out

    # The unpacked tree is reused: with the wheel gone (and no package of that name to
    # download), a second run still works and finds the same.
    (bench.corpus / "dl" / "demo-1.0-py3-none-any.whl").unlink()
    before = bench.findings.read_bytes()
    assert bench.run("--check") == 1  # unchanged, but nothing is reviewed yet
    assert "(+0 -0)" in capsys.readouterr().out
    assert bench.findings.read_bytes() == before


def test_check_prints_added_and_removed_findings_and_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bench = Bench(tmp_path, {"cross.py": CROSS})
    assert bench.run("--update-review") == 0
    committed = bench.findings.read_bytes()
    old = bench.lines()[1:]
    bench.judge("cross.py", "true", "a /tmp temp renamed into HF_HOME")
    (bench.package / "cross.py").rename(bench.package / "moved.py")
    capsys.readouterr()

    assert bench.run("--check") == 1
    out = capsys.readouterr().out
    assert bench.findings.read_bytes() == committed
    for line in old:
        assert f"- {line}\n      reviewed true: a /tmp temp renamed into HF_HOME" in out
        assert f"+ {line.replace('/cross.py:', '/moved.py:')}" in out
    assert f"findings: {len(old)} committed, {len(old)} now (+{len(old)} -{len(old)})" in out
    assert "XDV101: +1 -1 (removed: 1 true)" in out
    assert f"(b) {len(old)} verdicts whose finding disappeared" in out


def test_update_review_keeps_every_reason_adds_new_rows_and_drops_vanished_ones(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bench = Bench(tmp_path, {"cross.py": CROSS, "gone.py": CROSS})
    assert bench.run("--update-review") == 0
    assert set(bench.rows().values()) == {"unreviewed | "}
    bench.judge("cross.py", "true", r"renamed across mounts \| the incident")
    bench.judge("gone.py", "false", "a reason that must be printed when its row goes")
    kept = {key: row for key, row in bench.rows().items() if "/cross.py:" in key}
    assert kept and all(row == r"true | renamed across mounts \| the incident" for row in kept.values())

    (bench.package / "gone.py").unlink()
    (bench.package / "new.py").write_text(CROSS, encoding="utf-8")
    capsys.readouterr()
    assert bench.run("--update-review") == 0
    out = capsys.readouterr().out
    rows = bench.rows()
    assert {key: row for key, row in rows.items() if "/cross.py:" in key} == kept
    assert not any("/gone.py:" in key for key in rows)
    assert "dropped review row: `src/demo-1.0/demo/gone.py:" in out
    assert "| false | a reason that must be printed when its row goes" in out
    new = [row for key, row in rows.items() if "/new.py:" in key]
    assert new and set(new) == {"unreviewed | "}

    # The summary counts the verdicts: XDV101 has one true (cross.py) and one unreviewed (new.py).
    assert "| XDV101 | 2 | 1 | 0 | 0 | 1 | 100.0% | precision >= 90% | pending (1 unreviewed) |" in bench.review.read_text(encoding="utf-8")
    assert bench.run("--check") == 1
    bench.judge("new.py", "arguable", "the same code as cross.py")
    assert bench.run("--check") == 0  # every finding judged; the summary is only reported stale
    assert "out of date: run with --update-review" in capsys.readouterr().out
    assert bench.run("--update-review") == 0
    assert "| XDV101 | 2 | 1 | 1 | 0 | 0 | 100.0% | precision >= 90% | yes |" in bench.review.read_text(encoding="utf-8")
    assert bench.run("--check") == 0
    assert "out of date" not in capsys.readouterr().out


def test_hashseed_check_runs_twice_and_compares_every_message(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bench = Bench(tmp_path, {"cross.py": CROSS})
    assert bench.run("--hashseed-check") == 0
    out = capsys.readouterr().out
    assert "two runs, PYTHONHASHSEED 0 and 4242: the same findings, word for word" in out


def test_findings_lines_round_trip_and_the_diff_is_a_multiset_difference() -> None:
    a = eco.Finding("src/p-1/p/a.py", 10, 5, "XDV201", "`t` from `mkstemp()` is left behind: x:1:2 XDV101 y")
    b = eco.Finding("src/p-1/p/a.py", 9, 1, "XDV202", "swallowed")
    c = eco.Finding("src/p-1/p/a.py", 10, 5, "XDV201", "another message at the same place")
    text = eco.format_findings("# corpus", [a, b])
    assert text == "# corpus\n" + b.render() + "\n" + a.render() + "\n"  # line 9 before line 10
    assert eco.parse_findings(text) == ("# corpus", [b, a])
    changes = eco.diff([a, b, b], [b, c])
    assert changes.added == (c,) and changes.removed == (b, a)  # sorted, one b left over
    assert not eco.diff([a, b], [b, a])
    with pytest.raises(eco.EcosystemError, match=r"findings:2: not `path:LINE:COL CODE message`"):
        eco.parse_findings("# corpus\nsrc/a.py:1 XDV101 no column\n")


def test_the_diff_tells_a_reworded_message_from_a_finding_gained_or_lost(capsys: pytest.CaptureFixture[str]) -> None:
    kept = eco.Finding("src/p-1/p/a.py", 3, 5, "XDV201", "left behind when `f()` fails")
    reworded = eco.Finding("src/p-1/p/a.py", 3, 5, "XDV201", "left behind when `g()` fails")
    lost = eco.Finding("src/p-1/p/b.py", 7, 1, "XDV201", "left behind")
    gained = eco.Finding("src/p-1/p/c.py", 2, 9, "XDV202", "swallowed")
    verdicts = {
        kept.key: eco.Verdict(kept.key, "true", "leaks on a failed write"),
        lost.key: eco.Verdict(lost.key, "false", "a finally removes it"),
    }
    eco.print_diff("# corpus", "# corpus", 2, eco.diff([kept, lost], [reworded, gained]), verdicts)
    assert capsys.readouterr().out == (
        "findings: 2 committed, 2 now (+1 -1, 1 reworded)\n"
        "  XDV201: +0 -1, 1 reworded (removed: 1 false)\n"
        "  XDV202: +1 -0\n"
        f"- {kept.render()}\n"
        f"+ {reworded.render()}\n"
        "      reviewed true: leaks on a failed write\n"
        f"- {lost.render()}\n"
        "      reviewed false: a finally removes it\n"
        f"+ {gained.render()}\n"
    )


def test_review_rows_are_read_wherever_they_stand_and_only_a_verdict_with_a_reason_counts() -> None:
    review = eco.parse_review("""\
# anything

| finding | verdict | reason |
|---|---|---|
|  `src/a.py:1:1 XDV201`  |  TRUE  | removed on success \\| leaked on error  |
| `src/a.py:2:1 XDV201` | true |  |
| `src/a.py:3:1 XDV201` | maybe | a word that is no verdict |
text between tables
| `src/b.py:4:9 XDV202` | false | narrow handler |
| `src/b.py:4:9 XDV202` | true | a second row for one finding |
| XDV201 | 3 | 1 |
""")
    assert review.verdicts["src/a.py:1:1 XDV201"] == eco.Verdict(
        "src/a.py:1:1 XDV201", "true", "removed on success \\| leaked on error")
    assert review.verdicts["src/b.py:4:9 XDV202"].reason == "narrow handler"
    assert review.duplicates == ("src/b.py:4:9 XDV202",)
    assert [v.reviewed for v in review.verdicts.values()] == [True, False, False, True]
    findings = [eco.Finding("src/a.py", n, 1, "XDV201", "m") for n in (1, 2, 3)] + [eco.Finding("src/b.py", 4, 9, "XDV202", "m")]
    counts = eco.tally(findings, review.verdicts)
    assert counts["XDV201"] == eco.Tally(findings=3, true=1)
    assert counts["XDV201"].unreviewed == 2
    assert counts["XDV202"] == eco.Tally(findings=1, false=1)
    assert counts["XDV101"] == eco.Tally()  # every code with a target has a row, found or not


@pytest.mark.parametrize(
    "code, counts, precision, met",
    [
        ("XDV201", eco.Tally(20, 17, 1, 2), "90.0%", "yes"),  # 18 of 20 meets 90% exactly
        ("XDV201", eco.Tally(20, 17, 0, 3), "85.0%", "no"),
        ("XDV203", eco.Tally(10, 2, 7, 1), "90.0%", "yes"),  # arguable counts toward precision
        ("XDV202", eco.Tally(20, 18, 0, 2), "90.0%", "yes"),
        ("XDV202", eco.Tally(10, 4, 5, 1), "90.0%", "no"),  # more arguable than true
        ("XDV202", eco.Tally(10, 5, 5, 0), "100.0%", "yes"),
        ("XDV102", eco.Tally(10, 4, 6, 0), "100.0%", "no"),  # XDV102 too: true >= arguable
        ("XDV102", eco.Tally(10, 9, 0, 1), "90.0%", "yes"),
        ("XDV101", eco.Tally(3, 2, 0, 1), "66.7%", "no"),
        ("XDV103", eco.Tally(10, 5, 4, 1), "90.0%", "yes"),
        ("XDV201", eco.Tally(5, 4, 0, 0), "100.0%", "pending (1 unreviewed)"),
        ("XDV201", eco.Tally(5, 0, 0, 2), "0.0%", "no"),  # missed already, whatever the rest say
        ("XDV203", eco.Tally(2, 0, 0, 0), "n/a", "pending (2 unreviewed)"),
        ("XDV000", eco.Tally(3, 3, 0, 0), "100.0%", "n/a"),  # no target
    ],
)
def test_precision_and_targets(code: str, counts: object, precision: str, met: str) -> None:
    assert eco.percent(counts.precision) == precision  # type: ignore[attr-defined]
    assert eco.target_status(code, counts)[1] == met


def test_the_stdlib_copy_leaves_out_installed_packages_and_bytecode(tmp_path: Path) -> None:
    source = tmp_path / "lib"
    for name in ("os.py", "json/__init__.py", "json/__pycache__/x.pyc", "site-packages/numpy/__init__.py"):
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        (source / name).write_text("x = 1\n", encoding="utf-8")
    (tmp_path / "corpus").mkdir()
    eco.copy_stdlib(source, tmp_path / "corpus" / "stdlib-3.0.0")
    copied = sorted(p.relative_to(tmp_path / "corpus").as_posix() for p in (tmp_path / "corpus").rglob("*") if p.is_file())
    assert copied == ["stdlib-3.0.0/json/__init__.py", "stdlib-3.0.0/os.py"]


def test_a_downloaded_wheel_is_found_under_its_normalized_name(tmp_path: Path) -> None:
    for name in ("conda_package_handling-2.6.0-py3-none-any.whl", "conda_package_handling-2.6.1-py3-none-any.whl"):
        (tmp_path / name).touch()
    pin = eco.Pin.parse("conda-package-handling==2.6.0")
    assert eco.find_wheel(tmp_path, pin) == tmp_path / "conda_package_handling-2.6.0-py3-none-any.whl"
    assert eco.find_wheel(tmp_path, eco.Pin.parse("Conda.Package_Handling==2.6.1")) is not None
    assert eco.find_wheel(tmp_path, eco.Pin.parse("conda-package-handling==2.7")) is None
    assert pin.dirname == "conda_package_handling-2.6.0"
    with pytest.raises(eco.EcosystemError):
        eco.Pin.parse("conda-package-handling>=2")


def test_the_builtin_pins_are_the_corpus_the_committed_findings_describe() -> None:
    head, _ = eco.read_findings(eco.FINDINGS_FILE)
    assert head is not None
    assert head.split(": ", 1)[1] == ", ".join(sorted(eco.PINS) + ["stdlib"])


def test_the_committed_review_judges_every_committed_finding() -> None:
    head, findings = eco.read_findings(eco.FINDINGS_FILE)
    review = eco.read_review(eco.REVIEW_FILE)
    assert head is not None and findings
    keys = {f.key for f in findings}
    assert [f.render() for f in findings if not (f.key in review.verdicts and review.verdicts[f.key].reviewed)] == []
    assert sorted(set(review.verdicts) - keys) == []
    assert not review.duplicates
    assert review.text == eco.render_review(head, findings, review.verdicts)  # the summary is current


def test_the_check_half_is_apart_from_the_tuned_half_with_files_of_its_own() -> None:
    tuned = {eco.Pin.parse(spec).name for spec in eco.PINS}
    check = {eco.Pin.parse(spec).name for spec in eco.CHECK_PINS}
    assert len(check) >= 20 and not tuned & check
    assert {eco.CHECK_FINDINGS_FILE, eco.CHECK_REVIEW_FILE}.isdisjoint({eco.FINDINGS_FILE, eco.REVIEW_FILE})
    head, _ = eco.read_findings(eco.CHECK_FINDINGS_FILE)
    assert head is not None and head.split(": ", 1)[1] == ", ".join(sorted(eco.CHECK_PINS))


def test_every_held_out_set_is_apart_from_the_others_with_files_of_its_own() -> None:
    sets = {
        "tuned": (eco.PINS, eco.FINDINGS_FILE, eco.REVIEW_FILE),
        "check": (eco.CHECK_PINS, eco.CHECK_FINDINGS_FILE, eco.CHECK_REVIEW_FILE),
        "fresh": (eco.FRESH_PINS, eco.FRESH_FINDINGS_FILE, eco.FRESH_REVIEW_FILE),
        "late": (eco.LATE_PINS, eco.LATE_FINDINGS_FILE, eco.LATE_REVIEW_FILE),
        "final": (eco.FINAL_PINS, eco.FINAL_FINDINGS_FILE, eco.FINAL_REVIEW_FILE),
        "last": (eco.LAST_PINS, eco.LAST_FINDINGS_FILE, eco.LAST_REVIEW_FILE),
        "sixth": (eco.SIXTH_PINS, eco.SIXTH_FINDINGS_FILE, eco.SIXTH_REVIEW_FILE),
        "seventh": (eco.SEVENTH_PINS, eco.SEVENTH_FINDINGS_FILE, eco.SEVENTH_REVIEW_FILE),
        "eighth": (eco.EIGHTH_PINS, eco.EIGHTH_FINDINGS_FILE, eco.EIGHTH_REVIEW_FILE),
        "ninth": (eco.NINTH_PINS, eco.NINTH_FINDINGS_FILE, eco.NINTH_REVIEW_FILE),
        "tenth": (eco.TENTH_PINS, eco.TENTH_FINDINGS_FILE, eco.TENTH_REVIEW_FILE),
        "eleventh": (eco.ELEVENTH_PINS, eco.ELEVENTH_FINDINGS_FILE, eco.ELEVENTH_REVIEW_FILE),
        "twelfth": (eco.TWELFTH_PINS, eco.TWELFTH_FINDINGS_FILE, eco.TWELFTH_REVIEW_FILE),
        "thirteenth": (eco.THIRTEENTH_PINS, eco.THIRTEENTH_FINDINGS_FILE, eco.THIRTEENTH_REVIEW_FILE),
        "fourteenth": (eco.FOURTEENTH_PINS, eco.FOURTEENTH_FINDINGS_FILE, eco.FOURTEENTH_REVIEW_FILE),
        "fifteenth": (eco.FIFTEENTH_PINS, eco.FIFTEENTH_FINDINGS_FILE, eco.FIFTEENTH_REVIEW_FILE),
        "sixteenth": (eco.SIXTEENTH_PINS, eco.SIXTEENTH_FINDINGS_FILE, eco.SIXTEENTH_REVIEW_FILE),
        "seventeenth": (eco.SEVENTEENTH_PINS, eco.SEVENTEENTH_FINDINGS_FILE, eco.SEVENTEENTH_REVIEW_FILE),
        "eighteenth": (eco.EIGHTEENTH_PINS, eco.EIGHTEENTH_FINDINGS_FILE, eco.EIGHTEENTH_REVIEW_FILE),
        "nineteenth": (eco.NINETEENTH_PINS, eco.NINETEENTH_FINDINGS_FILE, eco.NINETEENTH_REVIEW_FILE),
        "twentieth": (eco.TWENTIETH_PINS, eco.TWENTIETH_FINDINGS_FILE, eco.TWENTIETH_REVIEW_FILE),
        "twenty-first": (eco.TWENTY_FIRST_PINS, eco.TWENTY_FIRST_FINDINGS_FILE, eco.TWENTY_FIRST_REVIEW_FILE),
        "twenty-second": (eco.TWENTY_SECOND_PINS, eco.TWENTY_SECOND_FINDINGS_FILE, eco.TWENTY_SECOND_REVIEW_FILE),
        "twenty-third": (eco.TWENTY_THIRD_PINS, eco.TWENTY_THIRD_FINDINGS_FILE, eco.TWENTY_THIRD_REVIEW_FILE),
        "twenty-fourth": (eco.TWENTY_FOURTH_PINS, eco.TWENTY_FOURTH_FINDINGS_FILE, eco.TWENTY_FOURTH_REVIEW_FILE),
        "twenty-fifth": (eco.TWENTY_FIFTH_PINS, eco.TWENTY_FIFTH_FINDINGS_FILE, eco.TWENTY_FIFTH_REVIEW_FILE),
        "twenty-sixth": (eco.TWENTY_SIXTH_PINS, eco.TWENTY_SIXTH_FINDINGS_FILE, eco.TWENTY_SIXTH_REVIEW_FILE),
        "twenty-seventh": (eco.TWENTY_SEVENTH_PINS, eco.TWENTY_SEVENTH_FINDINGS_FILE, eco.TWENTY_SEVENTH_REVIEW_FILE),
    }
    seen: dict = {}
    for half, (pins, findings_file, review_file) in sets.items():
        for spec in pins:
            name = eco.normalize(eco.Pin.parse(spec).name)
            assert name not in seen, f"{name} is in both {seen[name]} and {half}"
            seen[name] = half
        head, _ = eco.read_findings(findings_file)
        expected = sorted(pins) + (["stdlib"] if half == "tuned" else [])
        assert head is not None and head.split(": ", 1)[1] == ", ".join(expected), half
    files = [f for _, findings_file, review_file in sets.values() for f in (findings_file, review_file)]
    assert len(set(files)) == len(files)


def test_a_partial_corpus_does_not_overwrite_the_committed_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert eco.main(["--corpus", str(tmp_path / "corpus"), "--pin", "demo==1.0"]) == 2
    assert "give --findings and --review files of their own" in capsys.readouterr().err
    assert eco.main(["--corpus", str(tmp_path / "corpus"), "--half", "check", "--pin", "demo==1.0"]) == 2
    assert "give --findings and --review files of their own" in capsys.readouterr().err
    assert not (tmp_path / "corpus").exists()  # refused before fetching anything
