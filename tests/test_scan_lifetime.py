"""XDV201's cheap scan: the shapes it rules out are ones the lifetime analysis never
flags, and the shapes that leak always reach the analysis."""

from __future__ import annotations

import ast
import textwrap
from dataclasses import replace

import pytest

from xdevlint.config import Config
from xdevlint.engine import lint_source
from xdevlint.stages.scan import Scan
from xdevlint.stages.scan_lifetime import temp_may_leak, temp_may_stay

CONFIG = replace(Config(), select=("XDV201",))


def _codes(source: str) -> list:
    return [f.code for f in lint_source(source.encode(), "m.py", CONFIG, prescan=False).findings]


SAFE = {
    "cleanup registered next": """
        import os, tempfile
        def f(self):
            fd, path = tempfile.mkstemp()
            self.addCleanup(os.unlink, path)
            os.write(fd, b"x")
            os.replace(path, "/srv/x")
    """,
    "stored next in a global registry": """
        import tempfile, shutil
        _tempdirs = []
        def f():
            d = tempfile.mkdtemp()
            _tempdirs.append(d)
            shutil.copy("a", d)
            shutil.rmtree(d)
    """,
    "finally removes first": """
        import os, tempfile
        def f():
            fd, path = tempfile.mkstemp()
            os.close(fd)
            try:
                os.system("more " + path)
                os.replace(path, "/srv/x")
            finally:
                os.unlink(path)
    """,
    "finally tests, then removes": """
        import os, tempfile
        def f(self):
            name = tempfile.mktemp()
            try:
                with open(name, "w") as out:
                    out.write("x")
                os.replace(name, "/srv/x")
            finally:
                self.restore = None
                if os.path.exists(name):
                    os.unlink(name)
    """,
    "finally removes in a try": """
        import os, tempfile
        def f():
            name = tempfile.mktemp()
            try:
                open(name, "w").close()
                os.replace(name, "/srv/x")
            finally:
                try:
                    os.remove(name)
                except OSError:
                    pass
    """,
    "directory object given away": """
        import shutil, tempfile
        def f(self):
            tmp = tempfile.TemporaryDirectory()
            self.enterContext(tmp)
            shutil.copy("a", tmp.name)
            tmp.cleanup()
    """,
    "alias of the object's name stored": """
        import tempfile
        def f(url):
            tfp = tempfile.NamedTemporaryFile(delete=False)
            filename = tfp.name
            _tempfiles.append(filename)
            tfp.write(url.read())
            tfp.close()
    """,
    "never handed off": """
        import os, tempfile
        def f(doc):
            fd, path = tempfile.mkstemp()
            try:
                with os.fdopen(fd, "w") as out:
                    out.write(doc)
                saved = True
            except:
                saved = False
            print(saved)
    """,
    "created on self in a class that removes it": """
        import os, shutil, tempfile
        class Workspace:
            def open(self):
                self.dir = tempfile.mkdtemp()
                os.chdir(self.dir)
            def close(self):
                shutil.rmtree(self.dir)
    """,
    "a method called mkdtemp": """
        import shutil
        def test(self):
            d = self.mkdtemp()
            shutil.copy("a", d)
            shutil.rmtree(d)
    """,
}


@pytest.mark.parametrize("source", SAFE.values(), ids=SAFE.keys())
def test_shapes_ruled_out_are_never_flagged(source: str) -> None:
    source = textwrap.dedent(source)
    assert not temp_may_leak(ast.parse(source))
    assert _codes(source) == []


LEAKING = {
    "a write before the registration": """
        import os, tempfile
        def f(self):
            fd, path = tempfile.mkstemp()
            os.write(fd, b"x")
            self.addCleanup(os.unlink, path)
            os.replace(path, "/srv/x")
    """,
    "a move inside the registration": """
        import os, tempfile
        def f(self):
            d = tempfile.mkdtemp()
            self.addCleanup(os.rmdir, os.rename(d, "/srv/x"))
            os.listdir(d)
            os.rmdir(d)
    """,
    "a helper hands its temp to a leaking caller": """
        import os, tempfile
        def make(self):
            fd, path = tempfile.mkstemp()
            os.close(fd)
            return path
        def caller(self):
            path = make(self)
            os.system("cp x " + path)
            os.replace(path, "/srv/x")
    """,
    "an alias of an alias of a factory": """
        import os, tempfile
        class Writer:
            make = tempfile.mkstemp
            def write(self, data, dst):
                mk = self.make
                fd, path = mk()
                os.write(fd, data)
                os.replace(path, dst)
    """,
    "an unlink that is not os.unlink": """
        import tempfile
        from mylib import make_fs
        os = make_fs()  # an object's method named unlink: not taken at its word
        def f(self):
            fd, path = tempfile.mkstemp()
            self.addCleanup(os.unlink, path)
            open(path).read()
            import shutil
            shutil.move(path, "/srv/x")
    """,
}


