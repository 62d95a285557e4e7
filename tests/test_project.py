"""The project index: names other modules of the project bind, followed across modules.

The fixture project ``fixtures/projects/shards`` has a constants module, an alias module
(``try/except ImportError`` alternatives), a helper module (functions that rename their
parameters, return a temp, remove a path through a chain, return a cache directory) and
its callers, a star re-export in the package ``__init__``, a cycle of imports, a
relative import two levels up and a module that fails to parse.
"""

from __future__ import annotations

import ast
import json
import os
import shutil
import sys
from pathlib import Path
from typing import Dict, List, Set, Tuple

import pytest

from xdevlint import registry
from xdevlint.analysis import project, project_files, project_text
from xdevlint.analysis.exports import ExportedClass
from xdevlint.analysis.locations import DEFAULT
from xdevlint.config import Config
from xdevlint.engine import lint_source
from xdevlint.stages.scan import Scan
from tests.fixture_cases import FIXTURES, expected_findings
from tests.process import run

SHARDS = FIXTURES / "projects" / "shards"
PACKAGE = SHARDS / "shards"
PROJECT_FILES = sorted(PACKAGE.rglob("*.py"))


@pytest.fixture(autouse=True)
def index_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """The index is off by default until it meets its cost target (bench/project_index.py):
    here, and in the ``xdevlint`` processes these tests start, it is on."""
    monkeypatch.setenv(project.SWITCH, "1")


def _view(relative: str) -> project.FileView:
    view = project.view_for(str(PACKAGE / relative), DEFAULT)
    assert view is not None
    return view


def test_module_names_and_roots() -> None:
    view = _view("io/deep/publish.py")
    assert (view.module, view.package) == ("shards.io.deep.publish", "shards.io.deep")
    assert str(SHARDS) in view.project.roots


def test_constants_resolve_to_their_locations_and_origin() -> None:
    view = _view("worker.py")
    cache = view.resolve("shards.paths.CACHE_ROOT")
    assert cache is not None and cache.locations == {"cache"} and cache.literal == "~/.cache/shards"
    assert cache.origin == (str(PACKAGE / "paths.py"), 9)
    hub = view.resolve("shards.paths.HUB")
    assert hub is not None and hub.locations == {"cache"} and hub.path
    staging = view.resolve("shards.paths.STAGING")
    assert staging is not None and staging.locations == {"temp"}


def test_aliases_union_their_alternatives_and_follow_star_reexports() -> None:
    view = _view("worker.py")
    swap = view.resolve("shards.compat._swap")
    assert swap is not None and swap.callees == {"os.replace", "os.rename"}
    # ``from .compat import *`` in the package, ``__all__`` honoured.
    assert view.resolve("shards.make_temp_dir").callees == {"tempfile.mkdtemp"}  # type: ignore[union-attr]
    assert view.resolve("shards.swap").callees == {"os.replace", "os.rename"}  # type: ignore[union-attr]
    assert view.resolve("shards._swap") is None  # private: no star import binds it
    assert view.resolve("shards.DEFAULT_CACHE").locations == {"cache"}  # type: ignore[union-attr]


def test_a_cycle_of_imports_ends_and_still_resolves() -> None:
    view = _view("worker.py")
    base = view.resolve("shards.cycle_b.BASE")
    assert base is not None and base.literal == "/var/tmp/spool/base" and base.locations == {"temp"}
    # ``LOOP = NESTED = BASE = SPOOL + ...`` through both modules.
    loop = view.resolve("shards.cycle_b.LOOP")
    assert loop is not None and loop.locations == {"temp"}


def test_a_module_that_fails_to_parse_contributes_nothing() -> None:
    view = _view("worker.py")
    assert view.resolve("shards.broken.BROKEN_TMP") is None


def test_a_function_that_fails_to_parse_contributes_nothing_but_its_module_does(tmp_path: Path) -> None:
    """Only module-level text is parsed up front; a function's own text when a caller asks."""
    (tmp_path / "setup.cfg").write_text("")
    (tmp_path / "helpers.py").write_text(
        "import os\nSPOOL = '/tmp/spool'\n\n"
        "def broken(src):\n    os.rename(src, SPOOL +)\n\n"
        "@decorated\ndef publish(src, dst):\n    os.replace(src, dst)\n"
    )
    (tmp_path / "main.py").write_text("from helpers import SPOOL, broken, publish\n")
    view = project.view_for(str(tmp_path / "main.py"), DEFAULT)
    assert view is not None
    spool = view.resolve("helpers.SPOOL")
    assert spool is not None and spool.literal == "/tmp/spool" and spool.locations == {"temp"}
    assert view.resolve("helpers.broken") is None
    publish = view.resolve("helpers.publish")
    assert publish is not None and publish.function is not None and publish.function.where == "helpers.py:8"


@pytest.mark.parametrize(
    "text",
    [
        'USAGE = """\ndef fake():\n    pass\n"""\nX = 1\n',  # a ``def`` at column 0 in a string
        'def f():\n    return """\nX = 1\n"""\n',  # a line at column 0 in a function's string
        "def f():\n    x = 1 + \\\n2\n",  # a continuation line at column 0
        "# -*- coding: latin-1 -*-\ndef f():\n    return '/tmp/caf\xe9'\n",  # a declared encoding
        "@decorator\nX = 1\n",  # a decorator of no ``def``
        "import os\n\n@a\n@b(\n    1,\n)\ndef f(src):\n    os.rename(src, '/tmp/x')\n\nclass C:\n    X = 1\nY = 2\n",
    ],
)
def test_a_summary_is_the_one_a_parse_of_all_the_module_gives(text: str, tmp_path: Path) -> None:
    """Where the cut of function bodies may not be Python's, the module is parsed whole."""
    path = tmp_path / "m.py"
    path.write_bytes(text.encode("latin-1"))
    summary = project._summarise(str(path), "m", False)
    tree = ast.parse(path.read_bytes()) if "@decorator" not in text else None
    if tree is None:
        assert summary is None
        return
    assert summary is not None
    whole = project.Summary(str(path), "m", {}, [], None)
    project._collect(tree.body, whole, "")

    def dumped(bindings: Dict[str, List[Tuple[int, object]]]) -> Dict[str, List[Tuple[int, object]]]:
        return {k: [(line, ast.dump(v, include_attributes=True) if isinstance(v, ast.AST) else v) for line, v in vs] for k, vs in bindings.items()}

    assert dumped(summary.bindings) == dumped(whole.bindings)
    assert summary.functions == whole.functions
    for name, line in whole.functions.items():
        node = whole.parsed[line]
        assert ast.dump(summary.function(name), include_attributes=True) == ast.dump(node, include_attributes=True)  # type: ignore[arg-type]


def test_library_and_standard_names_are_never_looked_up_in_the_project(tmp_path: Path) -> None:
    (tmp_path / "setup.cfg").write_text("")
    (tmp_path / "os.py").write_text("rename = 'not the real one'\n")
    (tmp_path / "main.py").write_text("import os\n")
    view = project.view_for(str(tmp_path / "main.py"), DEFAULT)
    assert view is not None and view.resolve("os.rename") is None


def test_the_switch_turns_the_index_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(project.SWITCH, "0")
    assert project.view_for(str(PACKAGE / "worker.py"), DEFAULT) is None


