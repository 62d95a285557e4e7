"""Locations: classes of directories that may each be a mount of their own.

A location is recognised by environment variables, identifier patterns, path
prefixes and calls. ``temp`` and ``cache`` are built in; users add more in config.
"""

from __future__ import annotations

import fnmatch
import os
import re
from functools import lru_cache
from dataclasses import dataclass
from typing import Callable, Dict, FrozenSet, Iterable, List, Mapping, Optional, Pattern, Tuple

from xdevlint.analysis import names

TEMP = "temp"
CACHE = "cache"


@dataclass(frozen=True)
class Location:
    name: str
    env: Tuple[str, ...] = ()
    names: Tuple[str, ...] = ()
    paths: Tuple[str, ...] = ()
    calls: Tuple[str, ...] = ()


DEFAULT_LOCATIONS: Tuple[Location, ...] = (
    Location(
        TEMP,
        env=("TMPDIR", "TEMP", "TMP"),
        names=("*temp_dir*", "*tmp_dir*", "*staging_dir*", "*scratch_dir*"),
        paths=("/tmp", "/var/tmp", "/dev/shm"),
    ),
    Location(
        CACHE,
        env=(
            "HF_HOME",
            "HF_HUB_CACHE",
            "HF_XET_CACHE",
            "HUGGINGFACE_HUB_CACHE",
            "TRANSFORMERS_CACHE",
            "HF_DATASETS_CACHE",
            "XDG_CACHE_HOME",
            "TORCH_HOME",
        ),
        names=("*cache*",),
        paths=("~/.cache", "/var/cache"),
        calls=(
            "platformdirs.user_cache_dir",
            "platformdirs.user_cache_path",
            "appdirs.user_cache_dir",
            "huggingface_hub.cached_assets_path",
            "torch.hub.get_dir",
            "xdg_base_dirs.xdg_cache_home",
        ),
    ),
)


#: Words that mark a path as staged, made to be moved (``tmp_path``, ``self.staging_dir``,
#: ``get_temp_download_dir()``, ``incomplete_path``): evidence for a move's source, never a
#: proof. A word counts as a whole part of the name (split at ``_`` and case changes), so
#: ``template``, ``temperature`` and ``attempt`` say nothing.
_STAGING_PARTS = re.compile(r"(?:tmp(?!ls?$)\w*|te?mp|temps|tempdir|tempfile|tempname|temppath|temporary|staging|staged|scratch|incomplete)")
_NAME_PARTS = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")
#: Suffixes a staged file is given beside or apart from its final name (``x.part``).
STAGING_SUFFIXES = (".tmp", ".temp", ".part", ".partial", ".incomplete", ".download", ".crdownload")


def staging_name(identifier: str) -> bool:
    """Whether a name says its path is staged: one of its parts is a staging word."""
    found = _STAGING_NAMES.get(identifier)
    if found is None:
        found = any(_STAGING_PARTS.fullmatch(part.lower()) for part in _NAME_PARTS.findall(identifier))
        _STAGING_NAMES[identifier] = found
    return found


_STAGING_NAMES: Dict[str, bool] = {}
_STAGING_SUFFIX = re.compile(r"\.(?:" + "|".join(s[1:] for s in STAGING_SUFFIXES) + r")(?![A-Za-z])")
#: A spelled-out directory a staged file is kept in (``output / "tmp" / id``, ``".staging/x"``).
_STAGING_COMPONENT = re.compile(r"(?:^|[/\\])\.?(?:tmp|temp|staging|scratch|incomplete)(?:[/\\]|$)", re.I)


@lru_cache(maxsize=4096)
def staging_literal(text: str) -> FrozenSet[str]:
    """The evidence a spelled-out piece of a path gives, as phrases for messages: a staging
    suffix (``.part``) or a staging directory (``tmp/``)."""
    if len(text) > 256:
        return frozenset()  # prose, a template, data: not a piece of a path
    found = _STAGING_SUFFIX.search(text)
    if found is not None:
        return frozenset({f"named `*{found.group()}`"})
    found = _STAGING_COMPONENT.search(text)
    if found is not None:
        return frozenset({f"in a `{found.group().strip('/').strip(chr(92))}` directory"})
    return frozenset()


def _identifier_regex(patterns: Iterable[str]) -> Optional[Pattern[str]]:
    translated = [fnmatch.translate(p.lower()) for p in patterns]
    return re.compile("|".join(translated)) if translated else None


def literal_fragment(pattern: str) -> str:
    """The longest run of a glob pattern that any match must contain verbatim."""
    runs = re.split(r"[*?\[\]]", pattern.lower())
    return max(runs, key=len)