@pytest.mark.parametrize("source", LEAKING.values(), ids=LEAKING.keys())
def test_shapes_that_leak_reach_the_analysis(source: str) -> None:
    source = textwrap.dedent(source)
    assert temp_may_leak(ast.parse(source))
    assert "XDV201" in _codes(source)


MORE_LEAKING = {
    "the name of a NamedTemporaryFile": """
        import os, tempfile
        def f(fetch, dst):
            p = tempfile.NamedTemporaryFile(delete=False).name
            fetch(p)
            os.unlink(p)
    """,
    "a path inside a new temp directory": """
        import os, shutil, tempfile
        def f(save):
            p = os.path.join(tempfile.mkdtemp(), "x")
            save(p)
            shutil.rmtree(os.path.dirname(p))
    """,
    "a temp made only when no directory is given": """
        import shutil, tempfile
        def f(build, out=None):
            d = out or tempfile.mkdtemp()
            build(d)
            if out is None:
                shutil.rmtree(d)
    """,
    "stored on self in __enter__": """
        import shutil, tempfile
        class Box:
            def __enter__(self):
                self.root = tempfile.mkdtemp()
                self.server = start(self.root)
                return self
            def __exit__(self, *exc):
                shutil.rmtree(self.root)
    """,
    "stored on self in setUp": """
        import os, shutil, tempfile
        class Tests:
            def setUp(self):
                self.dir = tempfile.mkdtemp()
                self.server = start(self.dir)
            def tearDown(self):
                shutil.rmtree(self.dir)
    """,
    "a write in the body of the with that made it": """
        import os, tempfile
        def f(data, run):
            with tempfile.NamedTemporaryFile(delete=False) as f:
                f.write(data)
                name = f.name
            try:
                run(name)
            finally:
                os.remove(name)
    """,
    "a holder returned after a failing step": """
        import tempfile
        def f(fill):
            d = tempfile.mkdtemp()
            found = {"dir": d}
            fill(d)
            return found
    """,
}


@pytest.mark.parametrize("source", MORE_LEAKING.values(), ids=MORE_LEAKING.keys())
def test_new_shapes_that_leak_reach_the_analysis(source: str) -> None:
    source = textwrap.dedent(source)
    assert temp_may_leak(ast.parse(source))
    assert "XDV201" in _codes(source)


def _kept(source: str) -> list:
    config = replace(Config(), select=("XDV203",))
    return [f.code for f in lint_source(source.encode(), "m.py", config, prescan=False).findings]


SURELY_RELEASED = {
    "removed": "import os, tempfile\ndef f(run):\n    fd, p = tempfile.mkstemp()\n    run(p)\n    os.unlink(p)\n",
    "returned": "import tempfile\ndef f(run):\n    d = tempfile.mkdtemp()\n    run(d)\n    return d\n",
    "moved": "import os, tempfile\ndef f(dst):\n    fd, p = tempfile.mkstemp()\n    os.replace(p, dst)\n",
    "renamed as a path": "import tempfile\nfrom pathlib import Path\ndef f(dst):\n    p = Path(tempfile.mkdtemp())\n    p.rename(dst)\n",
    "registered": "import atexit, shutil, tempfile\ndef f():\n    d = tempfile.mkdtemp()\n    atexit.register(shutil.rmtree, d)\n    print(d)\n",
    "deleted on close": "import tempfile\ndef f(data):\n    g = tempfile.NamedTemporaryFile()\n    g.write(data)\n",
    "deleted by its with, name only read inside": (
        "import tempfile\ndef f(run):\n    with tempfile.NamedTemporaryFile() as g:\n        run(g.name)\n    print('done')\n"
    ),
    "a directory object": "import tempfile\ndef f(run):\n    t = tempfile.TemporaryDirectory()\n    run(t.name)\n",
    "kept on self by a class that removes it": (
        "import shutil, tempfile\nclass C:\n    def __init__(self):\n        self.d = tempfile.mkdtemp()\n"
        "    def close(self):\n        shutil.rmtree(self.d)\n"
    ),
}