def _cli(*paths: str) -> Set[Tuple[str, int, int, str]]:
    completed = run("--no-cache", "--format", "json", *paths, cwd=SHARDS)
    assert completed.returncode in (0, 1), completed.stderr
    return {(os.path.normpath(f["path"]), f["line"], f["column"], f["code"]) for f in json.loads(completed.stdout)}


def _expected() -> Set[Tuple[str, int, int, str]]:
    return {
        (str(path.relative_to(SHARDS)), line, column, code)
        for path in PACKAGE.rglob("*.py")
        for line, column, code in expected_findings(path)
    }


def test_findings_are_the_same_for_the_whole_project_and_for_each_file_alone() -> None:
    whole = _cli(".")
    assert whole == _expected()
    alone: Set[Tuple[str, int, int, str]] = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        alone |= _cli(str(path.relative_to(SHARDS)))
    assert alone == whole
    assert {code for *_, code in whole} >= {"XDV101", "XDV102", "XDV201"}


def _files_opened(path: Path) -> List[str]:
    """The files below the fixture project that linting ``path`` alone opens, cold."""
    project.forget()
    opened: List[str] = []
    recording = [True]

    def hook(event: str, args: tuple) -> None:
        if recording[0] and event == "open" and isinstance(args[0], str) and args[0].startswith(str(SHARDS)):
            opened.append(args[0])

    sys.addaudithook(hook)  # cannot be removed: it stops recording instead
    try:
        lint_source(path.read_bytes(), str(path), Config(root=SHARDS))
    finally:
        recording[0] = False
    return opened


def test_one_file_reads_only_what_its_imports_reach() -> None:
    """A pre-commit call on one file must not read the project: only modules its imports
    name (here the package, its compat and paths modules and the cycle paths imports)."""
    opened = {Path(p).relative_to(PACKAGE).as_posix() for p in _files_opened(PACKAGE / "io" / "deep" / "publish.py")}
    opened.discard("io/deep/publish.py")  # the file itself (its line length is read from it)
    assert opened <= {"__init__.py", "compat.py", "paths.py", "cycle_a.py", "cycle_b.py"}
    assert {"compat.py", "paths.py"} <= opened
    assert not opened & {"worker.py", "broken.py"}
    # A file that imports nothing from the project reads nothing of it.
    assert set(_files_opened(PACKAGE / "compat.py")) <= {str(PACKAGE / "compat.py")}


