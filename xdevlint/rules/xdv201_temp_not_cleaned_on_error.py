"""XDV201 temp-not-cleaned-on-error."""

from __future__ import annotations

from typing import FrozenSet, Optional, Tuple

import libcst as cst

from xdevlint.analysis.lifetime import Lifetime, LifetimeProvider, Temp
from xdevlint.analysis.locations import Locations
from xdevlint.analysis.provenance import ProvenanceProvider
from xdevlint.fixes.cleanup import TITLE, Cleanups
from xdevlint.fixes.syntax import Names
from xdevlint.model import Fix
from xdevlint.rules.rule import Rule, snippet
from xdevlint.stages.scan import Scan

#: Words of which a file must contain one to create a temp (lower case): every
#: factory's own name, which ``from tempfile import mkstemp as mk`` still spells;
#: ``urlretrieve``; ``gettempdir``, for a unique name joined to it.
TEMP_FACTORY_WORDS = ("mkstemp", "mkdtemp", "mktemp", "namedtemporaryfile", "temporarydirectory", "urlretrieve", "gettempdir")

_EXITS = {
    "continues the loop": "continues the loop without removing it",
    "returns": "returns without removing it",
    "carries on": "swallows the error, and nothing after it removes the temp",
    "re-raises": "re-raises without removing it",
}


