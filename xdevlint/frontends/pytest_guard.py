"""``pytest --xdevlint-guard``: the runtime guard's pytest side, loaded only when enabled.

It tells the recorder (:mod:`xdevlint.frontends.runtime_guard`) which test runs, which
fixture is being set up and when each ends; at the end of a test's teardown it asks which
of the test's temps are still there, and puts the test's findings on its teardown report
(``report.xdevlint_guard``: plain data, so they reach the terminal summary and the JSON
file through pytest-xdist's controller too). ``report`` lists them in a warning section
of the terminal summary; ``fail`` also turns the test's teardown into an error, as pytest
does for any failure found after a test's body (the other tests are untouched).
"""

from __future__ import annotations

import getpass
import json
import os
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Sequence, Set, Tuple

import pytest

from xdevlint import __version__
from xdevlint.analysis.locations import Locations
from xdevlint.config import ConfigError, ConfigResolver
from xdevlint.frontends import runtime_guard
from xdevlint.frontends.runtime_guard import Classifier, Frame, Frames, Leftover, Move, Recorder, Side

#: The ``schema`` of the JSON report; docs/guard-report.schema.json describes it.
SCHEMA = "xdevlint-guard/1"
#: Paths listed per finding of temps left behind (``count`` has them all).
PATHS_SHOWN = 20

Finding = Dict[str, Any]


def start(config: pytest.Config, mode: str, json_path: Optional[str]) -> None:
    """Load the project's ``[tool.xdevlint]``, switch the hook on and register the plugin."""
    try:
        project = ConfigResolver().for_directory(str(config.rootpath))
    except ConfigError as error:
        raise pytest.UsageError(f"xdevlint guard: {error}") from None
    recorder = Recorder(
        Classifier(project.locations),
        Frames(runtime_guard.library_directories(_package_directories())),
        project.move_function,
        fixture_roots=_fixture_roots(config),
        fixture_names=(f"pytest-of-{_user()}",),
    )
    plugin = GuardPlugin(config, mode, json_path, recorder, project.locations, project.source)
    config.pluginmanager.register(plugin, "xdevlint-guard")


def _package_directories() -> List[str]:
    """pytest's and pluggy's own code, wherever they are installed."""
    import _pytest
    import pluggy

    return [os.path.dirname(pytest.__file__), os.path.dirname(_pytest.__file__), os.path.dirname(pluggy.__file__)]


def _user() -> str:
    """The name pytest puts in its base temp directory (``pytest-of-USER``)."""
    try:
        return getpass.getuser()
    except (ImportError, OSError, KeyError):
        return "unknown"


def _fixture_roots(config: pytest.Config) -> List[str]:
    """pytest's base temp directory where it is not ``pytest-of-USER`` under a temp root."""
    roots = []
    if config.option.basetemp:
        roots.append(os.path.abspath(config.option.basetemp))
    debug_root = os.environ.get("PYTEST_DEBUG_TEMPROOT")
    if debug_root:
        roots.append(os.path.join(os.path.abspath(debug_root), f"pytest-of-{_user()}"))
    return roots


