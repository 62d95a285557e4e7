"""The project index: what other modules of the project bind, for the module being analysed.

Real code keeps its paths and helpers in other modules: a ``constants.py`` with the cache
root, a ``rename = os.rename`` compatibility alias. Provenance asks this index what an
imported name (``pkg.paths.CACHE_ROOT``) is, and gets a ``Resolved``: the library objects
it is an alias of, or the location and text of the constant it holds.

Cost decides the design. Nothing is read up front: a module is summarised the first time
a name in it is asked for, so a run reads only what the analysed files' imports reach
(by name, not whole import closures). A summary comes from the stdlib ``ast`` and looks at
module-level statements only (bodies of ``if``/``try``/``with`` included, functions and
classes not), and is memoised in-process by the file's path, mtime and size. Only the
module-level text is parsed (top-level function and class bodies are cut out, or the
whole module is parsed where the cut may not be Python's); a top-level function's text is
parsed when a caller first asks for it. Modules are looked for below the project's roots
only (the directory above the file's top package, the project root and its ``src``), never
in site-packages, and names of the standard library are never looked up there (the
analysis knows ``os.rename`` by name). A module that cannot be read, or whose module-level
text cannot be parsed, contributes nothing; a function whose text cannot be parsed does
nothing for its callers. What a name resolves to is shared by the process, checked
against the stamps of the summaries it rests on.

The cheap scan's gates ask less: whether the names a file uses may be move or temp
aliases, helpers or locations (``supplied``), answered from module texts first (the text
filter, ``project_text``), so that a module is summarised for them only when its text
may bind one. ``project_files`` says where modules are.

Constants are classified by the tables provenance reads (``names``, ``Locations``): a
literal's path, an environment variable, a temp directory call, a configured call, the
joins and path constructors that keep their first component's location, and, as for a
same-module name, the name's own pattern (``TMP_DIR = compute()`` is a temp).
"""

from __future__ import annotations

import ast
import os
import re
import sys
import warnings
from dataclasses import dataclass, field
from typing import Callable, Collection, Dict, FrozenSet, Hashable, Iterable, Iterator, List, Optional, Set, Tuple, Type, TypeVar, Union

from xdevlint.analysis import names, project_files, project_text
from xdevlint.analysis.dotted import dotted
from xdevlint.analysis.exports import ASYNC, CLASS, INSTANCE, PROPERTY, STATIC, Context, Exported, ExportedClass, summarise
from xdevlint.analysis.locations import TEMP, Locations
from xdevlint.analysis.project_files import (
    STDLIB, absolute_module, installed, layout, module_file, numbered_texts, project_root, stamp_seen, top_package,
)
from xdevlint.analysis.project_text import callee_names, may_alias, names_of, sweep
from xdevlint.model import Closure, Dependencies, Stamp

#: ``project-index = true`` (``--project-index``) turns the index on; the environment's
#: ``XDEVLINT_PROJECT_INDEX=1`` or ``=0`` overrides every configuration (benchmarks, tests).
#: Off by default: it misses its cost target (+15% on a cold full run) on large projects.
#: ``bench/project_index.py`` measured +42% to +65% CPU on the ecosystem corpus and +4% to
#: +14% on the stdlib on 2026-12-03; ``bench/index_floor.py`` +25% on the ecosystem even
#: with perfect filters that cost nothing (``bench/PROFILE.md``).
#: With it off, no gate or analysis looks past the file.
SWITCH = "XDEVLINT_PROJECT_INDEX"


def enabled(configured: bool = False) -> bool:
    """Whether the index is on: as the environment's switch says when it is set, else as
    the configuration (``configured``) says."""
    switch = os.environ.get(SWITCH)
    return switch == "1" if switch in ("0", "1") else configured


#: A memo's answer, its key in one project and its key shared between projects (``Project._known``).
_A = TypeVar("_A")
_K = TypeVar("_K", bound=Hashable)
_S = TypeVar("_S", bound=Hashable)

#: Nested constants and alias chains longer than this are not followed (a guard, not a limit real code meets).
_DEPTH = 20


@dataclass(frozen=True)
class Resolved:
    """What a project name is: an alias of library objects (``callees``), a path
    constant (``locations``, ``literal``, ``path``: built with pathlib), or a function
    that moves, makes, returns or removes paths (``function``, see ``exports``), or a
    class with such methods (``cls``). ``origin`` is where it is bound: the module's path
    and the line."""

    callees: FrozenSet[str] = frozenset()
    locations: FrozenSet[str] = frozenset()
    literal: Optional[str] = None
    path: bool = False
    origin: Tuple[str, int] = ("", 0)
    function: Optional[Exported] = None
    cls: Optional[ExportedClass] = None

    def __or__(self, other: "Resolved") -> "Resolved":
        return Resolved(
            self.callees | other.callees,
            self.locations | other.locations,
            self.literal if self.literal == other.literal else None,
            self.path or other.path,
            self.origin,
            self.function or other.function,
            self.cls or other.cls,
        )


_NOTHING = Resolved()

# -- module summaries ----------------------------------------------------------------

#: One module-level binding of a name: an expression assigned to it, an import
#: (the absolute qualified name it binds), or a ``def``/``class`` (None).
_Binding = Tuple[int, Union[ast.expr, str, None]]


@dataclass
class Summary:
    """A module's module-level bindings, from one ``ast`` pass.

    ``bindings`` keeps every binding of a name (a ``try``/``except ImportError`` gives
    two): a name's value is their union, as where branches meet in provenance."""

    path: str
    module: str
    bindings: Dict[str, List[_Binding]]
    stars: List[str]
    exported: Optional[Tuple[str, ...]]  # ``__all__``, when a literal list or tuple
    #: Top-level functions, summarised for other modules when first asked (``exports``):
    #: the line of the last ``def`` of each name.
    functions: Dict[str, int] = field(default_factory=dict)
    #: Top-level classes, as ``functions``: their methods are summarised when first asked.
    classes: Dict[str, int] = field(default_factory=dict)
    #: The nodes of those functions and classes, when the whole module was parsed, by line.
    parsed: Dict[int, ast.stmt] = field(default_factory=dict)
    #: Otherwise the text of each, decorators included, and the line it starts on, by its
    #: ``def``'s line: ``function`` parses the text each time it is asked (once a run: what
    #: it gives is remembered as its summary). A parsed body, or even a stub's node, kept
    #: would be objects for the garbage collector to walk to the end of the run, tens of
    #: thousands of them for a big project.
    unparsed: Dict[int, Tuple[int, bytes]] = field(default_factory=dict)
    source: bytes = b""  # the module's text, for a function whose text alone does not parse (``_whole``)
    package: str = ""  # the package the module's relative imports start from

    def may_spell(self, line: int, word: bytes) -> bool:
        """Whether the text of the function whose ``def`` is on ``line`` may spell ``word``
        (``yield``: it may be a generator; ``import``: it may import what it calls itself)."""
        kept = self.unparsed.get(line)
        return kept is None or word in kept[1]

    def function(self, name: str) -> Optional[ast.FunctionDef]:
        """The last top-level ``def`` of ``name`` in the module; None when its text does
        not parse (it does nothing for callers, then)."""
        found = self._node(self.functions.get(name), name, ast.FunctionDef)
        return found if isinstance(found, ast.FunctionDef) else None

    def cls(self, name: str) -> Optional[ast.ClassDef]:
        """The last top-level ``class`` of ``name``, as ``function``."""
        found = self._node(self.classes.get(name), name, ast.ClassDef)
        return found if isinstance(found, ast.ClassDef) else None

    def _node(self, line: Optional[int], name: str, kind: Type[ast.stmt]) -> Optional[ast.stmt]:
        if line is None:
            return None
        if line not in self.unparsed:
            return self.parsed.get(line)
        first, text = self.unparsed[line]
        parsed = _parse(b"\n" * (first - 1) + text)
        found = parsed.body[0] if parsed is not None and len(parsed.body) == 1 else None
        if not isinstance(found, kind) or getattr(found, "name", None) != name or found.lineno != line:
            found = _whole(self.source, name, line, kind)  # its text alone does not parse (an encoding)
        return found


