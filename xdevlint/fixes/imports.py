"""The imports a fix needs, placed where a maintainer (and isort, and ruff's I001) puts them.

libcst's ``AddImportsVisitor`` appends after the last top import whatever its kind (so
``import shutil`` lands after first-party and relative imports), does not see that
``import os.path`` already binds ``os``, and never removes an import a fix made unused.
This module is the one place that replaces it. It edits only the module's top-level
statements, so the textual view of its change (``header_edits``) is cheap to render.

Sections follow isort's default profile, as ruff applies it: ``__future__``, the standard
library, third-party, first-party (a top-level name found in the project root or its
``src/``), relative; inside a section, ``import x`` lines before ``from x import y``, each
sorted case-insensitively. A new line joins its section in sorted position when the
section is sorted (at its end otherwise); a new section gets a blank line on each side.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from functools import lru_cache
from typing import FrozenSet, Iterable, List, Optional, Sequence, Set, Tuple

import libcst as cst
from libcst.metadata import ScopeProvider

from xdevlint.model import Edit, Import, Span
from xdevlint.stages.metadata import Wrapper
from xdevlint.stages.source import lines_of

FUTURE, STDLIB, THIRD_PARTY, FIRST_PARTY, LOCAL = range(5)
#: What marks a project root, as for ruff and the configuration.
_ROOT_MARKERS = ("pyproject.toml", "setup.cfg", "setup.py", ".git")
ImportLine = cst.SimpleStatementLine


def project_root(path: Optional[str]) -> str:
    """The directory whose packages are first-party for ``path``: the closest one above it
    with a project marker, else the file's own directory (stdin: the working directory)."""
    start = os.path.dirname(os.path.abspath(path)) if path and path != "-" else os.getcwd()
    current = start
    while True:
        if any(os.path.exists(os.path.join(current, marker)) for marker in _ROOT_MARKERS):
            return current
        parent = os.path.dirname(current)
        if parent == current:
            return start
        current = parent


@lru_cache(maxsize=None)
def _stdlib() -> FrozenSet[str]:
    names = getattr(sys, "stdlib_module_names", None)
    if names is not None:
        return frozenset(names)
    # Python 3.9 has no list; the modules a fix adds are all here, and an existing import
    # of another stdlib module only decides where a new section goes.
    return frozenset(sys.builtin_module_names) | {
        "abc", "argparse", "atexit", "collections", "contextlib", "errno", "functools", "glob", "io", "itertools",
        "json", "logging", "os", "pathlib", "posixpath", "re", "shutil", "stat", "subprocess", "tempfile",
        "threading", "time", "typing", "uuid", "warnings",
    }


def section_of(module: str, level: int, root: str) -> int:
    """isort's section of an import of ``module`` (``level`` leading dots) in a file of ``root``."""
    if level:
        return LOCAL
    head = module.split(".")[0]
    if head == "__future__":
        return FUTURE
    if head in _stdlib():
        return STDLIB
    for base in (root, os.path.join(root, "src")):
        if os.path.isdir(os.path.join(base, head)) or os.path.isfile(os.path.join(base, head + ".py")):
            return FIRST_PARTY
    return THIRD_PARTY


def _dotted(node: cst.BaseExpression) -> str:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        return f"{_dotted(node.value)}.{node.attr.value}"
    return ""


def _alias_name(alias: cst.ImportAlias) -> str:
    return _dotted(alias.name)


def _bound(alias: cst.ImportAlias) -> str:
    if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
        return alias.asname.name.value
    return _alias_name(alias).split(".")[0]


def _only_imports(statement: cst.CSTNode) -> bool:
    return isinstance(statement, cst.SimpleStatementLine) and all(
        isinstance(small, (cst.Import, cst.ImportFrom)) for small in statement.body
    )


