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
        "d": (DIRECTORY_OBJECT, False), "e": (FILE, True), "g": (FILE_OBJECT, False),
    }
    # A deleting NamedTemporaryFile is followed (for a file made again at its name), and
    # is no leak of its own.
    (g,) = [l for l in found if l.temp.handle == "g"]
    assert [l.temp.handle for l in found if l.temp.deleting] == ["g"] and g.temp.closing
    assert not g.never_released and not g.leaks and g.remade is None


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


def by_handle(source: str) -> dict:
    return {l.temp.handle: l for l in lifetimes(source)}


def test_creation_shapes() -> None:
    found = by_handle(
        """
        import functools, os, tempfile
        from pathlib import Path
        make = functools.partial(tempfile.NamedTemporaryFile, delete=False)
        def f(out):
            a = tempfile.NamedTemporaryFile(delete=False).name
            b = tempfile.NamedTemporaryFile(suffix=".mp4").name
            c = os.path.join(tempfile.mkdtemp(), "x")
            d = out or Path(tempfile.mkdtemp())
            e = make()
            g = tempfile.NamedTemporaryFile(suffix=".mp4")
        """
    )
    assert set(found) == {"a", "b", "c", "d", "e", "g"}
    assert [h for h, l in found.items() if l.temp.deleting] == ["g"]  # deletes its file on close
    assert (found["a"].temp.kind, found["a"].temp.named) == (FILE, False)
    assert (found["b"].temp.kind, found["b"].temp.named) == (FILE, True)  # a name, as from ``mktemp``
    assert found["c"].temp.inside and found["c"].temp.kind == DIRECTORY
    assert found["d"].temp.conditional and "out" in found["d"].temp.guards
    assert found["e"].temp.kind == FILE_OBJECT and found["e"].temp.factory == "tempfile.NamedTemporaryFile"


def test_a_call_argument_is_used_not_handed_off() -> None:
    for use in ("run(path=tmp)", "subprocess.run(['x', tmp])", "run(os.path.join(tmp, 'x'))", "return run(tmp)"):
        (found,) = lifetimes(f"import os, subprocess, tempfile\ndef f(run):\n    tmp = tempfile.mkdtemp()\n    {use}\n")
        assert not found.handed_off and found.never_released, use


def test_real_hand_offs() -> None:
    for statement in (
        "return Result(tmp)", "return [tmp]", "return {'path': tmp}", "return os.path.join(tmp, 'x')",
        "holder = [tmp]\n    return holder", "jobs.append(tmp)", "jobs[0] = tmp", "holder = []\n    holder.append(tmp)\n    return holder",
    ):
        source = f"import os, tempfile\nclass Result:\n    pass\ndef f(jobs):\n    tmp = tempfile.mkdtemp()\n    {statement}\n"
        found = by_handle(source)["tmp"]
        assert found.handed_off and not found.never_released, statement


def test_a_local_holder_that_stays_local_hands_nothing_off() -> None:
    found = by_handle("import tempfile\ndef f():\n    tmp = tempfile.mkdtemp()\n    holder = [tmp]\n    inspect(holder)\n")["tmp"]
    assert not found.handed_off and found.never_released


def test_a_store_on_self_hands_off_only_where_the_class_removes_it() -> None:
    source = """
        import shutil, tempfile
        class Kept:
            def make(self):
                tmp = tempfile.mkdtemp()
                self.dir = tmp
        class Removed:
            def make(self):
                tmp = tempfile.mkdtemp()
                self.dirs.append(tmp)
            def close(self):
                while self.dirs:
                    shutil.rmtree(self.dirs.pop())
        class Base:
            def close(self):
                shutil.rmtree(self.root)
        class Derived(Base):
            def __init__(self):
                self.root = tempfile.mkdtemp()
    """
    kept, removed = lifetimes(source)  # both ``tmp``: in source order
    assert kept.never_released and kept.kept_on == "self.dir"
    assert removed.handed_off and not removed.never_released
    # ``self.root`` in ``Derived`` is not followed at all: its base class removes it.


def test_the_standard_librarys_state_is_no_owner() -> None:
    found = by_handle("import sys, tempfile\ndef f():\n    d = tempfile.mkdtemp()\n    sys.path.insert(0, d)\n")["d"]
    assert not found.handed_off and found.never_released


def test_enter_owns_what_it_stores_until_it_returns() -> None:
    (found,) = lifetimes(
        """
        import shutil, tempfile
        class Box:
            def __enter__(self):
                self.root = tempfile.mkdtemp()
                self.server = start(self.root)
                return self
            def __exit__(self, *exc):
                shutil.rmtree(self.root)
        """
    )
    assert found.leaking and code(found.leaks[0].origin) == "self.server = start(self.root)"
    assert found.wrap is not None