def _parse(data: bytes) -> Optional[ast.Module]:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ast.parse(data)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _whole(source: bytes, name: str, line: int, kind: Type[ast.stmt]) -> Optional[ast.stmt]:
    """The top-level ``def`` or ``class`` (``kind``) of ``name`` at ``line`` in module text
    ``source``, from a parse of all of it."""
    tree = _parse(source)
    for node in tree.body if tree is not None else ():
        if isinstance(node, kind) and getattr(node, "name", None) == name and node.lineno == line:
            return node
    return None


def _summarise(path: str, module: str, is_package: bool) -> Optional[Summary]:
    """The summary of module ``path``, from a parse of its module-level text only (see
    ``_blanked``): its top-level functions are parsed when first asked for. A module
    whose module-level text does not parse contributes nothing; nor does a function
    whose own text does not (the rest of its module still does)."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError:
        return None
    blanked = _blanked(data)
    tree = _parse(blanked[0]) if blanked is not None else None
    if tree is not None and blanked is not None:
        top = {node.lineno for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
        if not blanked[2] <= top:
            tree = None  # a stub inside a string: the cut is not Python's
    if tree is None:
        blanked = None
        tree = _parse(data)  # what the heuristic did not cut out as Python would, or a module that fails to parse
        if tree is None:
            return None  # contributes nothing; the file's own check reports it, if anyone's
    summary = Summary(path, module, {}, [], None, package=module if is_package else module.rpartition(".")[0])
    _collect(tree.body, summary, summary.package)
    stubs = {*summary.functions.values(), *summary.classes.values()}  # the last ``def`` or ``class`` of each name
    if blanked is not None:
        summary.unparsed = {line: text for line, text in blanked[1].items() if line in stubs}
    else:  # the whole module parsed: each top-level function's lines are its text
        lines = data.splitlines(keepends=True)
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.lineno in stubs and node.end_lineno is not None:
                first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                summary.unparsed[node.lineno] = (first, b"".join(lines[first - 1 : node.end_lineno]))
    summary.source = data if summary.unparsed else b""
    # A node whose text is kept is no use: ``function`` parses the text. (A ``def`` under
    # an ``if`` at module level was not cut out: its node is whole.)
    summary.parsed = {line: node for line, node in summary.parsed.items() if line not in summary.unparsed}
    return summary


def _blanked(data: bytes) -> Optional[Tuple[bytes, Dict[int, Tuple[int, bytes]], Set[int]]]:
    """Module ``data`` with the text of each top-level ``def`` and ``class`` replaced by a
    one-line stub on its first line (``def f(): pass``) and blank lines, so that its
    module-level statements parse with their own line numbers; the text of each top-level
    ``def`` and ``class`` with its decorators, by its first line (with the line the text starts on); and the stubs' lines, each of which must be a top-level
    statement of the parse (not one in a string). Regions are ``_module_text``'s. None
    when the cut may not be where Python's is: a region that ends in a line continuation
    or holds an odd number of a triple quote (a multi-line string with a line at column
    0), a decorator not followed by a ``def`` or ``class``, a ``def``/``class`` line
    that does not name one, or a declared encoding: the caller parses all of it then."""
    if b"\r" in data and data.count(b"\r") != data.count(b"\r\n"):
        return None  # lines ended by a lone CR: not counted by newlines here
    if b"coding" in b"\n".join(data.split(b"\n", 2)[:2]):
        return None  # an encoding declared: a function's text alone would be read as UTF-8
    source = b"\n" + data
    kept: List[bytes] = []
    texts: Dict[int, Tuple[int, bytes]] = {}
    stubs: Set[int] = set()
    decorators = (0, 0)  # where the decorators of the next ``def`` or ``class`` start: offset, line
    start = line = 1  # where the region starts: its offset in ``source``, its line
    skipping = decorated = False
    for match in [*_TOP_LINE_BYTES.finditer(source), None]:
        end = len(source) if match is None else match.start() + 1
        region = source[start:end]
        lines = region.count(b"\n")
        if not skipping:
            if decorated:
                return None
            kept.append(region)
        elif region.count(b'"""') % 2 or region.count(b"'''") % 2 or region.rstrip(b"\r\n").endswith(b"\\"):
            return None
        elif region.startswith(b"@"):
            if not decorated:
                decorators = (start, line)
            decorated = True
            kept.append(b"\n" * lines)
        else:
            header = _HEADER.match(region)
            if header is None:
                return None
            first = decorators if decorated else (start, line)
            decorated = False
            stub = header.group(0) + (b": pass" if region.startswith(b"class") else b"(): pass")
            kept.append(stub + b"\n" * lines)
            stubs.add(line)
            texts[line] = (first[1], source[first[0]:end])
        line += lines
        start = end
        skipping = match is not None and match.group(1) is not None
    return b"".join(kept), texts, stubs


#: The newline before a line that starts a top-level statement (``_TOP_LINE``, for bytes).
_TOP_LINE_BYTES = re.compile(rb"\n(?:((?:async[ \t]+)?def\b|class\b|@)|[^\s#)\]}])")
#: What a ``def`` or ``class`` line's stub keeps of it: the keywords and the name.
_HEADER = re.compile(rb"(?:(?:async[ \t]+)?def|class)[ \t]+\w+(?=[ \t]*[(:])")


#: The expressions ``_Evaluator.ev`` reads; any other value is nothing to it.
_EVALUATED = (ast.Constant, ast.Name, ast.Attribute, ast.Call, ast.BinOp, ast.JoinedStr, ast.BoolOp, ast.IfExp, ast.Subscript)
#: What a summary keeps of a value of another kind: a large literal table (a package's
#: ``_import_structure``, a dict of constants) would be objects for the garbage collector
#: to walk to the end of the run, and ``ev`` gives a ``None`` constant what it gives them.
_OPAQUE = ast.Constant(value=None)