@pytest.mark.parametrize("path", PROJECT_FILES, ids=[str(p.relative_to(SHARDS)) for p in PROJECT_FILES])
def test_the_scan_and_the_focus_drop_no_finding_the_index_gives(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the index on, the cheap scan keeps every file with a finding, and the focus
    keeps the functions that use what the project supplies."""
    config = Config(root=SHARDS)
    data = path.read_bytes()

    def findings(**options: bool) -> List[Tuple[int, int, str]]:
        return [(f.span.line, f.span.column, f.code) for f in lint_source(data, str(path), config, **options).findings]

    whole = findings(prescan=False, edits=True)
    assert findings(edits=False) == whole  # the scan and the focus
    assert findings(edits=True) == whole


#: A tiny project with shapes of cross-module aliases and locations the cheap text filter
#: must not miss, and one file per shape that moves a temp path into the cache through it.
_SHAPES = {
    "pkg/__init__.py": "",
    "pkg/compat.py": (
        "import os\n"
        "def helper():\n"
        "    inner = os.link  # a function's local: no module-level alias\n"
        "    return inner\n"
        "swap = (\n"
        "    os.\n"
        "    replace\n"
        ")\n"
        "CHAINED = first = os.replace\n"
    ),
    "pkg/starred.py": "from os import *\n",  # binds rename without spelling it
    "pkg/paths.py": "import os\nBASE = os.environ.get('XDG_CACHE_HOME', '/var/cache')\nSTAGE = '/tmp' + '/stage'\n",
    "pkg/again.py": "from .compat import swap as _s\nfrom . import paths as _p\nMOVE = _s\nROOT = _p.BASE\n",
    # Functions that rename their parameters: by an alias of os, by a Path method, through a chain.
    "pkg/helpers.py": (
        "import os as _os\n"
        "from pathlib import Path\n"
        "def publish(src, dst):\n"
        "    _os.replace(src, dst)\n"
        "def install(src: Path, dst):\n"
        "    src.replace(str(dst))\n"
        "def relay(a, b):\n"
        "    publish(a, b)\n"
    ),
    "pkg/more.py": "from .helpers import relay\ndef forward(x, y):\n    relay(x, y)\n",
    # Functions defined in module-level blocks: a move, and the locations it is given.
    "pkg/platform.py": (
        "import os\n"
        "import sys\n"
        "if sys.platform == 'win32':\n"
        "    def publish_here(src, dst):\n"
        "        os.replace(src, dst)\n"
        "else:\n"
        "    def publish_here(src, dst):\n"
        "\n"
        "        os.rename(src, dst)\n"
        "try:\n"
        "    import platformdirs\n"
        "except ImportError:\n"
        "    def spool_dir():\n"
        "        return '/tmp/spool'\n"
        "\n"
        "    def cache_root():\n"
        "        return os.environ.get('XDG_CACHE_HOME', '/var/cache')\n"
    ),
    # A helper whose docstring has a line at column 0: its body goes on past it.
    "pkg/documented.py": (
        "import os\n"
        "def publish_documented(src, dst):\n"
        "    \"\"\"Publish ``src`` at ``dst``.\n"
        "\n"
        "Usage: publish_documented(a, b)\n"
        "    \"\"\"\n"
        "    os.rename(src, dst)\n"
    ),
    # Helpers that rename through an alias: imported from another module, assigned in their own.
    "pkg/relay_alias.py": (
        "import os\n"
        "from .compat import swap\n"
        "_move = os.replace\n"
        "def relay_swap(src, dst):\n"
        "    swap(src, dst)\n"
        "def relay_move(src, dst):\n"
        "    _move(src, dst)\n"
    ),
    # Constants whose annotation runs over lines: the ``=`` stands lines below the name.
    "pkg/typed.py": (
        "import os\n"
        "from typing import Final\n"
        "TYPED_STAGE: Final[\n    str\n] = '/tmp/typed'\n"
        "TYPED_CACHE: Final[\n    str\n] = os.environ.get('XDG_CACHE_HOME', '/var/cache')\n"
    ),
}
_USERS = {
    "read_off": "import pkg.compat as c\nfrom pkg import paths\ndef f(name):\n    c.swap(paths.STAGE + name, paths.BASE)\n",
    "as_value": "from pkg import paths, compat\nm = compat\ndef f(name):\n    m.swap(paths.STAGE + name, paths.BASE)\n",
    "library_star": "from pkg.starred import rename\nfrom pkg.paths import STAGE, BASE\ndef f(name):\n    rename(STAGE + name, BASE)\n",
    "re_export": "import pkg.again\nfrom pkg import paths\ndef f(name):\n    pkg.again.MOVE(paths.STAGE + name, pkg.again.ROOT)\n",
    "value_alias": "from pkg import paths\nfrom pkg.compat import swap; go = swap\ndef f(name):\n    go(paths.STAGE + name, paths.BASE)\n",
    "chained": "from pkg.compat import first as go\nfrom pkg import paths\ndef f(name):\n    go(paths.STAGE + name, paths.BASE)\n",
    "helper": "from pkg.helpers import publish\nfrom pkg import paths\ndef f(name):\n    publish(paths.STAGE + name, paths.BASE)\n",
    "path_helper": "from pkg import helpers, paths\nfrom pathlib import Path\ndef f(name):\n    helpers.install(Path(paths.STAGE) / name, paths.BASE)\n",
    "helper_chain": "from pkg.more import forward\nfrom pkg import paths\ndef f(name):\n    forward(paths.STAGE + name, paths.BASE)\n",
    "block_helper": "from pkg.platform import publish_here\nfrom pkg import paths\ndef f(name):\n    publish_here(paths.STAGE + name, paths.BASE)\n",
    "docstring_helper": "from pkg.documented import publish_documented\nfrom pkg import paths\ndef f(name):\n    publish_documented(paths.STAGE + name, paths.BASE)\n",
    "alias_helper": "from pkg.relay_alias import relay_swap\nfrom pkg import paths\ndef f(name):\n    relay_swap(paths.STAGE + name, paths.BASE)\n",
    "own_alias_helper": "from pkg.relay_alias import relay_move\nfrom pkg import paths\ndef f(name):\n    relay_move(paths.STAGE + name, paths.BASE)\n",
    "annotated": "from pkg import helpers, typed\n# constants annotated over lines\ndef f(name):\n    helpers.publish(typed.TYPED_STAGE + name, typed.TYPED_CACHE)\n",
    "block_location": "from pkg.helpers import publish\nfrom pkg.platform import spool_dir, cache_root\ndef f(name):\n    publish(spool_dir() + name, cache_root())\n",
}


def _shape_findings(tmp_path: Path, shape: str, user: str) -> Tuple[List[Tuple[int, str]], List[Tuple[int, str]]]:
    """The findings in ``pkg/<shape>.py`` (text ``user``) beside ``_SHAPES``: of the whole
    analysis, and of the cheap scan and the focus (cold, as in a fresh process)."""
    (tmp_path / "setup.cfg").write_text("")
    for relative, text in {**_SHAPES, f"pkg/{shape}.py": user}.items():
        (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / relative).write_text(text)
    path = tmp_path / "pkg" / f"{shape}.py"
    data = path.read_bytes()
    config = Config(root=tmp_path)
    project.forget()
    whole = [(f.span.line, f.code) for f in lint_source(data, str(path), config, prescan=False, edits=True).findings]
    project.forget()
    scanned = [(f.span.line, f.code) for f in lint_source(data, str(path), config, edits=False).findings]
    return whole, scanned


@pytest.mark.parametrize("shape", sorted(_USERS))
def test_the_scan_keeps_what_the_index_finds_through_each_shape(shape: str, tmp_path: Path) -> None:
    """A module read off, a module used as a value, a library star import, a multi-line
    alias, a chained assignment, an alias assigned in the file, a re-export through another
    module, functions that rename (by an alias of ``os``, a ``Path`` method, a chain of
    two modules, past a docstring's line at column 0, through an alias imported or
    assigned in their module), functions defined in module-level
    blocks that rename or return the locations, and constants annotated over lines:
    linting with the index finds the move, and the cheap scan keeps it."""
    whole, scanned = _shape_findings(tmp_path, shape, _USERS[shape])
    assert whole == [(4, "XDV101")]
    assert scanned == whole


@pytest.mark.parametrize("shape", sorted(_USERS))
def test_the_scan_keeps_a_swallowed_move_through_each_shape(shape: str, tmp_path: Path) -> None:
    """The same moves inside ``try: ... except OSError: pass``: where the move is an
    alias of a move function, XDV202 reports it, and the scan's gate for XDV202 (which looks
    for how the file spells what the project supplies) keeps it, even through ``m = compat``
    or ``go = swap``. A helper that moves is not a move that raises ``EXDEV`` for XDV202."""
    head, call = _USERS[shape].rstrip("\n").rsplit("\n    ", 1)
    whole, scanned = _shape_findings(tmp_path, shape, f"{head}\n    try:\n        {call}\n    except OSError:\n        pass\n")
    helper = shape.endswith("helper") or shape in ("helper_chain", "block_location", "annotated")
    assert whole == [(5, "XDV101")] + ([] if helper else [(6, "XDV202")])
    assert scanned == whole


def test_with_the_index_on_a_cached_result_sees_a_changed_import(tmp_path: Path) -> None:
    """The cache keys a result on the file's own bytes; with the index on, the modules it
    imports shape it too: the entry records them, and a changed one is seen (more in
    ``test_cache_project``)."""
    import shutil as _shutil

    root = tmp_path / "shards"
    _shutil.copytree(SHARDS, root)
    cache = tmp_path / "cache"
    worker = root / "shards" / "worker.py"

    def codes() -> Set[Tuple[int, str]]:
        completed = run("--cache-dir", str(cache), "--format", "json", str(worker), cwd=root)
        assert completed.returncode in (0, 1), completed.stderr
        return {(f["line"], f["code"]) for f in json.loads(completed.stdout)}

    assert (12, "XDV101") in codes()
    cycle = root / "shards" / "cycle_a.py"  # BASE = SPOOL + "/base", in cycle_b
    cycle.write_text(cycle.read_text().replace('SPOOL = "/var/tmp/spool"', 'SPOOL = "/srv/spool"'))
    assert (12, "XDV101") not in codes()  # BASE is no temp location any more
    (pack,) = cache.glob("*/*.json")
    (entry,) = json.loads(pack.read_text())["entries"].values()
    table, bits = entry["deps"]  # a table of modules, and the rows of those it rests on
    (rows,) = (json.loads(t.read_text())["rows"] for t in cache.glob(f"*/modules/{table}.json"))
    assert str(cycle) in {row[0] for n, row in enumerate(rows) if int(bits, 16) >> n & 1}


def _project_of(tmp_path: Path, files: dict) -> project.Project:
    (tmp_path / "setup.cfg").write_text("")
    for relative, text in files.items():
        (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / relative).write_text(text)
    project.forget()
    view = project.view_for(str(tmp_path / "pkg" / "__init__.py"), DEFAULT)
    assert view is not None
    return view.project


def test_callee_names_follow_a_mark_through_star_imports_and_aliases_and_rule_out_a_chain_with_none(tmp_path: Path) -> None:
    """``_callee_names``: a mark two imports away (a star import, then a library alias)
    reaches the module that starts the chain; a chain with no mark gives no name, and the
    answer is remembered for every module of the closure, with the texts it rests on."""
    proj = _project_of(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/a.py": "from .b import go\nY = go\nZ = 1\n",
        "pkg/b.py": "from .c import *\n",
        "pkg/c.py": "from os import replace as go\n",
        "pkg/d.py": "from .e import Z\nW = Z\n",
        "pkg/e.py": "import os\nZ = os.path.join('a', 'b')\n",
    })
    assert project_text.callee_names(proj, "pkg.a") == {"go", "Y"}
    assert project_text.callee_names(proj, "pkg.b") == {"go"}
    assert project_text.callee_names(proj, "pkg.d") == frozenset()
    generation, names, texts = project_text._CALLEE_NAMES[(proj.roots, "pkg.e")]
    assert names == frozenset() and {path for path, _ in project_files.numbered_texts(texts)} == {str(tmp_path / "pkg" / "e.py")}
    assert {path for path, _ in project_files.numbered_texts(project_text._CALLEE_NAMES[(proj.roots, "pkg.a")][2])} == {
        str(tmp_path / "pkg" / name) for name in ("a.py", "b.py", "c.py")
    }


def test_a_call_of_a_class_taints_no_function_and_the_gates_resolve_no_class(tmp_path: Path) -> None:
    """A class's call makes an object: the function that calls a class whose method
    renames is no helper (``callee_names``), and the gates' resolution (``classes`` off)
    sees no class; the analysis's does."""
    proj = _project_of(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/base.py": "import os\n\nclass Store:\n    def put(self, src, dst):\n        os.replace(src, dst)\n",
        "pkg/user.py": "from pkg.base import Store\n\ndef make():\n    return Store()\n",
    })
    assert project_text.callee_names(proj, "pkg.base") == frozenset()
    assert project_text.callee_names(proj, "pkg.user") == frozenset()
    assert proj.resolve("pkg.base.Store") is None
    found = proj.resolve("pkg.base.Store", classes=True)
    assert found is not None and found.cls is not None