class GuardPlugin:
    """The guard's pytest hooks, registered only when it is on: a run without it calls none."""

    def __init__(
        self, config: pytest.Config, mode: str, json_path: Optional[str], recorder: Recorder,
        locations: Locations, source: Optional[Path],
    ) -> None:
        self.config = config
        self.mode = mode
        self.json_path = os.path.join(config.invocation_params.dir, json_path) if json_path else None
        self.recorder = recorder
        self.locations = locations
        self.source = source
        self.findings: List[Finding] = []  # from every test's report, in the order they ended
        self.tests_with_findings: Set[str] = set()
        self._failed: Set[str] = set()  # tests whose setup or call already failed
        self._pending: Dict[Optional[str], List[Leftover]] = {}  # fixtures' leftovers, by the test tearing them down
        self._previous: Optional[Recorder] = None
        # What the hook watched, summed from the reports (a worker's counts travel on them).
        self.counts = {"moves_watched": 0, "temps_watched": 0, "temps_not_tracked": 0, "internal_errors": 0}
        self.first_error: Optional[str] = None
        self._sent = {key: 0 for key in self.counts}
        self._shown: Set[int] = set()  # findings already shown as a test's error (fail mode)

    # -- switching the hook on and off --

    def pytest_sessionstart(self, session: pytest.Session) -> None:
        self._previous = runtime_guard.activate(self.recorder)

    def pytest_unconfigure(self, config: pytest.Config) -> None:
        runtime_guard.activate(self._previous)

    def pytest_report_header(self, config: pytest.Config) -> str:
        names = ", ".join(location.name for location in self.locations.locations)
        where = f" from {self.source}" if self.source else ""
        return (
            f"xdevlint guard: {self.mode}; locations {names}{where}; "
            f"moves through {runtime_guard.SAFE_MOVE} and {self.recorder.move_function} are not reported"
        )

    # -- which test, which phase, which fixture --

    @pytest.hookimpl(hookwrapper=True, tryfirst=True)
    def pytest_runtest_protocol(self, item: pytest.Item, nextitem: Optional[pytest.Item]) -> Iterator[None]:
        self.recorder.begin(item.nodeid)
        yield

    @pytest.hookimpl(hookwrapper=True, tryfirst=True)
    def pytest_runtest_call(self, item: pytest.Item) -> Iterator[None]:
        self.recorder.set_phase("call")
        yield

    @pytest.hookimpl(hookwrapper=True, tryfirst=True)
    def pytest_runtest_teardown(self, item: pytest.Item, nextitem: Optional[pytest.Item]) -> Iterator[None]:
        self.recorder.set_phase("teardown")
        yield

    @pytest.hookimpl(hookwrapper=True, tryfirst=True)
    def pytest_fixture_setup(self, fixturedef: Any, request: Any) -> Iterator[None]:
        # A fixture of a wider scope owns what it makes: judged when it is torn down.
        owner = fixturedef if fixturedef.scope != "function" else None
        self.recorder.enter_fixture(fixturedef.argname, owner)
        try:
            yield
        finally:
            self.recorder.leave_fixture()

    def pytest_fixture_post_finalizer(self, fixturedef: Any, request: Any) -> None:
        if fixturedef.scope != "function":
            leftovers = self.recorder.end_owner(fixturedef)
            if leftovers:
                self._pending.setdefault(self.recorder.test, []).extend(leftovers)

    # -- a test's findings, on its teardown report --

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
        outcome = yield
        report: pytest.TestReport = outcome.get_result()  # type: ignore[attr-defined]
        if report.when != "teardown":
            if report.failed:
                self._failed.add(item.nodeid)
            return
        moves, leftovers = self.recorder.end(item.nodeid)
        leftovers += self._pending.pop(item.nodeid, [])
        findings = [move_finding(m) for m in moves] + leftover_findings(leftovers)
        failed_before = item.nodeid in self._failed
        self._failed.discard(item.nodeid)
        counts = self._counts_since_sent()
        if counts:
            report.xdevlint_guard_counts = counts  # type: ignore[attr-defined]
        if not findings:
            return
        report.xdevlint_guard = findings  # type: ignore[attr-defined]
        if self.mode == "fail" and report.passed and not failed_before:
            report.outcome = "failed"
            report.longrepr = GuardRepr(findings, self.config)  # type: ignore[assignment]
            report.xdevlint_guard_failed = True  # type: ignore[attr-defined]

    def _counts_since_sent(self) -> Dict[str, Any]:
        """The recorder's counts since the last report carried them (none when nothing moved)."""
        recorder = self.recorder
        now = {"moves_watched": recorder.moves_seen, "temps_watched": recorder.temps_seen,
               "temps_not_tracked": recorder.dropped, "internal_errors": recorder.errors}
        delta: Dict[str, Any] = {key: now[key] - self._sent[key] for key in now if now[key] != self._sent[key]}
        self._sent = now
        if delta.get("internal_errors"):
            delta["first_internal_error"] = recorder.first_error
        return delta

    def _add_counts(self, counts: Dict[str, Any]) -> None:
        for key in self.counts:
            self.counts[key] += counts.get(key, 0)
        if self.first_error is None:
            self.first_error = counts.get("first_internal_error")

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        counts = getattr(report, "xdevlint_guard_counts", None)
        if counts:
            self._add_counts(counts)
        findings = getattr(report, "xdevlint_guard", None)
        if findings:
            self.findings.extend(findings)
            self.tests_with_findings.add(report.nodeid)
            if getattr(report, "xdevlint_guard_failed", False):
                self._shown.update(id(finding) for finding in findings)

    # -- the end: what no test claimed, the JSON file --

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        # After pytest's own sessionfinish has torn down what the last test left set up.
        moves, leftovers = self.recorder.finish()
        for pending in self._pending.values():
            leftovers += pending
        self._pending.clear()
        self.findings.extend([move_finding(m) for m in moves] + leftover_findings(leftovers))
        self._add_counts(self._counts_since_sent())
        if self.json_path and not hasattr(self.config, "workerinput"):
            write_json(self.json_path, self.document())

    def document(self) -> Dict[str, Any]:
        moves = [f for f in self.findings if f["kind"] == "move"]
        left = [f for f in self.findings if f["kind"] == "left_behind"]
        return {
            "schema": SCHEMA,
            "xdevlint": __version__,
            "mode": self.mode,
            "configuration": str(self.source) if self.source else None,
            "move_function": self.recorder.move_function,
            "summary": {
                "moves": sum(f["count"] for f in moves),
                "left_behind": sum(f["count"] for f in left),
                "tests": len(self.tests_with_findings),
                **self.counts,
                "first_internal_error": self.first_error,
            },
            "findings": self.findings,
        }

    def pytest_terminal_summary(self, terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
        if hasattr(config, "workerinput"):
            return
        write = terminalreporter.write_line
        listed = [finding for finding in self.findings if id(finding) not in self._shown]
        if listed:
            terminalreporter.write_sep("=", "xdevlint guard", yellow=True, bold=True)
            for line in render(listed, config):
                write(line)
        document = self.document()
        summary = document["summary"]
        parts = []
        if summary["moves"]:
            parts.append(_plural(summary["moves"], "move") + " between locations")
        if summary["left_behind"]:
            parts.append(_plural(summary["left_behind"], "temp") + " left behind")
        if parts:
            where = f" in {_plural(summary['tests'], 'test')}" if summary["tests"] else ""
            hint = " (--xdevlint-guard=fail fails them)" if self.mode == "report" else ""
            text = f"xdevlint guard: {' and '.join(parts)}{where}{hint}"
        else:
            text = f"xdevlint guard: no moves between locations, no temps left behind ({summary['moves_watched']} moves, {summary['temps_watched']} temps watched)"
        write(text, yellow=bool(parts))
        if summary["internal_errors"]:
            errors = _plural(summary["internal_errors"], "error")
            write(f"xdevlint guard: {errors} inside the hook, ignored (first: {summary['first_internal_error']})", red=True)
        if summary["temps_not_tracked"]:
            write(f"xdevlint guard: {summary['temps_not_tracked']} temps not tracked (over {runtime_guard.TEMP_LIMIT} in one test)", yellow=True)
        if self.json_path:
            write(f"xdevlint guard: report written to {self.json_path}")


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


# -- findings as data ----------------------------------------------------------------


def _frame(frame: Optional[Frame]) -> Optional[Dict[str, Any]]:
    if frame is None:
        return None
    return {"path": frame.path, "line": frame.line, "function": frame.function, "code": frame.code()}


def _side(side: Side) -> Dict[str, Any]:
    device = None if side.device is None else f"{os.major(side.device)}:{os.minor(side.device)}"
    return {
        "path": side.path,
        "location": side.location,
        "root": side.root.path if side.root else None,
        "named_by": side.root.named_by if side.root else None,
        "device": device,
    }


def move_finding(move: Move) -> Finding:
    return {
        "kind": "move",
        "test": move.test,
        "phase": move.phase,
        "fixture": move.fixture,
        "event": move.event,
        "frame": _frame(move.frame),
        "source": _side(move.source),
        "destination": _side(move.destination),
        "different_locations": move.different_locations,
        "different_devices": move.different_devices,
        "staged_at": _frame(move.staged_at),
        "count": move.count,
    }


def leftover_findings(leftovers: Sequence[Leftover]) -> List[Finding]:
    """One finding per test, call site and kind of temp, with its paths."""
    grouped: Dict[Tuple[object, ...], List[Leftover]] = {}
    for leftover in leftovers:
        temp = leftover.temp
        key = (temp.context.test, temp.context.phase, temp.context.fixture, temp.frame, temp.event, temp.directory)
        grouped.setdefault(key, []).append(leftover)
    findings = []
    for group in grouped.values():
        first = group[0].temp
        findings.append({
            "kind": "left_behind",
            "test": first.context.test,
            "phase": first.context.phase,
            "fixture": first.context.fixture,
            "event": first.event,
            "frame": _frame(first.frame),
            "type": "directory" if first.directory else "file",
            "location": first.location,
            "paths": [leftover.temp.path for leftover in group[:PATHS_SHOWN]],
            "count": len(group),
            "inside": sum(leftover.inside for leftover in group),
            "moved": {"event": first.moved[0], "destination": first.moved[1]} if first.moved else None,
            "removed": first.removed,
        })
    return findings


def write_json(path: str, document: Dict[str, Any]) -> None:
    """Atomically, as xdevlint writes every file: a temp beside it, then ``os.replace``."""
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    staged = f"{path}.{os.getpid()}.tmp"
    try:
        with open(staged, "w", encoding="utf-8") as handle:
            json.dump(document, handle, indent=2)
            handle.write("\n")
        os.replace(staged, path)
    except BaseException:
        if os.path.lexists(staged):
            os.unlink(staged)
        raise


# -- findings as text ------------------------------------------------------------------


def _where(frame: Optional[Dict[str, Any]], config: pytest.Config) -> str:
    if frame is None:
        return "?"
    path = frame["path"]
    try:
        relative = os.path.relpath(path, config.rootpath)
        if not relative.startswith(".."):
            path = relative
    except ValueError:
        pass
    return f"{path}:{frame['line']} in {frame['function']}"


def _during(finding: Finding) -> str:
    fixture = f" of fixture {finding['fixture']}" if finding["fixture"] else ""
    return {"setup": "setup", "call": "the test", "teardown": "teardown"}.get(finding["phase"], finding["phase"] or "the session") + fixture


def _place(side: Dict[str, Any]) -> str:
    if side["location"] is None:
        return "no configured location"
    return f"{side['location']} ({side['named_by']}: {side['root']})"


def render(findings: Sequence[Finding], config: pytest.Config) -> List[str]:
    lines: List[str] = []
    by_test: Dict[str, List[Finding]] = {}
    for finding in findings:
        by_test.setdefault(finding["test"] or "(session)", []).append(finding)
    for test, group in by_test.items():
        lines.append(test)
        for finding in group:
            lines.extend("  " + line for line in render_one(finding, config))
    return lines


def render_one(finding: Finding, config: pytest.Config) -> List[str]:
    frame = finding["frame"]
    code = [f"    {frame['code']}"] if frame and frame["code"] else []
    times = f" ({finding['count']} times)" if finding["count"] > 1 else ""
    if finding["kind"] == "move":
        source, destination = finding["source"], finding["destination"]
        lines = [f"move between locations by {finding['event']} at {_where(frame, config)}, during {_during(finding)}{times}", *code]
        lines.append(f"  from {source['path']}")
        lines.append(f"       in {_place(source)}, device {source['device']}")
        lines.append(f"  to   {destination['path']}")
        lines.append(f"       in {_place(destination)}, device {destination['device']}")
        if finding["staged_at"]:
            lines.append(f"  the source is a temp made at {_where(finding['staged_at'], config)}")
        if finding["different_devices"]:
            lines.append("  different filesystems on this machine: the rename fails with EXDEV here")
        else:
            lines.append(
                f"  one filesystem here, but {source['location'] or 'elsewhere'} and {destination['location'] or 'elsewhere'} "
                "may be mounted apart where this runs: the rename then fails with EXDEV"
            )
        lines.append(f"  stage beside the destination (mkstemp(dir=...)) or move with {runtime_guard.SAFE_MOVE}")
        return lines
    count = finding["count"]
    what = f"{finding['type']}" if count == 1 else f"{count} {finding['type']}s"
    lines = [f"{what} left behind, made by {finding['event']} at {_where(frame, config)}, during {_during(finding)}", *code]
    shown = finding["paths"]
    for path in shown:
        lines.append(f"  {path}")
    if count > len(shown):
        lines.append(f"  ... and {count - len(shown)} more")
    if finding["inside"]:
        lines.append(f"  with {_plural(finding['inside'], 'other temp')} of the test inside")
    if finding["moved"]:
        lines.append(f"  {finding['moved']['event']} of it to {finding['moved']['destination']} was tried; it is still here")
    if finding["removed"]:
        lines.append(f"  {finding['removed']} of it was tried; it is still here")
    return lines


class GuardRepr:
    """The failure of a test's teardown under ``--xdevlint-guard=fail``: the findings,
    with the short message pytest's summary line shows."""

    def __init__(self, findings: Sequence[Finding], config: pytest.Config) -> None:
        self.lines = [line for finding in findings for line in render_one(finding, config)]
        moves = sum(f["count"] for f in findings if f["kind"] == "move")
        left = sum(f["count"] for f in findings if f["kind"] == "left_behind")
        parts = ([_plural(moves, "move") + " between locations"] if moves else []) + ([_plural(left, "temp") + " left behind"] if left else [])
        self.reprcrash = _Crash(f"xdevlint guard: {' and '.join(parts)}")

    def toterminal(self, tw: Any) -> None:
        for line in self.lines:
            tw.line(line)
        tw.line(self.reprcrash.message, red=True)

    def __str__(self) -> str:
        return "\n".join([*self.lines, self.reprcrash.message])


class _Crash:
    def __init__(self, message: str) -> None:
        self.message = message
