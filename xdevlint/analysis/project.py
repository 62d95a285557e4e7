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

The cheap scan's gates ask less (``Supplied``): whether the names a file uses from its
project may be move or temp aliases or locations. They parse nothing a module's text
rules out. Every file asks of move and temp functions, whose marks are rare (180 of the
ecosystem corpus's 6,658 modules), so the names that may bind one are worked out
forwards from the marks, once per module for all its names (``_callee_names``); only
files that move ask of locations, whose spellings are common, and ``_may_bind`` follows
each name asked back through the module-level text of the modules it may come from. A
module is summarised only when one of its names may be such a binding.

Constants are classified by the tables provenance reads (``names``, ``Locations``): a
literal's path, an environment variable, a temp directory call, a configured call, the
joins and path constructors that keep their first component's location, and, as for a
same-module name, the name's own pattern (``TMP_DIR = compute()`` is a temp).
"""

from __future__ import annotations

import ast
import re
import os
import sys
import time
import warnings
from dataclasses import dataclass, field
from typing import Callable, Collection, Dict, FrozenSet, Iterable, Iterator, KeysView, List, Optional, Pattern, Sequence, Set, Tuple, Union

from xdevlint.analysis import names
from xdevlint.analysis.exports import Context, Exported, summarise
from xdevlint.analysis.locations import TEMP, Locations, literal_fragment

#: ``project-index = true`` (``--project-index``) turns the index on; the environment's
#: ``XDEVLINT_PROJECT_INDEX=1`` or ``=0`` overrides every configuration (benchmarks, tests).
#: Off by default: it misses its cost target (+15% on a cold full run) on large projects.
#: ``bench/project_index.py --repeat 3`` measured +70% CPU on the ecosystem corpus
#: (11.2 s -> 19.0 s) and +6% on the stdlib (8.0 s -> 8.5 s), on 2026-12-03. With it
#: off, no gate or analysis looks past the file.
SWITCH = "XDEVLINT_PROJECT_INDEX"


def enabled(configured: bool = False) -> bool:
    """Whether the index is on: as the environment's switch says when it is set, else as
    the configuration (``configured``) says."""
    switch = os.environ.get(SWITCH)
    return switch == "1" if switch in ("0", "1") else configured


#: Files whose presence marks a project root.
ROOT_MARKERS = ("pyproject.toml", "setup.cfg", ".git")
#: Directories that hold installed code: the index never looks for modules in them.
_INSTALLED = frozenset({"site-packages", "dist-packages"})
_STDLIB: FrozenSet[str] = frozenset(getattr(sys, "stdlib_module_names", ())) | {"builtins", "os", "posixpath", "ntpath"}
#: Nested constants and alias chains longer than this are not followed (a guard, not a limit real code meets).
_DEPTH = 20


@dataclass(frozen=True)
class Resolved:
    """What a project name is: an alias of library objects (``callees``), a path
    constant (``locations``, ``literal``, ``path``: built with pathlib), or a function
    that moves, makes, returns or removes paths (``function``, see ``exports``).
    ``origin`` is where it is bound: the module's path and the line."""

    callees: FrozenSet[str] = frozenset()
    locations: FrozenSet[str] = frozenset()
    literal: Optional[str] = None
    path: bool = False
    origin: Tuple[str, int] = ("", 0)
    function: Optional[Exported] = None

    def __or__(self, other: "Resolved") -> "Resolved":
        return Resolved(
            self.callees | other.callees,
            self.locations | other.locations,
            self.literal if self.literal == other.literal else None,
            self.path or other.path,
            self.origin,
            self.function or other.function,
        )


_NOTHING = Resolved()
#: A file's (mtime in ns, size): what decides whether what was read of it still holds.
_Stamp = Tuple[int, int]
_Dependencies = FrozenSet[Tuple[str, _Stamp]]

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
    #: Top-level functions, summarised for other modules when first asked (``exports``).
    functions: Dict[str, ast.FunctionDef] = field(default_factory=dict)
    #: The text of each top-level function, decorators included, and the line it starts
    #: on, by its ``def``'s line: its node in ``functions`` is a stub, and ``function``
    #: parses the text each time it is asked (once a run: what it gives is remembered as
    #: its summary). A parsed body kept would be objects for the garbage collector to walk
    #: to the end of the run, thousands of them for a big project.
    unparsed: Dict[int, Tuple[int, bytes]] = field(default_factory=dict)
    source: bytes = b""  # the module's text, for a function whose text alone does not parse (``_whole``)

    def function(self, name: str) -> Optional[ast.FunctionDef]:
        """The last top-level ``def`` of ``name`` in the module; None when its text does
        not parse (it does nothing for callers, then)."""
        node = self.functions.get(name)
        if node is None or node.lineno not in self.unparsed:
            return node
        first, text = self.unparsed[node.lineno]
        parsed = _parse(b"\n" * (first - 1) + text)
        found = parsed.body[0] if parsed is not None and len(parsed.body) == 1 else None
        if not isinstance(found, ast.FunctionDef) or found.name != name or found.lineno != node.lineno:
            found = _whole(self.source, name, node.lineno)  # its text alone does not parse (an encoding)
        return found


def _parse(data: bytes) -> Optional[ast.Module]:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ast.parse(data)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _whole(source: bytes, name: str, line: int) -> Optional[ast.FunctionDef]:
    """The top-level ``def`` of ``name`` at ``line`` in module text ``source``, from a parse of all of it."""
    tree = _parse(source)
    for node in tree.body if tree is not None else ():
        if isinstance(node, ast.FunctionDef) and node.name == name and node.lineno == line:
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
    package = module if is_package else module.rpartition(".")[0]
    summary = Summary(path, module, {}, [], None)
    _collect(tree.body, summary, package)
    if blanked is not None:
        stubs = {node.lineno for node in summary.functions.values()}  # the last ``def`` of each name
        summary.unparsed = {line: text for line, text in blanked[1].items() if line in stubs}
        summary.source = data if summary.unparsed else b""
    return summary


def _blanked(data: bytes) -> Optional[Tuple[bytes, Dict[int, Tuple[int, bytes]], Set[int]]]:
    """Module ``data`` with the text of each top-level ``def`` and ``class`` replaced by a
    one-line stub on its first line (``def f(): pass``) and blank lines, so that its
    module-level statements parse with their own line numbers; the text of each top-level
    ``def`` with its decorators, by its ``def``'s line (with the line the text starts on); and the stubs' lines, each of which must be a top-level
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
    functions: Dict[int, Tuple[int, bytes]] = {}
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
            if not region.startswith(b"class"):
                functions[line] = (first[1], source[first[0]:end])
        line += lines
        start = end
        skipping = match is not None and match.group(1) is not None
    return b"".join(kept), functions, stubs


#: The newline before a line that starts a top-level statement (``_TOP_LINE``, for bytes).
_TOP_LINE_BYTES = re.compile(rb"\n(?:((?:async[ \t]+)?def\b|class\b|@)|[^\s#)\]}])")
#: What a ``def`` or ``class`` line's stub keeps of it: the keywords and the name.
_HEADER = re.compile(rb"(?:(?:async[ \t]+)?def|class)[ \t]+\w+(?=[ \t]*[(:])")


def _collect(statements: Iterable[ast.stmt], summary: Summary, package: str) -> None:
    bindings = summary.bindings
    for node in statements:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    bindings.setdefault(target.id, []).append((node.lineno, node.value))
                    if target.id == "__all__":
                        summary.exported = _literal_names(node.value)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            bindings.setdefault(node.target.id, []).append((node.lineno, node.value))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    bindings.setdefault(alias.asname, []).append((node.lineno, alias.name))
                else:
                    top = alias.name.split(".", 1)[0]
                    bindings.setdefault(top, []).append((node.lineno, top))
        elif isinstance(node, ast.ImportFrom):
            source = absolute_module(node.module, node.level, package)
            if source is None:
                continue
            for alias in node.names:
                if alias.name == "*":
                    summary.stars.append(source)
                else:
                    bindings.setdefault(alias.asname or alias.name, []).append((node.lineno, f"{source}.{alias.name}"))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bindings.setdefault(node.name, []).append((node.lineno, None))
            if isinstance(node, ast.FunctionDef):
                summary.functions[node.name] = node
        elif isinstance(node, ast.If):
            _collect(node.body, summary, package)
            _collect(node.orelse, summary, package)
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            _collect(node.body, summary, package)
        elif isinstance(node, ast.Try) or sys.version_info >= (3, 11) and isinstance(node, ast.TryStar):
            for block in (node.body, *(h.body for h in node.handlers), node.orelse, node.finalbody):
                _collect(block, summary, package)


def absolute_module(module: Optional[str], level: int, package: str) -> Optional[str]:
    """The absolute name ``from <level dots><module> import`` means in ``package``."""
    if not level:
        return module
    parts = package.split(".") if package else []
    if level - 1 > len(parts) or level - 1 == len(parts) and not module:
        return None  # beyond the top package
    base = parts[: len(parts) - (level - 1)]
    if module:
        base.append(module)
    return ".".join(base) or None


def _literal_names(value: ast.expr) -> Optional[Tuple[str, ...]]:
    if isinstance(value, (ast.List, ast.Tuple)) and all(
        isinstance(e, ast.Constant) and isinstance(e.value, str) for e in value.elts
    ):
        return tuple(e.value for e in value.elts)  # type: ignore[attr-defined]
    return None


# -- where modules are -----------------------------------------------------------------


def top_package(path: str) -> Tuple[str, str, bool]:
    """``(search root, dotted module name, is a package)`` of the file ``path``: the
    directory above its top package (walking up while ``__init__.py`` exists)."""
    directory, base = os.path.split(os.path.abspath(path))
    stem = base[:-3] if base.endswith(".py") else base
    is_package = stem == "__init__"
    search, package = _package_of(directory)
    return search, ".".join(filter(None, [package, "" if is_package else stem])), is_package


def _package_of(directory: str) -> Tuple[str, str]:
    """(the directory above the top package holding ``directory``, the dotted package
    ``directory`` is, "" when none): once per directory a process sees (every file of
    it asks)."""
    found = _PACKAGES.get(directory)
    if found is None:
        parts: List[str] = []
        above = directory
        while os.path.isfile(os.path.join(above, "__init__.py")):
            above, name = os.path.split(above)
            parts.insert(0, name)
            if not name:
                break
        found = _PACKAGES[directory] = (above, ".".join(parts))
    return found


_PACKAGES: Dict[str, Tuple[str, str]] = {}


def project_root(path: str) -> Optional[str]:
    """The closest directory above ``path`` holding a ``pyproject.toml``, ``setup.cfg`` or ``.git``."""
    directory = os.path.dirname(os.path.abspath(path))
    while True:
        found = _ROOTS.get(directory)
        if found is None:
            found = any(os.path.exists(os.path.join(directory, m)) for m in ROOT_MARKERS)
            _ROOTS[directory] = found
        if found:
            return directory
        parent = os.path.dirname(directory)
        if parent == directory:
            return None
        directory = parent


_ROOTS: Dict[str, bool] = {}


def _installed(directory: str) -> bool:
    return any(part in _INSTALLED for part in directory.split(os.sep))


class Project:
    """The modules below some search roots, and what their names resolve to, as one
    analysis sees them: made afresh for each file (it is cheap). What a name resolves to
    is shared by the whole process (``_RESOLVED``), each answer with the stamps (mtime
    and size) of the modules it was read from: an answer whose modules changed since is
    worked out again, so a long-running process (the server) never keeps what a changed
    module bound. Summaries and where modules are live in the process too
    (``_cached_summary``, ``_FILES``)."""

    def __init__(self, roots: Tuple[str, ...], locations: Locations) -> None:
        self.roots = roots
        self.locations = locations
        self._summaries: Dict[str, Optional[Summary]] = {}
        self._files = _FILES.setdefault(roots, {})
        self._stamps: Dict[str, Optional[_Stamp]] = {}
        self._bindings: Dict[Tuple[str, str], Tuple[Optional[Resolved], _Dependencies]] = {}
        self._pending: Set[Tuple[str, str]] = set()
        self._deps: List[Set[Tuple[str, _Stamp]]] = []  # one set per resolution under way
        #: A cycle or the depth guard cut a resolution short: what this project works out
        #: from then on may depend on the order it was asked in, so none of it is shared.
        self.truncated = False
        #: Every module summary (path, stamp) this project's answers rest on.
        self.used: Set[Tuple[str, _Stamp]] = set()
        #: Every collection of module texts the scan's filter read (``_may_bind``), kept
        #: by identity: a memo hit hands back the same frozenset each time, so noting it
        #: costs O(1); the union is taken once, when ``dependencies`` asks.
        self._read: Dict[int, Collection[Tuple[str, _Stamp]]] = {}
        #: The texts read by each of the filter's searches under way (``_may_bind``,
        #: ``_names_of``), kept as ``_read`` is: their memos keep them with the answers,
        #: which rest on them.
        self._reading: List[Dict[int, Collection[Tuple[str, _Stamp]]]] = []
        #: The module texts of the closures ``_callee_names`` answered from, as bits (``_numbered``).
        self._closures = 0

    def saw(self, texts: Collection[Tuple[str, _Stamp]]) -> None:
        """The filter read these module texts (path, stamp), or took an answer from its
        memo that rests on them: so does what this project works out."""
        key = id(texts)  # the dicts keep ``texts`` alive, so its id is not reused meanwhile
        self._read[key] = texts
        for frame in self._reading:
            frame[key] = texts

    def saw_closure(self, texts: int) -> None:
        """``saw`` for the module texts an int's bits number (``_numbered``)."""
        self._closures |= texts

    def start_reading(self) -> None:
        """A search of the filter starts: note the texts it reads (``stop_reading``)."""
        self._reading.append({})

    def stop_reading(self) -> _Dependencies:
        """The module texts the innermost search under way read, which it now ends."""
        return frozenset().union(*self._reading.pop().values())

    def dependencies(self) -> _Dependencies:
        """Every module (path, stamp) this project has read a text or summary of: what a
        result worked out with it rests on (the result cache checks them)."""
        return frozenset(self.used).union(*self._read.values(), _numbered_texts(self._closures))

    def find(self, module: str) -> Optional[Tuple[str, bool]]:
        """The file of project module ``module`` and whether it is a package, or None."""
        if module in self._files:
            return self._files[module]
        found: Optional[Tuple[str, bool]] = None
        parts = module.split(".")
        # ``from pkg import ...`` in a docstring makes ``pkg....``: the file system would
        # read ``pkg////__init__.py`` as ``pkg/__init__.py``, a second copy under a false name.
        if all(part.isidentifier() for part in parts) and parts[0] not in _STDLIB:
            relative = module.replace(".", os.sep)
            for root in self.roots:
                package = os.path.join(root, relative, "__init__.py")
                if os.path.isfile(package):
                    found = (package, True)
                    break
                plain = os.path.join(root, relative + ".py")
                if os.path.isfile(plain):
                    found = (plain, False)
                    break
        self._files[module] = found
        return found

    def stamp(self, path: str) -> Optional[_Stamp]:
        """The file's (mtime, size), read once per project."""
        if path not in self._stamps:
            self._stamps[path] = _stamp_of(path)
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

    def _note(self, deps: Iterable[Tuple[str, _Stamp]]) -> None:
        if self._deps:
            self._deps[-1].update(deps)
        else:
            self.used.update(deps)

    def is_module(self, qualified: str) -> bool:
        return self.find(qualified) is not None

    def resolve(self, qualified: str, depth: int = 0) -> Optional[Resolved]:
        """What the project name ``qualified`` (``pkg.mod.NAME``) is, when it is an alias
        of library objects, a path constant or a function its callers need to know of;
        None otherwise (a class, a module, a name outside the project, or nothing known)."""
        if depth or qualified.split(".", 1)[0] in _STDLIB:
            return self._resolve(qualified, depth)
        key = (self.roots, self.locations, qualified)
        cached = _RESOLVED.get(key)
        if cached is not None and all(self.stamp(path) == stamp for path, stamp in cached[1]):
            self._note(cached[1])
            return cached[0]
        self._deps.append(set())
        try:
            found = self._resolve(qualified, 0)
        finally:
            deps = self._deps.pop()
        self._note(deps)
        if not self.truncated:
            _RESOLVED[key] = (found, frozenset(deps))
        return found

    def _resolve(self, qualified: str, depth: int) -> Optional[Resolved]:
        if depth > _DEPTH:
            self.truncated = True
            return None
        if qualified.split(".", 1)[0] in _STDLIB:
            return None
        module, _, name = qualified.rpartition(".")
        if not module:
            return None
        summary = self.summary(module)
        if summary is None:
            # ``pkg.mod.attr.more``: ``pkg.mod.attr`` may be an alias of a library module.
            owner = self.resolve(module, depth + 1) if "." in module else None
            if owner is not None and owner.callees:
                return Resolved(callees=frozenset(f"{c}.{name}" for c in owner.callees), origin=owner.origin)
            return None
        return self.binding(summary, name, depth)

    def binding(self, summary: Summary, name: str, depth: int) -> Optional[Resolved]:
        """What ``name`` is at the end of ``summary``'s module (the union of its bindings)."""
        key = (summary.module, name)
        known = self._bindings.get(key)
        if known is None:
            # Another file's project may have worked it out (a helper's summary, with the
            # chain of helpers it calls): shared while the modules it rests on are unchanged.
            shared = _BINDINGS.get((self.roots, self.locations, summary.path, name))
            if shared is not None and all(self.stamp(path) == stamp for path, stamp in shared[1]):
                self._bindings[key] = known = shared
        if known is not None:
            self._note(known[1])
            return known[0]
        if key in self._pending or depth > _DEPTH:
            self.truncated = True  # a cycle (of imports, of constants) resolves to nothing
            return None
        self._pending.add(key)
        self._deps.append({(summary.path, self._stamps.get(summary.path) or (0, 0))})
        try:
            found = self._binding(summary, name, depth)
        finally:
            deps = self._deps.pop()
            self._pending.discard(key)
        self._bindings[key] = (found, frozenset(deps))
        if not self.truncated:
            _BINDINGS[(self.roots, self.locations, summary.path, name)] = self._bindings[key]
        self._note(deps)
        return found

    def _binding(self, summary: Summary, name: str, depth: int) -> Optional[Resolved]:
        bound = summary.bindings.get(name)
        if bound is None:
            for star in summary.stars:
                found = self._star(star, name, depth)
                if found is not None:
                    return found
            return None
        result: Optional[Resolved] = None
        for line, value in bound:
            if value is None:
                function = summary.function(name)
                if function is not None and function.lineno == line:
                    exported = self.exported(summary, function, depth)
                    if exported is not None:
                        found = Resolved(origin=(summary.path, line), function=exported)
                        result = found if result is None else result | found
                continue  # a class, or a function that does nothing its callers need
            if isinstance(value, str):
                found = self._imported(value, depth)
            else:
                found = _Evaluator(self, summary, depth).value(value, name)
            if found is not None:
                found = Resolved(found.callees, found.locations, found.literal, found.path, (summary.path, line))
                result = found if result is None else result | found
        return result

    def exported(self, summary: Summary, node: ast.FunctionDef, depth: int) -> Optional[Exported]:
        """The summary of ``summary``'s function ``node``, or None when it does nothing
        its callers need. Functions it calls resolve as names do (a cycle to nothing)."""
        evaluator = _Evaluator(self, summary, depth)

        own = f"{summary.module}.{node.name}"

        def function(qualified: str) -> Optional[Exported]:
            if qualified == own or qualified.split(".", 1)[0] in _STDLIB:
                return None  # recursion adds nothing to what the body does
            module, _, name = qualified.rpartition(".")
            found = self.binding(summary, name, depth + 1) if module == summary.module else self._imported(qualified, depth + 1)
            return found.function if found is not None else None

        context = Context(evaluator.qualified_anywhere, lambda node: evaluator.ev(node).locations, function)
        exported = summarise(node, own, self.relative(summary.path), context)
        return None if exported.empty else exported

    def relative(self, path: str) -> str:
        """``path`` as messages show it: below the first search root holding it."""
        for root in self.roots:
            if path.startswith(root.rstrip(os.sep) + os.sep):
                return os.path.relpath(path, root)
        return path

    def _star(self, module: str, name: str, depth: int) -> Optional[Resolved]:
        if name.startswith("_"):
            return None
        if self.is_module(module) and name not in _names_of(self, module):
            return None  # its text binds no such name: not worth parsing
        source = self.summary(module)
        if source is None:
            qualified = f"{module}.{name}"
            return Resolved(callees=frozenset({qualified})) if qualified in names.KNOWN_NAMES else None
        if source.exported is not None and name not in source.exported:
            return None
        return self.binding(source, name, depth + 1)

    def _imported(self, qualified: str, depth: int) -> Optional[Resolved]:
        """An imported name: resolved in the project, or a library object by its name."""
        if self.is_module(qualified):
            return None  # a project module: its names resolve through it
        module = qualified.rpartition(".")[0]
        if module and self.is_module(module):
            return self.resolve(qualified, depth + 1)
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
#: The paths of the files summarised (parsed) in this process, in order: what the index read.
PARSED: List[str] = []
_SUMMARIES: Dict[str, Tuple[_Stamp, str, Optional[Summary]]] = {}
#: What each name resolved to, by (search roots, locations, qualified name), with the
#: summaries (path, stamp) the answer rests on.
_RESOLVED: Dict[Tuple[Tuple[str, ...], Locations, str], Tuple[Optional[Resolved], _Dependencies]] = {}
#: What each module-level name of a summarised module is, by (search roots, locations,
#: module path, name), with the summaries it rests on: ``Project.binding``'s answers.
_BINDINGS: Dict[Tuple[Tuple[str, ...], Locations, str, str], Tuple[Optional[Resolved], _Dependencies]] = {}


def forget() -> None:
    """Drop everything this process remembers of project modules (for tests: a cold run)."""
    for memo in (_FILES, _SUMMARIES, _RESOLVED, _BINDINGS, _TEXTS, _MAY, _NAMES, _SUPPLY, _ROOTS, _PACKAGES, _CALLEE_NAMES, _NUMBERS):
        memo.clear()
    _NUMBERED.clear()


def _stamp_of(path: str) -> Optional[_Stamp]:
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return (stat.st_mtime_ns, stat.st_size)


def _cached_summary(path: str, stamp: _Stamp, module: str, is_package: bool) -> Optional[Summary]:
    cached = _SUMMARIES.get(path)
    if cached is not None and cached[0] == stamp and cached[1] == module:
        return cached[2]
    summary = _summarise(path, module, is_package)
    PARSED.append(path)
    _SUMMARIES[path] = (stamp, module, summary)
    return summary


class _Evaluator:
    """A module-level expression's location, literal and library objects, by the tables
    provenance reads. Only what a constant can be: no calls of project functions."""

    def __init__(self, project: Project, summary: Summary, depth: int) -> None:
        self.project = project
        self.summary = summary
        self.depth = depth
        self.locations = project.locations

    def value(self, node: ast.expr, name: str) -> Optional[Resolved]:
        found = self.ev(node)
        if not found.callees and not found.locations and found.literal is None:
            guess = self.locations.for_identifier(name)
            return Resolved(locations=guess) if guess else None
        return found

    def qualified(self, node: ast.expr) -> Optional[str]:
        """The absolute name a dotted expression (``os.path.join``, ``_swap``) names."""
        parts: List[str] = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name):
            return None
        bound = self.summary.bindings.get(node.id)
        if not bound or len(bound) != 1 or not isinstance(bound[0][1], str):
            return None
        return ".".join([bound[0][1], *reversed(parts)])

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
        return self.project.resolve(qualified)

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
                    resolved = self.project.resolve(f"{current.module}.{name}")
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
    _sweep()
    search, module, is_package = top_package(path)
    if _installed(search):
        return None
    roots = [search]
    root = project_root(path)
    if root is not None and not _installed(root):
        for candidate in (root, os.path.join(root, "src")):
            if candidate not in roots and os.path.isdir(candidate):
                roots.append(candidate)
    return FileView(module, is_package, Project(tuple(roots), locations))


