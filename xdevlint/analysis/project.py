"""The project index: what other modules of the project bind, for the module being analysed.

Real code keeps its paths and helpers in other modules: a ``constants.py`` with the cache
root, a ``rename = os.rename`` compatibility alias. Provenance asks this index what an
imported name (``pkg.paths.CACHE_ROOT``) is, and gets a ``Resolved``: the library objects
it is an alias of, or the location and text of the constant it holds.

Cost decides the design. Nothing is read up front: a module is summarised the first time
a name in it is asked for, so a run reads only what the analysed files' imports reach
(by name, not whole import closures). A summary comes from the stdlib ``ast`` and looks at
module-level statements only (bodies of ``if``/``try``/``with`` included, functions and
classes not), and is memoised in-process by the file's path, mtime and size. Modules are
looked for below the project's roots only (the directory above the file's top package, the
project root and its ``src``), never in site-packages, and names of the standard library
are never looked up there (the analysis knows ``os.rename`` by name). A module that cannot
be read or parsed contributes nothing.

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
import warnings
from dataclasses import dataclass
from typing import Dict, FrozenSet, Iterable, List, Optional, Set, Tuple, Union

from xdevlint.analysis import names
from xdevlint.analysis.locations import TEMP, Locations

#: ``XDEVLINT_PROJECT_INDEX=1`` turns the index on. Off by default until it meets its cost
#: target: ``bench/project_index.py`` measured +215% CPU on the ecosystem corpus (see the
#: issue's notes); with it off, no gate or analysis looks past the file.
SWITCH = "XDEVLINT_PROJECT_INDEX"
#: Files whose presence marks a project root.
ROOT_MARKERS = ("pyproject.toml", "setup.cfg", ".git")
#: Directories that hold installed code: the index never looks for modules in them.
_INSTALLED = frozenset({"site-packages", "dist-packages"})
_STDLIB: FrozenSet[str] = frozenset(getattr(sys, "stdlib_module_names", ())) | {"builtins", "os", "posixpath", "ntpath"}
#: Nested constants and alias chains longer than this are not followed (a guard, not a limit real code meets).
_DEPTH = 20


@dataclass(frozen=True)
class Resolved:
    """What a project name is: an alias of library objects (``callees``), or a path
    constant (``locations``, ``literal``, ``path``: built with pathlib). ``origin`` is
    where it is bound: the module's path and the line."""

    callees: FrozenSet[str] = frozenset()
    locations: FrozenSet[str] = frozenset()
    literal: Optional[str] = None
    path: bool = False
    origin: Tuple[str, int] = ("", 0)

    def __or__(self, other: "Resolved") -> "Resolved":
        return Resolved(
            self.callees | other.callees,
            self.locations | other.locations,
            self.literal if self.literal == other.literal else None,
            self.path or other.path,
            self.origin,
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


def _summarise(path: str, module: str, is_package: bool) -> Optional[Summary]:
    try:
        with open(path, "rb") as handle:
            data = handle.read()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(data)
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
        return None  # contributes nothing; the file's own check reports it, if anyone's
    package = module if is_package else module.rpartition(".")[0]
    summary = Summary(path, module, {}, [], None)
    _collect(tree.body, summary, package)
    return summary


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
    parts = [] if is_package else [stem]
    while os.path.isfile(os.path.join(directory, "__init__.py")):
        directory, name = os.path.split(directory)
        parts.insert(0, name)
        if not name:
            break
    return directory, ".".join(parts), is_package


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
    analysis sees them: made afresh for each file (it is cheap), so that a long-running
    process (the server) never keeps what a changed module bound. Summaries and where
    modules are live longer (see ``_cached_summary``, ``_FILES``)."""

    def __init__(self, roots: Tuple[str, ...], locations: Locations) -> None:
        self.roots = roots
        self.locations = locations
        self._summaries: Dict[str, Optional[Summary]] = {}
        self._bindings: Dict[Tuple[str, str], Optional[Resolved]] = {}

    def find(self, module: str) -> Optional[Tuple[str, bool]]:
        """The file of project module ``module`` and whether it is a package, or None."""
        key = (self.roots, module)
        if key in _FILES:
            return _FILES[key]
        found: Optional[Tuple[str, bool]] = None
        if module and module.split(".", 1)[0] not in _STDLIB:
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
        _FILES[key] = found
        return found

    def summary(self, module: str) -> Optional[Summary]:
        if module not in self._summaries:
            found = self.find(module)
            self._summaries[module] = None if found is None else _cached_summary(found[0], module, found[1])
        return self._summaries[module]

    def is_module(self, qualified: str) -> bool:
        return self.find(qualified) is not None

    def resolve(self, qualified: str, depth: int = 0) -> Optional[Resolved]:
        """What the project name ``qualified`` (``pkg.mod.NAME``) is, when it is an alias
        of library objects or a path constant; None otherwise (a function, a class, a
        module, a name outside the project, or nothing known)."""
        if depth > _DEPTH or qualified.split(".", 1)[0] in _STDLIB:
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
        if key in self._bindings:
            return self._bindings[key]
        self._bindings[key] = None  # a cycle (of imports, of constants) resolves to nothing
        found = self._binding(summary, name, depth)
        self._bindings[key] = found
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
                continue  # a def or class: the analysis knows it by name
            if isinstance(value, str):
                found = self._imported(value, depth)
            else:
                found = _Evaluator(self, summary, depth).value(value, name)
            if found is not None:
                found = Resolved(found.callees, found.locations, found.literal, found.path, (summary.path, line))
                result = found if result is None else result | found
        return result

    def _star(self, module: str, name: str, depth: int) -> Optional[Resolved]:
        if name.startswith("_"):
            return None
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
        if qualified in names.TEMP_DIR_ATTRIBUTES:
            return Resolved(locations=frozenset({TEMP}))
        return Resolved(callees=frozenset({qualified}))


#: Where each module is, by (search roots, module name).
_FILES: Dict[Tuple[Tuple[str, ...], str], Optional[Tuple[str, bool]]] = {}
#: The paths of the files summarised (parsed) in this process, in order: what the index read.
PARSED: List[str] = []
_SUMMARIES: Dict[str, Tuple[Tuple[int, int], str, Optional[Summary]]] = {}


def _cached_summary(path: str, module: str, is_package: bool) -> Optional[Summary]:
    try:
        stat = os.stat(path)
    except OSError:
        return None
    stamp = (stat.st_mtime_ns, stat.st_size)
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

    def ev(self, node: ast.expr) -> Resolved:
        if self.depth > _DEPTH:
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
        if qualified in names.TEMP_DIR_ATTRIBUTES:
            return Resolved(locations=frozenset({TEMP}))
        module = qualified.rpartition(".")[0]
        if self.project.is_module(qualified):
            return _NOTHING
        if module and self.project.is_module(module):
            return self.project.resolve(qualified, self.depth + 1) or _NOTHING
        return Resolved(callees=frozenset({qualified}))

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
        callee = self.ev(func).callees
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

    @property
    def package(self) -> str:
        return self.module if self.is_package else self.module.rpartition(".")[0]

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
                if name not in found:
                    resolved = self.project.resolve(f"{current.module}.{name}")
                    if resolved is not None:
                        found[name] = resolved
            pending.extend(s for s in (self.project.summary(m) for m in current.stars) if s is not None)
        return found


def view_for(path: str, locations: Locations) -> Optional[FileView]:
    """The index for the file ``path``, or None when it has no project to look in (a file
    that is not on disk, or one installed in site-packages) or the index is switched off."""
    if not path or os.environ.get(SWITCH) != "1" or not os.path.isfile(path):
        return None
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


@dataclass(frozen=True)
class Supplied:
    """What names a file imports from project modules may bring it, for the scan's gates:
    library functions (``callees``: a move alias, a temp factory) and locations, and the
    local ``names`` that bring them (a module's name, for ``paths.CACHE_ROOT``)."""

    callees: FrozenSet[str] = frozenset()
    locations: FrozenSet[str] = frozenset()
    names: FrozenSet[str] = frozenset()


NONE_SUPPLIED = Supplied()

_FROM_IMPORT = re.compile(r"^[ \t]*from[ \t]+(?P<module>\.*[\w.]*)[ \t]+import[ \t]*(?P<names>\([^)]*\)|(?:[^\n\\]|\\.)*)", re.M | re.S)
_IMPORT = re.compile(r"^[ \t]*import[ \t]+(?P<names>(?:[^\n\\]|\\.)*)", re.M)
_NAME = re.compile(r"[\w.*]+(?:\s+as\s+\w+)?")
#: Words one of which a module's text must hold to bind a move, copy or temp function
#: (the last component of each name the tables know).
_FUNCTION_WORDS = tuple(sorted(
    {q.rsplit(".", 1)[1].lower() for q in (*names.MOVE_LIKE_FUNCTIONS, *names.TEMP_FACTORIES, *names.UNBOUND_MOVE_METHODS)}
))


#: The library functions whose aliases the scan's gates look for.
_SCANNED_CALLEES = frozenset(names.MOVE_LIKE_FUNCTIONS | names.UNBOUND_MOVE_METHODS.keys() | names.TEMP_FACTORIES.keys())


def supplied_to(text: str, path: str, locations: Locations) -> Supplied:
    """What the names ``text`` (the file ``path``) imports from project modules are, as far
    as the scan cares. Cheap first: only a project module whose text (or the text of a
    project module it imports from, for re-exports) holds a function's word or a
    location's token is summarised; others cannot bind anything that matters."""
    if "import" not in text:
        return NONE_SUPPLIED
    view = view_for(path, locations)
    if view is None:
        return NONE_SUPPLIED
    project = view.project
    wanted: List[Tuple[str, Optional[str], str]] = []  # (module, name or None for all of it, local name)
    for match in _FROM_IMPORT.finditer(text):
        spec = match.group("module")
        dots = len(spec) - len(spec.lstrip("."))
        module = absolute_module(spec[dots:] or None, dots, view.package)
        if module is None:
            continue
        for item in _NAME.findall(match.group("names")):
            name, local = item.split()[0], item.split()[-1]
            if name == "*":
                wanted.append((module, None, "*"))
            elif project.is_module(f"{module}.{name}"):
                wanted.append((f"{module}.{name}", None, local))
            else:
                wanted.append((module, name, local))
    for match in _IMPORT.finditer(text):
        for item in _NAME.findall(match.group("names")):
            module = item.split()[0]
            wanted.append((module, None, item.split()[-1] if " " in item else module.split(".", 1)[0]))
    callees: Set[str] = set()
    found: Set[str] = set()
    local_names: Set[str] = set()
    tokens = locations.scan_tokens()
    for module, name, local in wanted:
        if not project.is_module(module) or not _may_bind(project, module, tokens, set()):
            continue
        bound: List[Optional[Resolved]] = (
            list(view.star(module).values()) if name is None else [project.resolve(f"{module}.{name}")]
        )
        if name is None and local == "*":  # each name the star binds is its own local name
            for star_name, exported in view.star(module).items():
                if exported.callees & _SCANNED_CALLEES or exported.locations:
                    local_names.add(star_name)
        for resolved in bound:
            if resolved is not None and (resolved.callees & _SCANNED_CALLEES or resolved.locations):
                callees |= resolved.callees & _SCANNED_CALLEES
                found |= resolved.locations
                if local != "*":
                    local_names.add(local)
    if not callees and not found:
        return NONE_SUPPLIED
    return Supplied(frozenset(callees), frozenset(found), frozenset(local_names))


#: By path: (mtime and size, whether the text holds a word that matters, the modules it imports from).
_TEXTS: Dict[str, Tuple[Tuple[int, int], bool, Tuple[str, ...]]] = {}


def _may_bind(project: Project, module: str, tokens: Tuple[str, ...], seen: Set[str]) -> bool:
    """Whether project module ``module`` may bind a function or location the scan cares
    about: its text holds a word of one, or it imports from a project module that may."""
    if module in seen:
        return False
    seen.add(module)
    found = project.find(module)
    if found is None:
        return False
    path = found[0]
    try:
        stat = os.stat(path)
        stamp = (stat.st_mtime_ns, stat.st_size)
        cached = _TEXTS.get(path)
        if cached is None or cached[0] != stamp:
            with open(path, "rb") as handle:
                source = handle.read().decode("latin-1")
            lowered = source.lower()
            words = any(w in lowered for w in _FUNCTION_WORDS) or any(t in lowered for t in tokens)
            cached = _TEXTS[path] = (stamp, words, tuple(m.group("module") for m in _FROM_IMPORT.finditer(source)))
    except OSError:
        return False
    if cached[1]:
        return True
    package = module if found[1] else module.rpartition(".")[0]
    for spec in cached[2]:
        dots = len(spec) - len(spec.lstrip("."))
        origin = absolute_module(spec[dots:] or None, dots, package)
        if origin is not None and project.is_module(origin) and _may_bind(project, origin, tokens, seen):
            return True
    return False