def _collect(statements: Iterable[ast.stmt], summary: Summary, package: str) -> None:
    bindings = summary.bindings
    for node in statements:
        if isinstance(node, ast.Assign):
            value = node.value if isinstance(node.value, _EVALUATED) else _OPAQUE
            for target in node.targets:
                if isinstance(target, ast.Name):
                    bindings.setdefault(target.id, []).append((node.lineno, value))
                    if target.id == "__all__":
                        summary.exported = _literal_names(node.value)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            value = node.value if isinstance(node.value, _EVALUATED) else _OPAQUE
            bindings.setdefault(node.target.id, []).append((node.lineno, value))
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for local, named in _import_bindings(node, package):
                if local == "*":
                    summary.stars.append(named)
                else:
                    bindings.setdefault(local, []).append((node.lineno, named))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bindings.setdefault(node.name, []).append((node.lineno, None))
            if isinstance(node, ast.FunctionDef):
                summary.functions[node.name] = node.lineno
                summary.parsed[node.lineno] = node
            elif isinstance(node, ast.ClassDef):
                summary.classes[node.name] = node.lineno
                summary.parsed[node.lineno] = node
        elif isinstance(node, ast.If):
            _collect(node.body, summary, package)
            _collect(node.orelse, summary, package)
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            _collect(node.body, summary, package)
        elif isinstance(node, ast.Try) or sys.version_info >= (3, 11) and isinstance(node, ast.TryStar):
            for block in (node.body, *(h.body for h in node.handlers), node.orelse, node.finalbody):
                _collect(block, summary, package)


def _local_imports(function: ast.FunctionDef, package: str) -> Dict[str, str]:
    """What the names a function's own import statements bind name (``from .fs import
    remove`` inside it, as a module imports a helper where it is used, to break a cycle
    of imports): flow-insensitive, as the rest of its summary. Functions and classes
    defined in it are not its body."""
    found: Dict[str, str] = {}
    pending: List[ast.AST] = list(function.body)
    while pending:
        node = pending.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.update((local, named) for local, named in _import_bindings(node, package) if local != "*")
        elif not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            pending.extend(ast.iter_child_nodes(node))
    return found


def _import_bindings(node: Union[ast.Import, ast.ImportFrom], package: str) -> Iterator[Tuple[str, str]]:
    """(the local name, the absolute name it stands for) of each name an import statement
    of a module of ``package`` binds; ("*", the module) for a star import. ``import a.b``
    binds ``a``."""
    if isinstance(node, ast.Import):
        for alias in node.names:
            top = alias.name.split(".", 1)[0]
            yield (alias.asname, alias.name) if alias.asname else (top, top)
        return
    source = absolute_module(node.module, node.level, package)
    if source is None:
        return  # above the top package
    for alias in node.names:
        yield ("*", source) if alias.name == "*" else (alias.asname or alias.name, f"{source}.{alias.name}")


def _literal_names(value: ast.expr) -> Optional[Tuple[str, ...]]:
    if isinstance(value, (ast.List, ast.Tuple)) and all(
        isinstance(e, ast.Constant) and isinstance(e.value, str) for e in value.elts
    ):
        return tuple(e.value for e in value.elts)  # type: ignore[attr-defined]
    return None