# -- what the cheap scan needs ---------------------------------------------------------

#: The library functions whose aliases the scan's gates look for.
_SCANNED_CALLEES = frozenset(names.MOVE_LIKE_FUNCTIONS | names.UNBOUND_MOVE_METHODS.keys() | names.TEMP_FACTORIES.keys())
#: Their last components: a module can bind an alias of one only by spelling it.
_CALLEE_WORDS = "|".join(sorted({re.escape(q.rsplit(".", 1)[1]) for q in _SCANNED_CALLEES}, key=lambda w: (-len(w), w)))
#: ``os.replace`` read, not called (``swap = os.replace``): the one expression that makes
#: an alias of a library function (calls, operators and literals give none: ``_Evaluator``).
#: ``from pkg.link import Link`` names a module, not an alias.
_ALIAS_READ = re.compile(rf"\.\s*(?:{_CALLEE_WORDS})\b(?![ \t]*(?:[(.]|import\b))")
_CALLEE_WORD = re.compile(rf"\b(?:{_CALLEE_WORDS})\b")
#: What a function's text spells when ``exports`` may find it renaming or returning a temp
#: (``Exported.scanned``): a call, an attribute or an import of a move or temp function's
#: name (not the word in prose: "rename the key"; a ``NamedTemporaryFile``'s ``.name`` is
#: a temp it may return), a rename by ``os``'s name (or an alias holding ``os``), a
#: ``Path`` method's one-argument call (positional or ``target=``: ``.replace(tzinfo=tz)``
#: is not one) or its unbound form (``Path.replace``, ``PosixPath.replace``; a ``path``
#: variable's ``replace`` is a call of one argument or a string's). Broader spellings only
#: cost time; ``str.replace(old, new)`` is what this keeps out.
_HELPER_WORDS = "renames?|hardlink_to|mkstemp|mkdtemp|mktemp|NamedTemporaryFile"
_HELPER_CALL = re.compile(
    rf"\b(?:{_HELPER_WORDS})\s*\("
    rf"|\.\s*(?:{_HELPER_WORDS})\b"
    rf"|\bimport\b[^\n;]*\b(?:{_HELPER_WORDS})\b"
    r"|os\w*\s*\.\s*(?:replace|link)\b"
    r"|\.\s*replace\s*\((?!\s*(?!target\b)\w+\s*=(?!=))(?:[^,()]|\([^()]*\))*\)"
    r"|Path\s*\.\s*replace\b"
)
#: Words one of which a helper's text holds (``_HELPER_CALL`` looks closer): a substring
#: test is many times quicker than the regex, and most functions hold none.
_HELPER_HINTS = ("rename", "replace", "link", "mkstemp", "mkdtemp", "mktemp", "NamedTemporaryFile")