class TempNotCleanedOnError(Rule):
    """
    ## What it does
    Flags a temporary file or directory that the normal path removes, moves or hands
    on, but that some error path leaves behind: an exception that leaves the function
    with no `finally` or `except` removing the temp, or an `except` clause that
    swallows the error, returns, continues the loop or re-raises without removing it.
    The finding is on the creation call and names the statement whose failure leaks
    the temp (the first, in source order, of those likeliest to fail: I/O, a process,
    a `raise`, a call nothing here knows, before a builtin or a container's method),
    and the handler that lets it go. A temp no normal path lets go of at all is
    XDV203's, whatever its error paths do.

    Every way of making a temp counts: `mkstemp`, `mkdtemp`, `mktemp`,
    `NamedTemporaryFile(delete=False)` (and its `.name`), a path inside a new temp
    directory (`os.path.join(mkdtemp(), "x")`, `Path(mkdtemp()) / "x"`,
    `f"{mkdtemp()}/x"`, `mkdtemp() + os.sep + x`: the directory is the temp), a temp
    made only when no directory was given (`out or Path(mkdtemp())`), a
    `functools.partial(tempfile.NamedTemporaryFile, ...)`
    factory's call (a factory the call can see: the module's, its function's, its
    object's), `urllib.request.urlretrieve(url)` without a filename, a unique name in
    the temp directory (`os.path.join(tempfile.gettempdir(), f"x-{uuid.uuid4()}")`),
    a project's own maker named as tempfile's, imported by that name or reached through
    its module imported by its own name (toil's `from toil.lib.io import mkdtemp`,
    mercurial's `pycompat.mkstemp()`; an object's method so named is not one, nor is a
    module-level object's: pyomo's `TempfileManager.mkdtemp()`),
    `self.attr = mkdtemp()`, an item of a container the function made
    (`env["TMP"] = mkdtemp()`, `dirs.append(mkdtemp())`), and the call of a
    same-module helper that returns any of these (unless the call's own constant
    arguments keep the helper from making it: `fetch(url, cache=True)` of a helper that
    makes its temp under `if not cache:`). A `TemporaryDirectory()` object is
    not reported: when an error drops it, its finalizer removes the directory. Nor is a
    temp made inside a directory `tempfile` made (`dir=` a `mkdtemp()` of the function,
    of a `with TemporaryDirectory() as d`, or of `self._temp_dir` that a `tearDown`
    removes: whether that directory goes is asked of its own creation), or inside a
    staging directory the program keeps and removes whole (`dir=module.tmpdir`, or a
    prefix naming it: `prefix=module.tmpdir + "/"`). A parameter is such a directory
    only when the calls give it one: `dir=tmpdir` of `def f(text, tmpdir=None)` that a
    call of `f` in the module leaves out makes the temp in the temp directory.

    A move counts in any form the move rules know, also a move function handed over
    with its arguments (`self._run_safely(os.replace, tmp, dst)`,
    `loop.run_in_executor(None, os.rename, tmp, dst)`).

    Only real transfers hand a temp on: returning or yielding it (or a container or
    object holding it) to the caller; storing it on `self` where another method of
    the class removes or moves it (otherwise the class keeps it, and XDV203 checks it
    as the owner; a temp on `self` that only the method making it removes is followed
    in that method); storing it where it outlives the call (a parameter's or a
    global's container); registering its removal (`atexit.register(shutil.rmtree, d)`,
    `self.addCleanup(os.unlink, p)`, `stack.callback(...)`, `weakref.finalize(...)`).
    A temp passed as an ordinary call argument (`run(path=tmp)`,
    `subprocess.run([..., tmp])`, a path derived from it) is used there, not handed
    on. A `@contextmanager` that yields the temp (or a handle on it) still owns it:
    the caller's exception arrives at the `yield`. `__enter__` owns what it stores on
    `self` until it returns: `__exit__` never runs when `__enter__` raises. So does a
    test's `setUp` (`asyncSetUp`, `setUpClass`, pytest's `setup_method` and
    `setup_class`): `tearDown` does not run when it raises, but what it registered
    with `addCleanup` does. A failing `setUp` is a test error, seen at once, so there
    only a statement the world can make fail counts (I/O, a process, a `raise`, work
    on the temp, also through an object a call made of it: `self.arr.copy(self.h5.root)`
    after `self.h5 = open_file(self.path, "w")`), not a project call that only a bug
    could make raise. Temps
    made in a loop and gathered in a container made before it stay there from pass
    to pass: a later pass's failure leaves the earlier ones.

    Cleanup counts when it is `os.unlink`, `os.remove`, `os.rmdir`, `Path.unlink`,
    `shutil.rmtree`, `TemporaryDirectory.cleanup()`, `with d:` on a
    `TemporaryDirectory`, `urlcleanup()` for `urlretrieve`'s, or a same-module function
    (or method, or closure) that does one of those to its argument, called or handed on
    with it (`asyncio.to_thread(_discard, tmp)`); through any name
    of the temp (`p = Path(f.name)`; `p.unlink()`); in a loop over a container holding
    it or a display naming it (`for n in (a, b): os.unlink(n)`; not one of paths below
    it, `for p in [join(d, n) for n in names]`, which removes the files and leaves the
    directory); by a method of the
    object's class that removes what `self.attr` holds (`self.__exit__(...)` in
    `__enter__`'s handler); guarded by an existence check
    (`if os.path.exists(p): os.remove(p)`, `if p.exists(): p.unlink()`) or by a test of
    what decided the creation (`if out is None: shutil.rmtree(d)`, at any depth of the
    `if`s the creation sits in, and through a flag bound once to that test: `owns = out
    is None` ... `if owns: shutil.rmtree(d)`); in a `finally`
    that also does other things first; or registered as above. For a path inside a new
    temp directory only removing (or moving) that directory counts
    (`shutil.rmtree(os.path.dirname(p))`): removing the file leaves the directory.

    A statement that runs only where the test the creation depended on went the other way
    (`if numpy: ... else: d = mkdtemp()`, then `if numpy: build()`, of names the function
    never binds) starts no error path for it: the temp was not made there.

    Statements that cannot fail start no error path: path arithmetic (`os.path.join`,
    `Path(s)`), `len`/`str`/`range`/`enumerate`, `shlex.quote`, closing a descriptor,
    logging, a list's, set's or dict's `append`/`add`/`get` on one the function made,
    and `os.makedirs(d, exist_ok=True)` of the temp directory itself. A temp that only a
    bug could leave behind is not reported: when every statement between its creation
    and its removal fails only on a programming error (an `assert`, `os.fdopen`, `open`
    or `os.chmod` of the descriptor just made, `copy.deepcopy`, `uuid.uuid4()`,
    `json.dumps`, `weakref.finalize`), the finding would name no real failure. Such a
    call raises nothing a handler must catch, and writing the temp's own file object
    (`f.write`, `f.flush`) fails with `OSError`: an `except OSError` that removes the
    temp covers `with os.fdopen(fd, "w") as f: f.write(json.dumps(record))`.

    A move's own failure is an error path only when the move crosses locations (what
    XDV101 and XDV102 flag), its handler falls back to a copy, or it renames a temp
    *directory* (`os.rename(tmpdir, dst)`: rename(2) refuses a destination that exists
    and is not an empty directory, on one filesystem too): the same-directory atomic
    `os.replace` of `mkstemp(dir=os.path.dirname(dst))` is the recommended idiom, not a
    leak, while a copy fallback that never removes the source leaves a full-size file
    behind on every cross-device call.

    A temp handed to the caller is the caller's from then on: the helper is checked
    up to the hand-off, and each call of the helper is checked as a creation of its
    own.
    ## Why is this bad?
    A staged file that is not removed when the move (or the write before it) fails
    stays in `/tmp` for good. A long-running worker that fails the same way for every
    item fills its disk, and then everything fails with `ENOSPC`: this is how the Xet
    migration workers died.

    ## Example
    ```python
    import os
    import tempfile

    def store(data, dst):
        fd, tmp = tempfile.mkstemp()
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        try:
            os.replace(tmp, dst)
        except OSError:
            return False
        return True
    ```

    ## Use instead
    Remove the temp on every error path, ignoring only `FileNotFoundError`, and
    re-raise what the code does not mean to handle:
    ```python
    import contextlib
    import os
    import tempfile

    def store(data, dst):
        fd, tmp = tempfile.mkstemp()
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, dst)
        except BaseException as exc:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
            if isinstance(exc, OSError):
                return False
            raise
        return True
    ```
    or remove it in a `finally`, or use a `with` context manager.

    ## Fix safety
    Where an `except` clause leaks the temp, the fix inserts the removal at the top
    of that clause (`with contextlib.suppress(FileNotFoundError): os.unlink(p)`,
    `shutil.rmtree(p, ignore_errors=True)` for a directory, `p.unlink(missing_ok=True)`
    for a `pathlib` path, `d.cleanup()` for a `TemporaryDirectory`), adding the
    imports. This fix is safe: it is offered only when the clause does not use the
    temp, nothing can own the temp by then (it was not returned, stored or
    registered), and nothing after a clause that falls through reads it. When the temp
    may not exist yet when the clause runs (it is created inside the `try`), its name
    is first bound to `None` before the `try` and the removal is guarded with
    `if p is not None:`; only code that read the name before it was bound would see a
    difference, and that code raised `NameError` before. A removal that finds nothing
    (the move had succeeded) is ignored.

    Where no handler sees the exception, the fix wraps the statements after the
    creation, from the first that can fail while the temp exists to the last, in
    `try: ... except BaseException: <removal>; raise` (a `try` among them gets the
    clause itself). When a `try` around the creation already removes the temp in one of
    its handlers, that `try` gets the `except BaseException` clause instead (guarded,
    with the name bound to None before it), so no error removes the temp twice; no
    fix is offered when some of those errors are raised outside it. A `try` around the
    creation whose handlers do not remove it gets that clause too, instead of a second
    `try` in its body, when every leak is raised in its body and every exception its
    handlers let through finds the temp live or not yet made (never handed on or
    removed) and the name is not used before the creation. In a method of a
    `unittest.TestCase` subclass whose one removal of the temp is a statement after the
    leaks that nothing after it depends on (`os.remove(fn)` at the end of the test), the
    fix instead registers that same call with `self.addCleanup` right after the creation
    and drops it from the end: the temp is removed once, after the test, passed or not
    (a little later than before on success). This fix is unsafe:
    it also removes the temp on `KeyboardInterrupt` and for errors the code may have
    meant to leave the file behind for (inspection after a crash), and it re-indents
    the wrapped statements. No fix is offered when those statements are not in one
    block with the creation, or at module level, nor for a path inside a temp
    directory, a temp made only sometimes (`out or mkdtemp()`), an item of a container
    or a unique name in the temp directory: their removal needs the directory, the
    test that decided the creation, or the item's key.

    When the temp is also moved across filesystems (XDV101, XDV102), the move rule's
    fix stages it beside the destination and removes it on every error path in one
    edit (the removals above, all at once), which is safe and fixes both findings.

    ## Options
    - `per-file-ignores`: for example `"tests/**" = ["XDV201"]`, when temps in tests
      are left for the test runner's own cleanup.
    """

    CODE = "XDV201"
    NAME = "temp-not-cleaned-on-error"
    MESSAGE = "{name} from `{factory}` is left behind when {origin} fails: {how}"
    FIX_TITLE = TITLE

    METADATA_DEPENDENCIES = (ProvenanceProvider, LifetimeProvider)

    def __init__(self, context: object) -> None:
        super().__init__(context)  # type: ignore[arg-type]
        self.module: Optional[cst.Module] = None
        self._cleanups: Optional[Cleanups] = None

    @classmethod
    def may_apply(cls, scan: Scan, locations: Locations) -> bool:
        return scan.contains_any(TEMP_FACTORY_WORDS) and scan.may_leak_temp()

    @classmethod
    def cleared(cls, scan: Scan) -> FrozenSet[Tuple[int, int]]:
        return scan.cleared_temps(stay=False)

    def visit_Module(self, node: cst.Module) -> None:
        self.module = node
        self._cleanups = None

    def visit_Call(self, node: cst.Call) -> None:
        lifetime: Optional[Lifetime] = self.get_metadata(LifetimeProvider, node, None)
        if lifetime is None or not lifetime.leaking:
            return
        self.report(node, self.describe(lifetime), self.fix(lifetime))

    # -- the message

    def code(self, node: cst.CSTNode) -> str:
        assert self.module is not None
        return snippet(self.module.code_for_node(node))

    def describe(self, lifetime: Lifetime) -> str:
        temp = lifetime.temp
        leak = lifetime.cited or lifetime.leaks[0]
        origin = f"`{self.code(leak.origin)}`"
        if lifetime.again:
            origin = f"the loop's next {origin}"  # the earlier passes' temps are still held
        if leak.handler is None:
            how = "no `finally` or `except` clause removes it"
            if lifetime.entering is not None:
                method, taker = lifetime.entering
                how = f"`{taker}` does not run when `{method}` fails, and {how}"
        else:
            how = f"`{self.code(leak.handler)}` {_EXITS[leak.exit]}"
        others = len(lifetime.leaks) - 1
        message = self.MESSAGE.format(
            name=held_as(temp, lifetime.beside), factory=self.code(temp.creation), origin=origin, how=how
        )
        if others:
            message += f" (and {others} other error path{'s' if others > 1 else ''})"
        return message

    # -- the fix

    def fix(self, lifetime: Lifetime) -> Optional[Fix]:
        if self.module is None:
            return None
        if self._cleanups is None:
            self._cleanups = Cleanups(self.module, Names(self.module, self.context.bound_elsewhere))
        return self._cleanups.fix(lifetime)


def held_as(temp: Temp, beside: bool = False) -> str:
    """How a message names the temp: by the name holding it, the container holding it
    (``env[...]``), the call it was made in an argument of (``run()``), for a path inside
    a new temp directory, that directory, and for a
    ``NamedTemporaryFile`` that deleted its own file, the file made at its name or beside it."""
    if temp.deleting:
        return f"the file made beside `{temp.handle}.name`" if beside else f"the new file at `{temp.handle}.name`"
    if temp.item:
        return f"`{temp.handle}[...]`"
    if temp.inline is not None:
        return f"the directory of the path given to `{temp.handle}`" if temp.inside else f"the temp given to `{temp.handle}`"
    if temp.inside:
        return f"the directory holding `{temp.handle}`"
    return f"`{temp.handle}`"
