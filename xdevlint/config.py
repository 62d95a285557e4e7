"""``[tool.xdevlint]``: found, validated and resolved once, for the CLI and flake8 alike.

The closest configuration, walking up from a file's directory, wins whole (no merging,
as in ruff): in each directory ``.xdevlint.toml``, then ``xdevlint.toml`` (settings at
the top level), then a ``pyproject.toml`` with a ``[tool.xdevlint]`` section. Paths in
it are relative to its directory.
"""

from __future__ import annotations

import fnmatch
import functools
import os
import re
import sys
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Dict, List, Mapping, Optional, Sequence, Tuple, Type

from xdevlint import registry
from xdevlint.analysis.locations import DEFAULT_LOCATIONS, Location, Locations

if TYPE_CHECKING:
    from xdevlint.rules.rule import Rule

DEFAULT_EXCLUDE: Tuple[str, ...] = (
    ".git", ".hg", ".venv", "venv", ".tox", ".nox", "build", "dist", "__pycache__", "node_modules",
    # installed and generated code, as ruff excludes it (a virtualenv of any name is
    # recognised by its pyvenv.cfg in discovery)
    "site-packages", ".eggs", ".direnv", ".mypy_cache", ".pytest_cache", ".ruff_cache",
)
DEFAULT_MOVE_FUNCTION = "shutil.move"
#: Files larger than this (in bytes) are reported as XDV000, not checked: a file of
#: small functions costs little at any size (``stages.focus.prefocus``), but one
#: statement of 20 MB would still cost the stdlib parser gigabytes.
DEFAULT_MAX_FILE_SIZE = 20_000_000
LOCATION_KEYS = ("env", "names", "paths", "calls")
_LIST_KEYS = ("select", "ignore", "extend-select", "extend-ignore", "exclude", "extend-exclude")
_BOOL_KEYS = ("move-function-atomic", "respect-gitignore", "force-exclude")
ALLOWED_KEYS = (*_LIST_KEYS, "per-file-ignores", "move-function", *_BOOL_KEYS, "max-file-size", "locations")


class ConfigError(Exception):
    """A problem in a configuration file or option, with where and what is allowed."""

    def __init__(self, source: str, key: str, message: str) -> None:
        super().__init__(f"{source}: {key}: {message}")
        self.source, self.key, self.message = source, key, message


@dataclass(frozen=True)
class Config:
    """Settings for the files under one project root."""

    root: Path = field(default_factory=Path.cwd)
    source: Optional[Path] = None  # the file the settings came from
    select: Tuple[str, ...] = ("ALL",)
    extend_select: Tuple[str, ...] = ()
    ignore: Tuple[str, ...] = ()
    extend_ignore: Tuple[str, ...] = ()
    per_file_ignores: Tuple[Tuple[str, Tuple[str, ...]], ...] = ()
    exclude: Tuple[str, ...] = DEFAULT_EXCLUDE
    extend_exclude: Tuple[str, ...] = ()
    move_function: str = DEFAULT_MOVE_FUNCTION
    move_function_atomic: bool = False
    #: Skip files that .gitignore, .git/info/exclude or git's global excludes ignore.
    respect_gitignore: bool = True
    #: Apply the excludes to paths named on the command line too (``--force-exclude``).
    force_exclude: bool = False
    #: Files larger than this many bytes are XDV000, not checked (0: no limit).
    max_file_size: int = DEFAULT_MAX_FILE_SIZE
    locations: Locations = field(default_factory=Locations)

    @property
    def rules(self) -> Tuple[Type["Rule"], ...]:
        return tuple(spec.rule for spec in self.specs_for(None))

    def rules_for(self, path: str) -> Tuple[Type["Rule"], ...]:
        return tuple(spec.rule for spec in self.specs_for(path))

    def specs_for(self, path: Optional[str]) -> Tuple[registry.RuleSpec, ...]:
        """The rules selected for ``path`` (all files when None), before any is imported."""
        return _selection((*self.select, *self.extend_select), self._ignores(path))

    def reports(self, code: str, path: Optional[str]) -> bool:
        """Whether the engine's own ``code`` (XDV000, XDV001) is reported for ``path``."""
        return registry.engine_code_selected(code, (*self.select, *self.extend_select), self._ignores(path))

    def _ignores(self, path: Optional[str]) -> Tuple[str, ...]:
        ignored = [codes for pattern, codes in self.per_file_ignores if path is not None and self._matches(path, pattern)]
        return (*self.ignore, *self.extend_ignore, *(c for cs in ignored for c in cs))

    def is_excluded(self, path: str, named: Optional[str] = None) -> bool:
        """Whether ``path`` or one of its parent directories (below the root) matches an
        exclude; below ``named`` only, when ``path`` was found in a directory named on the
        command line (which is checked whatever its own name, as ruff does)."""
        regex = _globs((*self.exclude, *self.extend_exclude))
        if regex is None:
            return False
        skip = 0
        if named is not None:
            above = _relative(os.path.abspath(named), os.fspath(self.root))
            skip = 0 if above is None or above == "." or above.startswith("..") else len(above.split(os.sep))
        return any(regex.match(candidate) for candidate in self._candidates(path, components=True, skip=skip))

    def _matches(self, path: str, pattern: str, components: bool = False) -> bool:
        regex = _globs((pattern,))
        return regex is not None and any(regex.match(candidate) for candidate in self._candidates(path, components))

    def _candidates(self, path: str, components: bool, skip: int = 0) -> List[str]:
        """What a pattern may match: the path relative to the root, absolute, its name,
        and with ``components`` each directory name and each leading part below the root
        (past its first ``skip`` directories)."""
        absolute = os.path.abspath(path)
        root = os.fspath(self.root)
        directory, name = os.path.split(absolute)
        if not name or root == absolute or root.startswith(absolute + os.sep):
            above = _relative(absolute, root)  # the root or above it: no name to add
            relative = absolute if above is None else above
        else:
            above = _relative(directory, root)  # once per directory: relpath is costly
            relative = absolute if above is None else name if above == "." else os.path.join(above, name)
        if os.sep != "/":
            relative, absolute = relative.replace(os.sep, "/"), absolute.replace(os.sep, "/")
        candidates = [relative, absolute, absolute.rsplit("/", 1)[-1]]
        if components and not relative.startswith(".."):
            parts = relative.split("/")
            candidates += parts[skip:-1] + ["/".join(parts[: i + 1]) for i in range(skip, len(parts))]
        return candidates