def _may_help(body: str) -> bool:
    """Whether a top-level function's text may rename or make a temp (``_HELPER_CALL``),
    its strings blanked: ``s.replace("(", "")`` is no call of one argument."""
    return any(hint in body for hint in _HELPER_HINTS) and _HELPER_CALL.search(_STRING.sub("''", body)) is not None


_TEMP_DIR_WORD = re.compile("|".join(sorted(re.escape(q.rsplit(".", 1)[1]) for q in names.TEMP_DIR_ATTRIBUTES)))


def _known_by_module() -> Dict[str, FrozenSet[str]]:
    """The last components of the names the index knows, by module: what a star import of it binds."""
    found: Dict[str, Set[str]] = {}
    for qualified in names.KNOWN_NAMES:
        module, _, name = qualified.rpartition(".")
        found.setdefault(module, set()).add(name)
    return {module: frozenset(known) for module, known in found.items()}


_KNOWN_BY_MODULE = _known_by_module()
#: Import statements anywhere (``try: import x`` on one line too): what a text may import.
#: (No leading ``\b``: it would cost the regex engine its fast scan for the first
#: letters, and more matches only cost time.)
_FROM_IMPORT = re.compile(
    r"from[ \t]+(?P<module>\.*[\w.]*)[ \t]+import\b[ \t]*(?P<names>\([^)]*\)|(?:[^\n\\;]|\\.)*)", re.S
)
_IMPORT = re.compile(r"import[ \t]+(?P<names>(?:[^\n\\;]|\\.)*)")
_NAME = re.compile(r"[\w.*]+(?:\s+as\s+\w+)?")
_WORD = re.compile(r"[^\W\d]\w*")  # identifiers
#: The first name of each call's dotted callee (``helpers`` of ``helpers.publish(...)``).
_CALLED = re.compile(r"([^\W\d]\w*)(?:\s*\.\s*[^\W\d]\w*)*\s*\(")
_READ = re.compile(r"\.\s*([^\W\d]\w*)")  # attributes read

