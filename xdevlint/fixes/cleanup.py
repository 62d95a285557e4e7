"""Fixes that remove a temp on the error paths that leave it behind (XDV201's, and the
cleanup half of a move rule's staging fix: ``fixes.moves``).

What each one inserts, and why it is safe or not, is XDV201's "Fix safety".
"""

from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Tuple

import libcst as cst
from libcst.metadata import GlobalScope

from xdevlint.analysis.lifetime import DIRECTORY, DIRECTORY_OBJECT, FILE_OBJECT, Lifetime, Temp, binds_none
from xdevlint.fixes.syntax import Names, Reference, Region
from xdevlint.model import Applicability, Fix, Import, Replacement

TITLE = "Remove the temp on the error path"


class Cleanups:
    """Builds the removal of temps on error paths in one module (``names``: its scopes)."""

    def __init__(self, module: cst.Module, names: Names) -> None:
        self.module = module
        self.names = names

    def fix(self, lifetime: Lifetime) -> Optional[Fix]:
        """XDV201's fix for ``lifetime``'s leaks (see its "Fix safety"), or None."""
        temp = lifetime.temp
        if temp.inline is not None:
            return None  # no name to remove it by: the fix would have to bind one first
        if lifetime.handler_fixes:
            handled = self.handler_replacements(temp, lifetime)
            if handled is None:
                return None
            replacements, imports = handled
            return Fix(Applicability.SAFE, TITLE + " (in the `except` clause)", tuple(replacements), imports)
        if lifetime.extend is not None:
            return self.extended(temp, *lifetime.extend)
        if lifetime.register is not None:
            return self.registered(*lifetime.register)
        return self.wrapping(lifetime)

    def wrapping(self, lifetime: Lifetime) -> Optional[Fix]:
        """The statements after the creation that can fail, in ``try/except BaseException``
        (see ``wrapped``), when the lifetime has them (``Lifetime.wrap``)."""
        if lifetime.wrap is None:
            return None
        block, first, last = lifetime.wrap
        made = self.cleanup(lifetime.temp, guard=False)
        if made is None:
            return None
        cleanup, imports = made
        origins = [leak.origin for leak in lifetime.leaks if leak.handler is None]
        new_block, extended = self.wrapped(block, first, last, cleanup, origins)
        how = "an `except BaseException` clause on the `try`" if extended else "`try/except BaseException`"
        return Fix(Applicability.UNSAFE, f"{TITLE} ({how})", (Replacement(block, new_block),), imports)

    def complete(self, lifetime: Lifetime) -> Optional[Tuple[Tuple[Replacement, ...], Tuple[Import, ...]]]:
        """The removal of the temp on every error path that leaves it behind, at once: in
        each ``except`` clause that lets it go, and for the errors no clause sees, an
        ``except BaseException`` clause on the ``try`` around the creation, or a new
        ``try`` around the statements that can fail. None when no one rewrite covers them
        all (a clause the removal cannot go into, clauses of another ``try``, a temp no
        statement releases, a ``unittest`` test), or the temp does not leak."""
        if not lifetime.leaking or lifetime.never_released:
            return None
        temp, fixed = lifetime.temp, [handler for handler, _ in lifetime.handler_fixes]
        if any(l.handler is not None and not any(l.handler is h for h in fixed) for l in lifetime.leaks):
            return None
        made: Optional[Fix]
        if all(l.handler is not None for l in lifetime.leaks):
            handled = self.handler_replacements(temp, lifetime)
            return None if handled is None else (tuple(handled[0]), handled[1])
        if lifetime.extend is not None:
            node, block = lifetime.extend
            if not all(any(h is mine for mine in node.handlers) for h in fixed):
                return None
            made = self.extended(temp, node, block, fixed)
        elif not fixed:
            made = self.wrapping(lifetime)
        else:
            return None
        return None if made is None else (made.replacements, made.imports)

    def extended(self, temp: Temp, node: cst.Try, block: cst.IndentedBlock, prepend: Sequence[cst.ExceptHandler] = ()) -> Optional[Fix]:
        """An ``except BaseException`` clause on the enclosing ``try`` (one of whose handlers
        removes the temp already, or whose escaping exceptions all carry the temp live or not
        yet made): each exception goes to one handler, so the temp is removed once. The temp may not exist yet there, so the removal is guarded, and the name bound
        to None right before the ``try`` unless the statement there does it already (one
        further up might be rebound in between). The removal also goes first into each of
        its clauses in ``prepend``."""
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
        handlers = [_prepend(h, cleanup) if any(h is p for p in prepend) else h for h in node.handlers]
        new_try = node.with_changes(handlers=[*handlers, handler])
        title = f"{TITLE} (an `except BaseException` clause on the `try`)"
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
        statements = list(block.body)
        line = statements[removal]
        assert isinstance(line, cst.SimpleStatementLine) and isinstance(line.body[0], cst.Expr)
        call = line.body[0].value
        assert isinstance(call, cst.Call)
        arguments = [cst.Arg(value=call.func), *call.args]
        code = self.module.code_for_node(cst.Call(func=cst.parse_expression("self.addCleanup"), args=arguments))
        register = self.statement(code)
        body = [*statements[:creation + 1], register, *statements[creation + 1:removal], *statements[removal + 1:]]
        title = f"{TITLE} (`self.addCleanup` after the creation)"
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
        parsed = cst.parse_statement(code + self.module.default_newline, config=self.module.config_for_parsing)
        assert isinstance(parsed, cst.SimpleStatementLine)
        return parsed

    def spelled(self, qualified: str, at: cst.CSTNode) -> Optional[Reference]:
        """``qualified`` as the code at ``at`` can call it: through an import that binds it
        already (``import os.path``, ``from os import unlink``, ``import os as _os``), else
        with the import to add; None when every spelling would clash with a name."""
        statement = None
        if isinstance(self.names.scope_of(at), GlobalScope):
            statement = self.names.statement_index(at)
        return self.names.reference(qualified, at, statement)

    def cleanup(self, temp: Temp, guard: bool) -> Optional[Tuple[cst.BaseStatement, Tuple[Import, ...]]]:
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
