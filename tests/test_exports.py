"""Function summaries across modules (``analysis/exports.py``): what a project function
does for callers in other modules, and what the rules make of it at those calls.

The fixture project's ``shards/helpers.py`` holds the helpers and ``shards/jobs.py`` their
callers (their expected findings are checked, both ways, by ``tests/test_project.py``);
here each kind of summary is checked on its own, and on small projects made for the test.
"""

from __future__ import annotations

import json
import shutil
import textwrap
from pathlib import Path
from typing import Dict, List, Tuple

import pytest

from xdevlint.analysis import project
from xdevlint.analysis.exports import DIRECTORY, FILE, Exported
from xdevlint.analysis.locations import DEFAULT
from xdevlint.config import Config
from xdevlint.engine import lint_source
from tests.fixture_cases import FIXTURES
from tests.process import run

PACKAGE = FIXTURES / "projects" / "shards" / "shards"


@pytest.fixture(autouse=True)
def index_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(project.SWITCH, "1")
    project.forget()


def _function(qualified: str, relative: str = "jobs.py") -> Exported:
    view = project.view_for(str(PACKAGE / relative), DEFAULT)
    assert view is not None
    resolved = view.resolve(qualified)
    assert resolved is not None and resolved.function is not None, qualified
    return resolved.function


def test_a_rename_of_parameters_is_summarised_with_where_it_is() -> None:
    publish = _function("shards.helpers.publish")
    assert publish.positional == ("src", "dst")
    [move] = publish.moves
    assert (move.function, move.source.param, move.destination.param, move.line) == ("os.replace", "src", "dst", 12)
    assert publish.where == "shards/helpers.py:11"
    assert publish.moves_away == {"src"}


def test_a_fixed_end_keeps_the_location_of_the_constant_it_is_made_from() -> None:
    [move] = _function("shards.helpers.publish_to_cache").moves
    assert move.source.param == "src" and move.destination.param is None
    assert move.destination.locations == {"cache"}


def test_a_method_rename_counts_only_on_a_path() -> None:
    [move] = _function("shards.helpers.install").moves
    assert (move.function, move.source.param, move.destination.param) == ("Path.rename", "src", "dst")


def test_returned_temps_locations_and_removals() -> None:
    assert _function("shards.helpers.download").returns_temp == FILE
    assert _function("shards.helpers.cache_dir").returns_locations == {"cache"}
    # ``rm_rf`` removes its parameter through ``_force_remove``: chains resolve.
    assert _function("shards.helpers.rm_rf").removes == {"path"}


def test_a_function_that_does_nothing_callers_need_resolves_to_nothing() -> None:
    view = project.view_for(str(PACKAGE / "jobs.py"), DEFAULT)
    assert view is not None
    assert view.resolve("shards.helpers.describe") is None


def _project(tmp_path: Path, files: Dict[str, str]) -> Path:
    (tmp_path / "setup.cfg").write_text("[metadata]\nname = app\n")
    for relative, text in files.items():
        path = tmp_path / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return tmp_path


def _codes(path: Path) -> List[Tuple[int, str]]:
    result = lint_source(path.read_bytes(), str(path), Config(root=path.parent))
    return sorted((f.line, f.code) for f in result.findings)


HELPERS = """\
    import os
    import shutil
    import tempfile


    def swap(text: str, old):
        return text.replace(old)


    def stream(src, dst):
        yield os.rename(src, dst)


    def made_dir():
        return tempfile.mkdtemp()


    def fed(src):
        data = yield
        return tempfile.mkdtemp()


    def matched(kind):
        match kind:
            case "dir":
                with open(kind):
                    return tempfile.mkdtemp()


    def sometimes(flag):
        if flag:
            return tempfile.mkdtemp()
        return None


    def staged(data, dst):
        fd, tmp = tempfile.mkstemp()
        os.write(fd, data)
        os.replace(tmp, dst)


    def recursive(path):
        for child in os.listdir(path):
            recursive(os.path.join(path, child))
        shutil.rmtree(path)
    """