def test_callee_names_reach_through_a_cycle_of_imports_and_calls_off_an_imported_module(tmp_path: Path) -> None:
    """A helper that renames marks its module; a function that calls it, in a module that
    imports it back (a cycle), and one that calls it off the module (``pkg.y.helper``,
    ``yy.helper``) are found; a function that only names it in a string is not."""
    proj = _project_of(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/x.py": "from .y import helper\n\ndef run(a, b):\n    helper(a, b)\n\ndef idle():\n    return 'helper'\n",
        "pkg/y.py": "import os\nfrom . import x\n\ndef helper(a, b):\n    os.replace(a, b)\n",
        "pkg/z.py": "import pkg.y\nfrom pkg import y as yy\nSWAP = yy.helper\n\ndef go(a, b):\n    pkg.y.helper(a, b)\n",
    })
    assert project_text.callee_names(proj, "pkg.x") == {"helper", "run"}
    assert project_text.callee_names(proj, "pkg.y") == {"helper"}
    assert project_text.callee_names(proj, "pkg.z") == {"SWAP", "go"}


@pytest.mark.parametrize(
    ("text", "bound"),
    [
        ("from pkg.link import Link\n", set()),  # a module called link, not an alias
        ("import os\nswap = os.link\n", {"swap"}),
        ("from os import link\n", {"link"}),
        ("import os\nos.link('a', 'b')\n", set()),  # a call makes no alias
        ("def f(t):\n    return t.replace(tzinfo=None)\n", set()),  # no path method's call
        ("def f(p, q):\n    p.replace(q)\n", {"f"}),
        # A call on the line below a comment that ends in a full stop ("symlink.") is
        # still a call of its own name, not an attribute of the comment's last word.
        ("import os\ndef g(a, b):\n    os.rename(a, b)\ndef f(a, b):\n    # no write through a symlink.\n    g(a, b)\n", {"g", "f"}),
        # A function defined in a module-level block, to the first line indented no deeper
        # (a blank line with a CR is no such line).
        ("import sys\r\nif sys.argv:\r\n    def f(p, q):\r\n\r\n        p.replace(q)\r\nelse:\r\n    def g(): pass\r\n", {"f"}),
        ("try:\n    import x\nexcept ImportError:\n    async  def f(p, q):\n        p.replace(q)\n    asyncdef = 1\n", {"f"}),
    ],
)
def test_a_text_binds_a_scanned_function_only_where_it_may(tmp_path: Path, text: str, bound: set) -> None:
    proj = _project_of(tmp_path, {"pkg/__init__.py": "", "pkg/m.py": text})
    assert project_text.callee_names(proj, "pkg.m") == bound


@pytest.mark.parametrize(
    ("text", "name", "location"),
    [
        # A well-known library constant, imported by name.
        ("from huggingface_hub.constants import HF_HOME\n", "HF_HOME", "cache"),
        # A function that returns a constant it never calls.
        ("from pkg.paths import BASE\ndef target(chosen=None):\n    if chosen is None:\n        chosen = BASE\n    return chosen\n", "target", "cache"),
        # A function that returns what a temp factory made.
        ("import tempfile\ndef scratch():\n    fd, path = tempfile.mkstemp()\n    return path\n", "scratch", "temp"),
    ],
)
def test_what_resolves_to_a_location_the_text_filter_says_may(tmp_path: Path, text: str, name: str, location: str) -> None:
    """``may_bind`` answers for the gates what the resolution would: it may say yes where
    the resolution finds nothing, never no where it finds a location (on real code:
    ``bench/index_filter_audit.py``)."""
    files = {"pkg/__init__.py": "", "pkg/paths.py": _SHAPES["pkg/paths.py"], "pkg/m.py": text}
    proj = _project_of(tmp_path, files)
    resolved = proj.resolve(f"pkg.m.{name}")
    assert resolved is not None
    assert location in resolved.locations | (resolved.function.locations if resolved.function else frozenset())
    assert project_text.may_bind(proj, "pkg.m", name)


def test_a_function_that_imports_its_helper_itself_does_what_the_helper_does(tmp_path: Path) -> None:
    """``from .fs import remove`` inside the function (a module breaks a cycle of imports
    so): the names it binds stand for what they name, before the module's own names."""
    files = {
        "pkg/__init__.py": "",
        "pkg/fs.py": "import shutil\ndef remove(path):\n    shutil.rmtree(path)\n",
        "pkg/compat.py": "import os\nswap = os.rename\n",
        "pkg/ignore.py": (
            "remove = None\n"
            "def destroy(path):\n    from .fs import remove\n    remove(path)\n"
            "def publish(src, dst):\n    from pkg.compat import swap as move\n    move(src, dst)\n"
            "def helper():\n    def inner():\n        from .fs import remove\n    remove('x')\n"
        ),
    }
    proj = _project_of(tmp_path, files)
    destroy = proj.resolve("pkg.ignore.destroy")
    assert destroy is not None and destroy.function is not None and destroy.function.removes == {"path"}
    publish = proj.resolve("pkg.ignore.publish")
    assert publish is not None and publish.function is not None and publish.function.scanned == {"os.rename"}
    assert proj.resolve("pkg.ignore.helper") is None  # an import of a function defined inside is not its own


def test_a_star_import_of_os_binds_its_move_functions(tmp_path: Path) -> None:
    proj = _project_of(tmp_path, {"pkg/__init__.py": "", "pkg/m.py": "from os import *\n"})
    assert {"rename", "replace", "link"} <= project_text.callee_names(proj, "pkg.m")


def test_a_module_name_with_an_empty_part_is_no_module(tmp_path: Path) -> None:
    """``from pkg import ...`` in a docstring spells ``pkg....``, which the file system
    would find as ``pkg////__init__.py``: a second copy of the package under a false name."""
    proj = _project_of(tmp_path, {"pkg/__init__.py": "", "pkg/m.py": ""})
    assert proj.find("pkg.m") is not None
    assert proj.find("pkg....") is None and proj.find("pkg..m") is None


