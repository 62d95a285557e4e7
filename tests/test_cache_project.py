"""The result cache with the project index on: an entry records the project modules its
result read, and is served only while they hold the same bytes.

Each run here starts with the index's in-process memos emptied (``project.forget``), as a
new ``xdevlint`` process would; the worker test runs real processes.
"""

from __future__ import annotations

import io
import json
import os
import shutil
from pathlib import Path
from typing import Any, Dict, List, Set, Tuple

import pytest

import xdevlint.batch
import xdevlint.cache
from xdevlint import batch, cache_texts
from xdevlint.analysis import project, project_text
from xdevlint.frontends.cli import main
from tests.fixture_cases import FIXTURES
from tests.process import run

SHARDS = FIXTURES / "projects" / "shards"

#: Added to the copy of the fixture project: a module moving between two constants of
#: ``targets`` (both temp: no finding until ``ARCHIVE`` becomes a cache root), two
#: modules whose constants their text does not show to be locations (the filter says so
#: once, and the second module's gate is answered from its memo), and a module nobody imports.
ADDED = {
    "targets.py": 'SCRATCH = "/tmp/shards"\nARCHIVE = "/tmp/archive"\nSOURCE = "/srv/in"\nTARGET = "/srv/out"\n',
    "mirror.py": (
        "import os\n\nfrom .targets import ARCHIVE, SCRATCH\n\n\n"
        "def mirror(name):\n    os.rename(os.path.join(SCRATCH, name), os.path.join(ARCHIVE, name))\n"
    ),
    "sync_a.py": "import os\n\nfrom .targets import SOURCE, TARGET\n\n\ndef sync():\n    os.rename(SOURCE, TARGET)\n",
    "sync_b.py": "import os\n\nfrom .targets import SOURCE, TARGET\n\n\ndef sync():\n    os.replace(SOURCE, TARGET)\n",
    "notes.py": 'TITLE = "shards"\n',
}

Found = Set[Tuple[str, int, str]]


@pytest.fixture(autouse=True)
def index_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(project.SWITCH, "1")


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "shards"
    shutil.copytree(SHARDS, root)
    for name, text in ADDED.items():
        (root / "shards" / name).write_text(text)
    return root


@pytest.fixture
def checked(monkeypatch: pytest.MonkeyPatch) -> List[str]:
    """The files the engine really checks (cache misses)."""
    seen: List[str] = []
    real = xdevlint.batch.run_task

    def spy(task: Any) -> Any:
        seen.append(task.path)
        return real(task)

    monkeypatch.setattr(xdevlint.batch, "run_task", spy)
    return seen


def lint(root: Path, *args: str) -> Found:
    """One run over the whole project, as a fresh process would make it."""
    project.forget()
    out = io.StringIO()
    code = main(["--format", "json", "--jobs", "1", "--cache-dir", str(root.parent / "cache"), *args, str(root)], stdout=out)
    assert code in (0, 1)
    return {(Path(f["path"]).relative_to(root / "shards").as_posix(), f["line"], f["code"]) for f in json.loads(out.getvalue())}


def fresh(root: Path) -> Found:
    return lint(root, "--no-cache")


def names(seen: List[str]) -> List[str]:
    """The checked files, by path below the package."""
    return sorted(Path(p).as_posix().split("/shards/shards/", 1)[1] for p in seen)


def entries(root: Path) -> Dict[str, Any]:
    found: Dict[str, Any] = {}
    for pack in (root.parent / "cache").glob("*/*.json"):
        found.update(json.loads(pack.read_text())["entries"])
    return {Path(k).relative_to(root / "shards").as_posix(): v for k, v in found.items()}


def rows(root: Path, name: str) -> List[List[Any]]:
    """The modules (path, mtime, size, digest) the entry of ``name`` rests on, from the
    table its ``deps`` names (``cache_modules``)."""
    deps = entries(root)[name]["deps"]
    if not deps:
        return []
    table, bits = deps
    (found,) = (root.parent / "cache").glob(f"*/modules/{table}.json")
    return [row for n, row in enumerate(json.loads(found.read_text())["rows"]) if int(bits, 16) >> n & 1]