#: What an import brings: (module, the name imported from it or None for the module
#: itself, the local name; ``*`` for a star import).
_Import = Tuple[str, Optional[str], str]


#: One imported name as a text spells it: (``from`` module as written, None for a plain
#: ``import``; the name or dotted module; the local name it binds, None for ``import a.b``).
_Item = Tuple[Optional[str], str, Optional[str]]


def _items(text: str) -> List[_Item]:
    """Every name the import statements of ``text`` may import, from one pass of each regex."""
    found: List[_Item] = []
    for match in _FROM_IMPORT.finditer(text):
        spec = match.group("module")
        for item in _NAME.findall(match.group("names")):
            parts = item.split()
            found.append((spec, parts[0], parts[-1]))
    for match in _IMPORT.finditer(text):
        start = match.start()
        before = text[text.rfind("\n", 0, start) + 1 : start].rstrip()
        if before and before[-1] not in ";:":
            continue  # the ``import`` of ``from x import y`` (its names are the from-import's), or prose
        for item in _NAME.findall(match.group("names")):
            parts = item.split()
            found.append((None, parts[0], parts[-1] if len(parts) > 1 else None))
    return found


def _imports(text: str, package: str, project: Project, items: Optional[List[_Item]] = None) -> List[_Import]:
    """What ``text`` (a module of ``package``) may import from project modules. A
    module-level ``import a.b`` binds ``a``, whose attributes are names of ``a`` and of ``a.b``."""
    found: List[_Import] = []
    for spec, name, local in _items(text) if items is None else items:
        if spec is not None:
            dots = len(spec) - len(spec.lstrip("."))
            module = absolute_module(spec[dots:] or None, dots, package)
            if module is None:
                continue
            if name == "*":
                found.append((module, None, "*"))
            elif _may_be_package(project, module) and project.is_module(f"{module}.{name}"):
                found.append((f"{module}.{name}", None, local or name))
            else:
                found.append((module, name, local or name))
        elif local is not None:
            found.append((name, None, local))
        else:
            parts = name.split(".")
            found.extend((".".join(parts[: i + 1]), None, parts[0]) for i in range(len(parts)))
    return [entry for entry in found if project.is_module(entry[0])]


def _may_be_package(project: Project, module: str) -> bool:
    """Whether ``module`` may hold submodules: a package of the project, or no module of
    it (a namespace package has no ``__init__.py``). A plain module holds none."""
    found = project.find(module)
    return found is None or found[1]