def test_the_imports_a_text_names_are_its_import_statements_not_the_words() -> None:
    """``import`` starts a statement (a line, or after ``;`` or ``:``): the ``import`` of
    ``from a import b`` names no module ``b``, nor does prose that says "import"."""
    text = (
        "from a import b\n"
        "from .c import (d as e,\n    f)\n"
        "import g.h as i\n"
        "if TYPE_CHECKING: import j\n"
        "k = 1; import l, m\n"
        "def n():\n    import o\n"
        '"""We import nothing here."""\n'
        "# never import r\n"
    )
    assert sorted(project_text._items(text), key=str) == sorted(
        [
            ("a", "b", "b"), (".c", "d", "e"), (".c", "f", "f"),
            (None, "g.h", "i"), (None, "j", None), (None, "l", None), (None, "m", None), (None, "o", None),
        ],
        key=str,
    )


def test_the_gates_project_summarises_only_the_helpers_that_may_rename_or_make_a_temp(tmp_path: Path) -> None:
    """``scanned_only``: a helper that cannot reach a rename or a temp factory
    (``callee_names``) is not summarised, no location is evaluated, and what the gates
    ask is the same."""
    (tmp_path / "setup.cfg").write_text("")
    (tmp_path / "helpers.py").write_text(
        "import os, shutil\n\nSPOOL = '/tmp/spool'\n\n"
        "def _drop(path):\n    shutil.rmtree(path)\n\n"
        "def _swap(src, dst):\n    os.replace(src, dst)\n\n"
        "def publish(src, dst):\n    _drop(dst)\n    _swap(src, dst)\n\n"
        "def spool(src):\n    os.replace(src, SPOOL)\n"
    )
    roots = (str(tmp_path),)
    full, gated = project.Project(roots, DEFAULT), project.Project(roots, DEFAULT, scanned_only=True)
    publish, gated_publish = full.resolve("helpers.publish"), gated.resolve("helpers.publish")
    assert publish is not None and publish.function is not None and gated_publish is not None and gated_publish.function is not None
    assert publish.function.removes == {"dst"} and gated_publish.function.removes == frozenset()
    assert publish.function.scanned == gated_publish.function.scanned == {"os.replace"}
    spool, gated_spool = full.resolve("helpers.spool"), gated.resolve("helpers.spool")
    assert spool is not None and spool.function is not None and gated_spool is not None and gated_spool.function is not None
    assert spool.function.locations == {"temp"} and gated_spool.function.locations == frozenset()
    assert spool.function.scanned == gated_spool.function.scanned == {"os.replace"}


def test_two_import_statements_on_one_line_of_a_string_are_both_read() -> None:
    """``_items`` starts from each word ``import``: a from-import's names run to the end
    of the line, and no longer swallow a second statement there (more items only cost time)."""
    text = 'CODE = ["from a import b", "from c.d import e as f"]\nfrom g import (h,\n    i)\n'
    assert sorted(project_text._items(text), key=str) == sorted(
        [("a", "b", "b"), ("c.d", "e", "f"), ("g", "h", "h"), ("g", "i", "i")]
        + [("a", "from", "from"), ("a", "c.d", "c.d"), ("a", "import", "import"), ("a", "e", "f")],  # the rest of the line
        key=str,
    )


@pytest.mark.parametrize(
    "text",
    [
        "a = 1\nb: int = 2\nf(c=3)\nif d == 4: pass\n(E) = 5\n",
        "x \\\n  = 3\ny = \\\n  4\n",  # a backslash joins the name to its ``=``
        "x \\\r\n= 3\r\nz=1",  # and with Windows line ends; a last line with no end
        "\\\n=1\n= 2\nw = 0\n",  # a ``=`` that binds nothing
        'S = "a = b"  # c = d\n',
    ],
)
def test_the_assignments_a_text_holds_are_the_ones_the_regex_finds_through_all_of_it(text: str) -> None:
    """``_assignments`` searches only the lines with a ``=``: it finds what ``_ASSIGNED`` does."""
    found = [(m.group(1), m.start()) for m in project_text._assignments(text)]
    assert found == [(m.group(1), m.start()) for m in project_text._ASSIGNED.finditer(text)]
    assert found  # each text assigns something