def _is_docstring(statement: cst.CSTNode) -> bool:
    return (
        isinstance(statement, cst.SimpleStatementLine)
        and len(statement.body) == 1
        and isinstance(statement.body[0], cst.Expr)
        and isinstance(statement.body[0].value, (cst.SimpleString, cst.ConcatenatedString))
    )


def _from_module(node: cst.ImportFrom) -> str:
    return _dotted(node.module) if node.module is not None else ""


@dataclass(frozen=True)
class _Key:
    """Where an import line sorts: its section, ``import`` before ``from``, then its module."""

    section: int
    is_from: bool
    module: str
    alias: str = ""

    def order(self) -> Tuple[int, bool, str, str, str]:
        return (self.section, self.is_from, self.module.lower(), self.module, self.alias)


def _key(statement: ImportLine, root: str) -> _Key:
    first = statement.body[0]
    if isinstance(first, cst.ImportFrom):
        level = len(first.relative)
        module = _from_module(first)
        return _Key(section_of(module, level, root), True, "." * level + module)
    assert isinstance(first, cst.Import)
    alias = first.names[0]
    module = _alias_name(alias)
    asname = alias.asname.name.value if alias.asname is not None and isinstance(alias.asname.name, cst.Name) else ""
    return _Key(section_of(module, 0, root), False, module, asname)


def satisfied(module: cst.Module, needed: Import) -> bool:
    """Whether an unconditional module-level import already binds what ``needed`` binds:
    ``import os.path`` (or ``import os``) for ``os``, ``import os`` for ``os.path``, an
    identical ``from m import n [as a]`` for a from-import."""
    for statement in module.body:
        if not _only_imports(statement):
            continue
        assert isinstance(statement, cst.SimpleStatementLine)
        for small in statement.body:
            if isinstance(small, cst.Import) and needed.obj is None and needed.alias is None:
                for alias in small.names:
                    if alias.asname is not None:
                        continue
                    name = _alias_name(alias)
                    if name == needed.module or name.startswith(needed.module + "."):
                        return True
                    if needed.module == "os.path" and name == "os":  # os imports os.path itself
                        return True
            elif isinstance(small, cst.ImportFrom) and needed.obj is not None and not small.relative:
                if _from_module(small) != needed.module or isinstance(small.names, cst.ImportStar):
                    continue
                for alias in small.names:
                    if _alias_name(alias) == needed.obj and _bound(alias) == (needed.alias or needed.obj):
                        return True
    return False


def _new_line(needed: Import, like: Optional[cst.SimpleStatementLine]) -> cst.SimpleStatementLine:
    if needed.obj is None:
        code = f"import {needed.module}" + (f" as {needed.alias}" if needed.alias else "")
    else:
        code = f"from {needed.module} import {needed.obj}" + (f" as {needed.alias}" if needed.alias else "")
    line = cst.parse_statement(code + "\n")
    assert isinstance(line, cst.SimpleStatementLine)
    if like is not None:  # the file's own newline, via a neighbour's
        line = line.with_changes(trailing_whitespace=like.trailing_whitespace.with_changes(whitespace=cst.SimpleWhitespace(""), comment=None))
    return line


def _member_order(name: str) -> Tuple[int, str, str]:
    """isort's ``order-by-type``: CONSTANTS, then Classes, then the rest."""
    kind = 0 if name.isupper() and len(name) > 1 else 1 if name[:1].isupper() else 2
    return (kind, name.lower(), name)