def test_a_context_manager_owns_what_it_yields() -> None:
    found = by_handle(
        """
        import contextlib, os, shutil, tempfile
        @contextlib.contextmanager
        def lent(dst):
            fd, tmp = tempfile.mkstemp(dir=os.path.dirname(dst))
            with os.fdopen(fd, "wb") as f:
                yield f
        @contextlib.contextmanager
        def owned():
            d = tempfile.mkdtemp()
            try:
                yield d
            finally:
                shutil.rmtree(d)
        def generator():
            d = tempfile.mkdtemp()
            yield d
        """
    )
    assert found["tmp"].leaking and "yield f" in {code(l.origin) for l in found["tmp"].leaks}
    assert found["d"].handed_off and not found["d"].leaking


def test_cleanup_guarded_elsewhere_or_after_other_steps() -> None:
    for finally_block in (
        "if os.path.exists(tmp):\n            os.remove(tmp)",
        "f.close()\n        log.info('done')\n        os.unlink(tmp)",
        "if created:\n            os.unlink(tmp)",
        "_drop(path=tmp)",
        "self._remove(tmp)",
    ):
        source = (
            "import os, tempfile\n"
            "def _drop(path):\n    if os.path.exists(path):\n        os.remove(path)\n"
            "class C:\n"
            "  def _remove(self, p):\n    os.unlink(p)\n"
            "  def f(self, f, log, dst):\n"
            "    created = False\n"
            "    fd, tmp = tempfile.mkstemp()\n"
            "    created = True\n"
            "    try:\n"
            "        os.write(fd, b'x')\n"
            "        os.replace(tmp, dst)\n"
            "    finally:\n"
            f"        {finally_block}\n"
        )
        (found,) = lifetimes(source)
        assert found.handed_off and not found.leaking, finally_block


def test_a_moves_own_failure_counts_only_across_locations() -> None:
    template = "import os, shutil, tempfile\ndef f(dst):\n    fd, tmp = tempfile.mkstemp({dir})\n    os.close(fd)\n    {move}\n"
    same = lifetimes(template.format(dir="dir=os.path.dirname(dst)", move="os.replace(tmp, dst)"))[0]
    assert same.handed_off and not same.leaking
    across = lifetimes(template.format(dir="", move="os.replace(tmp, dst)"))[0]
    assert across.leaking and code(across.leaks[0].origin) == "os.replace(tmp, dst)"
    fallback = lifetimes(template.format(
        dir="dir=os.path.dirname(dst)", move="try:\n        os.rename(tmp, dst)\n    except OSError:\n        shutil.copy(tmp, dst)"
    ))[0]
    assert fallback.leaking and fallback.leaks[0].exit == "carries on"


def test_never_released_leaves_out_what_others_remove() -> None:
    found = by_handle(
        """
        import os, shutil, tempfile
        def f(logdir, run):
            kept = tempfile.mkdtemp()
            chosen = tempfile.mkdtemp(dir=logdir)
            scratch = tempfile.TemporaryDirectory()
            outer = tempfile.mkdtemp()
            fd, inner = tempfile.mkstemp(dir=outer)
            run(kept, chosen, scratch, inner)
            shutil.rmtree(outer)
            def stop():
                shutil.rmtree(closed)
            closed = tempfile.mkdtemp()
            run(stop)
        """
    )
    assert found["kept"].never_released
    assert not found["chosen"].never_released  # made in a directory the code chose
    assert not found["scratch"].never_released  # its finalizer removes it
    assert "inner" not in found  # inside ``outer``, which goes
    assert not found["closed"].never_released  # a closure removes it


def test_every_leak_is_kept_and_the_first_in_source_order_comes_first() -> None:
    steps = "\n".join(f"    step{i}(tmp)" for i in range(30))
    source = f"import os, tempfile\ndef f(dst):\n    tmp = tempfile.mkdtemp()\n{steps}\n    os.rename(tmp, dst)\n"
    (found,) = lifetimes(source)
    assert len(found.leaks) == 31  # thirty steps and the move: no cap drops any
    assert code(found.leaks[0].origin) == "step0(tmp)"
    handlers = "\n".join(f"    try:\n        step{i}(tmp)\n    except OSError:\n        pass" for i in range(20))
    source = f"import os, tempfile\ndef f(dst):\n    tmp = tempfile.mkdtemp()\n{handlers}\n    os.rename(tmp, dst)\n"
    (found,) = lifetimes(source)
    assert {code(l.origin) for l in found.leaks} >= {f"step{i}(tmp)" for i in range(20)}
    assert code(found.leaks[0].origin) == "step0(tmp)"


