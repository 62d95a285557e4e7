"""XDV201's cheap scan: the shapes it rules out are ones the lifetime analysis never
flags, and the shapes that leak always reach the analysis."""

from __future__ import annotations

import ast
import textwrap
from dataclasses import replace

import pytest

from xdevlint.config import Config
from xdevlint.engine import lint_source
from xdevlint.stages.scan_lifetime import temp_may_leak

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
    "stored next": """
        import tempfile, shutil
        def f(self):
            d = tempfile.mkdtemp()
            self.tempdirs.append(d)
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
                message = "saved to %s" % path
            except:
                message = "could not save"
            print(message)
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
    "a close before the removal in finally": """
        import os, tempfile
        def f():
            f = tempfile.NamedTemporaryFile(delete=False)
            try:
                f.write(b"x")
                os.replace(f.name, "/srv/x")
            finally:
                f.close()
                os.unlink(f.name)
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
            self.addCleanup(os.unlink, path)
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
        from mylib import os
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
