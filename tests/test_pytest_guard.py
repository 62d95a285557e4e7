"""``pytest --xdevlint-guard``, through real pytest runs of a sample project (a subprocess
each): a move between locations and a temp left behind are reported with the user's frame;
staging beside the destination, cleaning up, ``safe_move`` and the configured move
function are not; ``=fail`` fails those tests and only those; the ini option; the JSON
file against its schema; temp and cache on truly different filesystems (the real EXDEV);
a failure inside the hook never reaches the user's code; without the option nothing is
hooked."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
import uuid
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, Optional

import pytest

from tests.process import REPO

SHARDS = textwrap.dedent(
    '''\
    import os
    import shutil
    import tempfile

    from xdevlint.safemove import safe_move


    def cache_dir():
        path = os.path.join(os.environ["XDG_CACHE_HOME"], "shards")
        os.makedirs(path, exist_ok=True)
        return path


    def publish_through_tmp(data, name):
        fd, tmp = tempfile.mkstemp(suffix=".part")  # STAGED
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, os.path.join(cache_dir(), name))  # MOVE


    def publish_beside(data, name):
        dest = os.path.join(cache_dir(), name)
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(dest), suffix=".part")
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, dest)


    def publish_checked(data, name):
        fd, tmp = tempfile.mkstemp(suffix=".part")  # LEAK
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        if not data:
            raise ValueError("empty shard")
        safe_move(tmp, os.path.join(cache_dir(), name))


    def publish_checked_clean(data, name):
        fd, tmp = tempfile.mkstemp(suffix=".part")
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
            if not data:
                raise ValueError("empty shard")
            safe_move(tmp, os.path.join(cache_dir(), name))
        except BaseException:
            os.unlink(tmp)
            raise


    def move_into_cache(src, name):
        """The project's configured move function: its moves are its own business."""
        os.replace(src, os.path.join(cache_dir(), name))


    def publish_through_configured(data, name):
        fd, tmp = tempfile.mkstemp()
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        move_into_cache(tmp, name)


    def archive_scratch(name):
        src = os.path.join(os.environ["SCRATCH_DIR"], name)
        with open(src, "wb") as handle:
            handle.write(b"x")
        shutil.move(src, os.path.join(cache_dir(), name))  # SHUTIL
    '''
)
CONFTEST = textwrap.dedent(
    '''\
    import os
    import shutil
    import sys
    import tempfile

    import pytest

    ADDED_HOOKS = []
    sys.addaudithook(lambda event, args: ADDED_HOOKS.append(event) if event == "sys.addaudithook" else None)


    @pytest.fixture(autouse=True)
    def homes(tmp_path, monkeypatch):
        cache = os.environ.get("SAMPLE_CACHE") or str(tmp_path / "cache")
        monkeypatch.setenv("XDG_CACHE_HOME", cache)
        monkeypatch.setenv("SCRATCH_DIR", str(tmp_path / "scratch"))
        os.makedirs(tmp_path / "scratch")


    @pytest.fixture(scope="session")
    def session_workdir():
        directory = tempfile.mkdtemp(prefix="session-")
        yield directory
        shutil.rmtree(directory)


    @pytest.fixture(scope="module")
    def module_leak():
        return tempfile.mkdtemp(prefix="module-leak-")  # FIXTURE LEAK
    '''
)
TESTS = textwrap.dedent(
    '''\
    import os
    import sys

    import pytest

    import shards


    def test_through_tmp():
        shards.publish_through_tmp(b"x", "a")


    def test_beside():
        shards.publish_beside(b"x", "b")


    def test_leak_on_error():
        with pytest.raises(ValueError):
            shards.publish_checked(b"", "c")


    def test_clean_on_error():
        with pytest.raises(ValueError):
            shards.publish_checked_clean(b"", "d")


    def test_safe_move():
        shards.publish_checked(b"x", "e")


    def test_named_temporary_file():
        import tempfile

        with tempfile.NamedTemporaryFile() as handle:
            handle.write(b"x")


    def test_configured_move_function():
        shards.publish_through_configured(b"x", "f")


    def test_scratch_to_cache():
        shards.archive_scratch("g")


    def test_session_fixture_cleans_up(session_workdir):
        with open(os.path.join(session_workdir, "w"), "wb") as handle:
            handle.write(b"x")


    def test_module_fixture_leaks(module_leak):
        assert os.path.isdir(module_leak)


    def test_hooks_added():
        import conftest

        print("HOOKS", len(conftest.ADDED_HOOKS), "GUARD" if "xdevlint.frontends.runtime_guard" in sys.modules else "NOGUARD")
    '''
)
PYPROJECT = textwrap.dedent(
    '''\
    [tool.xdevlint]
    move-function = "shards.move_into_cache"

    [tool.xdevlint.locations.scratch]
    env = ["SCRATCH_DIR"]
    '''
)

#: The tests of TESTS the guard must report (the rest must stay silent).
REPORTED = {"test_through_tmp", "test_leak_on_error", "test_scratch_to_cache", "test_module_fixture_leaks"}


def line_of(marker: str, text: str = SHARDS) -> int:
    return next(number for number, line in enumerate(text.splitlines(), 1) if line.rstrip().endswith(f"# {marker}"))


@pytest.fixture
def sample(tmp_path: Path) -> Path:
    project = tmp_path / "sample"
    project.mkdir()
    (project / "shards.py").write_text(SHARDS)
    (project / "conftest.py").write_text(CONFTEST)
    (project / "test_shards.py").write_text(TESTS)
    (project / "pyproject.toml").write_text(PYPROJECT)
    (tmp_path / "tmp").mkdir()
    return project


def run_pytest(project: Path, *args: str, env: Optional[Dict[str, str]] = None) -> subprocess.CompletedProcess[str]:
    """pytest on the sample, its temp directory (TMPDIR) inside the test's own tmp_path."""
    environment = dict(os.environ, PYTHONPATH=f"{REPO}{os.pathsep}{project}", TMPDIR=str(project.parent / "tmp"))
    for name in ("PYTEST_ADDOPTS", "XDG_CACHE_HOME", "SAMPLE_CACHE"):
        environment.pop(name, None)
    environment.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:randomly", "-s", *args],
        cwd=project, env=environment, capture_output=True, text=True, timeout=300, check=False,
    )


def report(project: Path, *args: str, env: Optional[Dict[str, str]] = None) -> Dict[str, Any]:
    path = project.parent / f"guard-{uuid.uuid4().hex[:8]}.json"
    done = run_pytest(project, f"--xdevlint-guard-json={path}", *args, env=env)
    assert "Traceback" not in done.stderr, done.stderr
    document: Dict[str, Any] = json.loads(path.read_text())
    document["_run"] = done
    return document


def by_test(document: Dict[str, Any]) -> Dict[str, List[Dict[str, Any]]]:
    found: Dict[str, List[Dict[str, Any]]] = {}
    for finding in document["findings"]:
        found.setdefault(finding["test"].rpartition("::")[2], []).append(finding)
    return found


def test_report_names_the_move_the_leak_and_nothing_else(sample: Path) -> None:
    document = report(sample, "--xdevlint-guard")
    done = document["_run"]
    assert done.returncode == 0, done.stdout + done.stderr
    assert "11 passed" in done.stdout
    found = by_test(document)
    assert set(found) == REPORTED, json.dumps(document["findings"], indent=1)
    shards = str(sample / "shards.py")

    (move,) = found["test_through_tmp"]
    assert move["kind"] == "move" and move["event"] == "os.rename" and move["phase"] == "call"
    assert move["frame"] == {
        "path": shards, "line": line_of("MOVE"), "function": "publish_through_tmp",
        "code": "os.replace(tmp, os.path.join(cache_dir(), name))  # MOVE",
    }
    assert move["source"]["location"] == "temp" and move["source"]["root"] == str(sample.parent / "tmp")
    assert move["destination"]["location"] == "cache" and move["destination"]["named_by"] == "$XDG_CACHE_HOME"
    assert move["destination"]["path"].endswith("/cache/shards/a")
    assert move["different_locations"] and not move["different_devices"]  # one disk here
    assert move["staged_at"]["line"] == line_of("STAGED")

    (leak,) = found["test_leak_on_error"]
    assert leak["kind"] == "left_behind" and leak["event"] == "tempfile.mkstemp" and leak["type"] == "file"
    assert (leak["frame"]["path"], leak["frame"]["line"], leak["frame"]["function"]) == (shards, line_of("LEAK"), "publish_checked")
    assert leak["count"] == 1 and leak["location"] == "temp"
    (path,) = leak["paths"]
    assert os.path.isfile(path) and path.startswith(str(sample.parent / "tmp")) and path.endswith(".part")

    # A user's location, and shutil.move judged on its own (the configured function is another).
    (scratch,) = found["test_scratch_to_cache"]
    assert scratch["event"] == "shutil.move" and scratch["frame"]["line"] == line_of("SHUTIL")
    assert (scratch["source"]["location"], scratch["destination"]["location"]) == ("scratch", "cache")
    assert scratch["source"]["named_by"] == "$SCRATCH_DIR"

    # A module-scoped fixture's temp is judged when the fixture is torn down, and named.
    (fixture,) = found["test_module_fixture_leaks"]
    assert fixture["kind"] == "left_behind" and fixture["fixture"] == "module_leak" and fixture["phase"] == "setup"
    assert fixture["type"] == "directory" and fixture["frame"]["path"] == str(sample / "conftest.py")

    # The terminal: a warning section naming the test, the frame and the code.
    section = done.stdout[done.stdout.index("xdevlint guard ="):]
    assert "test_shards.py::test_through_tmp" in section
    assert f"by os.rename at shards.py:{line_of('MOVE')} in publish_through_tmp" in section
    assert f"made by tempfile.mkstemp at shards.py:{line_of('LEAK')} in publish_checked" in section
    assert "xdevlint guard: 2 moves between locations and 2 temps left behind in 4 tests" in done.stdout
    assert document["summary"]["moves"] == 2 and document["summary"]["left_behind"] == 2
    assert document["summary"]["internal_errors"] == 0


def test_fail_fails_those_tests_and_only_those(sample: Path) -> None:
    done = run_pytest(sample, "--xdevlint-guard=fail", "-rA")
    assert done.returncode == 1, done.stdout + done.stderr
    errors = set(re.findall(r"^ERROR test_shards.py::(\w+) - xdevlint guard: ", done.stdout, re.M))
    # A module fixture's leak is found when the module's last test tears it down: that
    # teardown fails, as it would for an error in the fixture's own teardown.
    assert errors == REPORTED - {"test_module_fixture_leaks"} | {"test_hooks_added"}, done.stdout
    passed = set(re.findall(r"^PASSED test_shards.py::(\w+)", done.stdout, re.M))
    assert len(passed) == 11  # every test's own body passed
    assert "11 passed, 4 errors" in done.stdout
    assert "ERROR at teardown of test_through_tmp" in done.stdout


def test_ini_option_turns_it_on_and_the_command_line_off(sample: Path) -> None:
    (sample / "pyproject.toml").write_text(PYPROJECT + '\n[tool.pytest.ini_options]\nxdevlint_guard = "fail"\n')
    done = run_pytest(sample)
    assert done.returncode == 1 and "11 passed, 4 errors" in done.stdout, done.stdout
    done = run_pytest(sample, "--xdevlint-guard=off")
    assert done.returncode == 0 and "xdevlint guard" not in done.stdout, done.stdout
    (sample / "pyproject.toml").write_text(PYPROJECT + '\n[tool.pytest.ini_options]\nxdevlint_guard = true\n')
    done = run_pytest(sample)
    assert done.returncode == 0 and "2 moves between locations and 2 temps left behind" in done.stdout, done.stdout
    (sample / "pyproject.toml").write_text(PYPROJECT + '\n[tool.pytest.ini_options]\nxdevlint_guard = "maybe"\n')
    done = run_pytest(sample)
    assert done.returncode == 4 and "xdevlint_guard = 'maybe' in the ini options: expected true, fail or false" in done.stderr


def test_a_bad_configuration_is_a_usage_error(sample: Path) -> None:
    (sample / "pyproject.toml").write_text("[tool.xdevlint]\nmove-functoin = 'x.y'\n")
    done = run_pytest(sample, "--xdevlint-guard")
    assert done.returncode == 4, done.stdout + done.stderr
    assert f"xdevlint guard: {sample / 'pyproject.toml'}: move-functoin: unknown key" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_json_file_follows_its_schema(sample: Path) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((REPO / "docs" / "guard-report.schema.json").read_text())
    document = report(sample, "--xdevlint-guard=fail")
    del document["_run"]
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.Draft202012Validator(schema).validate(document)
    assert document["schema"] == "xdevlint-guard/1" and document["mode"] == "fail"
    assert document["configuration"] == str(sample / "pyproject.toml")
    assert document["move_function"] == "shards.move_into_cache"
    # The schema can fail: a finding without its frame does not pass.
    broken = json.loads(json.dumps(document))
    del broken["findings"][0]["frame"]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(schema).validate(broken)


def test_without_the_option_nothing_is_hooked_or_reported(sample: Path) -> None:
    done = run_pytest(sample, "-k", "hooks_added")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "HOOKS 0 NOGUARD" in done.stdout  # no audit hook added after the conftest's, no guard imported
    assert "xdevlint guard" not in done.stdout
    done = run_pytest(sample, "-k", "hooks_added", "--xdevlint-guard")
    assert "HOOKS 1 GUARD" in done.stdout, done.stdout  # the probe sees the guard's hook when there is one


def test_loading_the_plugin_imports_nothing_heavy() -> None:
    probe = (
        "import sys, xdevlint.frontends.pytest_plugin; "
        "print(sorted(m for m in sys.modules if m.startswith(('libcst', 'xdevlint.config', 'xdevlint.frontends.runtime_guard', "
        "'xdevlint.frontends.pytest_guard', 'xdevlint.registry', 'xdevlint.analysis'))))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, env=dict(os.environ, PYTHONPATH=str(REPO)))
    assert done.stdout.strip() == "[]"


def test_a_failure_inside_the_hook_never_reaches_the_test(sample: Path) -> None:
    """The hook asks ``os.stat`` for a move's directories: the test makes that raise an
    error the hook does not expect; the user's rename goes on, the report counts it."""
    (sample / "test_shards.py").write_text(textwrap.dedent(
        '''\
        import os


        def test_rename_while_stat_breaks(tmp_path, monkeypatch):
            (tmp_path / "a").write_text("x")
            (tmp_path / "fussy").mkdir()
            real_stat = os.stat

            def stat(path, *args, **kwargs):
                if str(path).endswith("fussy"):
                    raise RuntimeError("stat refused")
                return real_stat(path, *args, **kwargs)

            monkeypatch.setattr(os, "stat", stat)
            os.rename(tmp_path / "a", tmp_path / "fussy" / "b")
            assert (tmp_path / "fussy" / "b").read_text() == "x"
        '''
    ))
    document = report(sample, "--xdevlint-guard")
    done = document["_run"]
    assert done.returncode == 0 and "1 passed" in done.stdout, done.stdout
    assert document["summary"]["internal_errors"] == 1
    assert document["summary"]["first_internal_error"] == "RuntimeError: stat refused"
    assert "xdevlint guard: 1 error inside the hook, ignored (first: RuntimeError: stat refused)" in done.stdout


@pytest.fixture
def other_filesystem(tmp_path: Path, mount_tmpfs: Callable[[Path, str], Path]) -> Iterator[Path]:
    """A directory on another filesystem than ``tmp_path``: /dev/shm (a tmpfs), or a tmpfs
    mounted for the test (root only; skipped with the reason otherwise)."""
    shm = Path("/dev/shm")
    if shm.is_dir() and os.access(shm, os.W_OK) and os.stat(shm).st_dev != os.stat(tmp_path).st_dev:
        directory = shm / f"xdevlint-guard-{uuid.uuid4().hex[:12]}"
        directory.mkdir()
        try:
            yield directory
        finally:
            subprocess.run(["rm", "-rf", str(directory)], check=False)
        return
    yield mount_tmpfs(tmp_path / "tmpfs", "16m")


def test_on_two_filesystems_the_move_raises_exdev_at_the_call_the_guard_names(sample: Path, other_filesystem: Path) -> None:
    """temp on a tmpfs, the cache on the working disk: the naive move raises the real EXDEV,
    the guard names the same line, and the temp it stranded is left behind: the incident."""
    assert os.stat(other_filesystem).st_dev != os.stat(sample).st_dev
    cache = sample.parent / "cache"
    document = report(
        sample, "--xdevlint-guard", "-k", "through_tmp or beside or leak_on_error or named_temporary_file",
        env={"TMPDIR": str(other_filesystem), "SAMPLE_CACHE": str(cache)},
    )
    done = document["_run"]
    assert done.returncode == 1 and "1 failed, 3 passed" in done.stdout, done.stdout
    assert "Invalid cross-device link" in done.stdout
    assert f"shards.py:{line_of('MOVE')}: OSError" in done.stdout  # where pytest's traceback ends
    found = by_test(document)
    assert set(found) == {"test_through_tmp", "test_leak_on_error"}, document["findings"]
    move, stranded = sorted(found["test_through_tmp"], key=lambda f: f["kind"] != "move")
    assert move["kind"] == "move" and move["frame"]["line"] == line_of("MOVE")  # the same call
    assert move["different_devices"] and move["source"]["device"] != move["destination"]["device"]
    assert move["source"]["path"].startswith(str(other_filesystem)) and move["destination"]["path"].startswith(str(cache))
    assert stranded["kind"] == "left_behind" and stranded["frame"]["line"] == line_of("STAGED")
    assert stranded["moved"]["event"] == "os.rename" and stranded["moved"]["destination"] == move["destination"]["path"]
    assert "different filesystems on this machine: the rename fails with EXDEV here" in done.stdout


def test_locations_name_their_directories_on_a_running_machine() -> None:
    """One place for the doctor and the guard: tempdir, the variables set, the configured
    paths (``~`` expanded), and what a location's call answers."""
    from xdevlint.analysis.locations import Location, Locations

    locations = Locations((
        Location("temp", env=("TMPDIR",), paths=("/tmp",)),
        Location("cache", env=("XDG_CACHE_HOME", "HF_HOME"), paths=("~/.cache",), calls=("pkg.cache_dir", "pkg.none")),
    ))
    answers = {"pkg.cache_dir": "/srv/cache"}
    found = locations.directories({"TMPDIR": "/scratch/tmp", "XDG_CACHE_HOME": "~/xdg"}, "/run/tmp", answers.get)
    assert found == [
        ("temp", "tempfile.gettempdir()", "/run/tmp"),
        ("temp", "$TMPDIR", "/scratch/tmp"),
        ("temp", "/tmp", "/tmp"),
        ("cache", "$XDG_CACHE_HOME", os.path.expanduser("~/xdg")),
        ("cache", "~/.cache", os.path.expanduser("~/.cache")),
        ("cache", "pkg.cache_dir()", "/srv/cache"),
    ]


def test_a_move_function_is_found_by_module_and_qualified_name() -> None:
    from xdevlint.frontends.runtime_guard import exempt_names

    pairs = exempt_names({"pkg.store.Store.put", "shutil.move"})
    qualified = sys.version_info >= (3, 11)
    assert ("pkg.store", "Store.put" if qualified else "put") in pairs
    assert ("pkg", "store.Store.put" if qualified else "put") in pairs
    assert ("shutil", "move") in pairs
    assert ("pkg.store.Store", "put") in pairs


def test_the_longest_location_directory_holds_a_path() -> None:
    from xdevlint.frontends.runtime_guard import Root, _classify

    roots = sorted([Root("/tmp", "temp", "/tmp"), Root("/tmp/t/cache", "cache", "$XDG_CACHE_HOME")], key=lambda r: -len(r.path))
    assert _classify("/tmp/t/cache/shards", roots) == roots[0]
    assert _classify("/tmp/t/cachet", roots) == roots[1]  # a prefix of the name is not a parent
    assert _classify("/tmp", roots) == roots[1]
    assert _classify("/srv", roots) is None


def test_under_xdist_the_findings_reach_the_controller(sample: Path) -> None:
    """Workers run the tests; the findings and counts travel on the teardown reports."""
    pytest.importorskip("xdist")
    document = report(sample, "--xdevlint-guard", "-n", "2")
    done = document["_run"]
    assert done.returncode == 0 and "11 passed" in done.stdout, done.stdout + done.stderr
    assert set(by_test(document)) == REPORTED
    assert document["summary"]["moves"] == 2 and document["summary"]["left_behind"] == 2
    assert document["summary"]["moves_watched"] >= 4 and document["summary"]["temps_watched"] >= 5
    assert "xdevlint guard: 2 moves between locations and 2 temps left behind in 4 tests" in done.stdout


def test_the_option_takes_no_separate_value(sample: Path) -> None:
    """``pytest --xdevlint-guard PATH`` runs PATH (the mode is spelt with ``=``); a mode it
    does not know is a usage error."""
    done = run_pytest(sample, "--xdevlint-guard", "test_shards.py", "-k", "through_tmp")
    assert done.returncode == 0 and "1 passed" in done.stdout, done.stdout + done.stderr
    assert "xdevlint guard: 1 move between locations in 1 test" in done.stdout
    done = run_pytest(sample, "--xdevlint-guard=sometimes")
    assert done.returncode == 4 and "--xdevlint-guard: ignored explicit argument 'sometimes'" in done.stderr