class Project:
    """The modules below some search roots, and what their names resolve to, as one
    analysis sees them: made afresh for each file (it is cheap). What a name resolves to
    is shared by the whole process (``_RESOLVED``), each answer with the stamps (mtime
    and size) of the modules it was read from: an answer whose modules changed since is
    worked out again, so a long-running process (the server) never keeps what a changed
    module bound. Summaries and where modules are live in the process too
    (``_cached_summary``, ``_FILES``)."""

    def __init__(self, roots: Tuple[str, ...], locations: Locations, scanned_only: bool = False) -> None:
        self.roots = roots
        self.locations = locations
        #: Whether only what the scan's gates ask matters: the library functions a name
        #: stands for (``Exported.scanned``: the renames it makes of its parameters, the
        #: temp it returns). A function then summarises only the calls of helpers that
        #: may bind a scanned function (``callee_names``): what another helper removes,
        #: raises or returns makes no rename and no temp; and it evaluates no location.
        #: Its answers are its own.
        self.scanned_only = scanned_only
        self._summaries: Dict[str, Optional[Summary]] = {}
        self._files = _FILES.setdefault(roots, {})
        #: What each import item brings from the project's modules (``imports_of``): as
        #: where modules are, the same for every file of the project.
        self.imported = _IMPORTED.setdefault(roots, {})
        self._stamps: Dict[str, Optional[Stamp]] = {}
        self._bindings: Dict[Tuple[str, str, bool], Tuple[Optional[Resolved], Dependencies]] = {}
        self._methods: Dict[Tuple[str, int, str], Tuple[Optional[Exported], Dependencies]] = {}
        self._pending: Set[Tuple[str, str, bool]] = set()
        self._deps: List[Set[Tuple[str, Stamp]]] = []  # one set per resolution under way
        #: A cycle or the depth guard cut a resolution short: what this project works out
        #: from then on may depend on the order it was asked in, so none of it is shared.
        self.truncated = False
        #: Every module summary (path, stamp) this project's answers rest on.
        self.used: Set[Tuple[str, Stamp]] = set()
        #: Every collection of module texts the scan's filter read (``may_bind``), kept
        #: by identity: a memo hit hands back the same frozenset each time, so noting it
        #: costs O(1); the union is taken once, when ``dependencies`` asks.
        self._read: Dict[int, Collection[Tuple[str, Stamp]]] = {}
        #: The texts read by each of the filter's searches under way (``may_bind``,
        #: ``names_of``), kept as ``_read`` is: their memos keep them with the answers,
        #: which rest on them.
        self._reading: List[Dict[int, Collection[Tuple[str, Stamp]]]] = []
        #: The module texts of the closures ``callee_names`` answered from, as bits
        #: (``_numbered``), and its answers, by module: what ``closure`` gives.
        self._closures = 0
        self._answers: Dict[str, FrozenSet[str]] = {}

    def saw(self, texts: Collection[Tuple[str, Stamp]]) -> None:
        """The filter read these module texts (path, stamp), or took an answer from its
        memo that rests on them: so does what this project works out, and the
        resolution under way (``names_of`` rules a name out)."""
        key = id(texts)  # the dicts keep ``texts`` alive, so its id is not reused meanwhile
        self._read[key] = texts
        for frame in self._reading:
            frame[key] = texts
        self.saw_in_resolution(texts)

    def saw_in_resolution(self, texts: Collection[Tuple[str, Stamp]]) -> None:
        """``saw`` for the resolution under way alone (its memo is checked against them)."""
        if self._deps:
            self._deps[-1].update(texts)

    def saw_closure(self, texts: int, module: str, names: FrozenSet[str]) -> None:
        """``callee_names`` answered ``names`` for ``module`` from the module texts an
        int's bits number (``_numbered``): what this project works out rests on both."""
        self._closures |= texts
        self._answers[module] = names

    def closure(self) -> Optional[Closure]:
        """The closures ``callee_names`` answered from, with its answers (None: it was not asked)."""
        if not self._answers:
            return None
        answers = tuple(sorted((module, tuple(sorted(names))) for module, names in self._answers.items()))
        return Closure(self.roots, numbered_texts(self._closures), answers)

    def start_reading(self) -> None:
        """A search of the filter starts: note the texts it reads (``stop_reading``)."""
        self._reading.append({})

    def stop_reading(self) -> Dependencies:
        """The module texts the innermost search under way read, which it now ends."""
        return frozenset().union(*self._reading.pop().values())

    def dependencies(self, closures: bool = True) -> Dependencies:
        """Every module (path, stamp) this project has read a text or summary of: what a
        result worked out with it rests on (the result cache checks them); the texts of
        the closures ``callee_names`` read only with ``closures`` (else see ``closure``)."""
        return frozenset(self.used).union(*self._read.values(), numbered_texts(self._closures) if closures else ())

    def find(self, module: str) -> Optional[Tuple[str, bool]]:
        """The file of project module ``module`` and whether it is a package, or None."""
        if module in self._files:
            return self._files[module]
        found: Optional[Tuple[str, bool]] = None
        parts = module.split(".")
        # ``from pkg import ...`` in a docstring makes ``pkg....``: the file system would
        # read ``pkg////__init__.py`` as ``pkg/__init__.py``, a second copy under a false name.
        if all(part.isidentifier() for part in parts) and parts[0] not in STDLIB:
            for root in self.roots:
                found = module_file(root, parts)
                if found is not None:
                    break
        self._files[module] = found
        return found

    def stamp(self, path: str) -> Optional[Stamp]:
        """The file's (mtime, size), read once per project (and once between sweeps: ``stamp_seen``)."""
        if path not in self._stamps:
            self._stamps[path] = stamp_seen(path)
        return self._stamps[path]

    def summary(self, module: str) -> Optional[Summary]:
        if module not in self._summaries:
            found = self.find(module)
            summary = None
            if found is not None:
                stamp = self.stamp(found[0])
                if stamp is not None:
                    summary = _cached_summary(found[0], stamp, module, found[1])
                    self._note({(found[0], stamp)})
            self._summaries[module] = summary
        elif self._deps:
            summary = self._summaries[module]
            if summary is not None:
                self._note({(summary.path, self._stamps[summary.path] or (0, 0))})
        return self._summaries[module]

    def _note(self, deps: Iterable[Tuple[str, Stamp]]) -> None:
        if self._deps:
            self._deps[-1].update(deps)
        else:
            self.used.update(deps)

    def is_module(self, qualified: str) -> bool:
        return self.find(qualified) is not None

    def resolve(self, qualified: str, depth: int = 0, classes: bool = False) -> Optional[Resolved]:
        """What the project name ``qualified`` (``pkg.mod.NAME``, ``pkg.mod.Class.method``)
        is, when it is an alias of library objects, a path constant, or a function or class
        its callers need to know of; None otherwise (a module, a name outside the project,
        or nothing known). A class only when ``classes`` asks for them (the analysis):
        what the scan's gates ask rests on module texts, which no class's call taints."""
        if depth or qualified.split(".", 1)[0] in STDLIB:
            return self._resolve(qualified, depth, classes)
        key = (self.roots, self.locations, self.scanned_only, classes, qualified)
        cached = _RESOLVED.get(key)
        if cached is not None and all(self.stamp(path) == stamp for path, stamp in cached[1]):
            self._note(cached[1])
            return cached[0]
        self._deps.append(set())
        try:
            found = self._resolve(qualified, 0, classes)
        finally:
            deps = self._deps.pop()
        self._note(deps)
        if not self.truncated:
            _RESOLVED[key] = (found, frozenset(deps))
        return found

    def _resolve(self, qualified: str, depth: int, classes: bool) -> Optional[Resolved]:
        if depth > _DEPTH:
            self.truncated = True
            return None
        if qualified.split(".", 1)[0] in STDLIB:
            return None
        module, _, name = qualified.rpartition(".")
        if not module:
            return None
        if name.isascii() and self.is_module(module) and name not in names_of(self, module):
            return None  # no text of it binds the name (an object's attribute): not worth parsing
        summary = self.summary(module)
        if summary is None:
            # ``pkg.mod.attr.more``: ``pkg.mod.attr`` may be an alias of a library module.
            owner = self.resolve(module, depth + 1, classes) if "." in module else None
            if owner is not None and owner.callees:
                return Resolved(callees=frozenset(f"{c}.{name}" for c in owner.callees), origin=owner.origin)
            if owner is not None and owner.cls is not None:  # ``pkg.mod.Class.method``: a class or static method
                method = self.method(owner.cls, name)
                return Resolved(origin=(owner.origin[0], method.line), function=method) if method is not None else None
            return None
        return self.binding(summary, name, depth, classes)

    def binding(self, summary: Summary, name: str, depth: int, classes: bool = False) -> Optional[Resolved]:
        """What ``name`` is at the end of ``summary``'s module (the union of its bindings)."""
        key = (summary.module, name, classes)
        shared = (self.roots, self.locations, self.scanned_only, summary.path, name, classes)
        known = self._known(self._bindings, _BINDINGS, key, shared)
        if known is not None:
            return known[0]
        if key in self._pending or depth > _DEPTH:
            self.truncated = True  # a cycle (of imports, of constants) resolves to nothing
            return None
        self._pending.add(key)
        try:
            work = lambda: self._binding(summary, name, depth, classes)  # noqa: E731
            return self._work_out(self._bindings, _BINDINGS, key, shared, summary.path, work)
        finally:
            self._pending.discard(key)

    def _known(
        self, local: Dict[_K, Tuple[_A, Dependencies]], shared: Dict[_S, Tuple[_A, Dependencies]], key: _K, shared_key: _S
    ) -> Optional[Tuple[_A, Dependencies]]:
        """An answer remembered by this project (``local``), or by another file's project
        (``shared``: a helper's summary, with the chain of helpers it calls) while the
        modules it rests on are unchanged; noted as read. None when there is none."""
        known = local.get(key)
        if known is None:
            found = shared.get(shared_key)
            if found is not None and all(self.stamp(path) == stamp for path, stamp in found[1]):
                local[key] = known = found
        if known is not None:
            self._note(known[1])
        return known

    def _work_out(
        self, local: Dict[_K, Tuple[_A, Dependencies]], shared: Dict[_S, Tuple[_A, Dependencies]], key: _K, shared_key: _S, path: str,
        work: Callable[[], _A],
    ) -> _A:
        """``work``'s answer, remembered in both memos (``_known``) with the summaries it
        rested on, module ``path``'s first; not shared once a cycle cut an answer short."""
        self._deps.append({(path, self._stamps.get(path) or (0, 0))})
        try:
            found = work()
        finally:
            deps = self._deps.pop()
        local[key] = (found, frozenset(deps))
        if not self.truncated:
            shared[shared_key] = local[key]
        self._note(deps)
        return found

    def _binding(self, summary: Summary, name: str, depth: int, classes: bool) -> Optional[Resolved]:
        bound = summary.bindings.get(name)
        if bound is None:
            for star in summary.stars:
                found = self._star(star, name, depth, classes)
                if found is not None:
                    return found
            return None
        result: Optional[Resolved] = None
        for line, value in bound:
            if value is None:
                found = self._defined(summary, name, line, depth, classes)
                if found is not None:
                    result = found if result is None else result | found
                continue  # a function or class that does nothing its callers need
            if isinstance(value, str):
                found = self._imported(value, depth, classes)
            else:
                found = _Evaluator(self, summary, depth).value(value, name)
            if found is not None:
                found = Resolved(found.callees, found.locations, found.literal, found.path, (summary.path, line))
                result = found if result is None else result | found
        return result

    def _defined(self, summary: Summary, name: str, line: int, depth: int, classes: bool) -> Optional[Resolved]:
        """What the ``def`` or ``class`` of ``name`` at ``line`` is to callers."""
        function = summary.function(name)
        if function is not None and function.lineno == line:
            exported = self.exported(summary, function, depth)
            return Resolved(origin=(summary.path, line), function=exported) if exported is not None else None
        shape = _class_shape(summary, name, line) if classes and summary.classes.get(name) == line else None
        if shape is not None:
            found = self.exported_class(summary, name, line, *shape, depth)
            return Resolved(origin=(summary.path, line), cls=found) if found is not None else None
        return None

    def exported_class(
        self, summary: Summary, name: str, line: int, bases_written: List[ast.expr], methods: List[Tuple[str, str, int]], depth: int
    ) -> Optional[ExportedClass]:
        """``summary``'s class ``name`` (at ``line``) as callers see it: the methods it
        defines and its bases that are project classes (``ExportedClass``); None when it
        has neither. Its methods are summarised when first read (``method``)."""
        bases: List[ExportedClass] = []
        evaluator = _Evaluator(self, summary, depth)
        for base in bases_written:
            if isinstance(base, ast.Name) and base.id in summary.bindings:
                inherited = self.binding(summary, base.id, depth + 1, classes=True)
            else:
                qualified = evaluator.qualified(base)
                inherited = self._imported(qualified, depth + 1, classes=True) if qualified is not None else None
            if inherited is not None and inherited.cls is not None:
                bases.append(inherited.cls)
        if not methods and not bases:
            return None
        return ExportedClass(f"{summary.module}.{name}", self.relative(summary.path), line, tuple(methods), tuple(bases))

    def method(self, cls: ExportedClass, name: str) -> Optional[Exported]:
        """What ``name`` read off ``cls`` (an object of it, or the class) is, when a call
        of it does something callers need: any method off an object; off the class, a
        class or static method (a plain function read off the class takes ``self`` first:
        not followed). An override that does nothing hides its base's method."""
        found = cls.defining(name)
        if found is None:
            return None
        owner, kind, line = found
        if kind == PROPERTY or kind == ASYNC or kind == INSTANCE and not cls.instance:
            return None
        return self._method(owner, name, kind, line)

    def _method(self, owner: ExportedClass, name: str, kind: str, line: int) -> Optional[Exported]:
        """The summary of method ``name`` (``def`` at ``line``) of class ``owner``, bound
        to an object or the class unless static; remembered as ``binding``'s answers are."""
        summary = self.summary(owner.qualified.rpartition(".")[0])
        if summary is None:
            return None
        key = (summary.path, owner.line, name)
        shared = (self.roots, self.locations, self.scanned_only, *key)
        known = self._known(self._methods, _METHODS, key, shared)
        if known is not None:
            return known[0]

        def work() -> Optional[Exported]:
            statement = _method_node(summary, owner.name, owner.line, name, line)
            return self.exported(summary, statement, 0, owner=owner.name, bound=kind != STATIC) if statement is not None else None

        return self._work_out(self._methods, _METHODS, key, shared, summary.path, work)

    def exported(
        self, summary: Summary, node: ast.FunctionDef, depth: int, owner: Optional[str] = None, bound: bool = False
    ) -> Optional[Exported]:
        """The summary of ``summary``'s function ``node`` (a method of its class ``owner``,
        ``bound`` to an instance or the class), or None when it does nothing its callers
        need. Functions it calls resolve as names do (a cycle to nothing)."""
        local = _local_imports(node, summary.package) if summary.may_spell(node.lineno, b"import") else {}
        evaluator = _Evaluator(self, summary, depth, local)

        own = f"{summary.module}.{owner}.{node.name}" if owner is not None else f"{summary.module}.{node.name}"

        def function(qualified: str) -> Optional[Exported]:
            if qualified == own or qualified.split(".", 1)[0] in STDLIB:
                return None  # recursion adds nothing to what the body does
            module, _, name = qualified.rpartition(".")
            if self.scanned_only and self.is_module(module) and name not in callee_names(self, module):
                return None  # it can make no rename and no temp
            found = self.binding(summary, name, depth + 1) if module == summary.module else self._imported(qualified, depth + 1)
            return found.function if found is not None else None

        def qualified(node: ast.expr) -> Optional[str]:
            found = evaluator.qualified_anywhere(node)
            if found is not None:
                return self._alias_of(found, depth) or found
            if isinstance(node, ast.Name) and node.id not in local and node.id in summary.bindings:
                return self._alias_of(f"{summary.module}.{node.id}", depth)  # ``swap = os.rename`` in the module
            return None

        if self.scanned_only:  # the renames and the temp a function makes do not rest on locations
            context = Context(qualified, lambda node: frozenset(), function)
        else:
            context = Context(qualified, lambda node: evaluator.ev(node).locations, function)
        exported = summarise(node, own, self.relative(summary.path), context, summary.may_spell(node.lineno, b"yield"), bound, owner)
        return None if exported.empty else exported

    def _alias_of(self, qualified: str, depth: int) -> Optional[str]:
        """The library function the project name ``qualified`` stands for when it is an
        alias of one (``swap = os.rename``, in its module or imported from another; of a
        ``try``/``except ImportError`` pair, the lesser name): what a call of it in a
        function's body makes. None for any other name."""
        module, _, name = qualified.rpartition(".")
        if not module or qualified.split(".", 1)[0] in STDLIB or not self.is_module(module) or not may_alias(self, module, name):
            return None  # a library's name, or a project function's (``function`` asks for its summary)
        if self.scanned_only and name not in callee_names(self, module):
            return None  # no alias of a rename or a temp factory
        resolved = self.resolve(qualified, depth + 1)
        if resolved is not None and resolved.function is None and resolved.callees:
            return min(resolved.callees)
        return None

    def relative(self, path: str) -> str:
        """``path`` as messages show it: below the first search root holding it."""
        for root in self.roots:
            if path.startswith(root.rstrip(os.sep) + os.sep):
                return os.path.relpath(path, root)
        return path

    def _star(self, module: str, name: str, depth: int, classes: bool = False) -> Optional[Resolved]:
        if name.startswith("_"):
            return None
        if self.is_module(module) and name not in names_of(self, module):
            return None  # its text binds no such name: not worth parsing
        source = self.summary(module)
        if source is None:
            qualified = f"{module}.{name}"
            return Resolved(callees=frozenset({qualified})) if qualified in names.KNOWN_NAMES else None
        if source.exported is not None and name not in source.exported:
            return None
        return self.binding(source, name, depth + 1, classes)

    def _imported(self, qualified: str, depth: int, classes: bool = False) -> Optional[Resolved]:
        """An imported name: resolved in the project, or a library object by its name."""
        if self.is_module(qualified):
            return None  # a project module: its names resolve through it
        module = qualified.rpartition(".")[0]
        if module and self.is_module(module):
            return self.resolve(qualified, depth + 1, classes)
        return _library(qualified, self.locations)