def _merged(statement: cst.SimpleStatementLine, needed: Import) -> Optional[cst.SimpleStatementLine]:
    """``statement`` (``from m import ...``) with ``needed``'s name added, or None."""
    small = statement.body[0]
    if len(statement.body) != 1 or not isinstance(small, cst.ImportFrom) or isinstance(small.names, cst.ImportStar):
        return None
    names = list(small.names)
    new = cst.ImportAlias(
        cst.Name(needed.obj or ""), asname=cst.AsName(cst.Name(needed.alias)) if needed.alias else None
    )
    keys = [_member_order(_alias_name(alias)) for alias in names]
    at = len(names)
    if keys == sorted(keys):
        at = next((i for i, key in enumerate(keys) if key > _member_order(needed.obj or "")), len(names))
    separator = names[0].comma if len(names) > 1 else cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
    if at == len(names):
        last = names[-1]
        names[-1] = last.with_changes(comma=separator if isinstance(separator, cst.Comma) else cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
        names.append(new.with_changes(comma=last.comma))
    else:
        names.insert(at, new.with_changes(comma=separator))
    return statement.with_changes(body=[small.with_changes(names=names)])


def _blank() -> cst.EmptyLine:
    return cst.EmptyLine()


def _split_leading(lines: Sequence[cst.EmptyLine]) -> Tuple[List[cst.EmptyLine], List[cst.EmptyLine]]:
    """A statement's leading lines as (the blank lines before its comments, the rest)."""
    index = 0
    while index < len(lines) and lines[index].comment is None:
        index += 1
    return list(lines[:index]), list(lines[index:])


def _leading(statement: cst.BaseStatement) -> Sequence[cst.EmptyLine]:
    assert isinstance(statement, (cst.SimpleStatementLine, cst.BaseCompoundStatement))
    return statement.leading_lines


def _after_imports(statement: cst.BaseStatement) -> int:
    """ruff's blank lines after an import block: two before a def or class, else one."""
    return 2 if isinstance(statement, (cst.FunctionDef, cst.ClassDef)) else 1


class _Header:
    """The module's top-level statements, the import region among them, and edits to it."""

    def __init__(self, module: cst.Module, root: str) -> None:
        self.body: List[cst.BaseStatement] = list(module.body)
        self.root = root
        self.start = 1 if self.body and _is_docstring(self.body[0]) else 0
        self.end = self.start
        while self.end < len(self.body) and _only_imports(self.body[self.end]):
            self.end += 1

    def region(self) -> List[Tuple[int, _Key]]:
        return [(i, _key(self.body[i], self.root)) for i in range(self.start, self.end)]  # type: ignore[arg-type]

    def add(self, needed: Import) -> None:
        region = self.region()
        module = needed.module
        key = _Key(section_of(module, 0, self.root), needed.obj is not None, module, "" if needed.obj else needed.alias or "")
        if key.is_from:
            for index, found in region:
                line = self.body[index]
                assert isinstance(line, cst.SimpleStatementLine)
                small = line.body[0]
                if found.module == module and isinstance(small, cst.ImportFrom) and not small.relative:
                    merged = _merged(line, needed)
                    if merged is not None:
                        self.body[index] = merged
                        return
        like = self.body[region[0][0]] if region else None
        new = _new_line(needed, like if isinstance(like, cst.SimpleStatementLine) else None)
        same = [(i, k) for i, k in region if k.section == key.section]
        if same:
            self._join(new, key, same)
        else:
            self._new_section(new, key, region)

    def _join(self, new: cst.SimpleStatementLine, key: _Key, same: List[Tuple[int, _Key]]) -> None:
        orders = [k.order() for _, k in same]
        if orders == sorted(orders):
            after = [i for i, k in same if k.order() > key.order()]
            if after:
                self._insert_before(after[0], new, new_section=False)
                return
        self._insert_after(same[-1][0], new, blank=False)

    def _new_section(self, new: cst.SimpleStatementLine, key: _Key, region: List[Tuple[int, _Key]]) -> None:
        later = [i for i, k in region if k.section > key.section]
        if later:
            self._insert_before(later[0], new, new_section=True)
        elif region:
            self._insert_after(region[-1][0], new, blank=True)
        else:
            self._insert_first(new)

    def _insert_before(self, index: int, new: cst.SimpleStatementLine, new_section: bool) -> None:
        old = self.body[index]
        assert isinstance(old, cst.SimpleStatementLine)
        blanks, comments = _split_leading(old.leading_lines)
        self.body[index] = old.with_changes(leading_lines=([_blank()] if new_section else []) + comments)
        self.body.insert(index, new.with_changes(leading_lines=blanks))
        self.end += 1

    def _insert_after(self, index: int, new: cst.SimpleStatementLine, blank: bool) -> None:
        self.body.insert(index + 1, new.with_changes(leading_lines=[_blank()] if blank else []))
        self.end += 1

    def _insert_first(self, new: cst.SimpleStatementLine) -> None:
        at = self.start
        if at < len(self.body):
            following = self.body[at]
            blanks, comments = _split_leading(_leading(following))
            if at > 0 or comments:
                # A comment at the very top (a shebang, a licence) stays above the import.
                new = new.with_changes(leading_lines=blanks + comments if at == 0 else blanks)
                comments = [] if at == 0 else comments
            following = following.with_changes(leading_lines=[_blank()] * _after_imports(following) + comments)
            self.body[at] = following
        self.body.insert(at, new)
        self.end += 1

    def remove(self, bindings: Set[str]) -> None:
        """Drop the aliases of unconditional top-level imports that bind one of ``bindings``."""
        index = 0
        while index < len(self.body):
            statement = self.body[index]
            if _only_imports(statement):
                assert isinstance(statement, cst.SimpleStatementLine)
                kept = [small for small in (self._without(s, bindings) for s in statement.body) if small is not None]
                if not kept:
                    self._drop(index)
                    continue
                if kept != list(statement.body):
                    last = kept[-1].with_changes(semicolon=cst.MaybeSentinel.DEFAULT)
                    self.body[index] = statement.with_changes(body=[*kept[:-1], last])
            index += 1

    @staticmethod
    def _without(small: cst.BaseSmallStatement, bindings: Set[str]) -> Optional[cst.BaseSmallStatement]:
        if not isinstance(small, (cst.Import, cst.ImportFrom)) or isinstance(small.names, cst.ImportStar):
            return small
        names = [alias for alias in small.names if _bound(alias) not in bindings]
        if len(names) == len(small.names):
            return small
        if not names:
            return None
        names[-1] = names[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        return small.with_changes(names=names)

    def _drop(self, index: int) -> None:
        removed = self.body.pop(index)
        if index < self.end:
            self.end -= 1
        if index < len(self.body):  # its comments and blank lines stay with what follows
            following = self.body[index]
            blanks, comments = _split_leading(_leading(removed))
            own_blanks, own_comments = _split_leading(_leading(following))
            if index == self.start or own_blanks:
                keep = blanks if len(blanks) >= len(own_blanks) else own_blanks
            else:
                keep = []
            self.body[index] = following.with_changes(leading_lines=keep + comments + own_comments)


def add_imports(module: cst.Module, imports: Sequence[Import], path: Optional[str]) -> cst.Module:
    """``module`` with each of ``imports`` not already bound added in its place."""
    missing = [needed for needed in dict.fromkeys(imports) if not satisfied(module, needed)]
    if not missing:
        return module
    header = _Header(module, project_root(path))
    for needed in missing:
        header.add(needed)
    return module.with_changes(body=header.body)


def made_unused(module: cst.Module, removed: Iterable[cst.CSTNode], added: Iterable[cst.CSTNode], path: Optional[str]) -> Set[str]:
    """The top-level import bindings of ``module`` whose every use lies inside ``removed``
    (the nodes the fixes replace) and that ``added`` (their replacements) does not use:
    the fixes leave them unused. Never in a package's ``__init__.py``, which re-exports."""
    if path is not None and os.path.basename(path) == "__init__.py":
        return set()
    candidates = _top_bindings(module)
    candidates -= {node.value for new in added for node in _names_in(new)}
    used = {node.value for old in removed for node in _names_in(old)} & candidates
    if not used:  # nothing the fixes replace names an import: no scope analysis needed
        return set()
    inside = {id(node) for old in removed for node in _walk(old)}
    scopes = Wrapper(module, {}).resolve(ScopeProvider)
    scope = scopes.get(module.body[0]) if module.body else None
    if scope is None:
        return set()
    unused: Set[str] = set()
    for name in sorted(used):
        accesses = [access for assignment in scope.globals[name] for access in assignment.references]
        if accesses and all(id(access.node) in inside for access in accesses):
            unused.add(name)
    return unused


def remove_imports(module: cst.Module, bindings: Set[str]) -> cst.Module:
    if not bindings:
        return module
    header = _Header(module, "")
    header.remove(bindings)
    return module.with_changes(body=header.body)


def _top_bindings(module: cst.Module) -> Set[str]:
    found: Set[str] = set()
    for statement in module.body:
        if _only_imports(statement):
            assert isinstance(statement, cst.SimpleStatementLine)
            for small in statement.body:
                if isinstance(small, (cst.Import, cst.ImportFrom)) and not isinstance(small.names, cst.ImportStar):
                    if isinstance(small, cst.ImportFrom) and _from_module(small) == "__future__":
                        continue
                    found.update(_bound(alias) for alias in small.names)
    return found


def _walk(node: cst.CSTNode) -> Iterable[cst.CSTNode]:
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(current.children)


def _names_in(node: cst.CSTNode) -> Iterable[cst.Name]:
    return (child for child in _walk(node) if isinstance(child, cst.Name))


def header_edits(before: cst.Module, after: cst.Module) -> Tuple[Edit, ...]:
    """The textual change from ``before`` to ``after``, two modules that differ only in
    top-level statements (those this module edits), as edits over ``before``'s text.

    Statements are compared by identity, so only the changed run is rendered, with the
    statements before it for its offset: imports sit near the top, so this is cheap.
    """
    old, new = list(before.body), list(after.body)
    head = 0
    while head < min(len(old), len(new)) and old[head] is new[head]:
        head += 1
    if head == len(old) == len(new):
        return ()
    tail = 0
    while tail < min(len(old), len(new)) - head and old[len(old) - 1 - tail] is new[len(new) - 1 - tail]:
        tail += 1
    prefix = _header_text(before) + "".join(before.code_for_node(statement) for statement in old[:head])
    removed = "".join(before.code_for_node(statement) for statement in old[head : len(old) - tail])
    inserted = "".join(after.code_for_node(statement) for statement in new[head : len(new) - tail])
    # Trim what both sides share, so the edit covers only changed text and never the
    # replacement edits of a fix inside the statements around it.
    # Whole lines only, as a reader (and a diff) sees the change.
    same = 0
    while same < min(len(removed), len(inserted)) and removed[same] == inserted[same]:
        same += 1
    same = removed.rfind("\n", 0, same) + 1
    prefix, removed, inserted = prefix + removed[:same], removed[same:], inserted[same:]
    shared = 0
    while shared < min(len(removed), len(inserted)) and removed[-1 - shared] == inserted[-1 - shared]:
        shared += 1
    while 0 < shared < len(removed) and removed[-1 - shared] != "\n":
        shared -= 1
    if shared:
        removed, inserted = removed[:-shared], inserted[:-shared]
    start = _position(prefix)
    end = _position(prefix + removed)
    return (Edit(Span(start[0], start[1], end[0], end[1]), inserted),)


def _header_text(module: cst.Module) -> str:
    """The text of the module's leading comments and blank lines (its ``header``)."""
    return "".join(module.code_for_node(line) for line in module.header)


def _position(text: str) -> Tuple[int, int]:
    """The 1-based line and column just after ``text``."""
    lines = lines_of(text)
    if not lines:
        return 1, 1
    last = lines[-1]
    if last.endswith(("\n", "\r")):
        return len(lines) + 1, 1
    return len(lines), len(last) + 1