def test_a_warm_run_is_served_from_the_cache(tree: Path, checked: List[str]) -> None:
    first = lint(tree)
    assert first == fresh(tree)
    assert not {f for f in first if f[0] == "mirror.py"}  # both ends in temp, as yet
    checked.clear()
    assert lint(tree) == first
    assert checked == []
    recorded = rows(tree, "mirror.py")
    assert {os.path.basename(d[0]) for d in recorded} >= {"targets.py"}
    assert all(d[0] != str(tree / "shards" / "mirror.py") for d in recorded)  # not itself, which the key covers
    assert rows(tree, "notes.py") == [] and entries(tree)["notes.py"]["deps"] == []


def test_editing_an_imported_constant_rechecks_exactly_its_dependants(tree: Path, checked: List[str]) -> None:
    lint(tree)
    targets = tree / "shards" / "targets.py"
    targets.write_text(targets.read_text().replace('ARCHIVE = "/tmp/archive"', 'ARCHIVE = "~/.cache/archive"'))
    checked.clear()
    warm = lint(tree)
    importers = {"targets.py", "mirror.py", "sync_a.py", "sync_b.py"}
    assert {"targets.py", "mirror.py"} <= set(names(checked)) <= importers
    assert ("mirror.py", 7, "XDV101") in warm
    assert warm == fresh(tree)


def test_the_filters_answer_from_its_memo_is_a_dependency_too(tree: Path, checked: List[str]) -> None:
    """``sync_b``'s gate is answered from what the filter learnt of ``targets`` while
    checking ``sync_a``: its entry must still depend on ``targets``."""
    first = lint(tree)
    assert not {f for f in first if f[0].startswith("sync_")}
    targets = tree / "shards" / "targets.py"
    targets.write_text(targets.read_text().replace('"/srv/in"', '"/tmp/in"').replace('"/srv/out"', '"/var/cache/out"'))
    warm = lint(tree)
    assert {("sync_a.py", 7, "XDV101"), ("sync_b.py", 7, "XDV101")} <= warm
    assert warm == fresh(tree)


def test_editing_a_module_nobody_imports_keeps_the_others_cached(tree: Path, checked: List[str]) -> None:
    first = lint(tree)
    (tree / "shards" / "notes.py").write_text('TITLE = "/tmp/shards"\n')
    checked.clear()
    assert lint(tree) == first
    assert names(checked) == ["notes.py"]


def test_touching_a_module_keeps_its_dependants_cached_and_records_the_new_stamp(tree: Path, checked: List[str]) -> None:
    first = lint(tree)
    targets = tree / "shards" / "targets.py"
    stat = targets.stat()
    os.utime(targets, ns=(stat.st_atime_ns, stat.st_mtime_ns + 5_000_000_000))
    checked.clear()
    assert lint(tree) == first
    assert checked == []
    (recorded,) = [d for d in rows(tree, "mirror.py") if d[0] == str(targets)]
    assert recorded[1] == targets.stat().st_mtime_ns


def test_deleting_an_imported_module_rechecks_its_dependants(tree: Path, checked: List[str]) -> None:
    first = lint(tree)
    assert ("worker.py", 12, "XDV101") in first  # ``swap`` is an alias from ``compat``
    (tree / "shards" / "compat.py").unlink()
    checked.clear()
    warm = lint(tree)
    assert {"worker.py", "io/deep/publish.py"} <= set(names(checked))
    assert ("worker.py", 12, "XDV101") not in warm
    assert warm == fresh(tree)


@pytest.mark.parametrize(
    "damage",
    [
        lambda deps: "garbage",
        lambda deps: [["/nowhere.py", 1, 1, "digest"]],
        lambda deps: ["0" * 32, deps[1]],
        lambda deps: [deps[0], "f" * 4096],
        lambda deps: [deps[0], "not hex"],
        lambda deps: [deps[0], "0"],
        None,  # no record at all
    ],
    ids=["not-a-list", "rows-inline", "unknown-table", "rows-beyond-the-table", "not-hex", "no-rows", "missing"],
)
def test_a_malformed_dependency_record_is_ignored_and_rewritten(tree: Path, checked: List[str], damage: Any) -> None:
    first = lint(tree)
    (pack,) = [p for p in (tree.parent / "cache").glob("*/*.json") if str(tree / "shards" / "mirror.py") in p.read_text()]
    data = json.loads(pack.read_text())
    entry = data["entries"][str(tree / "shards" / "mirror.py")]
    good = rows(tree, "mirror.py")
    if damage is None:
        del entry["deps"]
    else:
        entry["deps"] = damage(entry["deps"])
    pack.write_text(json.dumps(data))
    checked.clear()
    assert lint(tree) == first
    assert names(checked) == ["mirror.py"]
    assert rows(tree, "mirror.py") == good
    checked.clear()
    assert lint(tree) == first and checked == []