class Locations:
    """The configured locations, and how a fact about an expression maps to them."""

    def __init__(self, locations: Tuple[Location, ...] = DEFAULT_LOCATIONS) -> None:
        self.locations = locations
        self._regexes = tuple((loc.name, _identifier_regex(loc.names)) for loc in locations)
        # A call's name tells where its result is only when it names a directory
        # (``get_temp_dir()``): ``cache_from_source(path)`` names a file made from its argument.
        self._call_regexes = tuple(
            (loc.name, _identifier_regex([p for p in loc.names if literal_fragment(p).endswith("dir")]))
            for loc in locations
        )
        # Lookups repeat for every expression of a file: memoise per configuration.
        self._literal_cache: Dict[str, FrozenSet[str]] = {}
        self._identifier_cache: Dict[str, FrozenSet[str]] = {}
        self._call_name_cache: Dict[str, FrozenSet[str]] = {}
        self._scan_tokens: Optional[Tuple[str, ...]] = None  # asked for by every file's scan

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Locations) and other.locations == self.locations

    def __hash__(self) -> int:
        return hash(self.locations)

    def __repr__(self) -> str:
        return f"Locations({self.locations!r})"

    def for_env(self, variable: str) -> FrozenSet[str]:
        return frozenset(loc.name for loc in self.locations if variable in loc.env)

    def for_library(self, qualified_name: str) -> FrozenSet[str]:
        """A well-known library constant's location (``names.LIBRARY_LOCATIONS``), when configured."""
        location = names.LIBRARY_LOCATIONS.get(qualified_name)
        return frozenset() if location is None else self.configured(location)

    def configured(self, location: str) -> FrozenSet[str]:
        """``location`` when the configuration keeps it (a user may drop a built-in one)."""
        return frozenset({location}) if any(loc.name == location for loc in self.locations) else frozenset()

    def for_call(self, qualified_name: str) -> FrozenSet[str]:
        return frozenset(loc.name for loc in self.locations if qualified_name in loc.calls)

    def for_literal(self, text: str) -> FrozenSet[str]:
        found = self._literal_cache.get(text)
        if found is None:
            found = frozenset(
                loc.name
                for loc in self.locations
                for root in (p.rstrip("/") or "/" for p in loc.paths)
                if text == root or text.startswith(root + "/")
            )
            self._literal_cache[text] = found
        return found

    def for_identifier(self, identifier: str) -> FrozenSet[str]:
        found = self._identifier_cache.get(identifier)
        if found is None:
            lowered = identifier.lower()
            found = frozenset(name for name, regex in self._regexes if regex is not None and regex.match(lowered))
            self._identifier_cache[identifier] = found
        return found

    def for_call_name(self, name: str) -> FrozenSet[str]:
        """The locations a call's name (``get_temp_dir``) says its result is in."""
        found = self._call_name_cache.get(name)
        if found is None:
            lowered = name.lower()
            found = frozenset(loc for loc, regex in self._call_regexes if regex is not None and regex.match(lowered))
            self._call_name_cache[name] = found
        return found

    def directories(
        self, environ: Mapping[str, str], tempdir: Optional[str], call: Callable[[str], Optional[str]]
    ) -> List[Tuple[str, str, str]]:
        """(location, what named it, directory) for each directory the locations name on a
        running machine: ``tempdir`` for temp, the environment variables that are set, the
        configured paths (``~`` expanded) and what ``call`` answers for a location's calls.

        Shared by ``xdevlint doctor`` and the runtime guard, which differ only in how
        they may learn the temp directory and call a location's function.
        """
        found: List[Tuple[str, str, str]] = []
        for location in self.locations:
            if location.name == TEMP and tempdir:
                found.append((location.name, "tempfile.gettempdir()", tempdir))
            for variable in location.env:
                value = environ.get(variable)
                if value:
                    found.append((location.name, f"${variable}", os.path.expanduser(value)))
            for configured in location.paths:
                found.append((location.name, configured, os.path.expanduser(configured)))
            for dotted in location.calls:
                answered = call(dotted)
                if answered:
                    found.append((location.name, f"{dotted}()", answered))
        return found

    def scan_tokens(self) -> Tuple[str, ...]:
        """Lower-case words of which a file must contain one to reach any location.

        Each token is a piece that the matching source text must spell out: the last
        component of a call's name (``mkstemp`` in ``from tempfile import mkstemp as
        mk``), an environment variable, a path's last segment, a pattern's literal run.
        An empty token means "cannot rule out anything".
        """
        if self._scan_tokens is None:
            self._scan_tokens = self._tokens()
        return self._scan_tokens

    def _tokens(self) -> Tuple[str, ...]:
        tokens = {"tempfile"} | {q.rsplit(".", 1)[-1].lower() for q in names.TEMP_DIR_ATTRIBUTES}
        if self.configured(CACHE):
            tokens.update(names.CACHE_FETCH_NAMES)
        for loc in self.locations:
            tokens.update(v.lower() for v in loc.env)
            tokens.update(c.rsplit(".", 1)[-1].lower() for c in loc.calls)
            tokens.update(p.rstrip("/").rsplit("/", 1)[-1].lower() for p in loc.paths)
            tokens.update(literal_fragment(p) for p in loc.names)
        if "" in tokens:
            return ("",)
        # Drop tokens that contain a shorter token: the shorter one already matches.
        return tuple(sorted(t for t in tokens if not any(o != t and o in t for o in tokens)))


DEFAULT = Locations()
