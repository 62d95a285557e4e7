"""XDV201 temp-not-cleaned-on-error."""

from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Tuple

import libcst as cst

from xdevlint.analysis.lifetime import DIRECTORY, DIRECTORY_OBJECT, FILE_OBJECT, Lifetime, LifetimeProvider, Temp, binds_none
from xdevlint.analysis.locations import Locations
from xdevlint.analysis.provenance import ProvenanceProvider
from libcst.metadata import GlobalScope

from xdevlint.fixes.syntax import Names, Reference, Region
from xdevlint.model import Applicability, Fix, Import, Replacement
from xdevlint.rules.rule import Rule, snippet
from xdevlint.stages.scan import Scan

#: Words of which a file must contain one to create a temp (lower case): every
#: factory's own name, which ``from tempfile import mkstemp as mk`` still spells.
TEMP_FACTORY_WORDS = ("mkstemp", "mkdtemp", "mktemp", "namedtemporaryfile", "temporarydirectory")

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
    The finding is on the creation call and names the first statement (in source
    order) whose failure leaks the temp, and the handler that lets it go.

    Every way of making a temp counts: `mkstemp`, `mkdtemp`, `mktemp`,
    `NamedTemporaryFile(delete=False)` (and its `.name`), `TemporaryDirectory()`
    outside `with`, a path inside a new temp directory
    (`os.path.join(mkdtemp(), "x")`, `Path(mkdtemp()) / "x"`), a temp made only when
    no directory was given (`out or Path(mkdtemp())`), a
    `functools.partial(tempfile.NamedTemporaryFile, ...)` factory's call, `self.attr =
    mkdtemp()`, and the call of a same-module helper that returns any of these.

    Only real transfers hand a temp on: returning or yielding it (or a container or
    object holding it) to the caller; storing it on `self` where some method of the
    class removes or moves it (otherwise the class keeps it, and XDV203 checks it as
    the owner); storing it where it outlives the call (a parameter's or a global's
    container); registering its removal (`atexit.register(shutil.rmtree, d)`,
    `self.addCleanup(os.unlink, p)`, `stack.callback(...)`, `weakref.finalize(...)`).
    A temp passed as an ordinary call argument (`run(path=tmp)`,
    `subprocess.run([..., tmp])`, a path derived from it) is used there, not handed
    on. A `@contextmanager` that yields the temp (or a handle on it) still owns it:
    the caller's exception arrives at the `yield`. `__enter__` owns what it stores on
    `self` until it returns: `__exit__` never runs when `__enter__` raises.

    Cleanup counts when it is `os.unlink`, `os.remove`, `os.rmdir`, `Path.unlink`,
    `shutil.rmtree`, `TemporaryDirectory.cleanup()`, `with d:` on a
    `TemporaryDirectory`, or a same-module function (or method, or closure) that does
    one of those to its argument; guarded by an existence check
    (`if os.path.exists(p): os.remove(p)`, `if p.exists(): p.unlink()`) or by a test of
    what decided the creation (`if out is None: shutil.rmtree(d)`); in a `finally`
    that also does other things first; or registered as above.

    A move's own failure is an error path only when the move crosses locations (what
    XDV101 and XDV102 flag) or its handler falls back to a copy: the same-directory
    atomic `os.replace` of `mkstemp(dir=os.path.dirname(dst))` is the recommended
    idiom, not a leak, while a copy fallback that never removes the source leaves a
    full-size file behind on every cross-device call.

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
    directory or a temp made only sometimes (`out or mkdtemp()`): their removal needs
    the directory, or the test that decided the creation.

    ## Options
    - `per-file-ignores`: for example `"tests/**" = ["XDV201"]`, when temps in tests
      are left for the test runner's own cleanup.
    """

    CODE = "XDV201"
    NAME = "temp-not-cleaned-on-error"
    MESSAGE = "`{name}` from `{factory}`{made} is left behind when {origin} fails: {how}"
    FIX_TITLE = "Remove the temp on the error path"

    METADATA_DEPENDENCIES = (ProvenanceProvider, LifetimeProvider)

    def __init__(self, context: object) -> None:
        super().__init__(context)  # type: ignore[arg-type]
        self.module: Optional[cst.Module] = None
        self._names: Optional[Names] = None

    @classmethod
    def may_apply(cls, scan: Scan, locations: Locations) -> bool:
        return scan.contains_any(TEMP_FACTORY_WORDS) and scan.may_leak_temp()

    def visit_Module(self, node: cst.Module) -> None:
        self.module = node
        self._names = None

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
        leak = lifetime.leaks[0]
        origin = f"`{self.code(leak.origin)}`"
        if leak.handler is None:
            how = "no `finally` or `except` clause removes it"
        else:
            how = f"`{self.code(leak.handler)}` {_EXITS[leak.exit]}"
        others = len(lifetime.leaks) - 1
        message = self.MESSAGE.format(
            name=temp.handle, factory=self.code(temp.creation), made=self.made_elsewhere(temp.creation), origin=origin, how=how
        )
        if others:
            message += f" (and {others} other error path{'s' if others > 1 else ''})"
        return message

    # -- the fix

    def fix(self, lifetime: Lifetime) -> Optional[Fix]:
        if self.module is None:
            return None
        temp = lifetime.temp
        if lifetime.handler_fixes:
            handled = self.handler_replacements(temp, lifetime)
            if handled is None:
                return None
            replacements, imports = handled
            return Fix(Applicability.SAFE, self.FIX_TITLE + " (in the `except` clause)", tuple(replacements), imports)
        if lifetime.extend is not None:
            return self.extended(temp, *lifetime.extend)
        if lifetime.register is not None:
            return self.registered(*lifetime.register)
        if lifetime.wrap is not None:
            block, first, last = lifetime.wrap
            made = self.cleanup(temp, guard=False)
            if made is None:
                return None
            cleanup, imports = made
            origins = [leak.origin for leak in lifetime.leaks if leak.handler is None]
            new_block, extended = self.wrapped(block, first, last, cleanup, origins)
            how = "an `except BaseException` clause on the `try`" if extended else "`try/except BaseException`"
            return Fix(Applicability.UNSAFE, f"{self.FIX_TITLE} ({how})", (Replacement(block, new_block),), imports)
        return None

    def extended(self, temp: Temp, node: cst.Try, block: cst.IndentedBlock) -> Optional[Fix]:
        """An ``except BaseException`` clause on the enclosing ``try`` (one of whose handlers
        removes the temp already, or whose escaping exceptions all carry the temp live or not
        yet made): each exception goes to one handler, so the temp is removed once. The temp may not exist yet there, so the removal is guarded, and the name bound
        to None right before the ``try`` unless the statement there does it already (one
        further up might be rebound in between)."""
        if not _extensible(node):
            return None
        made = self.cleanup(temp, guard=True)
        if made is None:
            return None
        cleanup, imports = made
        handler = cst.ExceptHandler(
            type=cst.Name("BaseException"),
            body=cst.IndentedBlock(body=[cleanup, self.statement("raise")]),
        )
        new_try = node.with_changes(handlers=[*node.handlers, handler])
        title = f"{self.FIX_TITLE} (an `except BaseException` clause on the `try`)"
        statements = list(block.body)
        number = statements.index(node)
        if number and binds_none(statements[number - 1], temp.handle):  # the safe fix's, or the author's
            return Fix(Applicability.UNSAFE, title, (Replacement(node, new_try),), imports)
        initial = self.statement(f"{temp.handle} = None").with_changes(leading_lines=node.leading_lines)
        body: List[cst.BaseStatement] = []
        for statement in block.body:
            body.extend((initial, new_try.with_changes(leading_lines=())) if statement is node else (statement,))
        return Fix(Applicability.UNSAFE, title, (Replacement(block, block.with_changes(body=body)),), imports)

    def registered(self, block: cst.IndentedBlock, creation: int, removal: int) -> Fix:
        """``self.addCleanup`` of the test's own removal call right after the creation, and
        that removal gone from the end: the temp is removed once, after the test, whether it
        passed or not, without re-indenting the test."""
        assert self.module is not None
        statements = list(block.body)
        line = statements[removal]
        assert isinstance(line, cst.SimpleStatementLine) and isinstance(line.body[0], cst.Expr)
        call = line.body[0].value
        assert isinstance(call, cst.Call)
        arguments = [cst.Arg(value=call.func), *call.args]
        code = self.module.code_for_node(cst.Call(func=cst.parse_expression("self.addCleanup"), args=arguments))
        register = self.statement(code)
        body = [*statements[:creation + 1], register, *statements[creation + 1:removal], *statements[removal + 1:]]
        title = f"{self.FIX_TITLE} (`self.addCleanup` after the creation)"
        return Fix(Applicability.UNSAFE, title, (Replacement(block, block.with_changes(body=body)),), ())

    def handler_replacements(self, temp: Temp, lifetime: Lifetime) -> Optional[Tuple[List[Replacement], Tuple[Import, ...]]]:
        by_try: Dict[cst.CSTNode, List[Tuple[cst.ExceptHandler, Optional[Tuple[cst.Try, cst.IndentedBlock]]]]] = {}
        for handler, guard in lifetime.handler_fixes:
            by_try.setdefault(guard[0] if guard is not None else handler, []).append((handler, guard))
        imports: Tuple[Import, ...] = ()
        replacements: List[Replacement] = []
        for key, fixes in by_try.items():
            where = fixes[0][1]
            made = self.cleanup(temp, guard=where is not None)
            if made is None:
                return None
            cleanup, needed = made
            imports = tuple(dict.fromkeys((*imports, *needed)))
            if where is None:
                (handler, _), = fixes
                replacements.append(Replacement(handler, _prepend(handler, cleanup)))
                continue
            node, block = where
            handlers = {h for h, _ in fixes}
            new_try = node.with_changes(
                handlers=[_prepend(h, cleanup) if h in handlers else h for h in node.handlers],
                leading_lines=(),
            )
            initial = self.statement(f"{temp.handle} = None").with_changes(leading_lines=node.leading_lines)
            body: List[cst.BaseStatement] = []
            for statement in block.body:
                body.extend((initial, new_try) if statement is node else (statement,))
            replacements.append(Replacement(block, block.with_changes(body=body)))
        return replacements, imports

    def statement(self, code: str) -> cst.SimpleStatementLine:
        assert self.module is not None
        parsed = cst.parse_statement(code + self.module.default_newline, config=self.module.config_for_parsing)
        assert isinstance(parsed, cst.SimpleStatementLine)
        return parsed

    def spelled(self, qualified: str, at: cst.CSTNode) -> Optional[Reference]:
        """``qualified`` as the code at ``at`` can call it: through an import that binds it
        already (``import os.path``, ``from os import unlink``, ``import os as _os``), else
        with the import to add; None when every spelling would clash with a name."""
        assert self.module is not None
        if self._names is None:
            self._names = Names(self.module, self.context.bound_elsewhere)
        statement = None
        if isinstance(self._names.scope_of(at), GlobalScope):
            statement = self._names.statement_index(at)
        return self._names.reference(qualified, at, statement)

    def cleanup(self, temp: Temp, guard: bool) -> Optional[Tuple[cst.BaseStatement, Tuple[Import, ...]]]:
        assert self.module is not None
        newline, indent, name = self.module.default_newline, self.module.default_indent, temp.handle
        imports: Tuple[Import, ...] = ()
        if temp.kind == DIRECTORY_OBJECT:
            lines = [f"{name}.cleanup()"]
        elif temp.kind == DIRECTORY:
            rmtree = self.spelled("shutil.rmtree", temp.creation)
            if rmtree is None:
                return None
            lines, imports = [f"{rmtree.code}({name}, ignore_errors=True)"], rmtree.imports
        elif temp.is_path:
            lines = [f"{name}.unlink(missing_ok=True)"]
        else:
            path = f"{name}.name" if temp.kind == FILE_OBJECT else name
            suppress = self.spelled("contextlib.suppress", temp.creation)
            unlink = self.spelled("os.unlink", temp.creation)
            if suppress is None or unlink is None:
                return None
            lines = [f"with {suppress.code}(FileNotFoundError):", f"{indent}{unlink.code}({path})"]
            imports = (*suppress.imports, *unlink.imports)
        if guard:
            lines = [f"if {name} is not None:", *(indent + line for line in lines)]
        code = newline.join(lines) + newline
        return cst.parse_statement(code, config=self.module.config_for_parsing), imports

    def wrapped(
        self, block: cst.IndentedBlock, first: int, last: int, cleanup: cst.BaseStatement, origins: Sequence[cst.CSTNode]
    ) -> Tuple[cst.IndentedBlock, bool]:
        """``block`` with the statements ``first..last`` (after the creation) removing the
        temp on any exception: a ``try`` among them whose body holds leaks gets an
        ``except BaseException`` clause of its own (after its handlers, before its
        ``finally``); the other leaking statements are wrapped in a new ``try``, run by run,
        each from its first statement that can leak to its last, so that no ``try`` is nested in another and no path removes the temp twice.
        Whether an existing ``try`` was extended is the second value."""
        region = Region(block)
        statements = list(block.body)
        handler = cst.ExceptHandler(
            type=cst.Name("BaseException"),
            body=cst.IndentedBlock(body=[cleanup, self.statement("raise")]),
        )
        extended: Dict[int, cst.BaseStatement] = {}
        for number in range(first, last + 1):
            node = statements[number]
            inside = [o for o in origins if o in region and region.contains(node, o)]
            if isinstance(node, cst.Try) and _extensible(node) and inside and all(region.contains(node.body, o) for o in inside):
                extended[number] = node.with_changes(handlers=[*node.handlers, handler])
        # Each run of statements between extended ``try``s is wrapped from its first leak to its last.
        result: List[cst.BaseStatement] = list(statements[:first])
        number = first
        while number <= last:
            if number in extended:
                result.append(extended[number])
                number += 1
                continue
            end = number
            while end + 1 <= last and end + 1 not in extended:
                end += 1
            leaking = [n for n in range(number, end + 1) if any(region.contains(statements[n], o) for o in origins if o in region)]
            if leaking:
                start, stop = leaking[0], leaking[-1]
                result.extend(statements[number:start])  # they cannot fail while the temp is live
                inner = statements[start:stop + 1]
                leading: Sequence[cst.EmptyLine] = getattr(inner[0], "leading_lines")  # every statement class has them
                inner[0] = inner[0].with_changes(leading_lines=())
                result.append(cst.Try(body=cst.IndentedBlock(body=inner), handlers=[handler], leading_lines=leading))
                result.extend(statements[stop + 1:end + 1])
            else:
                result.extend(statements[number:end + 1])
            number = end + 1
        result.extend(statements[last + 1:])
        return block.with_changes(body=result), bool(extended)


def _extensible(node: cst.Try) -> bool:
    """Whether an ``except BaseException`` clause can join ``node``'s handlers: none of
    them is bare (a bare ``except:`` must come last) or catches everything already."""
    return all(h.type is not None and not (isinstance(h.type, cst.Name) and h.type.value == "BaseException") for h in node.handlers)


def _prepend(handler: cst.ExceptHandler, statement: cst.BaseStatement) -> cst.ExceptHandler:
    body = handler.body
    if isinstance(body, cst.IndentedBlock):
        return handler.with_changes(body=body.with_changes(body=[statement, *body.body]))
    assert isinstance(body, cst.SimpleStatementSuite)  # ``except OSError: pass`` on one line
    line = cst.SimpleStatementLine(body=list(body.body))
    return handler.with_changes(body=cst.IndentedBlock(body=[statement, line], header=body.trailing_whitespace))