def _library(qualified: str, locations: Locations) -> Resolved:
    """A library object by its name: the temp directory and well-known constants are locations."""
    if qualified in names.TEMP_DIR_ATTRIBUTES:
        return Resolved(locations=frozenset({TEMP}))
    located = locations.for_library(qualified)
    if located:
        return Resolved(locations=located)
    return Resolved(callees=frozenset({qualified}))


#: Where each module is, by search roots, then module name (``Project.find``).
_FILES: Dict[Tuple[str, ...], Dict[str, Optional[Tuple[str, bool]]]] = {}
#: ``Project.imported``, by search roots.
_IMPORTED: Dict[Tuple[str, ...], Dict[Tuple[Optional[str], str, Optional[str]], Tuple[Tuple[str, Optional[str], str], ...]]] = {}
_SUMMARIES: Dict[str, Tuple[Stamp, str, Optional[Summary]]] = {}
#: What each name resolved to, by (search roots, locations, qualified name), with the
#: summaries (path, stamp) the answer rests on.
_RESOLVED: Dict[Tuple[Tuple[str, ...], Locations, bool, bool, str], Tuple[Optional[Resolved], Dependencies]] = {}
#: What each module-level name of a summarised module is, by (search roots, locations,
#: module path, name), with the summaries it rests on: ``Project.binding``'s answers.
_BINDINGS: Dict[Tuple[Tuple[str, ...], Locations, bool, str, str, bool], Tuple[Optional[Resolved], Dependencies]] = {}
#: ``Project._method``'s answers, as ``_BINDINGS``: by (search roots, locations, module
#: path, the class's line, the method's name).
_METHODS: Dict[Tuple[Tuple[str, ...], Locations, bool, str, int, str], Tuple[Optional[Exported], Dependencies]] = {}