@pytest.mark.parametrize("source", SURELY_RELEASED.values(), ids=SURELY_RELEASED.keys())
def test_temps_surely_released_are_ruled_out_for_xdv203(source: str) -> None:
    assert not temp_may_stay(ast.parse(source))
    assert _kept(source) == []


KEPT = {
    "used by a call only": "import subprocess, tempfile\ndef f():\n    fd, p = tempfile.mkstemp()\n    subprocess.run(['x', p])\n",
    "kept on self": "import tempfile\nclass C:\n    def __init__(self):\n        self.d = tempfile.mkdtemp()\n",
    "returned by a helper": "import tempfile\ndef make():\n    return tempfile.mkdtemp()\ndef f(run):\n    d = make()\n    run(d)\n",
    "a name used once": "import tempfile\ndef f(write):\n    p = tempfile.NamedTemporaryFile(suffix='.gif').name\n    write(p)\n",
    "a partial factory": "import functools, tempfile\nmk = functools.partial(tempfile.NamedTemporaryFile, delete=False)\ndef f(data):\n    g = mk()\n    g.write(data)\n",
    "made again at a closed temp's name": (
        "import tempfile\ndef f(save):\n    g = tempfile.NamedTemporaryFile(suffix='.xlsx')\n    g.close()\n    save(g.name)\n"
    ),
    "made again at its name after the with": (
        "import tempfile\ndef f(save):\n    with tempfile.NamedTemporaryFile() as g:\n        name = g.name\n    save(name)\n"
    ),
    "a deleting temp's name returned through an alias": (
        "import tempfile\ndef name():\n    with tempfile.NamedTemporaryFile() as g:\n        n = g.name\n        return n\n"
        "def f(save):\n    p = name()\n    save(p)\n"
    ),
    "made beside a deleting temp": (
        "import tempfile\ndef f(pack):\n    with tempfile.NamedTemporaryFile() as g:\n        pack(g.name, f'{g.name}.gz')\n"
    ),
    "in a holder that stays": "import tempfile\ndef f():\n    d = tempfile.mkdtemp()\n    holder = [d]\n    inspect(holder)\n",
    "renamed beside its own name": (
        "import os, tempfile\ndef f(write):\n    fd, p = tempfile.mkstemp()\n    os.close(fd)\n    os.rename(p, p + '.gz')\n    write(p + '.gz')\n"
    ),
    "renamed beside its own name by a method": (
        "import tempfile\nfrom pathlib import Path\ndef f():\n    p = Path(tempfile.mkdtemp())\n    p.rename(p.with_suffix('.d'))\n"
    ),
}


@pytest.mark.parametrize("source", KEPT.values(), ids=KEPT.keys())
def test_temps_that_stay_reach_the_analysis(source: str) -> None:
    assert temp_may_stay(ast.parse(source))
    assert "XDV203" in _kept(source)


TWO_TEMPS = """\
import os, tempfile
def safe(run):
    fd, p = tempfile.mkstemp()
    try:
        run(p)
    finally:
        os.unlink(p)
def leaks(run):
    é = "ü"; d = tempfile.mkdtemp()
    run(d, é)
    os.rmdir(d)
"""


def test_cleared_creations_are_placed_as_findings_are() -> None:
    """The scan clears each creation on its own, and says where it is as a finding would
    (1-based columns, in characters: the AST's count UTF-8 bytes)."""
    scan = Scan(TWO_TEMPS)
    assert scan.cleared_temps(stay=False) == {(3, 13)}
    findings = lint_source(TWO_TEMPS.encode(), "m.py", CONFIG, prescan=False).findings
    assert [(f.line, f.column) for f in (f.span for f in findings)] == [(9, 18)]
    assert scan.cleared_temps(stay=True) == {(3, 13), (9, 18)}


def test_a_cleared_creation_is_never_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    """A finding at a creation the scan cleared is dropped, so that another function of the
    file making the file worth parsing cannot change that creation's verdict; without the
    scan (``prescan=False``: the audits that hold the scan sound) it stands."""
    from xdevlint.stages import scan as scan_module

    assert [f.code for f in lint_source(TWO_TEMPS.encode(), "m.py", CONFIG).findings] == ["XDV201"]
    monkeypatch.setattr(scan_module, "cleared", lambda index, stay: frozenset({(3, 12), (9, 19)}))
    assert lint_source(TWO_TEMPS.encode(), "m.py", CONFIG).findings == ()
    assert [f.code for f in lint_source(TWO_TEMPS.encode(), "m.py", CONFIG, prescan=False).findings] == ["XDV201"]