@pytest.mark.parametrize("damage", ["not json", json.dumps({"format": 1, "rows": [["/x.py", "1", 2, "d"]]}), ""])
def test_a_malformed_table_is_not_trusted(tree: Path, checked: List[str], damage: str) -> None:
    first = lint(tree)
    (table,) = (tree.parent / "cache").glob("*/modules/*.json")
    users = sorted(name for name, entry in entries(tree).items() if entry["deps"])
    table.write_text(damage)
    checked.clear()
    assert lint(tree) == first
    assert names(checked) == users  # every entry that named it, and no other
    checked.clear()
    assert lint(tree) == first and checked == []


def test_runs_with_the_index_off_keep_entries_of_their_own(tree: Path, checked: List[str], monkeypatch: pytest.MonkeyPatch) -> None:
    on = lint(tree)
    monkeypatch.setenv(project.SWITCH, "0")
    off = lint(tree)
    assert off != on  # the index finds more, and some of what the file alone gets wrong
    checked.clear()
    assert lint(tree) == off
    monkeypatch.setenv(project.SWITCH, "1")
    assert lint(tree) == on
    assert checked == []


def test_workers_pass_the_dependencies_back(tree: Path) -> None:
    """Enough files for ``--jobs 2`` to start workers at once: their results' dependencies
    reach the cache, so an edit of ``targets`` shows on the warm run."""
    for n in range(20):
        (tree / "shards" / f"filler_{n:02}.py").write_text(f"import os\n\n\ndef f{n}(a, b):\n    os.rename(a, b)\n")
    environment = {project.SWITCH: "1", batch.POOL_AFTER_HOOK: "0"}
    arguments = ("--format", "json", "--jobs", "2", "--cache-dir", str(tree.parent / "cache"), ".")

    def report() -> Set[Tuple[str, int, str]]:
        completed = run(*arguments, cwd=tree, env=environment)
        assert completed.returncode in (0, 1), completed.stderr
        return {(os.path.basename(f["path"]), f["line"], f["code"]) for f in json.loads(completed.stdout)}

    first = report()
    assert rows(tree, "mirror.py") and entries(tree)["filler_00.py"]["deps"] == []
    targets = tree / "shards" / "targets.py"
    targets.write_text(targets.read_text().replace('ARCHIVE = "/tmp/archive"', 'ARCHIVE = "~/.cache/archive"'))
    second = report()
    assert second - first == {("mirror.py", 7, "XDV101")}


# -- the index's facts of module texts, kept between runs (``cache_texts``) ------------


@pytest.fixture
def learnt(monkeypatch: pytest.MonkeyPatch) -> List[str]:
    """The modules whose texts' facts a run worked out afresh (by path below the package)."""
    seen: List[str] = []
    real = cache_texts.TextFacts.learnt

    def spy(self: cache_texts.TextFacts, path: str, *rest: Any) -> None:
        seen.append(Path(path).as_posix().split("/shards/shards/", 1)[1])
        real(self, path, *rest)

    monkeypatch.setattr(cache_texts.TextFacts, "learnt", spy)
    return seen


@pytest.fixture
def read(monkeypatch: pytest.MonkeyPatch) -> List[str]:
    """The module texts the index's filter read (by name)."""
    seen: List[str] = []
    real = project_text._bytes_of

    def spy(path: str) -> Any:
        seen.append(os.path.basename(path))
        return real(path)

    monkeypatch.setattr(project_text, "_bytes_of", spy)
    return seen


def facts_file(root: Path) -> Path:
    (found,) = (root.parent / "cache").glob("*/texts/facts.json")
    return found


def drop_results(root: Path) -> None:
    """Forget every cached result, keeping the facts of module texts: each file is checked again."""
    for pack in (root.parent / "cache").glob("*/*.json"):
        pack.unlink()