def forget() -> None:
    """Drop everything this process remembers of project modules (for tests: a cold run)."""
    for memo in (_FILES, _IMPORTED, _SUMMARIES, _RESOLVED, _BINDINGS, _METHODS, _SEARCH_ROOTS):
        memo.clear()
    project_files.forget()
    project_text.forget()


def _cached_summary(path: str, stamp: Stamp, module: str, is_package: bool) -> Optional[Summary]:
    cached = _SUMMARIES.get(path)
    if cached is not None and cached[0] == stamp and cached[1] == module:
        return cached[2]
    summary = _summarise(path, module, is_package)
    _SUMMARIES[path] = (stamp, module, summary)
    return summary


class _Evaluator:
    """A module-level expression's location, literal and library objects, by the tables
    provenance reads. Only what a constant can be: no calls of project functions."""

    def __init__(self, project: Project, summary: Summary, depth: int, local: Optional[Dict[str, str]] = None) -> None:
        self.project = project
        self.summary = summary
        self.depth = depth
        self.locations = project.locations
        #: What the names a function imports itself name (``_local_imports``): they stand
        #: before the module's.
        self.local = local or {}

    def value(self, node: ast.expr, name: str) -> Optional[Resolved]:
        found = self.ev(node)
        if not found.callees and not found.locations and found.literal is None:
            guess = self.locations.for_identifier(name)
            return Resolved(locations=guess) if guess else None
        return found

    def qualified(self, node: ast.expr) -> Optional[str]:
        """The absolute name a dotted expression (``os.path.join``, ``_swap``) names."""
        parts = dotted(node)
        if parts is None:
            return None
        if parts[0] in self.local:
            return ".".join([self.local[parts[0]], *parts[1:]])
        bound = self.summary.bindings.get(parts[0])
        if not bound or len(bound) != 1 or not isinstance(bound[0][1], str):
            return None
        return ".".join([bound[0][1], *parts[1:]])

    def qualified_anywhere(self, node: ast.expr) -> Optional[str]:
        """``qualified``, and for a name the module binds with ``def``, its own absolute name."""
        found = self.qualified(node)
        if found is None and isinstance(node, ast.Name):
            if node.id in self.summary.functions:
                return f"{self.summary.module}.{node.id}"
            if node.id in names.BUILTINS and node.id not in self.summary.bindings:
                return f"builtins.{node.id}"  # ``str(path)``
        return found

    def ev(self, node: ast.expr) -> Resolved:
        if self.depth > _DEPTH:
            self.project.truncated = True
            return _NOTHING
        if isinstance(node, ast.Constant):
            text = node.value.decode("latin-1") if isinstance(node.value, bytes) else node.value
            if isinstance(text, str):
                return Resolved(locations=self.locations.for_literal(text), literal=text)
            return _NOTHING
        if isinstance(node, (ast.Name, ast.Attribute)):
            return self.name(node)
        if isinstance(node, ast.Call):
            return self.call(node)
        if isinstance(node, ast.BinOp):
            left, right = self.ev(node.left), self.ev(node.right)
            if isinstance(node.op, ast.Div) and (left.path or right.path):
                return self.joined([left, right], True)
            if isinstance(node.op, ast.Add):
                literal = left.literal + right.literal if left.literal is not None and right.literal is not None else None
                return Resolved(locations=left.locations, literal=literal, path=left.path)
            return _NOTHING
        if isinstance(node, ast.JoinedStr) and node.values:
            first = node.values[0]
            if isinstance(first, ast.FormattedValue):
                return Resolved(locations=self.ev(first.value).locations)
            return Resolved(locations=self.ev(first).locations)
        if isinstance(node, ast.BoolOp):
            return _union(self.ev(v) for v in node.values)
        if isinstance(node, ast.IfExp):
            return self.ev(node.body) | self.ev(node.orelse)
        if isinstance(node, ast.Subscript):
            container = self.qualified(node.value)
            key = node.slice
            if container in names.ENV_MAPPINGS and isinstance(key, ast.Constant) and isinstance(key.value, str):
                return Resolved(locations=self.locations.for_env(key.value))
        return _NOTHING

    def name(self, node: Union[ast.Name, ast.Attribute]) -> Resolved:
        if isinstance(node, ast.Name):
            if node.id in self.local:
                return self.library_or_project(self.local[node.id])
            found = self.project.binding(self.summary, node.id, self.depth + 1)
            return found or Resolved(locations=self.locations.for_identifier(node.id))
        qualified = self.qualified(node)
        if qualified is not None:
            return self.library_or_project(qualified)
        if node.attr in names.PATH_DERIVING_ATTRIBUTES:
            receiver = self.ev(node.value)
            return Resolved(locations=receiver.locations, path=receiver.path)
        return Resolved(locations=self.locations.for_identifier(node.attr))

    def library_or_project(self, qualified: str) -> Resolved:
        module = qualified.rpartition(".")[0]
        if self.project.is_module(qualified):
            return _NOTHING
        if module and self.project.is_module(module):
            return self.project.resolve(qualified, self.depth + 1) or _NOTHING
        return _library(qualified, self.locations)

    def call(self, node: ast.Call) -> Resolved:
        func = node.func
        args = node.args
        if isinstance(func, ast.Attribute) and self.qualified(func) is None:
            # A method of a path: ``Path.home() / ".cache"``, ``root.joinpath("x")``, ``p.resolve()``.
            receiver = self.ev(func.value)
            if func.attr == "joinpath":
                return self.joined([receiver, *(self.ev(a) for a in args)], True)
            if func.attr in names.PATH_DERIVING_METHODS or func.attr in ("as_posix", "__fspath__"):
                return Resolved(locations=receiver.locations, path=receiver.path)
            return Resolved(locations=self.locations.for_call_name(func.attr))
        called = self.ev(func)
        callee = called.callees
        if called.function is not None and called.function.returns_locations:
            return Resolved(locations=called.function.returns_locations)  # ``CACHE = cache_dir()``
        if not callee:
            name = func.id if isinstance(func, ast.Name) else None
            return Resolved(locations=self.locations.for_call_name(name)) if name else _NOTHING
        first = self.ev(args[0]) if args and not isinstance(args[0], ast.Starred) else _NOTHING
        for qualified in sorted(callee):
            if qualified in names.TEMP_DIR_CALLS:
                return Resolved(locations=frozenset({TEMP}))
            configured = self.locations.for_call(qualified)
            if configured:
                return Resolved(locations=configured, path=qualified.endswith("_path"))
            if qualified in names.ENV_CALLS:
                found = Resolved(locations=self.locations.for_env(first.literal)) if first.literal is not None else _NOTHING
                default = args[1] if len(args) > 1 else next((k.value for k in node.keywords if k.arg == "default"), None)
                return found | self.ev(default) if default is not None else found
            if qualified in names.PASS_THROUGH_CALLS:
                literal = first.literal
                if literal is not None and qualified.endswith(".dirname"):
                    literal = os.path.dirname(literal)
                return Resolved(locations=first.locations, literal=literal, path=False)
            if qualified in names.JOIN_CALLS or qualified in names.PATH_CLASSES:
                return self.joined([self.ev(a) for a in args], qualified in names.PATH_CLASSES)
            if qualified in names.HOME_CALLS:
                return Resolved(literal="~", path=True)
        return _NOTHING

    def joined(self, parts: List[Resolved], path: bool) -> Resolved:
        """``os.path.join`` semantics: a later absolute component starts afresh."""
        if not parts:
            return Resolved(path=path)
        start = max((i for i, p in enumerate(parts) if p.literal is not None and p.literal.startswith("/")), default=0)
        parts = parts[start:]
        literal = None
        if all(p.literal is not None for p in parts):
            literal = os.path.join(*[p.literal for p in parts if p.literal is not None])
        locations = parts[0].locations | (self.locations.for_literal(literal) if literal is not None else frozenset())
        return Resolved(locations=locations, literal=literal, path=path)