def test_the_analysis_resolves_only_the_imported_names_the_file_uses(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A name imported and never used (here, or only in a function the focus drops) can
    shape no finding: the analysis does not resolve it, and still finds the move."""
    files = {
        "setup.cfg": "",
        "pkg/__init__.py": "",
        "pkg/helpers.py": "import os\ndef publish(a, b):\n    os.replace(a, b)\ndef spare(a, b):\n    os.replace(a, b)\n",
        "pkg/user.py": "from pkg.helpers import publish, spare\nimport tempfile\ndef f():\n    publish(tempfile.mkdtemp(), '/var/cache/app')\n",
    }
    for relative, text in files.items():
        (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / relative).write_text(text)
    project.forget()
    asked: List[str] = []
    resolve = project.Project.resolve
    monkeypatch.setattr(
        project.Project, "resolve", lambda self, qualified, depth=0, classes=False: asked.append(qualified) or resolve(self, qualified, depth, classes)
    )
    path = tmp_path / "pkg" / "user.py"
    found = lint_source(path.read_bytes(), str(path), Config(root=tmp_path), prescan=False, edits=True).findings
    assert [(f.span.line, f.code) for f in found] == [(4, "XDV101")]
    assert "pkg.helpers.publish" in asked
    assert "pkg.helpers.spare" not in asked


def test_a_name_no_text_binds_resolves_to_nothing_unparsed_and_again_once_its_module_binds_it(tmp_path: Path) -> None:
    """A name no text binds is nothing to callers: ``names_of`` rules it out without a
    parse of its module. The answer rests on the module's text: once the module binds
    the name, a later project (a server's next check) resolves it. (A class is parsed:
    it has no method that does anything callers need.)"""
    proj = _project_of(tmp_path, {"pkg/__init__.py": "", "pkg/paths.py": "class Cache:\n    ROOT = '/tmp'\n"})
    assert proj.resolve("pkg.paths.STAGE") is None
    assert project._SUMMARIES == {}
    assert proj.resolve("pkg.paths.Cache") is None
    (tmp_path / "pkg" / "paths.py").write_text("class Cache:\n    ROOT = '/tmp'\n\nSTAGE: Final[\n    str\n] = '/tmp/stage'\n")
    project_text._SWEPT[0] = 0.0  # the next file's view looks for changed texts now
    view = project.view_for(str(tmp_path / "pkg" / "__init__.py"), DEFAULT)
    assert view is not None
    stage = view.resolve("pkg.paths.STAGE")
    assert stage is not None and stage.locations == {"temp"} and stage.literal == "/tmp/stage"
    assert view.resolve("pkg.paths.Cache") is None


def test_a_module_added_later_is_found_by_a_later_view(tmp_path: Path) -> None:
    """Where modules are is read from each directory's listing once, and read again when
    a later sweep sees the directory changed: a module added beside one already found
    (a server's next check) is found, and what rested on its absence is worked out again;
    one removed is gone; a directory that gains an ``__init__.py`` is a package."""
    proj = _project_of(tmp_path, {"pkg/__init__.py": "", "pkg/paths.py": "from pkg.stage import STAGE\n"})
    assert proj.find("pkg.paths") == (str(tmp_path / "pkg" / "paths.py"), False)
    assert proj.find("pkg.stage") is None
    before = proj.resolve("pkg.paths.STAGE")  # a library's name, as far as the index knows
    assert before is not None and before.callees == {"pkg.stage.STAGE"} and before.literal is None
    (tmp_path / "pkg" / "stage.py").write_text("STAGE = '/tmp/stage'\n")
    view = project.view_for(str(tmp_path / "pkg" / "__init__.py"), DEFAULT)
    assert view is not None and view.project.find("pkg.stage") is None  # not swept yet
    project_text._SWEPT[0] = 0.0  # the next file's view looks for changes now
    view = project.view_for(str(tmp_path / "pkg" / "__init__.py"), DEFAULT)
    assert view is not None and view.project.find("pkg.stage") == (str(tmp_path / "pkg" / "stage.py"), False)
    stage = view.resolve("pkg.paths.STAGE")
    assert stage is not None and stage.literal == "/tmp/stage"
    (tmp_path / "pkg" / "stage.py").unlink()
    project_text._SWEPT[0] = 0.0
    view = project.view_for(str(tmp_path / "pkg" / "__init__.py"), DEFAULT)
    assert view is not None and view.project.find("pkg.stage") is None
    (tmp_path / "pkg" / "sub").mkdir()  # a directory that becomes a package
    (tmp_path / "pkg" / "sub" / "mod.py").write_text("")
    project_text._SWEPT[0] = 0.0
    inner = project.view_for(str(tmp_path / "pkg" / "sub" / "mod.py"), DEFAULT)
    assert inner is not None and inner.module == "mod"
    assert inner.project.find("pkg.sub.mod") is not None  # as a namespace package's: pkg/sub is listed
    (tmp_path / "pkg" / "sub" / "__init__.py").write_text("")
    project_text._SWEPT[0] = 0.0
    inner = project.view_for(str(tmp_path / "pkg" / "sub" / "mod.py"), DEFAULT)
    assert inner is not None and inner.module == "pkg.sub.mod"


def test_only_a_module_or_a_package_added_or_removed_changes_the_layout(tmp_path: Path) -> None:
    """``layout_changed``: a file that cannot be a module (``--fix``'s temporary one
    beside the file it rewrites, a text file) leaves the layout as it was, though its
    directory's stamp moved; a module or a package added, or removed, changes it."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text("")
    project_files.forget()
    assert project_files.module_file(str(tmp_path), ["pkg", "a"]) == (str(tmp_path / "pkg" / "a.py"), False)
    assert project_files.module_file(str(tmp_path), ["pkg", "b"]) is None
    assert not project_files.layout_changed()
    steps = [
        (lambda: (tmp_path / "pkg" / ".a.py.x1.xdevlint").write_text(""), False),
        (lambda: (tmp_path / "pkg" / ".a.py.x1.xdevlint").unlink(), False),
        (lambda: (tmp_path / "pkg" / "notes.txt").write_text(""), False),
        (lambda: (tmp_path / "pkg" / "b.py").write_text(""), True),
        (lambda: (tmp_path / "pkg" / "sub").mkdir(), True),
        (lambda: (tmp_path / "pkg" / "b.py").unlink(), True),
    ]
    for step, changes in steps:
        before = project_files.stamp_of(str(tmp_path / "pkg"))
        step()
        os.utime(tmp_path / "pkg", ns=(before[0] + 10**9, before[0] + 10**9) if before else None)  # a coarse clock
        assert project_files.layout_changed() is changes
    assert project_files.module_file(str(tmp_path), ["pkg", "b"]) is None


def test_a_class_is_summarised_by_the_methods_that_do_something_for_callers() -> None:
    """``store.py``: methods off an object (``self`` not a parameter callers pass), class
    and static methods off the class, inherited ones; a property is read, not called, and
    an override that does nothing hides its base's method."""
    view = _view("archive.py")
    resolved = view.resolve("shards.store.Store")
    assert resolved is not None and resolved.cls is not None and resolved.function is None
    assert resolved.origin == (str(PACKAGE / "store.py"), 10)
    store = resolved.cls
    assert [(name, kind) for name, kind, _ in store.methods] == [
        ("__init__", "instance"), ("put", "instance"), ("put_in_cache", "instance"), ("staged", "class"),
        ("discard", "static"), ("describe", "instance"), ("spool", "property"),
    ]
    instance = store.instantiated()
    put = view.method(instance, "put")
    assert put is not None and put.positional == ("src", "dst") and put.name == "Store.put" and put.where == "shards/store.py:14"
    assert [(m.function, m.source.param, m.destination.param) for m in put.moves] == [("os.replace", "src", "dst")]
    staged = view.method(store, "staged")
    assert staged is not None and staged.returns_temp == "directory" and staged.positional == ()
    discard = view.method(store, "discard")
    assert discard is not None and discard.removes == {"path"} and discard.positional == ("path",)
    assert view.method(instance, "describe") is None and view.method(instance, "spool") is None
    assert view.method(instance, "__init__") is None  # keeps its argument, moves nothing
    # Off the class: class and static methods; a plain method takes ``self`` first.
    assert view.method(store, "put") is None
    method = view.resolve("shards.store.Store.discard")
    assert method is not None and method.function == discard
    assert view.resolve("shards.store.Store.put") is None
    blob = view.resolve("shards.store.BlobStore")
    assert blob is not None and blob.cls is not None and blob.cls.bases == (store,)
    assert view.method(blob.cls.instantiated(), "put") == put
    assert view.method(blob.cls.instantiated(), "put_in_cache") is None  # its own, which moves nothing


def test_a_class_method_helper_is_found_for_one_file_alone_and_named_in_the_message() -> None:
    """Checked alone, ``archive.py`` reads ``store.py`` through its import; the finding
    names the method with its class, and where the rename is."""
    path = PACKAGE / "archive.py"
    found = lint_source(path.read_bytes(), str(path), Config(root=SHARDS)).findings
    messages = {f.span.line: f.message for f in found if f.code == "XDV101"}
    assert sorted(messages) == [15, 21, 38]
    assert messages[15].startswith("`Store.put()` calls `os.replace` (at `shards/store.py:15`)")
    assert messages[38] == messages[15]  # through ``self.store``, set in ``__init__``


def test_a_cycle_of_class_bases_across_modules_ends_and_keeps_each_class_own_methods(tmp_path: Path) -> None:
    """``class A(b.B)`` and ``class B(a.A)``: the cycle resolves to nothing, and each
    class's own methods are still followed."""
    proj = _project_of(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/a.py": "import os\nfrom pkg import b\n\nclass A(b.B):\n    def put(self, src, dst):\n        os.replace(src, dst)\n",
        "pkg/b.py": "import shutil\nfrom pkg.a import A\n\nclass B(A):\n    def drop(self, path):\n        shutil.rmtree(path)\n",
    })
    a = proj.resolve("pkg.a.A", classes=True)
    b = proj.resolve("pkg.b.B", classes=True)
    assert a is not None and a.cls is not None and b is not None and b.cls is not None
    put = proj.method(a.cls.instantiated(), "put")
    drop = proj.method(b.cls.instantiated(), "drop")
    assert put is not None and put.moves and drop is not None and drop.removes == {"path"}


def test_a_class_summary_reads_no_method_until_one_is_asked_for(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A class of many methods costs one look at its ``def`` lines; a method's summary is
    worked out when a caller reads it, and once."""
    methods = "".join(f"    def m{i}(self, src, dst):\n        os.replace(src, dst)\n" for i in range(50))
    proj = _project_of(tmp_path, {"pkg/__init__.py": "", "pkg/big.py": f"import os\n\nclass Big:\n{methods}"})
    summarised: List[str] = []
    summarise = project.summarise
    monkeypatch.setattr(project, "summarise", lambda node, *a, **k: summarised.append(node.name) or summarise(node, *a, **k))
    big = proj.resolve("pkg.big.Big", classes=True)
    assert big is not None and big.cls is not None and len(big.cls.methods) == 50 and summarised == []
    assert proj.method(big.cls.instantiated(), "m7") is not None and proj.method(big.cls.instantiated(), "m7") is not None
    assert summarised == ["m7"]


def test_the_scan_keeps_a_file_that_makes_a_temp_and_uses_a_class_that_may_rename(tmp_path: Path) -> None:
    """A class method that returns a temp (``Store.staged()``) and a method inherited from
    another module's class (``self.put`` in ``class Writer(Store)``): the analysis follows
    both. The scan summarises no class, but keeps a file for the move rules when it makes a
    temp and reads a method of a class whose text, or a base's, may rename it
    (``renaming_methods``). A file
    that makes no temp itself (the temp comes from ``Store.staged()``) it does not keep yet:
    the check sees that one only without the scan."""
    shutil.copytree(SHARDS, tmp_path / "shards")
    path = tmp_path / "shards" / "shards" / "writer.py"
    head = "import os\nimport tempfile\n\nfrom shards.paths import CACHE_ROOT\nfrom shards.store import Store\n\n\n"
    staged = "def staged(name):\n    store = Store(CACHE_ROOT)\n    scratch = Store.staged()\n    store.put_in_cache(scratch, name)\n"
    writer = "class Writer(Store):\n    def publish(self, name):\n        tmp = tempfile.mkdtemp()\n        self.put(tmp, os.path.join(CACHE_ROOT, name))\n"
    config = Config(root=tmp_path / "shards")

    def findings(prescan: bool) -> List[Tuple[int, str]]:
        project.forget()
        project_text.forget()
        return sorted((f.span.line, f.code) for f in lint_source(path.read_bytes(), str(path), config, prescan=prescan).findings)

    path.write_text(f"{head}{staged}\n\n{writer}")
    expected = [(10, "XDV201"), (11, "XDV101"), (16, "XDV201"), (17, "XDV101")]
    assert findings(prescan=False) == findings(prescan=True) == expected
    messages = {f.span.line: f.message for f in lint_source(path.read_bytes(), str(path), config).findings}
    assert messages[11].startswith("`Store.put_in_cache()` calls `os.rename` (at `shards/store.py:18`)")
    assert messages[17].startswith("`Store.put()` calls `os.replace` (at `shards/store.py:15`)")
    path.write_text(f"{head}{staged}")
    assert findings(prescan=False) == [(10, "XDV201"), (11, "XDV101")]
    assert findings(prescan=True) == []


def test_the_methods_of_a_class_that_may_rename_are_its_own_and_its_bases(tmp_path: Path) -> None:
    """``renaming_methods``, from texts: of a class that renames (not of its methods that
    do not, nor of one that only calls another: the analysis follows no such call),
    through a re-export, a star import, a base read off a module in a header over lines
    (``Generic[K, V]`` and a keyword among the bases), a base of the same module; none of
    a class that only replaces in strings, of a cycle of bases, or of a module."""
    proj = _project_of(tmp_path, {
        "pkg/__init__.py": "from .base import Store\n",
        "pkg/base.py": (
            "import os\n\nclass Store:\n    def put(self, src, dst):\n        os.replace(src, dst)\n\n"
            "    def describe(self, path):\n        return f'<{path}>'\n\n"
            "    def put_twice(self, src, dst):\n        self.put(src, dst)\n\n"
            "    @staticmethod\n    def swap(src, dst):\n        os.rename(src, dst)\n\n"
            "class Text:\n    def clean(self, s):\n        return s.replace('a', 'b')\n\n"
            "class Near(Store):\n    def link(self, src, dst):\n        os.link(src, dst)\n"
        ),
        "pkg/sub.py": (
            "from abc import ABCMeta\nfrom typing import Generic\n\nfrom pkg import base\n\n"
            "class Local(\n    Generic[K, V],\n    base.Store,\n    metaclass=ABCMeta,\n):\n    pass\n\n"
            "class Other(base.Text):\n    pass\n"
        ),
        "pkg/star.py": "from pkg.base import *\n",
        "pkg/a.py": "from pkg.b import B\n\nclass A(B):\n    pass\n",
        "pkg/b.py": "from pkg.a import A\n\nclass B(A):\n    pass\n",
        "pkg/columns.py": (
            "import os\n\nclass Columns:\n    def rename_column(self, columns):\n"
            "        def rename(names):\n            return [n.upper() for n in names]\n\n"
            "        return rename(columns)\n\n"
            "    def move(self, src, dst):\n        def rename(a, b):\n            os.rename(a, b)\n\n"
            "        rename(src, dst)\n"
        ),
    })
    asked = [
        ("pkg.base", "Store"), ("pkg.base", "Text"), ("pkg.base", "Near"), ("pkg", "Store"), ("pkg.sub", "Local"),
        ("pkg.sub", "Other"), ("pkg.star", "Store"), ("pkg.star", "Text"), ("pkg.a", "A"), ("pkg.b", "B"), ("pkg.base", "os"),
        ("pkg.columns", "Columns"),
    ]
    found = {(module, name): project_text.renaming_methods(proj, module, name) for module, name in asked}
    store = {"put", "swap"}
    assert {pair: methods for pair, methods in found.items() if methods} == {
        ("pkg.base", "Store"): store, ("pkg.base", "Near"): store | {"link"}, ("pkg", "Store"): store,
        ("pkg.sub", "Local"): store, ("pkg.star", "Store"): store,
        ("pkg.columns", "Columns"): {"move"},  # ``rename_column`` calls a function of its own named ``rename``
    }


@pytest.mark.parametrize(
    "body, helper",
    [
        ("def rename(old, new):\n    return {new: old}\n", False),  # its own name is no call
        ("def rename(src, dst):\n    os.rename(src, dst)\n", True),
        ("def keys(d):\n    def rename(k):\n        return k.lower()\n    return [rename(k) for k in d]\n", False),
        ("def stage(d):\n    def mkstemp():\n        return tempfile.mkstemp()\n    return mkstemp()\n", True),
        ("def publish(src, dst):\n    rename(src, dst)\n", True),  # an imported ``rename``
    ],
)
def test_a_function_is_a_helper_by_its_calls_not_by_a_function_of_its_own_named_as_one(body: str, helper: bool) -> None:
    """``_may_help``: the ``def`` of a function named as a rename or temp factory, and the
    bare calls of one a function defines, are no such call; what it does inside still is."""
    source, defs = project_text._split(("import os, tempfile\n\n" + body).encode())
    assert bool(project_text.facts_of(source, defs).helpers) is helper


@pytest.mark.parametrize("cls, method, kept", [("Store", "put", True), ("Text", "put", False), ("Store", "describe", False)])
def test_a_file_that_makes_a_temp_is_kept_for_the_move_rules_only_with_a_method_that_may_rename(
    tmp_path: Path, cls: str, method: str, kept: bool
) -> None:
    """The move rules' gate: a file with no move of its own that makes a temp and hands it
    to a method of a project class is kept when the method may rename, not otherwise."""
    _project_of(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/base.py": (
            "import os\n\nclass Store:\n    def put(self, src, dst):\n        os.replace(src, dst)\n\n"
            "    def describe(self, src, dst):\n        return f'{src} -> {dst}'\n\n"
            "class Text:\n    def put(self, src, dst):\n        return src.replace('a', dst)\n"
        ),
        "pkg/user.py": (
            f"import tempfile\n\nfrom pkg.base import {cls}\n\n"
            f"def save(name):\n    tmp = tempfile.mkdtemp()\n    {cls}().{method}(tmp, '/home/me/.cache/' + name)\n"
        ),
    })
    path = tmp_path / "pkg" / "user.py"
    scan = Scan(path.read_text(), path=str(path))
    assert registry._may_move(scan, DEFAULT) is kept


@pytest.mark.parametrize("name, kept", [("swap", True), ("publish", False)])
def test_xdv202_s_gate_keeps_a_guarded_alias_of_a_move_not_a_helper_that_moves(tmp_path: Path, name: str, kept: bool) -> None:
    """XDV202 takes a call of a helper that renames for no move (in its own module too), so
    its gate keeps a file for an imported alias of one (``swap = os.rename``) used in a
    ``try``, not for such a helper; the whole analysis agrees."""
    _project_of(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/compat.py": "import os\n\nswap = os.rename\n\ndef publish(src, dst):\n    os.replace(src, dst)\n",
        "pkg/user.py": (
            f"from pkg.compat import {name}\n\ndef save(src, dst):\n    try:\n        {name}(src, dst)\n"
            "    except OSError:\n        pass\n"
        ),
    })
    path = tmp_path / "pkg" / "user.py"
    assert registry._may_swallow(Scan(path.read_text(), path=str(path)), DEFAULT) is kept
    project.forget()
    found = lint_source(path.read_bytes(), str(path), Config(root=tmp_path, select=("XDV202",)), prescan=False).findings
    assert [(f.span.line, f.code) for f in found] == ([(6, "XDV202")] if kept else [])


def _summary_of(tmp_path: Path, text: str) -> project.Summary:
    """The index's summary of module ``m``, whose text is ``text``."""
    path = tmp_path / "m.py"
    path.write_text(text)
    summary = project._summarise(str(path), "m", False)
    assert summary is not None
    return summary


def test_a_class_shape_from_its_text_is_the_one_its_parse_gives(tmp_path: Path) -> None:
    """``_class_shape`` reads a class's methods off its text, not a parse of its body: the
    same names, kinds and lines as a parse gives (on the ecosystem corpus, 32,139 of 32,143
    classes; the rest add a name from a ``def`` in a docstring, which finds no node), with
    decorators, a header over several lines, an async method, a nested class's method."""
    text = (
        "import functools\n\n@decorated\nclass C(\n    Base,\n    metaclass=Meta,\n):\n"
        '    """Doc.\n\n    def fake(self):\n    """\n\n    X = 1\n\n'
        "    @staticmethod\n    def s(a):\n        pass\n\n    @functools.cached_property\n    def c(self):\n        pass\n\n"
        "    @x.setter\n    def x(self, v):\n        pass\n\n    async def a(self):\n        pass\n\n"
        "    class Inner:\n        def inner(self):\n            pass\n\n    def fake(self):\n        pass\n"
    )
    summary = _summary_of(tmp_path, text)
    assert summary.classes == {"C": 4}
    bases, methods = project._class_shape(summary, "C", 4)  # type: ignore[misc]
    assert [ast.unparse(b) for b in bases] == ["Base"]
    assert methods == [("fake", "instance", 10), ("s", "static", 16), ("c", "property", 20), ("x", "property", 24),
                       ("a", "async", 27), ("fake", "instance", 34)]
    node = summary.cls("C")
    assert node is not None
    assert [(s.name, s.lineno) for s in node.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))] == [
        (name, line) for name, _, line in methods[1:]
    ]
    # The last ``def`` of a name is the method: a ``def`` in the docstring above hides nothing.
    found = ExportedClass("m.C", "m.py", 4, tuple(methods)).defining("fake")
    assert found is not None and found[2] == 34