def write_files(root: Path, files: Dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


def test_kept_facts_give_the_findings_of_a_cold_run(tree: Path, learnt: List[str]) -> None:
    first = lint(tree)
    assert {"helpers.py", "compat.py", "paths.py", "targets.py"} <= set(learnt)
    kept = json.loads(facts_file(tree).read_text())["modules"]
    assert str(tree / "shards" / "helpers.py") in kept
    drop_results(tree)
    learnt.clear()
    assert lint(tree) == first == fresh(tree)
    assert learnt == []  # every module's facts came from the cache


def test_a_pre_commit_call_reads_no_unchanged_module_that_brings_nothing(tmp_path: Path, read: List[str]) -> None:
    """A file that imports from modules with no move, temp or location: their facts say so,
    and a check of the file once it changed reads none of their texts."""
    root = tmp_path / "app"
    files = {
        "setup.cfg": "",
        "app/__init__.py": "",
        "app/util.py": "def double(x):\n    return 2 * x\n",
        "app/more.py": "from .util import double\n\n\ndef quad(x):\n    return double(double(x))\n",
        "app/mover.py": "import os\n\nfrom .more import quad\n\n\ndef f(a, b):\n    os.rename(a, b)\n    return quad(1)\n",
    }
    write_files(root, files)
    mover = root / "app" / "mover.py"

    def check() -> List[str]:
        project.forget()
        read.clear()
        code = main(["--quiet", "--cache-dir", str(tmp_path / "cache"), str(mover)], stdout=io.StringIO())
        assert code == 0
        return sorted(read)

    assert check() == ["more.py", "util.py"]  # cold: the import closure
    mover.write_text(mover.read_text() + "# edited\n")
    assert check() == []
    util = root / "app" / "util.py"
    util.write_text(util.read_text().replace("2 * x", "x + x"))
    mover.write_text(mover.read_text() + "# edited again\n")
    assert check() == ["util.py"]  # only the module that changed


def test_an_edited_helper_is_seen_through_kept_facts(tree: Path, learnt: List[str]) -> None:
    first = lint(tree)
    assert ("jobs.py", 13, "XDV101") in first  # ``publish`` renames (``os.replace``)
    helpers = tree / "shards" / "helpers.py"
    helpers.write_text(helpers.read_text().replace("    os.replace(src, dst)\n", "    shutil.copy(src, dst)\n", 1))
    learnt.clear()
    warm = lint(tree)
    assert ("jobs.py", 13, "XDV101") not in warm
    assert warm == fresh(tree)
    assert learnt == ["helpers.py"]


def test_a_touched_module_keeps_its_facts_with_the_new_stamp(tree: Path, learnt: List[str]) -> None:
    first = lint(tree)
    helpers = tree / "shards" / "helpers.py"
    stat = helpers.stat()
    os.utime(helpers, ns=(stat.st_atime_ns, stat.st_mtime_ns + 5_000_000_000))
    drop_results(tree)
    learnt.clear()
    assert lint(tree) == first
    assert learnt == []  # the same bytes: the digest says so
    kept = json.loads(facts_file(tree).read_text())["modules"][str(helpers)]
    assert kept[:2] == [helpers.stat().st_mtime_ns, helpers.stat().st_size]


@pytest.mark.parametrize(
    "damage",
    [
        lambda path, data: "not json",
        lambda path, data: json.dumps({"format": 99, "modules": data["modules"]}),
        lambda path, data: json.dumps({"format": 1, "modules": {path: "entry"}}),
        lambda path, data: json.dumps({"format": 1, "modules": {path: [*data["modules"][path][:3], [[1, 2, 3]], [], False, {}]}}),
        lambda path, data: json.dumps({"format": 1, "modules": {path: [*data["modules"][path][:3], [["os"]], [], False, {}]}}),
        lambda path, data: json.dumps({"format": 1, "modules": {path: [*data["modules"][path][:4], "publish", False, {}]}}),
        lambda path, data: json.dumps({"format": 1, "modules": {path: [*data["modules"][path][:6], {"k": "yes"}]}}),
        lambda path, data: json.dumps({"format": 1, "modules": {path: data["modules"][path][:6]}}),
    ],
    ids=[
        "not-json", "other-format", "entry-not-a-list", "item-not-text", "item-too-short", "helpers-not-a-list",
        "marks-not-booleans", "entry-too-short",
    ],
)
def test_malformed_kept_facts_are_ignored_and_rewritten(tree: Path, learnt: List[str], damage: Any) -> None:
    first = lint(tree)
    helpers = str(tree / "shards" / "helpers.py")
    facts = facts_file(tree)
    good = json.loads(facts.read_text())["modules"][helpers]
    facts.write_text(damage(helpers, json.loads(facts.read_text())))
    drop_results(tree)
    learnt.clear()
    assert lint(tree) == first
    assert "helpers.py" in learnt
    assert json.loads(facts.read_text())["modules"][helpers] == good


CONFIGURED = (
    '[tool.xdevlint.locations.scratch]\npaths = ["/srv/incoming"]\n'
    '[tool.xdevlint.locations.cache]\nextend-paths = ["/srv/blobs"]\n'
)


def test_kept_marks_are_by_the_locations_asked(tmp_path: Path) -> None:
    """Whether a module's text may spell a location depends on the configured locations:
    facts kept under the defaults do not answer for a configuration with more. (The
    file spells no location of its own: its scan keeps it only if ``store``'s text may
    bind one.)"""
    root = tmp_path / "app"
    files = {
        "app/__init__.py": "",
        "app/store.py": 'SOURCE = "/srv/incoming"\nTARGET = "/srv/blobs"\n',
        "app/mover.py": "import os\n\nfrom .store import SOURCE, TARGET\n\n\ndef f():\n    os.rename(SOURCE, TARGET)\n",
    }
    write_files(root, files)
    mover = root / "app" / "mover.py"
    pyproject = root / "pyproject.toml"

    def codes(configured: bool) -> Set[str]:
        pyproject.write_text(CONFIGURED if configured else "")
        mover.write_text(mover.read_text() + "# edited\n")  # a pre-commit call: the file changed
        project.forget()
        out = io.StringIO()
        main(["--format", "json", "--cache-dir", str(tmp_path / "cache"), str(mover)], stdout=out)
        return {f["code"] for f in json.loads(out.getvalue())}

    assert "XDV101" not in codes(False)
    assert "XDV101" in codes(True)
    assert "XDV101" not in codes(False)


#: A chain of imports: ``top`` asks what ``mid`` may bind, whose answer rests on ``low``'s text.
CHAIN = {
    "setup.cfg": "",
    "app/__init__.py": "",
    "app/low.py": "def noop(x):\n    return x\n",
    "app/mid.py": "from .low import noop\n\n\ndef publish(src, dst):\n    return noop(src)\n",
    "app/top.py": (
        "import tempfile\n\nfrom .mid import publish\n\n\n"
        "def f(name):\n    publish(tempfile.mkdtemp(), '/var/cache/app/' + name)\n"
    ),
}


def chain_run(root: Path) -> Found:
    project.forget()
    out = io.StringIO()
    main(["--format", "json", "--jobs", "1", "--cache-dir", str(root.parent / "cache"), str(root)], stdout=out)
    return {(Path(f["path"]).name, f["line"], f["code"]) for f in json.loads(out.getvalue())}


def test_an_edit_deep_in_a_closure_that_changes_no_answer_keeps_the_results_above(tmp_path: Path, checked: List[str]) -> None:
    root = tmp_path / "app"
    write_files(root, CHAIN)
    first = chain_run(root)
    low = root / "app" / "low.py"
    low.write_text(low.read_text().replace("return x", "return x  # the same"))
    checked.clear()
    assert chain_run(root) == first
    assert sorted(Path(p).name for p in checked) == ["low.py"]  # ``mid`` and ``top`` rest on answers that held


def test_an_edit_deep_in_a_closure_that_changes_an_answer_rechecks_the_files_above(tmp_path: Path, checked: List[str]) -> None:
    root = tmp_path / "app"
    write_files(root, CHAIN)
    chain_run(root)
    low = root / "app" / "low.py"
    low.write_text("import os\n\n\ndef noop(x):\n    os.rename(x, x + '.bak')\n    return x\n")  # ``publish`` now renames
    checked.clear()
    warm = chain_run(root)
    assert {"low.py", "mid.py", "top.py"} <= {Path(p).name for p in checked}
    project.forget()
    out = io.StringIO()
    main(["--format", "json", "--no-cache", str(root)], stdout=out)
    assert warm == {(Path(f["path"]).name, f["line"], f["code"]) for f in json.loads(out.getvalue())}


def damaged_chain(tmp_path: Path, damage: Any) -> Tuple[Path, Found, Any, Path]:
    """The chain project checked once, then ``top``'s closure record replaced by
    ``damage`` of it: (root, the findings, the good record, the pack holding it)."""
    root = tmp_path / "app"
    write_files(root, CHAIN)
    first = chain_run(root)
    top = str(root / "app" / "top.py")
    (pack,) = [p for p in (tmp_path / "cache").glob("*/*.json") if top in p.read_text()]
    data = json.loads(pack.read_text())
    good = data["entries"][top]["closure"]
    data["entries"][top]["closure"] = damage(json.loads(json.dumps(good)))
    pack.write_text(json.dumps(data))
    return root, first, good, pack


@pytest.mark.parametrize(
    "damage",
    [
        lambda closure: "garbage",
        lambda closure: closure[:2],
        lambda closure: ["/not/a/list", ["0" * 32, "1"], closure[2]],
        lambda closure: [closure[0], ["0" * 32, "1"], "not a dict"],
        lambda closure: [closure[0], ["0" * 32, "1"], {"app.mid": "not a list"}],
        lambda closure: [closure[0], ["0" * 32, "1"], {"app.mid": ["publish"]}],  # an answer it no longer gives
    ],
    ids=["not-a-list", "too-short", "roots-not-a-list", "answers-not-a-dict", "names-not-a-list", "other-answer"],
)
def test_a_malformed_closure_record_is_ignored_and_rewritten(tmp_path: Path, checked: List[str], damage: Any) -> None:
    root, first, good, pack = damaged_chain(tmp_path, damage)
    checked.clear()
    assert chain_run(root) == first
    assert [Path(p).name for p in checked] == ["top.py"]
    assert json.loads(pack.read_text())["entries"][str(root / "app" / "top.py")]["closure"][2] == good[2]
    checked.clear()
    assert chain_run(root) == first and checked == []


def test_a_damaged_closure_texts_record_falls_back_on_the_answers(tmp_path: Path, checked: List[str]) -> None:
    """Texts that cannot be checked leave the answers, which are checked afresh: they hold."""
    root, first, _, _ = damaged_chain(tmp_path, lambda closure: [closure[0], "not a record", closure[2]])
    checked.clear()
    assert chain_run(root) == first
    assert checked == []


def test_a_closure_that_cannot_be_checked_again_is_a_miss(tmp_path: Path, checked: List[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Asking the answers again fails (here, on purpose): the entry is not served, the file is checked."""
    root = tmp_path / "app"
    write_files(root, CHAIN)
    first = chain_run(root)
    low = root / "app" / "low.py"
    low.write_text(low.read_text() + "# edited\n")

    def broken(*args: Any) -> Any:
        raise RuntimeError("the filter failed")

    monkeypatch.setattr(xdevlint.cache, "answers_hold", broken)
    checked.clear()
    assert chain_run(root) == first
    assert {"low.py", "mid.py", "top.py"} <= {Path(p).name for p in checked}


def test_answers_found_to_hold_are_not_asked_again_while_their_texts_hold(
    tmp_path: Path, checked: List[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "app"
    write_files(root, CHAIN)
    first = chain_run(root)
    asked: List[Any] = []
    real = xdevlint.cache.answers_hold

    def spy(*args: Any) -> Any:
        asked.append(args[1])
        return real(*args)

    monkeypatch.setattr(xdevlint.cache, "answers_hold", spy)
    low = root / "app" / "low.py"
    low.write_text(low.read_text() + "# edited\n")
    assert chain_run(root) == first
    assert {"app.low", "app.mid"} <= {module for answers in asked for module in answers}  # ``mid``'s and ``top``'s
    asked.clear()
    checked.clear()
    assert chain_run(root) == first  # nothing changed since
    assert asked == [] and checked == []
    low.write_text(low.read_text() + "# edited again\n")
    assert chain_run(root) == first
    assert asked  # the texts they held against changed: asked again


@pytest.mark.parametrize("damage", ["garbage", ["0" * 32, "1"], {"not": "a record"}, None], ids=["text", "unknown-table", "dict", "null"])
def test_a_malformed_held_record_is_asked_again(tmp_path: Path, checked: List[str], damage: Any) -> None:
    root = tmp_path / "app"
    write_files(root, CHAIN)
    first = chain_run(root)
    low = root / "app" / "low.py"
    low.write_text(low.read_text() + "# edited\n")
    chain_run(root)
    facts = facts_file(root)
    data = json.loads(facts.read_text())
    assert data["held"]
    data["held"] = {key: damage for key in data["held"]}
    facts.write_text(json.dumps(data))
    checked.clear()
    assert chain_run(root) == first
    assert checked == []  # the answers, asked again, hold
    assert all(isinstance(record, list) and len(record) == 2 for record in json.loads(facts.read_text())["held"].values())