def _method_kind(asynchronous: bool, decorators: List[str]) -> str:
    """How a method is read off its class or an object: called (``INSTANCE``, ``CLASS``,
    ``STATIC``), read (a property, or any dotted decorator: ``x.setter``,
    ``functools.cached_property``), or awaited (``ASYNC``: summaries follow plain calls).
    ``decorators``: each decorator's text up to its arguments."""
    if asynchronous:
        return ASYNC
    if any(d in ("property", "cached_property") or "." in d for d in decorators):
        return PROPERTY
    return STATIC if "staticmethod" in decorators else CLASS if "classmethod" in decorators else INSTANCE


def _class_shape(summary: Summary, name: str, line: int) -> Optional[Tuple[List[ast.expr], List[Tuple[str, str, int]]]]:
    """The bases of ``summary``'s class ``name`` (its ``class`` line: ``line``) as written,
    and its methods (name, kind, line), without a parse of its body: a large class's
    parse costs more than all the summaries of the methods its users call. From its
    node when the whole module was parsed; else from its text: the header is parsed
    alone, a method is a ``def`` at the indentation of the body's first statement, with
    the decorators above it. (A ``def`` at that indentation in a string adds a name that
    ``Project.method`` finds no node for: nothing.)"""
    node = summary.parsed.get(line)
    if isinstance(node, ast.ClassDef):
        return list(node.bases), [
            (s.name, _method_kind(isinstance(s, ast.AsyncFunctionDef), [ast.unparse(d).split("(", 1)[0] for d in s.decorator_list]), s.lineno)
            for s in node.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))
        ]
    kept = summary.unparsed.get(line)
    if kept is None:
        return None
    first, data = kept
    text = data.decode("utf-8", "replace")
    header = _CLASS_HEADER.search(text)
    if header is None:
        return None
    parsed = _parse(f"class C{header.group(1) or ''}: pass".encode())
    if parsed is None or not isinstance(parsed.body[0], ast.ClassDef):
        return None
    body = text[header.end():]
    indent = _BODY_INDENT.search(body)
    methods: List[Tuple[str, str, int]] = []
    if indent is not None:
        offset = text[: header.end()].count("\n") + first
        decorators: List[str] = []
        at = 0
        for match in _MEMBER.finditer(body):
            if match.group(1) != indent.group(1):
                continue  # deeper: a nested function's or class's
            if match.group(2):
                decorators.append(match.group(3))
                continue
            lineno = offset + body.count("\n", at, match.start())
            offset, at = lineno, match.start()
            methods.append((match.group(5), _method_kind(bool(match.group(4)), decorators), lineno))
            decorators = []
    return parsed.body[0].bases, methods