class Supplied:
    """What the names a file imports from project modules may bring it, for the scan's
    gates: library functions (``callees``: a move alias, a temp factory), locations, and
    the local ``names`` that bring them (a module's name, for ``paths.CACHE_ROOT``).

    Each is worked out when first asked, and only from the names the file uses: those it
    imports by name, and, of a module it imports, the names of it that the file's text
    spells. A gate asks for callees first; locations only matter to a file that moves."""

    def __init__(self, view: Optional[FileView] = None, text: str = "", imports: Sequence[_Import] = ()) -> None:
        self._view = view
        self._text = text
        self._imports = imports
        self._words: Optional[Set[str]] = None  # the words of the text without its imports
        self._reads: Optional[Set[str]] = None  # the attributes the text reads (``.Y``)
        self._bare: Optional[str] = None  # the text without its import statements
        self._found: Dict[bool, FrozenSet[str]] = {}
        self._spellings: Dict[str, Set[str]] = {}  # each of ``spellings``: the callees and locations it brings

    @property
    def dependencies(self) -> _Dependencies:
        """The modules (path, stamp) the answers given so far rest on."""
        return frozenset() if self._view is None else self._view.project.dependencies()

    @property
    def possible(self) -> bool:
        """Whether the project may supply anything: the index is on and the file imports
        from a module of its project."""
        return self._view is not None and bool(self._imports)

    @property
    def callees(self) -> FrozenSet[str]:
        return self._gather(True)

    @property
    def locations(self) -> FrozenSet[str]:
        return self._gather(False)

    @property
    def spellings(self) -> FrozenSet[str]:
        """How the text spells what brings a callee or a location: a name it imports
        (``publish``), or an attribute read off a module it imports (``paths.CACHE``,
        ``a.b.CACHE``); a module's name alone when the text uses the module as a value."""
        self._gather(True)
        self._gather(False)
        return frozenset(self._spellings)

    def spellings_of(self, callees: FrozenSet[str]) -> FrozenSet[str]:
        """The ``spellings`` of what brings one of ``callees``."""
        self._gather(True)
        return frozenset(spelt for spelt, hits in self._spellings.items() if not hits.isdisjoint(callees))

    def _gather(self, callees: bool) -> FrozenSet[str]:
        known = self._found.get(callees)
        if known is not None:
            return known
        found: Set[str] = set()
        view = self._view
        if view is not None:
            for module, name, local in self._imports:
                for spelt, resolved in self._bound(view, module, name, local, callees):
                    function = resolved.function
                    if callees:
                        hit = (resolved.callees | (function.scanned if function else frozenset())) & _SCANNED_CALLEES
                    else:
                        hit = resolved.locations | (function.locations if function else frozenset())
                    if hit:
                        found |= hit
                        self._spellings.setdefault(spelt, set()).update(hit)
        self._found[callees] = frozenset(found)
        return self._found[callees]

    def _bound(
        self, view: FileView, module: str, name: Optional[str], local: str, callees: bool
    ) -> Iterator[Tuple[str, Resolved]]:
        """(its spelling, what it resolves to) for what one import brings that the file
        uses past its import statements (a re-export alone holds no finding) and the
        module's text may bind (``_callee_names``, ``_may_bind``)."""
        project = view.project
        if callees:
            tainted = _callee_names(project, module)
            if not tainted:
                return
            may_bind: Callable[[str], bool] = tainted.__contains__
        elif not _may_supply(project, module):
            return  # nothing its import closure spells can bind what is asked
        else:
            may_bind = lambda attribute: _may_bind(project, module, attribute)  # noqa: E731
        if name is not None:
            if may_bind(name) and local in self._spelt():
                resolved = project.resolve(f"{module}.{name}")
                if resolved is not None:
                    yield local, resolved
            return
        chain: Optional[str] = None  # how the text reads an attribute off the module: ``local.Y``
        if local == "*":  # any public name of it the text spells
            used = {u for u in self._spelt() & (tainted if callees else _names_of(project, module)) if not u.startswith("_")}
        elif self._escapes(local):  # a module used as a value: any attribute the text reads
            if self._reads is None:
                self._reads = set(_READ.findall(self._text))
            used = self._reads & _names_of(project, module)
        else:
            used = _attributes(self._text, module, local)  # only read as ``local.Y``
            chain = ".".join([local, *_path_below(module, local)])
        for attribute in sorted(used):
            if may_bind(attribute):
                resolved = project.resolve(f"{module}.{attribute}")
                if resolved is not None:
                    yield attribute if local == "*" else local if chain is None else f"{chain}.{attribute}", resolved

    def _without_imports(self) -> str:
        if self._bare is None:
            self._bare = _without_imports(self._text)
        return self._bare

    def _spelt(self) -> Set[str]:
        """The words of the text past its import statements."""
        if self._words is None:
            self._words = set(_WORD.findall(self._without_imports()))
        return self._words

    def _escapes(self, local: str) -> bool:
        """Whether the file may use the module it binds to ``local`` other than by reading
        an attribute off it (``m = paths``, ``f(paths)``): then any of its names may be used."""
        bare = self._without_imports()
        return any(not _word_at(bare, m.start() - 1) for m in re.finditer(rf"{re.escape(local)}\b(?!\s*\.)", bare))


NONE_SUPPLIED = Supplied()


def _without_imports(text: str) -> str:
    return _IMPORT.sub("", _FROM_IMPORT.sub("", text))


def spelt_past_imports(text: str) -> FrozenSet[str]:
    """The words ``text`` spells outside its import statements (``FileView.spelt``)."""
    return frozenset(_WORD.findall(_without_imports(text)))


def supplied_to(text: str, path: str, locations: Locations, configured: bool = False) -> Supplied:
    """What the names ``text`` (the file ``path``) imports from project modules may be,
    as far as the scan cares (see ``Supplied``). Cheap first: a project module is
    summarised only when its text, or that of a project module it imports, may bind a
    scanned function or a location (``_may_bind``)."""
    if "import" not in text:
        return NONE_SUPPLIED
    view = view_for(path, locations, configured)
    if view is None:
        return NONE_SUPPLIED
    imports = _imports(text, view.package, view.project)
    return Supplied(view, text, imports) if imports else NONE_SUPPLIED


class _Text:
    """What the cheap filter learnt of one module's text (by path, valid for ``stamp``).

    From one pass of the import regexes, when the text is first read: the project modules
    it imports (``imports``: ``named`` by local name, (module, name); ``stars``;
    ``modules``: local name -> the modules it binds, whose attributes ``reads`` finds) and
    the local names its imports bind (``imported``; ``aliases``: of a scanned function,
    ``temp_aliases``: of the temp directory, from a library; ``starred``: a library star
    import's). The marks of a scanned function (``_callee_names`` starts from them): those
    aliases, a read of one (``alias_read``: ``swap = os.replace``), and the top-level
    functions (their text, ``defs``, is kept apart) that name one (``helpers``: they may
    rename, or return a temp). Whether the text is *marked* for locations (``marked``:
    it spells one, by configuration), so that ``_may_supply`` can rule out a whole import
    closure none of whose modules is marked without a look at any name.

    Only for a module that needs them, and only when first asked: where each statement
    that may assign a name starts (``assigned``, ``starts``), and their text."""

    __slots__ = (
        "module", "stamp", "source", "defs", "helpers", "locations", "_starts", "statements", "imported", "aliases",
        "temp_aliases", "starred", "named", "stars", "modules", "imports", "_reads", "seen", "bit", "_edges", "alias_read",
        "_spans", "_called",
    )

    def __init__(self, module: str, path: str, stamp: _Stamp, source: str, defs: Dict[str, str], package: str, project: Project) -> None:
        self.module = module
        self.stamp = stamp
        #: What reading it is to ``Project.saw``: one object for every read, noted in O(1).
        self.seen: _Dependencies = frozenset({(path, stamp)})
        self.bit = _number(path, stamp)
        self.source = source
        self.defs = defs
        self.helpers = frozenset(name for name, body in defs.items() if _may_help(body))
        self.locations: Dict[Locations, bool] = {}
        self.statements: Dict[str, List[str]] = {}
        self._starts: Optional[Dict[str, List[int]]] = None
        items = _items(source)
        self.imported = frozenset(local or name.split(".", 1)[0] for spec, name, local in items if name != "*")
        from_items = [(spec, name, local or name) for spec, name, local in items if spec is not None]
        self.aliases = frozenset(local for _, name, local in from_items if _CALLEE_WORD.fullmatch(name))
        self.temp_aliases = frozenset(local for _, name, local in from_items if _TEMP_DIR_WORD.fullmatch(name))
        star_sources = {spec for spec, name, _ in from_items if name == "*"}
        self.starred = frozenset(n for spec in star_sources for n in _KNOWN_BY_MODULE.get(spec, ()))
        # Reads an alias (``os.replace`` not called), imports one by name, or star-imports a module that has one.
        self.alias_read = _ALIAS_READ.search(source) is not None
        named: Dict[str, List[Tuple[str, Optional[str]]]] = {}
        stars: List[str] = []
        self.modules: Dict[str, List[str]] = {}  # local name -> the project modules it binds
        imports: Set[str] = set()
        for imported, name, local in _imports(source, package, project, items):
            imports.add(imported)
            if name is not None:
                named.setdefault(local, []).append((imported, name))
            elif local == "*":
                stars.append(imported)
            else:
                self.modules.setdefault(local, []).append(imported)
        self.named = named
        self.stars = tuple(stars)
        self.imports = frozenset(imports)
        self._reads: Dict[str, List[Tuple[str, Optional[str]]]] = {}
        self._edges: Dict[str, List[Tuple[str, Optional[str]]]] = {}
        self._spans: Optional[List[Tuple[int, int, str]]] = None
        self._called: Dict[str, FrozenSet[str]] = {}

    def binding(self, pattern: Pattern[str]) -> Set[str]:
        """The names bound by the module-level statements in which ``pattern`` matches
        (each name a statement may assign: ``_ASSIGNED``)."""
        found: Set[str] = set()
        for match in pattern.finditer(self.source):
            if self._spans is None:
                self._spans = [
                    (start, start + len(_statement(self.source, start)), name)
                    for name, starts in self.starts.items()
                    for start in starts
                ]
            at = match.start()
            found.update(name for start, end, name in self._spans if start <= at < end)
        return found

    def called(self, name: str) -> FrozenSet[str]:
        """The first name of each callee the top-level function ``name`` calls (``_CALLED``)."""
        found = self._called.get(name)
        if found is None:
            found = self._called[name] = frozenset(_CALLED.findall(self.defs[name]))
        return found

    def marked(self, locations: Locations) -> bool:
        """Whether the text may bind, by itself, one of ``locations``: false only if
        ``query`` can find no hit here."""
        spelled = self.locations.get(locations)
        if spelled is None:
            spelled = self.locations[locations] = _spells_location(self.source.lower(), locations) or any(
                _spells_location(body.lower(), locations) for body in self.defs.values()
            )
        return spelled or bool(self.temp_aliases)

    @property
    def starts(self) -> Dict[str, List[int]]:
        """Where each statement that may assign a name starts, by the name."""
        if self._starts is None:
            self._starts = {}
            for match in _ASSIGNED.finditer(self.source):
                self._starts.setdefault(match.group(1), []).append(match.start())
        return self._starts

    @property
    def assigned(self) -> KeysView[str]:
        """The names the text may assign."""
        return self.starts.keys()

    def reads(self, local: str) -> List[Tuple[str, Optional[str]]]:
        """(module, attribute) for each attribute read off the project module(s) ``local`` binds."""
        found = self._reads.get(local)
        if found is None:
            found = self._reads[local] = [
                (module, attribute)
                for module in self.modules.get(local, ())
                for attribute in sorted(_attributes(self.source, module, local))
            ]
        return found

    def statements_of(self, name: str) -> List[str]:
        """The text of each statement that may assign ``name``."""
        if name not in self.assigned:
            return []
        found = self.statements.get(name)
        if found is None:
            found = self.statements[name] = [_statement(self.source, start) for start in self.starts[name]]
        return found

    def query(self, name: Optional[str], locations: Locations) -> Tuple[bool, List[Tuple[str, Optional[str]]]]:
        """Whether ``name`` (None: any name) may be bound here to one of ``locations``,
        and if not, the (module, name) pairs its binding may come from (``edges``).

        An assigned name's value is spelt in its statement: it may be a location there, or
        come from the names the statement spells (imported, assigned in this module, or
        from a star import). A function's may come from its text: a location, or the names
        it calls (a helper). An imported name comes from its import (``from tempfile
        import gettempdir as tmp`` is one); any other (a ``class``, or none) only from a
        star import."""
        if name is None:
            named = [edge for pairs in self.named.values() for edge in pairs]
            reads = [edge for local in self.modules for edge in self.reads(local)]
            stars: List[Tuple[str, Optional[str]]] = [(star, None) for star in self.stars]
            return self.marked(locations), [*named, *stars, *reads]
        hit = name in self.temp_aliases
        body = self.defs.get(name)
        texts = self.statements_of(name) if body is None else [*self.statements_of(name), body]
        for statement in texts:
            if hit:
                break
            hit = _spells_location(statement.lower(), locations)
        return (True, []) if hit else (False, self.edges(name))

    def edges(self, name: str) -> List[Tuple[str, Optional[str]]]:
        """The (module, name) pairs the binding of ``name`` may come from (``query``),
        whatever is asked of it: worked out once."""
        edges = self._edges.get(name)
        if edges is not None:
            return edges
        edges = [(star, name) for star in self.stars]
        if name in self.imported:
            edges.extend(self.named.get(name, ()))
        texts = [(statement, _WORD) for statement in self.statements_of(name)]
        body = self.defs.get(name)
        if body is not None:
            texts.append((body, _CALLED))  # a function supplies what it calls, not every name it spells
        for statement, spelled in texts:
            for word in set(spelled.findall(statement)):
                if word != name:
                    edges.append((self.module, word))
                    edges.extend((star, word) for star in self.stars)
                if word in self.modules:
                    edges.extend(self.reads(word))
        self._edges[name] = edges
        return edges