def test_a_same_module_generator_called_beside_a_temp() -> None:
    (found,) = lifetimes(
        """
        import os, tempfile
        def items():
            yield 1
        def f(dst):
            fd, tmp = tempfile.mkstemp()
            os.close(fd)
            list(items())
            os.replace(tmp, dst)
        """
    )
    assert found.leaking


def test_messages_do_not_depend_on_the_hash_seed() -> None:
    """Set and dict-of-node order changes with ``PYTHONHASHSEED`` (and memory layout):
    the reported leak and the count of the others must not."""
    import os
    import subprocess
    import sys

    handlers = "\n".join(f"    try:\n        step{i}(tmp)\n    except OSError:\n        pass" for i in range(15))
    source = f"import os, tempfile\ndef f(dst):\n    tmp = tempfile.mkdtemp()\n    x = {{1, 2}}\n{handlers}\n    os.rename(tmp, dst)\n"
    script = (
        "import sys\nfrom dataclasses import replace\nfrom xdevlint.config import Config\nfrom xdevlint.engine import lint_source\n"
        "config = replace(Config(), select=('XDV2',))\n"
        "print([f.message for f in lint_source(sys.stdin.read().encode(), 'm.py', config).findings])\n"
    )
    outputs = set()
    for seed in ("0", "1", "2", "3"):
        run = subprocess.run(
            [sys.executable, "-c", script], input=source, capture_output=True, text=True, check=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
        )
        outputs.add(run.stdout)
    (output,) = outputs
    assert "`step0(tmp)`" in output and "(and 15 other error paths)" in output


def test_a_partial_factory_is_the_one_its_call_can_see() -> None:
    """``make()`` makes a temp where ``make`` is a partial factory of its own function, of
    the module, or (``self.make()``) of its object's class: not because another function
    binds a local ``make`` of its own."""
    found = lifetimes(
        """
        import functools, subprocess, tempfile
        def other():
            make = functools.partial(tempfile.NamedTemporaryFile, delete=False)
            return make
        def caller(make):
            f = make()
            subprocess.run(["x", f.name])
        class Spool:
            def __init__(self):
                self.make = functools.partial(tempfile.mkdtemp, prefix="spool-")
            def fill(self):
                d = self.make()
                subprocess.run(["fill", d])
        class Other:
            def fill(self):
                d = self.make()
                subprocess.run(["fill", d])
        """
    )
    assert [(l.temp.handle, l.temp.kind) for l in found] == [("d", DIRECTORY)]
    assert found[0].never_released


def test_a_test_of_the_name_covers_the_other_branch_only_once_the_temp_may_exist() -> None:
    """``if os.path.isfile(fn): os.remove(fn)`` in a ``finally`` removes the temp on the
    error paths too; ``if tmp_dir is not None: rmtree(tmp_dir) else: tmp_dir = mkdtemp()``
    tests a parameter, not the temp made in the other branch."""
    guarded, given = lifetimes(
        """
        import os, shutil, tempfile
        def guarded(run):
            fd, fn = tempfile.mkstemp()
            os.close(fd)
            try:
                run(fn)
            finally:
                if os.path.isfile(fn):
                    os.remove(fn)
        def given(tmp_dir=None, keep=None):
            if tmp_dir is not None:
                shutil.rmtree(tmp_dir, ignore_errors=True)
            else:
                tmp_dir = tempfile.mkdtemp()
            if keep is not None:
                keep.append(tmp_dir)
            return tmp_dir
        """
    )
    assert guarded.temp.handle == "fn" and not guarded.leaking and not guarded.never_released
    assert given.temp.handle == "tmp_dir" and given.handed_off and not given.never_released


def test_an_object_made_of_the_temp_counts_only_once_bound_after_it() -> None:
    # ``is_file`` is bound from ``video`` before ``video`` names the temp: working through it
    # is not work on the temp, so the first statement the world can make fail is the one that
    # opens the temp, not ``client.fetch(is_file)`` before it.
    (found,) = lifetimes(
        """
        import os
        import tempfile
        def load(video, client):
            is_file = os.path.isfile(video)
            video = tempfile.NamedTemporaryFile(delete=False).name
            data = client.fetch(is_file)
            fh = open_store(video, "w")
            fh.write(data)
            fh.close()
            os.unlink(video)
        """
    )
    assert found.cited is not None and code(found.cited.origin) == 'fh = open_store(video, "w")'