def _method_node(summary: Summary, cls: str, cls_line: int, name: str, line: int) -> Optional[ast.FunctionDef]:
    """The ``def`` of method ``name`` at ``line`` of ``summary``'s class ``cls``: parsed
    from its own lines (from the decorator lines above it, to the next line indented no
    deeper), which must parse to that ``def``; else from a parse of the whole class (a
    large class's parse costs many times what one method's does). On the ecosystem
    corpus the two give the same node for every method but 7, whose decorator spans
    lines and is left out: ``summarise`` reads no decorator; 206 of its 65,957 methods
    need the class parsed."""
    kept = summary.unparsed.get(cls_line)
    if kept is not None:
        first, data = kept
        lines = data.split(b"\n")
        at = line - first
        if 0 <= at < len(lines):
            indent = lines[at][: len(lines[at]) - len(lines[at].lstrip(b" \t"))]
            start = at
            while start > 0 and lines[start - 1].startswith((indent + b"@", indent + b"#")):  # its decorators, comments among them
                start -= 1
            end = at + 1
            while end < len(lines) and (not lines[end].strip() or lines[end].lstrip().startswith(b"#") or _deeper(lines[end], indent) or _closing(lines[end], indent)):
                end += 1
            # Under an ``if`` on the line above, not dedented: its strings keep their text.
            parsed = _parse(b"\n" * (first + start - 2) + b"if 1:\n" + b"\n".join(lines[start:end])) if first + start >= 2 else None
            block = parsed.body[0] if parsed is not None and len(parsed.body) == 1 else None
            found = block.body[0] if isinstance(block, ast.If) and len(block.body) == 1 else None
            if isinstance(found, ast.FunctionDef) and found.name == name and found.lineno == line:
                return found
    node = summary.cls(cls)
    if node is None or node.lineno != cls_line:
        return None
    return next((s for s in node.body if isinstance(s, ast.FunctionDef) and s.name == name and s.lineno == line), None)


def _deeper(text: bytes, indent: bytes) -> bool:
    """Whether a line is indented deeper than ``indent``: part of the block it opens."""
    return text.startswith(indent) and text[len(indent) : len(indent) + 1] in (b" ", b"\t")


def _closing(text: bytes, indent: bytes) -> bool:
    """Whether a line at ``indent`` closes a bracket the ``def`` opened: black's ``):`` of
    a signature spread over lines."""
    return text.startswith(indent) and text[len(indent) : len(indent) + 1] in (b")", b"]", b"}")


#: A ``class`` line: its bases (group 1), up to the ``:`` that ends the header.
_CLASS_HEADER = re.compile(r"^class[ \t]+\w+[ \t]*(\((?:[^()]|\([^()]*\))*\))?[ \t]*:", re.M)
#: The indentation of a class body's first statement (not a blank or comment line).
_BODY_INDENT = re.compile(r"\n([ \t]+)[^\s#]")
#: An indented decorator (its name: group 3) or ``def`` (group 5), with its indentation (group 1).
_MEMBER = re.compile(r"^([ \t]+)(?:(@)\s*([\w.]+)|(async[ \t]+)?def[ \t]+(\w+))", re.M)


def _union(values: Iterable[Resolved]) -> Resolved:
    result: Optional[Resolved] = None
    for value in values:
        result = value if result is None else result | value
    return result or _NOTHING


# -- one file's view -----------------------------------------------------------------


@dataclass(frozen=True)
class FileView:
    """The index as one file sees it: its module name (for relative imports) and the project."""

    module: str
    is_package: bool
    project: Project
    #: The words the analysed text spells past its import statements (``spelt_past_imports``),
    #: None when unknown: a name it imports but never uses is not worth resolving.
    spelt: Optional[FrozenSet[str]] = None

    @property
    def package(self) -> str:
        return self.module if self.is_package else self.module.rpartition(".")[0]

    def uses(self, local: str) -> bool:
        """Whether the text may use the name ``local`` it imports (past the import)."""
        return self.spelt is None or local in self.spelt

    def resolve(self, qualified: str) -> Optional[Resolved]:
        """What the analysis knows of a project name, classes included."""
        return self.project.resolve(qualified, classes=True)

    def method(self, cls: ExportedClass, name: str) -> Optional[Exported]:
        return self.project.method(cls, name)

    def star(self, module: str) -> Dict[str, Resolved]:
        """What ``from module import *`` binds that the index resolves (a project module's
        constants and aliases)."""
        summary = self.project.summary(module)
        if summary is None:
            return {}
        found: Dict[str, Resolved] = {}
        seen: Set[str] = set()
        pending = [summary]
        while pending:  # a star of a star: names of the modules it imports from, too
            current = pending.pop()
            if current.module in seen:
                continue
            seen.add(current.module)
            public = current.exported if current.exported is not None else [n for n in current.bindings if not n.startswith("_")]
            for name in public:
                if name not in found and self.uses(name):
                    resolved = self.project.resolve(f"{current.module}.{name}", classes=True)
                    if resolved is not None:
                        found[name] = resolved
            pending.extend(s for s in (self.project.summary(m) for m in current.stars) if s is not None)
        return found


def view_for(path: str, locations: Locations, configured: bool = False) -> Optional[FileView]:
    """The index for the file ``path``, or None when it has no project to look in (a file
    that is not on disk, or one installed in site-packages) or the index is off
    (``configured``: the configuration's ``project-index``, see ``enabled``)."""
    if not path or not enabled(configured) or not os.path.isfile(path):
        return None
    sweep()
    if _LAYOUT_SEEN[0] != layout():  # a module added or removed since: where each is, and all that rests on it, is found again
        for memo in (_FILES, _IMPORTED, _RESOLVED, _BINDINGS, _METHODS, _SEARCH_ROOTS):
            memo.clear()
        _LAYOUT_SEEN[0] = layout()
    search, module, is_package = top_package(path)
    if installed(search):
        return None
    key = (search, os.path.dirname(path))
    roots = _SEARCH_ROOTS.get(key)
    if roots is None:
        found = [search]
        root = project_root(path)
        if root is not None and not installed(root):
            for candidate in (root, os.path.join(root, "src")):
                if candidate not in found and os.path.isdir(candidate):
                    found.append(candidate)
        roots = _SEARCH_ROOTS[key] = tuple(found)
    return FileView(module, is_package, Project(roots, locations))


#: The ``layout`` the memos of where modules are were filled under.
_LAYOUT_SEEN = [0]
#: The search roots of the files of a directory (with its top package's search root):
#: every file of it asks, and the answer is the same.
_SEARCH_ROOTS: Dict[Tuple[str, str], Tuple[str, ...]] = {}