def _statement(source: str, start: int) -> str:
    """The text of the statement that starts at ``start``: to the end of its line, and on
    while a bracket is open (outside one-line string literals) or a line ends in ``\\``."""
    depth = 0
    position = start
    for _ in range(200):  # a guard: longer statements are cut, and keep less
        end = source.find("\n", position)
        if end == -1:
            return source[start:]
        line = _STRING.sub("", source[position:end])
        depth += sum(line.count(c) for c in "([{") - sum(line.count(c) for c in ")]}")
        position = end + 1
        if depth <= 0 and not line.rstrip().endswith("\\"):
            break
    return source[start:position]


_STRING = re.compile(r"'(?:[^'\\\n]|\\.)*'|\"(?:[^\"\\\n]|\\.)*\"")


#: A name an assignment may bind (keyword arguments and walrus targets match too: more
#: matches only cost time). ``(X) = 1`` binds ``X`` as well. A match starts only where a
#: word does, and takes the word whole (``(?=(...))\1``: a lookahead does not backtrack,
#: Python 3.9's stand-in for a possessive quantifier): tried at every character and
#: backtracking through every word, it cost a module's text quadratic time in its words.
_ASSIGNED = re.compile(r"(?<!\w)(?=([^\W\d]\w*))\1\)*(?:[ \t]|\\\r?\n)*(?::[^=\n]*)?=(?!=)")


def _attributes(source: str, module: str, local: str) -> Set[str]:
    """The attributes ``source`` reads off the module ``module`` it binds to ``local``
    (``import a.b`` binds ``a``, read as ``a.b.Y``)."""
    chain = r"\s*\.\s*".join([re.escape(local), *map(re.escape, _path_below(module, local))])
    return {m.group(1) for m in re.finditer(rf"{chain}\s*\.\s*(\w+)", source) if not _word_at(source, m.start() - 1)}


def _path_below(module: str, local: str) -> List[str]:
    """The components between ``local`` and an attribute of ``module`` it reads: ``b`` of
    ``a.b.Y`` (``import a.b`` binds ``a``); none for ``import a.b as m``, ``from a import b``."""
    parts = module.split(".")
    return parts[1:] if local == parts[0] and len(parts) > 1 else []


def _word_at(text: str, index: int) -> bool:
    """Whether ``text[index]`` is a character of a word (False outside the text)."""
    return 0 <= index < len(text) and (text[index].isalnum() or text[index] == "_")


_TEXTS: Dict[str, _Text] = {}
#: What ``_may_bind`` answered, by (search roots, (module, name), kind): the answer, its
#: generation, and the module texts (path, stamp) it rests on (a result cache records them).
_MAY: Dict[Tuple[Tuple[str, ...], Tuple[str, Optional[str]], Locations], Tuple[bool, int, _Dependencies]] = {}


def _text(project: Project, module: str) -> Optional[Tuple[str, _Stamp, _Text]]:
    """The filter's facts of project module ``module``'s text, read once per stamp."""
    found = project.find(module)
    if found is None:
        return None
    path = found[0]
    stamp = project.stamp(path)
    if stamp is None:
        return None
    known = _TEXTS.get(path)
    if known is not None and known.stamp != stamp:
        _GENERATION[0] += 1  # a changed module: what was answered from its old text is void
        known = None
    if known is None:
        texts = _module_text(path)
        if texts is None:
            return None
        package = module if found[1] else module.rpartition(".")[0]
        known = _TEXTS[path] = _Text(module, path, stamp, texts[0], texts[1], package, project)
    project.saw(known.seen)
    return path, stamp, known


def _names_of(project: Project, module: str) -> FrozenSet[str]:
    """Every name project module ``module`` may bind, as far as texts tell: those it may
    assign or import, those of the modules it star-imports, and those a star import of a
    library module brings that the index knows (``from os import *`` binds ``rename``)."""
    key = (project.roots, module)
    known = _NAMES.get(key)
    if known is not None and known[0] == _GENERATION[0]:
        project.saw(known[2])
        return known[1]
    generation = _GENERATION[0]
    project.start_reading()
    found: Set[str] = set()
    pending = [module]
    seen: Set[str] = set()
    while pending:
        current = pending.pop()
        if current in seen:
            continue
        seen.add(current)
        facts = _text(project, current)
        if facts is None:
            continue
        found |= facts[2].assigned | facts[2].imported | facts[2].starred | facts[2].defs.keys()
        pending.extend(facts[2].stars)
    names_found = frozenset(found)
    texts = project.stop_reading()
    if generation == _GENERATION[0]:
        _NAMES[key] = (generation, names_found, texts)
    return names_found


#: ``_names_of``'s answers, by (search roots, module), with their generation and the texts read.
_NAMES: Dict[Tuple[Tuple[str, ...], str], Tuple[int, FrozenSet[str], _Dependencies]] = {}


