"""The temp-lifetime analysis on its own: which temps leak, where, and what a fix may do."""

from __future__ import annotations

import textwrap
from typing import List

import libcst as cst
from libcst.metadata import MetadataWrapper

from xdevlint.analysis.lifetime import DIRECTORY, DIRECTORY_OBJECT, FILE, FILE_OBJECT, Lifetime, LifetimeProvider
from xdevlint.analysis.provenance import ProvenanceProvider
from xdevlint.analysis.locations import DEFAULT


def lifetimes(source: str) -> List[Lifetime]:
    module = cst.parse_module(textwrap.dedent(source))
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True, cache={ProvenanceProvider: DEFAULT})
    found = wrapper.resolve(LifetimeProvider)
    return sorted(found.values(), key=lambda l: l.temp.handle)


def code(node: cst.CSTNode) -> str:
    return cst.Module(body=[]).code_for_node(node).strip().splitlines()[0]


def test_kinds_and_names() -> None:
    found = lifetimes(
        """
        import tempfile
        from pathlib import Path
        def f():
            fd, a = tempfile.mkstemp()
            b = tempfile.mkdtemp()
            c = tempfile.NamedTemporaryFile(delete=False)
            d = tempfile.TemporaryDirectory()
            e = Path(tempfile.mktemp())
            g = tempfile.NamedTemporaryFile()
        """
    )
    kinds = {l.temp.handle: (l.temp.kind, l.temp.is_path) for l in found}
    assert kinds == {
        "a": (FILE, False), "b": (DIRECTORY, False), "c": (FILE_OBJECT, False),
        "d": (DIRECTORY_OBJECT, False), "e": (FILE, True),
    }


def test_swallowing_handler_in_loop_leaks_at_the_move() -> None:
    (found,) = lifetimes(
        """
        import os, tempfile
        def f(items, dst):
            for item in items:
                fd, tmp = tempfile.mkstemp()
                os.close(fd)
                try:
                    os.rename(tmp, dst)
                except OSError:
                    continue
        """
    )
    assert found.leaking
    leak = found.leaks[0]
    assert code(leak.origin) == "os.rename(tmp, dst)"
    assert leak.exit == "continues the loop"
    assert found.handler_fixes and found.handler_fixes[0][1] is None


def test_finally_and_reraising_cleanup_do_not_leak() -> None:
    for body in (
        "try:\n        os.rename(tmp, dst)\n    finally:\n        os.unlink(tmp) if os.path.exists(tmp) else None",
        "try:\n        os.rename(tmp, dst)\n    except BaseException:\n        os.unlink(tmp)\n        raise",
        "try:\n        os.rename(tmp, dst)\n    except Exception:\n        shutil.rmtree(tmp, ignore_errors=True)\n        raise",
    ):
        (found,) = lifetimes(f"import os, shutil, tempfile\ndef f(dst):\n    tmp = tempfile.mkdtemp()\n    {body}\n")
        assert not found.leaking, body


def test_narrow_handler_lets_other_errors_through() -> None:
    (found,) = lifetimes(
        """
        import json, os, tempfile
        def f(obj, dst):
            fd, tmp = tempfile.mkstemp()
            try:
                with os.fdopen(fd, "w") as out:
                    json.dump(obj, out)
                os.replace(tmp, dst)
            except OSError:
                os.unlink(tmp)
                raise
        """
    )
    assert found.leaking
    assert {l.exit for l in found.leaks} == {"propagates"}
    assert found.wrap is not None and not found.handler_fixes


def test_os_only_statement_is_covered_by_oserror_handler() -> None:
    (found,) = lifetimes(
        """
        import os, tempfile
        def f(dst):
            tmp = tempfile.mktemp()
            try:
                os.rename(tmp, dst)
            except OSError:
                os.unlink(tmp)
                raise
        """
    )
    assert not found.leaking


def test_mktemp_name_exists_only_after_its_first_use() -> None:
    (found,) = lifetimes(
        """
        import os, tempfile
        def f(sock, dst):
            path = tempfile.mktemp()
            sock.bind(path)
            os.rename(path, dst)
        """
    )
    assert found.leaking
    assert code(found.leaks[0].origin) == "os.rename(path, dst)"


def test_no_hand_off_means_kept_on_purpose() -> None:
    (found,) = lifetimes("import tempfile\ndef f(run):\n    d = tempfile.mkdtemp()\n    run(d)\n")
    assert not found.handed_off and not found.leaking


def test_hand_offs() -> None:
    for statement in ("return tmp", "self.tmp = tmp", "registry.append(tmp)", "atexit.register(shutil.rmtree, tmp)", "yield tmp"):
        source = f"import atexit, shutil, tempfile\ndef f(self, registry):\n    tmp = tempfile.mkdtemp()\n    {statement}\n"
        (found,) = lifetimes(source)
        assert found.handed_off and not found.leaking, statement


def test_helper_moves_the_obligation_to_the_caller() -> None:
    found = lifetimes(
        """
        import os, tempfile
        def make():
            fd, path = tempfile.mkstemp()
            os.close(fd)
            return path
        def use(dst):
            staged = make()
            try:
                os.replace(staged, dst)
            except OSError:
                pass
        """
    )
    by_name = {l.temp.handle: l for l in found}
    assert not by_name["path"].leaking
    assert by_name["staged"].leaking
    assert by_name["staged"].temp.factory == "tempfile.mkstemp"


def test_same_module_cleanup_function_counts() -> None:
    (found,) = lifetimes(
        """
        import os, tempfile
        def _rm(p):
            os.unlink(p)
        def f(dst):
            fd, tmp = tempfile.mkstemp()
            try:
                os.write(fd, b"x")
                os.replace(tmp, dst)
            except BaseException:
                _rm(tmp)
                raise
        """
    )
    assert not found.leaking


def test_creation_inside_try_needs_a_guard() -> None:
    (found,) = lifetimes(
        """
        import os, tempfile
        def f(items, dst):
            for item in items:
                try:
                    fd, tmp = tempfile.mkstemp()
                    os.rename(tmp, dst)
                except OSError:
                    continue
        """
    )
    ((handler, guard),) = found.handler_fixes
    assert guard is not None and isinstance(guard[0], cst.Try)


def test_handler_using_the_temp_gets_no_fix() -> None:
    (found,) = lifetimes(
        """
        import os, shutil, tempfile
        def f(dst, log):
            tmp = tempfile.mkstemp()[1]
            try:
                os.rename(tmp, dst)
            except OSError:
                log(tmp)
        """
    )
    assert found.leaking and not found.handler_fixes