def test_summaries_of_shapes_callers_must_not_misread(tmp_path: Path) -> None:
    root = _project(tmp_path, {"app/__init__.py": "", "app/util.py": HELPERS, "app/main.py": "from app import util\n"})
    view = project.view_for(str(root / "app" / "main.py"), DEFAULT)
    assert view is not None
    assert view.resolve("app.util.swap") is None  # ``str.replace``, not a move
    stream = view.resolve("app.util.stream")
    assert stream is not None and stream.function is not None and not stream.function.returns_temp
    made = view.resolve("app.util.made_dir")
    assert made is not None and made.function is not None and made.function.returns_temp == DIRECTORY
    fed = view.resolve("app.util.fed")  # a generator, by a ``yield`` inside an expression
    assert fed is None or fed.function is None or not fed.function.returns_temp
    matched = view.resolve("app.util.matched")  # a ``return`` inside a ``case`` and a ``with``
    assert matched is not None and matched.function is not None and matched.function.returns_temp == DIRECTORY
    sometimes = view.resolve("app.util.sometimes")
    assert sometimes is None or sometimes.function is None or not sometimes.function.returns_temp
    staged = view.resolve("app.util.staged")
    assert staged is not None and staged.function is not None
    [move] = staged.function.moves
    assert move.source.locations == {"temp"} and move.destination.param == "dst"
    recursive = view.resolve("app.util.recursive")
    assert recursive is not None and recursive.function is not None and recursive.function.removes == {"path"}


def test_a_helper_staging_in_temp_is_reported_at_the_call_that_passes_a_cache_path(tmp_path: Path) -> None:
    root = _project(tmp_path, {
        "app/__init__.py": "",
        "app/util.py": HELPERS,
        "app/main.py": """\
            import os

            from app.util import staged

            CACHE_DIR = os.path.expanduser("~/.cache/app")


            def save(data):
                staged(data, os.path.join(CACHE_DIR, "blob"))


            def save_beside(data, dst):
                staged(data, dst)
            """,
    })
    assert _codes(root / "app" / "main.py") == [(9, "XDV101")]


def test_with_the_index_off_nothing_is_known_of_other_modules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(project.SWITCH, "0")
    assert _codes(PACKAGE / "jobs.py") == [(22, "XDV203"), (27, "XDV203"), (35, "XDV203"), (40, "XDV203")]


def test_well_known_library_constants_are_locations_without_the_index(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(project.SWITCH, "0")
    path = tmp_path / "store.py"
    path.write_text(textwrap.dedent("""\
        import os
        import tempfile

        from huggingface_hub import constants
        from huggingface_hub.constants import HF_HUB_CACHE


        def store(name):
            fd, tmp = tempfile.mkstemp()
            os.close(fd)
            os.replace(tmp, os.path.join(HF_HUB_CACHE, name))
            fd, tmp = tempfile.mkstemp()
            os.close(fd)
            os.replace(tmp, os.path.join(constants.HF_XET_CACHE, name))
        """))
    assert [code for _, code in _codes(path)].count("XDV101") == 2


def _cli_codes(root: Path, *options: str, env: Dict[str, str]) -> List[Tuple[int, str]]:
    completed = run("--no-cache", "--format", "json", *options, "shards/jobs.py", cwd=root, env=env)
    assert completed.returncode in (0, 1), completed.stderr
    return sorted((f["line"], f["code"]) for f in json.loads(completed.stdout))


def test_the_configuration_and_the_command_line_turn_the_index_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(project.SWITCH)
    root = tmp_path / "shards"
    shutil.copytree(FIXTURES / "projects" / "shards", root)
    off = [(22, "XDV203"), (27, "XDV203"), (35, "XDV203"), (40, "XDV203")]
    # (40: ``install`` moves the file out of its new temp directory, which stays: XDV203.)
    on = [(12, "XDV201"), (13, "XDV101"), (22, "XDV201"), (23, "XDV101"), (35, "XDV203"), (40, "XDV203"), (41, "XDV101")]
    assert _cli_codes(root, env={}) == off  # off by default
    assert _cli_codes(root, "--project-index", env={}) == on
    (root / "pyproject.toml").write_text("[tool.xdevlint]\nproject-index = true\n")
    assert _cli_codes(root, env={}) == on
    assert _cli_codes(root, "--no-project-index", env={}) == off
    assert _cli_codes(root, env={project.SWITCH: "0"}) == off  # the environment overrides every configuration
    (root / "pyproject.toml").write_text("[tool.xdevlint]\nproject-index = 1\n")
    completed = run("shards/jobs.py", cwd=root, env={})
    assert completed.returncode == 2 and "project-index" in completed.stderr and "true or false" in completed.stderr


def test_messages_name_the_other_module_and_line() -> None:
    path = PACKAGE / "jobs.py"
    result = lint_source(path.read_bytes(), str(path), Config(root=PACKAGE.parent))
    messages = {(f.line, f.code): f.message for f in result.findings}
    assert messages[(13, "XDV101")].startswith("`publish()` calls `os.replace` (at `shards/helpers.py:12`), which moves a temp path to cache")
    assert messages[(41, "XDV101")].startswith("`install()` calls `Path.rename` (at `shards/helpers.py:20`)")
    assert messages[(12, "XDV201")].startswith("`tmp` from `download(url)` (made by `download()` at `shards/helpers.py:23`) is left behind")
    assert "made by" not in messages[(22, "XDV201")]  # a temp the file makes itself