def _may_supply(project: Project, module: str) -> bool:
    """Whether any module of project module ``module``'s import closure (as texts spell
    it) is marked for the project's locations (``_Text.marked``). If none is, no name of
    ``module`` may be a location: ``_may_bind`` follows imports only, and finds a hit only
    in a marked text. One walk answers for every module it reaches when the answer is
    no (each one's closure is within the start's), and for the path to the mark when yes.
    Each answer keeps the module texts it rests on, which a memo hit notes as read."""
    kind = project.locations
    generation = _GENERATION[0]
    memo = _SUPPLY.get((project.roots, module, kind))
    if memo is not None and memo[1] == generation:  # asked before: by far the most common case
        project.saw(memo[2])
        return memo[0]
    parents: Dict[str, Optional[str]] = {module: None}
    stack = [module]
    visited: List[str] = []
    project.start_reading()
    while stack:
        current = stack.pop()
        memo = _SUPPLY.get((project.roots, current, kind))
        if memo is not None and memo[1] == generation:
            project.saw(memo[2])
            if not memo[0]:
                continue
        else:
            facts = _text(project, current)
            if facts is None:
                continue
            visited.append(current)
            if not facts[2].marked(kind):
                for imported in facts[2].imports:
                    if imported not in parents:
                        parents[imported] = current
                        stack.append(imported)
                continue
        texts = project.stop_reading()
        step: Optional[str] = current
        while step is not None and generation == _GENERATION[0]:
            _SUPPLY[(project.roots, step, kind)] = (True, generation, texts)
            step = parents[step]
        return True
    texts = project.stop_reading()
    if generation == _GENERATION[0]:  # no text changed meanwhile
        for current in visited:
            _SUPPLY[(project.roots, current, kind)] = (False, generation, texts)
    return False


#: What ``_may_supply`` answered, by (search roots, module, kind): the answer, its
#: generation and the module texts (path, stamp) it rests on.
_SUPPLY: Dict[Tuple[Tuple[str, ...], str, Locations], Tuple[bool, int, _Dependencies]] = {}


def _may_bind(project: Project, module: str, name: Optional[str]) -> bool:
    """Whether project module ``module``'s ``name`` (None: any of its names) may be a
    location, as far as module texts tell (``_Text.query``): a module whose text spells
    such a binding and binds the name, or one whose binding of the name may come from a
    module that may. Sound: a location the index resolves is spelt so (``_spells_location``).
    (Scanned functions are found forwards instead, ``_callee_names``: their marks are rare,
    and every file asks of them.)"""
    kind = project.locations
    generation = _GENERATION[0]
    start = (module, name)
    memo = _MAY.get((project.roots, start, kind))
    if memo is not None and memo[1] == generation:  # asked before: by far the most common case
        project.saw(memo[2])
        return memo[0]
    if not _may_supply(project, module):
        return False
    parents: Dict[Tuple[str, Optional[str]], Optional[Tuple[str, Optional[str]]]] = {start: None}
    stack = [start]
    visited: List[Tuple[str, Optional[str]]] = []
    bound: Dict[str, FrozenSet[str]] = {}  # ``_names_of`` each module the edges lead to
    project.start_reading()  # what this search reads, kept with its answers
    while stack:
        pair = stack.pop()
        memo = _MAY.get((project.roots, pair, kind))
        if memo is not None and memo[1] == generation:
            project.saw(memo[2])
            if memo[0]:
                return _found(project, kind, pair, parents)
            continue
        facts = _text(project, pair[0])
        if facts is None:
            continue
        visited.append(pair)
        hit, edges = facts[2].query(pair[1], kind)
        if hit:
            return _found(project, kind, pair, parents)
        for edge in edges:
            if edge in parents:
                continue
            if edge[1] is not None:
                spelled = bound.get(edge[0])
                if spelled is None:  # once a search: its texts are noted as read the first time
                    spelled = bound[edge[0]] = _names_of(project, edge[0])
                if edge[1] not in spelled:
                    continue
            parents[edge] = pair
            stack.append(edge)
    texts = project.stop_reading()
    if generation == _GENERATION[0]:  # no text changed meanwhile
        for pair in visited:  # all that was looked at: none of it may bind
            _MAY[(project.roots, pair, kind)] = (False, generation, texts)
    return False


# -- which names may bind a scanned function: worked out forwards, once per module -------

def _callee_names(project: Project, module: str) -> FrozenSet[str]:
    """The names project module ``module`` may bind to a scanned function (an alias of
    one, a function that may call one or return a temp), as far as module texts tell:
    the same question ``_may_bind`` asks of one name for locations, answered for every
    name of a module at once.

    Forwards, from the marks: a module's names are worked out from the marks of its own
    text (``_Text.helpers``, ``aliases``, ``starred``, an alias read) and the names its
    imports bring that are already known to be such, spelt in its statements and
    functions (``_taint``). Modules are taken strongest component of imports first
    (Tarjan's order), a cycle's members until none changes. Real projects mark few
    modules, and a module with no mark and no such import is done with no look at its
    text past its imports: that is what makes asking every file's every import cheap."""
    generation = _GENERATION[0]
    key = (project.roots, module)
    memo = _CALLEE_NAMES.get(key)
    if memo is None or memo[0] != generation:
        _work_out_callee_names(project, module, generation)
        memo = _CALLEE_NAMES.get(key)
        if memo is None or memo[0] != generation:  # a text changed meanwhile, or it cannot be read
            return frozenset()
    project.saw_closure(memo[2])
    return memo[1]


#: ``_callee_names``' answers, by (search roots, module): the generation, the names, and
#: the module texts they rest on (the module's import closure) as bits (``_numbered``).
_CALLEE_NAMES: Dict[Tuple[Tuple[str, ...], str], Tuple[int, FrozenSet[str], int]] = {}

#: Every module text (path, stamp) the filter has read, numbered, so that a set of them
#: (an import closure: thousands, for every module of a big project) is an int's bits:
#: small, quick to join, and nothing for the garbage collector to walk. Only a result
#: cache needs the set itself (``Project.dependencies``).
_NUMBERS: Dict[Tuple[str, _Stamp], int] = {}
_NUMBERED: List[Tuple[str, _Stamp]] = []


def _number(path: str, stamp: _Stamp) -> int:
    """The bit of module text (path, stamp)."""
    number = _NUMBERS.get((path, stamp))
    if number is None:
        number = _NUMBERS[(path, stamp)] = len(_NUMBERED)
        _NUMBERED.append((path, stamp))
    return 1 << number


def _numbered_texts(bits: int) -> FrozenSet[Tuple[str, _Stamp]]:
    """The module texts (path, stamp) whose bits are set."""
    digits = bin(bits)[:1:-1]  # the lowest bit first
    found = []
    index = digits.find("1")
    while index != -1:
        found.append(_NUMBERED[index])
        index = digits.find("1", index + 1)
    return frozenset(found)


def _work_out_callee_names(project: Project, start: str, generation: int) -> None:
    """``_callee_names`` for ``start`` and every module of its import closure not yet
    known: Tarjan's strongly connected components, without recursion (import chains run
    deep), each component done when it closes (its imports are done by then)."""
    roots = project.roots
    index: Dict[str, int] = {}
    low: Dict[str, int] = {}
    stack: List[str] = []
    on_stack: Set[str] = set()
    facts: Dict[str, _Text] = {}
    work: List[Tuple[str, Iterator[str]]] = []

    def known(module: str) -> bool:
        memo = _CALLEE_NAMES.get((roots, module))
        return memo is not None and memo[0] == generation

    def enter(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        read = _text(project, module)
        if read is not None:
            facts[module] = read[2]
        imports = facts[module].imports if module in facts else frozenset()
        work.append((module, iter(sorted(imports))))

    if known(start):
        return
    enter(start)
    while work:
        module, pending = work[-1]
        for imported in pending:
            if imported in index:
                if imported in on_stack:
                    low[module] = min(low[module], index[imported])
            elif not known(imported):
                enter(imported)
                break
        else:
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[module])
            if low[module] == index[module]:
                component: List[str] = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == module:
                        break
                _close(project, component, facts, generation)