def test_a_method_parsed_from_its_own_lines_is_the_one_the_class_parse_gives(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``_method_node`` parses a method's own lines (not dedented: a docstring keeps its
    text), its decorators and comments among them, and black's ``):`` that closes a
    signature spread over lines; a line of a string at column 0 cuts it short, and then
    the class is parsed."""
    text = (
        "import os\n\nclass C:\n    X = 1\n\n    @staticmethod\n    # a comment\n    def put(src, dst):\n"
        '        """Put.\n\n        Moves it."""\n        os.replace(src, dst)\n\n'
        '    def usage(self):\n        return """\nat column 0\n"""\n\n'
        "    def spread(\n        self,\n        src,\n    ) -> None:\n        os.replace(src, '/cache')\n\n"
        "    def last(self):\n        pass\n"
    )
    summary = _summary_of(tmp_path, text)
    assert 3 in summary.unparsed
    node = summary.cls("C")
    assert node is not None
    parses: List[str] = []
    whole = project.Summary.cls
    monkeypatch.setattr(project.Summary, "cls", lambda self, name: parses.append(name) or whole(self, name))
    for method in (s for s in node.body if isinstance(s, ast.FunctionDef)):
        parses.clear()
        found = project._method_node(summary, "C", 3, method.name, method.lineno)
        assert found is not None and ast.dump(found) == ast.dump(method)
        assert parses == (["C"] if method.name == "usage" else [])


@pytest.mark.parametrize("removal, expected", [("os.remove(out)", "XDV203"), ("shutil.rmtree(os.path.dirname(out))", None)])
def test_a_helper_returning_a_path_inside_a_new_temp_directory_is_followed_into_other_modules(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, removal: str, expected: str
) -> None:
    """``return os.path.join(tempfile.mkdtemp(), suffix)`` in another module: each call is
    a creation, as ``return mkdtemp()`` is, of the directory the path lies in. Removing the
    file leaves that directory (XDV203); removing the directory lets go of it. Without the
    index the call is unknown, and nothing is reported."""
    files = {
        "setup.cfg": "",
        "pkg/__init__.py": "",
        "pkg/scratch.py": "import os, tempfile\ndef scratch_path(suffix):\n    return os.path.join(tempfile.mkdtemp(), suffix)\n",
        "pkg/user.py": (
            "import os, shutil, subprocess\nfrom pkg.scratch import scratch_path\ndef build(src):\n"
            f"    out = scratch_path('out.o')\n    try:\n        subprocess.check_call(['cc', src, '-o', out])\n"
            f"    finally:\n        {removal}\n"
        ),
    }
    for relative, text in files.items():
        (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / relative).write_text(text)
    project.forget()
    path = tmp_path / "pkg" / "user.py"
    found = lint_source(path.read_bytes(), str(path), Config(root=tmp_path)).findings
    assert [(f.span.line, f.code) for f in found] == ([(4, expected)] if expected else [])
    if expected:
        assert "the directory holding `out`" in found[0].message and "made by `scratch_path()` at `pkg/scratch.py:2`" in found[0].message
    monkeypatch.setenv(project.SWITCH, "0")
    assert lint_source(path.read_bytes(), str(path), Config(root=tmp_path)).findings == ()