@functools.lru_cache(maxsize=4096)
def _relative(absolute: str, root: str) -> Optional[str]:
    """``os.path.relpath(absolute, root)``; None on another drive (Windows)."""
    if absolute == root:
        return "."
    if absolute.startswith(root) and absolute[len(root) : len(root) + 1] == os.sep:
        return absolute[len(root) + 1 :]  # relpath's answer, without its cost
    try:
        return os.path.relpath(absolute, root)
    except ValueError:
        return None


@functools.lru_cache(maxsize=256)
def _globs(patterns: Tuple[str, ...]) -> Optional["re.Pattern[str]"]:
    """One regular expression for several glob patterns (``fnmatchcase`` semantics)."""
    if not patterns:
        return None
    return re.compile("|".join(fnmatch.translate(pattern.rstrip("/")) for pattern in patterns))


@functools.lru_cache(maxsize=256)
def _selection(selectors: Tuple[str, ...], ignores: Tuple[str, ...]) -> Tuple[registry.RuleSpec, ...]:
    return registry.select_specs(selectors, ignores)


# -- loading -------------------------------------------------------------------------


def load_file(path: Path) -> Config:
    """Settings from a configuration file: a pyproject.toml's ``[tool.xdevlint]``, or an
    xdevlint.toml's top level (or its ``[tool.xdevlint]``, as a copied pyproject's)."""
    table = _read_table(path)
    if path.name == "pyproject.toml" or "tool" in table:
        table = table.get("tool", {}).get("xdevlint", {})
    return from_table(table, path)