def _close(project: Project, component: List[str], facts: Dict[str, _Text], generation: int) -> None:
    """Work out the callee names of one strongly connected component of modules, whose
    imports outside it are known: each member once, and again whenever a member it imports
    gains names (they only grow), then remember them with the texts they rest on."""
    roots = project.roots
    found: Dict[str, FrozenSet[str]] = {member: frozenset() for member in component}
    members = set(component)

    def names_of(module: str) -> FrozenSet[str]:
        if module in members:
            return found[module]
        memo = _CALLEE_NAMES.get((roots, module))
        return memo[1] if memo is not None else frozenset()

    importers: Dict[str, List[str]] = {}  # the members each member is imported by
    for member in component:
        if member in facts:
            for imported in facts[member].imports & members:
                importers.setdefault(imported, []).append(member)
    pending = list(component)
    queued = set(component)
    while pending:  # each member once, then again only when one it imports has grown
        member = pending.pop()
        queued.discard(member)
        if member not in facts:
            continue
        now = _taint(facts[member], names_of)
        if now != found[member]:
            found[member] = now
            for importer in importers.get(member, ()):
                if importer not in queued:
                    queued.add(importer)
                    pending.append(importer)
    if generation != _GENERATION[0]:
        return  # a text changed meanwhile: nothing is remembered
    outside = {module for member in component if member in facts for module in facts[member].imports} - members
    deps = 0
    for member in component:
        if member in facts:
            deps |= facts[member].bit
    for module in outside:
        memo = _CALLEE_NAMES.get((roots, module))
        if memo is not None:
            deps |= memo[2]
    for member in component:
        _CALLEE_NAMES[(roots, member)] = (generation, found[member], deps)


def _taint(text: _Text, names_of: Callable[[str], FrozenSet[str]]) -> FrozenSet[str]:
    """The names one module's text may bind to a scanned function, given what each module
    it imports may (``names_of``): those its own marks bind, those its imports bring, and,
    to a fixed point, the module-level statements that spell one of those (all of their
    names: ``_ASSIGNED``) and the functions that call one, or read one off an imported
    module (``_CALLED``, ``_attributes``: as ``_Text.edges`` follows them)."""
    tainted: Set[str] = set(text.aliases) | set(text.starred) | set(text.helpers)
    for module in text.stars:
        tainted |= names_of(module)
    for local, pairs in text.named.items():
        if any(name in names_of(module) for module, name in pairs):
            tainted.add(local)
    chains = [
        (local, module, bound)
        for local, modules in text.modules.items()
        for module in modules
        for bound in [names_of(module)]
        if bound
    ]
    if not tainted and not chains and not text.alias_read:
        return frozenset()
    if text.alias_read:  # ``swap = os.replace``
        tainted |= text.binding(_ALIAS_READ)
    tainted |= _chained(text, chains)
    while tainted:
        words = "|".join(map(re.escape, sorted(tainted)))
        hint = re.compile(words)  # a function that calls one spells it: most spell none (a quicker test than ``called``)
        grown = {
            name for name, body in text.defs.items()
            if name not in tainted and hint.search(body) is not None and not text.called(name).isdisjoint(tainted)
        }
        grown |= text.binding(re.compile(rf"(?<![\w.])(?:{words})\b")) - tainted
        if not grown:
            break
        tainted |= grown
    return frozenset(tainted)


def _chained(text: _Text, chains: List[Tuple[str, str, FrozenSet[str]]]) -> Set[str]:
    """The names whose binding reads one of ``chains``' names off a module the text
    imports (``local.NAME``, ``a.b.NAME`` for ``import a.b``): a function anywhere in its
    body, a module-level name in its statement."""
    if not chains:
        return set()
    patterns = []
    for local, module, bound in chains:
        parts = module.split(".")
        path = parts[1:] if local == parts[0] and len(parts) > 1 else []
        prefix = r"\s*\.\s*".join([re.escape(local), *map(re.escape, path)])
        patterns.append(rf"(?<![\w.]){prefix}\s*\.\s*(?:{'|'.join(map(re.escape, sorted(bound)))})\b")
    pattern = re.compile("|".join(patterns))
    found = {name for name, body in text.defs.items() if pattern.search(body)}
    found |= text.binding(pattern)
    return found


def _found(
    project: Project,
    kind: Locations,
    pair: Optional[Tuple[str, Optional[str]]],
    parents: Dict[Tuple[str, Optional[str]], Optional[Tuple[str, Optional[str]]]],
) -> bool:
    """True, remembered for each pair on the way from the start to the one that may bind."""
    texts = project.stop_reading()
    while pair is not None:
        _MAY[(project.roots, pair, kind)] = (True, _GENERATION[0], texts)
        pair = parents[pair]
    return True


def _sweep() -> None:
    """Look for module texts changed since they were read, at most every ``_SWEEP_SECONDS``
    and never more than ``_SWEEP_SHARE`` of the time (a sweep stats every module read:
    thousands in a big run): a change starts a new generation of the filter's answers.
    Within one run nothing changes; a long-running process (the server) sees an edited
    module within the interval."""
    now = time.monotonic()
    if now < _SWEPT[0]:
        return
    if any(_stamp_of(path) != known.stamp for path, known in list(_TEXTS.items())):
        _GENERATION[0] += 1
    took = time.monotonic() - now
    _SWEPT[0] = now + max(_SWEEP_SECONDS, took / _SWEEP_SHARE)


_SWEEP_SECONDS = 1.0
_SWEEP_SHARE = 0.01
_SWEPT = [0.0]  # when the next sweep is due
#: Bumped whenever a module text is seen to have changed: ``_MAY``'s answers of an
#: older generation are not used.
_GENERATION = [0]


def _module_text(path: str) -> Optional[Tuple[str, Dict[str, str]]]:
    """The text of module ``path`` that can bind its module-level names: all of it but the
    bodies of its top-level functions and classes (and their decorators); and the text of
    each top-level function, by name (what it may do for callers, ``exports``). A body runs
    from a line starting (at column 0) with ``def``, ``async def``, ``class`` or ``@`` to
    the next line that starts at column 0 with anything but a closing bracket or a
    comment; a line of a multi-line string at column 0 ends one early, which keeps more."""
    try:
        with open(path, "rb") as handle:
            source = handle.read().decode("latin-1")
    except OSError:
        return None
    source = "\n" + source  # every line starts after a newline: the regex's literal prefix
    kept: List[str] = []
    defs: Dict[str, str] = {}
    start = 1
    skipping = False
    for match in _TOP_LINE.finditer(source):
        line = match.start() + 1
        if not skipping:
            kept.append(source[start:line])
        elif source.startswith(("def", "async"), start):
            _add_def(defs, source[start:line])
        start = line
        skipping = match.group(1) is not None
    if not skipping:
        kept.append(source[start:])
    elif source.startswith(("def", "async"), start):
        _add_def(defs, source[start:])
    return "".join(kept), defs


def _add_def(defs: Dict[str, str], text: str) -> None:
    named = _DEF_NAME.match(text)
    if named is not None:
        defs[named.group(1)] = defs.get(named.group(1), "") + text


#: The newline before a line that starts a top-level statement; group 1: one that starts a
#: function or class. (A newline, not ``^`` with ``re.M``: a literal first character lets
#: the regex engine skip to candidates, three times faster over a module.)
_TOP_LINE = re.compile(r"\n(?:((?:async[ \t]+)?def\b|class\b|@)|[^\s#)\]}])")
_DEF_NAME = re.compile(r"(?:async[ \t]+)?def[ \t]+(\w+)")


_LOCATION_TOKENS: Dict[Locations, Tuple[Tuple[str, ...], Tuple[str, ...]]] = {}


def _spells_location(lowered: str, locations: Locations) -> bool:
    """Whether a module's lowered text may bind a location: it holds a name pattern's
    literal run anywhere (``*cache*`` matches ``lru_cache``), or, as a whole word, an
    environment variable, a configured call's last component, a path's last segment
    (``tmp``: a literal is ``/tmp`` or below it) or a temp directory function's name."""
    runs, words = _location_tokens(locations)
    if any(run in lowered for run in runs):
        return True
    for word in words:
        start = lowered.find(word)
        while start != -1:
            end = start + len(word)
            before = _word_at(word, 0) and _word_at(lowered, start - 1)
            after = _word_at(word, len(word) - 1) and _word_at(lowered, end)
            if not before and not after:
                return True
            start = lowered.find(word, start + 1)
    return False


def _location_tokens(locations: Locations) -> Tuple[Tuple[str, ...], Tuple[str, ...]]:
    tokens = _LOCATION_TOKENS.get(locations)
    if tokens is None:
        runs: Set[str] = set()
        words = {q.rsplit(".", 1)[-1].lower() for q in names.TEMP_DIR_ATTRIBUTES | names.TEMP_DIR_CALLS}
        for location in locations.locations:
            runs.update(literal_fragment(p) for p in location.names)
            words.update(v.lower() for v in location.env)
            words.update(c.rsplit(".", 1)[-1].lower() for c in location.calls)
            words.update(p.rstrip("/").rsplit("/", 1)[-1].lower() for p in location.paths)
        if "" in words:
            runs.add("")  # matches any text
        tokens = _LOCATION_TOKENS[locations] = (tuple(sorted(runs)), tuple(sorted(words)))
    return tokens