def _toml() -> Any:
    """The TOML parser, imported only when there is TOML to read (a run with no config
    file does not pay for it)."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on older interpreters
        import tomli as tomllib
    return tomllib


def _read_table(path: Path) -> Dict[str, Any]:
    tomllib = _toml()
    try:
        with open(path, "rb") as handle:
            table: Dict[str, Any] = tomllib.load(handle)
            return table
    except OSError as error:
        raise ConfigError(str(path), "file", f"cannot read: {error.strerror or error}") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(str(path), "file", f"invalid TOML: {error}") from None


def parse_setting(text: str) -> Dict[str, Any]:
    """An inline ``--config 'KEY = VALUE'`` (TOML, as a line of the file would be)."""
    tomllib = _toml()
    try:
        setting: Dict[str, Any] = tomllib.loads(text)
        return setting
    except tomllib.TOMLDecodeError as error:
        raise ConfigError("--config", text, f"neither a file nor a TOML KEY = VALUE: {error}") from None


def from_table(table: Mapping[str, Any], source: Optional[Path]) -> Config:
    """Validate ``[tool.xdevlint]`` and build the settings; errors name the key."""
    where = str(source) if source else "configuration"
    unknown = sorted(set(table) - set(ALLOWED_KEYS))
    if unknown:
        raise ConfigError(where, unknown[0], f"unknown key; allowed keys: {', '.join(ALLOWED_KEYS)}")
    values: Dict[str, Any] = {}
    for key in _LIST_KEYS:
        if key in table:
            values[key.replace("-", "_")] = _strings(table[key], where, key)
    for key in ("select", "ignore", "extend_select", "extend_ignore"):
        if key in values:
            values[key] = _selectors(values[key], where, key.replace("_", "-"))
    if "per-file-ignores" in table:
        values["per_file_ignores"] = _per_file_ignores(table["per-file-ignores"], where)
    if "move-function" in table:
        values["move_function"] = _dotted(table["move-function"], where, "move-function")
    for key in _BOOL_KEYS:
        if key in table:
            if not isinstance(table[key], bool):
                raise ConfigError(where, key, "expected true or false")
            values[key.replace("-", "_")] = table[key]
    if "max-file-size" in table:
        values["max_file_size"] = parse_size(table["max-file-size"], where, "max-file-size")
    if "locations" in table:
        values["locations"] = _locations(table["locations"], where)
    root = source.parent.resolve() if source else Path.cwd()
    return Config(root=root, source=source, **values)


_UNITS = {"": 1, "b": 1, "kb": 1000, "mb": 1000**2, "gb": 1000**3}
_SIZE = re.compile(r"\s*(\d+(?:\.\d*)?)\s*([a-z]*)\s*", re.IGNORECASE)


def parse_size(value: Any, where: str, key: str) -> int:
    """A size in bytes: a whole number, or a string with a unit (``"20MB"``, ``"512 kB"``;
    decimal units, 1 MB = 1,000,000 bytes). 0 means no limit."""
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    match = _SIZE.fullmatch(value) if isinstance(value, str) else None
    if match is None or match.group(2).lower() not in _UNITS:
        raise ConfigError(where, key, f"expected a size such as 20000000, \"20MB\" or \"512kB\" (0: no limit), got {value!r}")
    return int(float(match.group(1)) * _UNITS[match.group(2).lower()])


def describe_size(size: int) -> str:
    """``size`` bytes as people write it: ``20 MB``, ``512 kB``, ``900 bytes``."""
    for unit, name in ((1000**3, "GB"), (1000**2, "MB"), (1000, "kB")):
        if size >= unit:
            return f"{size / unit:.1f}".rstrip("0").rstrip(".") + f" {name}"
    return f"{size} bytes"


def _strings(value: Any, where: str, key: str) -> Tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(where, key, f"expected a list of strings, got {value!r}")
    return tuple(value)


def _selectors(codes: Sequence[str], where: str, key: str) -> Tuple[str, ...]:
    normalised = tuple(code.strip().upper() for code in codes)
    for code in normalised:
        if not registry.is_known_selector(code):
            known = ", ".join(registry.known_codes())
            raise ConfigError(where, key, f"unknown rule selector {code!r}; allowed: ALL, {registry.PREFIX} or a prefix of {known}")
    return normalised


def _per_file_ignores(value: Any, where: str) -> Tuple[Tuple[str, Tuple[str, ...]], ...]:
    if not isinstance(value, dict):
        raise ConfigError(where, "per-file-ignores", "expected a table of glob = [codes]")
    return tuple(
        (pattern, _selectors(_strings(codes, where, f"per-file-ignores.{pattern!r}"), where, f"per-file-ignores.{pattern!r}"))
        for pattern, codes in value.items()
    )


def _dotted(value: Any, where: str, key: str) -> str:
    if not isinstance(value, str) or not all(part.isidentifier() for part in value.split(".")) or "." not in value:
        raise ConfigError(where, key, f"expected a dotted name such as 'xdevlint.safemove.safe_move', got {value!r}")
    return value


def _locations(value: Any, where: str) -> Locations:
    if not isinstance(value, dict):
        raise ConfigError(where, "locations", "expected tables [tool.xdevlint.locations.NAME]")
    allowed = (*LOCATION_KEYS, *(f"extend-{k}" for k in LOCATION_KEYS))
    by_name: Dict[str, Location] = {loc.name: loc for loc in DEFAULT_LOCATIONS}
    for name, spec in value.items():
        key = f"locations.{name}"
        if not isinstance(spec, dict):
            raise ConfigError(where, key, f"expected a table with keys {', '.join(allowed)}")
        if not name.isidentifier():
            raise ConfigError(where, key, "a location's name must be an identifier")
        unknown = sorted(set(spec) - set(allowed))
        if unknown:
            raise ConfigError(where, f"{key}.{unknown[0]}", f"unknown key; allowed keys: {', '.join(allowed)}")
        base = by_name.get(name, Location(name))
        fields: Dict[str, Tuple[str, ...]] = {}
        for item in LOCATION_KEYS:
            current: List[str] = list(getattr(base, item))
            if item in spec:
                current = list(_strings(spec[item], where, f"{key}.{item}"))
            if f"extend-{item}" in spec:
                current += _strings(spec[f"extend-{item}"], where, f"{key}.extend-{item}")
            fields[item] = tuple(dict.fromkeys(current))
        for call in fields["calls"]:
            _dotted(call, where, f"{key}.calls")
        by_name[name] = Location(name, **fields)
    return Locations(tuple(by_name.values()))


# -- the file's line length, for fixes ----------------------------------------------

#: black's and ruff's default, used when no formatter configuration says otherwise.
DEFAULT_LINE_LENGTH = 88


def line_length_for(path: str) -> int:
    """The line length fixed code must keep to in ``path``: ``line-length`` from the
    closest ruff (``ruff.toml``, ``.ruff.toml``, ``[tool.ruff]``) or black
    (``[tool.black]``) configuration at or above the file's directory, else 88.

    The closest file that configures a formatter wins, as each of them looks up its
    own; a ``[tool.ruff]`` without ``line-length`` means ruff's default. A file that
    cannot be read is not ours to report: the search goes on above it.
    """
    start = os.path.dirname(os.path.abspath(path)) if path and path != "-" else os.getcwd()
    return _line_length(start)


@lru_cache(maxsize=4096)
def _line_length(directory: str) -> int:
    for name in (".ruff.toml", "ruff.toml", "pyproject.toml"):
        candidate = os.path.join(directory, name)
        if not os.path.isfile(candidate):
            continue
        try:
            table = _read_table(Path(candidate))
        except ConfigError:
            continue
        if name != "pyproject.toml":
            return _length(table.get("line-length"))
        tools = table.get("tool", {})
        if isinstance(tools, dict):
            for tool in ("ruff", "black"):
                section = tools.get(tool)
                if isinstance(section, dict):
                    return _length(section.get("line-length"))
    parent = os.path.dirname(directory)
    return DEFAULT_LINE_LENGTH if parent == directory else _line_length(parent)


def _length(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else DEFAULT_LINE_LENGTH


# -- resolution per file ------------------------------------------------------------

#: Files that configure xdevlint whatever they hold, in order of precedence (as ruff's
#: ``.ruff.toml`` and ``ruff.toml`` come before ``pyproject.toml``).
CONFIG_FILES = (".xdevlint.toml", "xdevlint.toml")


def _configuration_in(directory: str) -> Optional[Path]:
    for name in CONFIG_FILES:
        candidate = os.path.join(directory, name)
        if os.path.isfile(candidate):
            return Path(candidate)
    pyproject = os.path.join(directory, "pyproject.toml")
    if os.path.isfile(pyproject) and "xdevlint" in _read_table(Path(pyproject)).get("tool", {}):
        return Path(pyproject)
    return None



class ConfigResolver:
    """Finds the settings for each file: an explicit file, or the closest pyproject."""

    def __init__(self, explicit: Optional[Path] = None, overrides: Optional[Mapping[str, Any]] = None, isolated: bool = False) -> None:
        self.overrides = dict(overrides or {})
        self.isolated = isolated
        self._explicit = self._apply(load_file(explicit)) if explicit else None
        self._by_source: Dict[Optional[Path], Config] = {}
        self._by_directory: Dict[str, Config] = {}
        self._sources: Dict[str, Optional[Path]] = {}

    def _find(self, directory: str) -> Optional[Path]:
        """The closest configuration file at or above ``directory``, remembering the answer for every directory on the way up, so a
        tree of many folders costs one look at each folder rather than one per ancestor."""
        pending: List[str] = []
        found: Optional[Path] = None
        current = directory
        while True:
            if current in self._sources:
                found = self._sources[current]
                break
            pending.append(current)
            found = _configuration_in(current)
            if found is not None:
                pending.pop()
                self._sources[current] = found
                break
            parent = os.path.dirname(current)
            if parent == current:
                break
            current = parent
        for visited in pending:
            self._sources[visited] = found
        return found

    def _apply(self, config: Config) -> Config:
        return replace(config, **self.overrides) if self.overrides else config

    def for_path(self, path: str) -> Config:
        return self.for_directory(os.path.dirname(os.path.abspath(path)))

    def for_directory(self, directory: str) -> Config:
        """The settings for files in ``directory`` (absolute): for the runtime guard, a
        project's root rather than a file."""
        if self._explicit is not None:
            return self._explicit
        found = self._by_directory.get(directory)
        if found is None:
            source = None if self.isolated else self._find(directory)
            found = self._by_source.get(source)
            if found is None:
                found = self._apply(load_file(source) if source else Config())
                self._by_source[source] = found
            self._by_directory[directory] = found
        return found
