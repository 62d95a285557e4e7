"""The result cache: a file checked before, with the same bytes and settings, is not checked again.

Where: ``--cache-dir``, else ``$XDEVLINT_CACHE_DIR``, else ``.xdevlint_cache`` in the
project root (the directory of the ``pyproject.toml`` that configures the file, or the
working directory). The directory holds a ``.gitignore`` (``*``) and one folder per
xdevlint build; in it, one JSON *pack* per source directory, holding the last result of
each file of that directory.

An entry is used only when its key matches: a hash of the file's bytes, of its path,
of the effective configuration (``config_fingerprint``), of the xdevlint build (its
version and the sizes and mtimes of its source files, so a development checkout never
reads results of older code), and of the Python and libcst versions.

Anything unexpected in a pack (not JSON, another format, a wrong key, a malformed
finding) is ignored and rewritten, never trusted. Packs are written atomically (a temp
file beside them, then ``os.replace``) after merging with what is on disk, so two runs
sharing a cache never corrupt it; at worst one run's newest entries are lost.
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import json
import os
import sys
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from xdevlint import __version__
from xdevlint.config import Config, line_length_for
from xdevlint.model import Applicability, Edit, FileResult, Finding, Fix, Import, Related, Span
from xdevlint.stages.package import package_of

CACHE_DIR_NAME = ".xdevlint_cache"
ENV_VAR = "XDEVLINT_CACHE_DIR"
FORMAT = 2

Entry = Dict[str, Any]


def default_directory(config: Config) -> Path:
    """Where the cache of files under ``config`` lives when no option names one."""
    explicit = os.environ.get(ENV_VAR)
    return Path(explicit) if explicit else config.root / CACHE_DIR_NAME


def _stable(value: Any) -> Any:
    """``value`` as JSON-able data that is the same in every process (no set order, no ids)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _stable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (list, tuple)):
        return [_stable(item) for item in value]
    if isinstance(value, (set, frozenset)):
        return sorted((_stable(item) for item in value), key=repr)
    if isinstance(value, dict):
        return {str(key): _stable(item) for key, item in sorted(value.items(), key=lambda kv: repr(kv[0]))}
    if isinstance(value, enum.Enum):
        return _stable(value.value)
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return repr(value)  # Path and the like: their repr is their content


def config_fingerprint(config: Config) -> str:
    """A hash of every setting that can change a file's findings."""
    text = json.dumps(_stable(config), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def build_fingerprint() -> str:
    """This xdevlint: its version, its source files (size, mtime), Python's and libcst's versions."""
    package = Path(__file__).resolve().parent
    parts: List[str] = [__version__, sys.version]
    for path in sorted(package.rglob("*.py")):
        info = path.stat()
        parts.append(f"{path.relative_to(package).as_posix()}:{info.st_size}:{info.st_mtime_ns}")
    import importlib.util

    spec = importlib.util.find_spec("libcst")  # finds it without importing it
    if spec is not None and spec.origin:
        libcst = Path(spec.origin).parent
        for name in ("__init__.py", "_version.py"):
            try:
                info = (libcst / name).stat()
            except OSError:
                continue
            parts.append(f"libcst/{name}:{info.st_size}:{info.st_mtime_ns}")
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:16]


def content_key(data: bytes, path: str, config_print: str, build: str) -> str:
    """The key of one file's result."""
    digest = hashlib.sha256(data)  # the fastest stdlib hash where the CPU has SHA instructions
    for part in (os.path.abspath(path), config_print, build):
        digest.update(b"\0" + part.encode("utf-8", "surrogateescape"))
    return digest.hexdigest()


class Cache:
    """Results by key, read and written a pack (a source directory) at a time."""

    def __init__(self, directory: Path) -> None:
        self.build = build_fingerprint()
        self.directory = Path(directory)
        self.root = self.directory / self.build
        self._packs: Dict[str, Dict[str, Entry]] = {}
        self._dirty: Dict[str, Dict[str, Entry]] = {}
        self._configs: Dict[int, Tuple[Config, str]] = {}

    # -- keys -----------------------------------------------------------------------

    def key(self, data: bytes, path: str, config: Config) -> str:
        """The line length fixes keep to (ruff's or black's setting) shapes the fix edits;
        the file's package (an ``__init__.py`` added or removed above it) the findings."""
        settings = f"{self._print(config)}:{line_length_for(path)}:{package_of(path)}"
        return content_key(data, path, settings, self.build)

    def _print(self, config: Config) -> str:
        """The configuration's fingerprint, worked out once per configuration."""
        known = self._configs.get(id(config))
        if known is None or known[0] is not config:
            known = (config, config_fingerprint(config))
            self._configs[id(config)] = known
        return known[1]

    # -- reading --------------------------------------------------------------------

    def get(self, path: str, key: str, need_edits: bool, config: Config) -> Optional[FileResult]:
        """The cached result for ``path`` under ``key``, or None (a miss, or an entry not to trust).

        ``need_edits``: the caller prints fixes' textual edits, so an entry stored without
        them serves only if it has no fix to print.
        """
        absolute = os.path.abspath(path)
        entry = self._pack(absolute, config).get(absolute)
        if not isinstance(entry, dict) or entry.get("key") != key:
            return None
        try:
            findings = tuple(_finding(path, item) for item in entry["findings"])
            has_edits = entry["edits"]
            if not isinstance(has_edits, bool):
                return None
        except (KeyError, TypeError, ValueError):
            return None
        if need_edits and not has_edits and any(f.fix is not None for f in findings):
            return None
        return FileResult(path, findings)

    def _pack_name(self, absolute: str, config: Config) -> str:
        """One pack per source directory and configuration: runs with other settings (or
        from another working directory, the root of a project without pyproject.toml)
        keep packs of their own instead of overwriting each other's entries."""
        directory = os.path.dirname(absolute) + "\0" + self._print(config)
        return hashlib.blake2b(directory.encode("utf-8", "surrogateescape"), digest_size=12).hexdigest()

    def _pack(self, absolute: str, config: Config) -> Dict[str, Entry]:
        name = self._pack_name(absolute, config)
        pack = self._packs.get(name)
        if pack is None:
            pack = _read_pack(self.root / f"{name}.json")
            self._packs[name] = pack
        return pack

    # -- writing --------------------------------------------------------------------

    def put(self, path: str, key: str, result: FileResult, edits: bool, config: Config) -> None:
        """Remember ``result`` (written by ``save``). Results of a failure outside the file
        itself (a worker that died or timed out, a file that could not be read) are never
        passed here."""
        absolute = os.path.abspath(path)
        entry: Entry = {"key": key, "edits": edits, "findings": [_entry_of(f) for f in result.findings]}
        name = self._pack_name(absolute, config)
        self._pack(absolute, config)[absolute] = entry
        self._dirty.setdefault(name, {})[absolute] = entry

    def save(self) -> None:
        """Write every pack this run changed: merged with the file as it is now, atomically."""
        if not self._dirty:
            return
        try:
            self._prepare()
            for name, entries in sorted(self._dirty.items()):
                target = self.root / f"{name}.json"
                merged = _read_pack(target)
                merged.update(entries)
                _write_atomically(target, json.dumps({"format": FORMAT, "build": self.build, "entries": merged}))
        except OSError:
            pass  # a cache that cannot be written (read-only tree, full disk) only costs speed
        self._dirty.clear()

    def _prepare(self) -> None:
        if not self.root.is_dir():
            self.root.mkdir(parents=True, exist_ok=True)
            self._prune()
        ignore = self.directory / ".gitignore"
        if not ignore.exists():
            _write_atomically(ignore, "# Created by xdevlint: its result cache, never to be committed.\n*\n")

    def _prune(self) -> None:
        """Remove other builds' folders left untouched for a day (an upgrade, or every edit
        of a development checkout, starts a new one). One still in use elsewhere only loses
        its entries: a run that cannot write a pack carries on."""
        import shutil
        import time

        now = time.time()
        for entry in self.directory.iterdir():
            if entry.name != self.build and _is_build(entry.name) and entry.is_dir():
                try:
                    if now - entry.stat().st_mtime > STALE_SECONDS:
                        shutil.rmtree(entry, ignore_errors=True)
                except OSError:
                    continue


#: Another build's folder untouched this long is removed when a new build starts one.
STALE_SECONDS = 24 * 3600


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


_UMASK = _umask()


def _is_build(name: str) -> bool:
    return len(name) == 16 and all(c in "0123456789abcdef" for c in name)


def _read_pack(path: Path) -> Dict[str, Entry]:
    """A pack's entries, or none when it is missing or anything about it is unexpected."""
    try:
        with open(path, "rb") as handle:
            data = json.loads(handle.read())
    except (OSError, ValueError, RecursionError):
        return {}
    entries = data.get("entries") if isinstance(data, dict) and data.get("format") == FORMAT else None
    return entries if isinstance(entries, dict) else {}


def _write_atomically(path: Path, text: str) -> None:
    import tempfile

    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.chmod(temp, 0o666 & ~_UMASK)  # as any file the user makes, not mkstemp's 0600
        os.replace(temp, path)
    except BaseException:
        try:
            os.unlink(temp)
        except OSError:
            pass
        raise


def _entry_of(finding: Finding) -> Entry:
    span = finding.span
    entry: Entry = {
        "span": [span.line, span.column, span.end_line, span.end_column],
        "code": finding.code,
        "name": finding.name,
        "message": finding.message,
    }
    if finding.related:
        entry["related"] = [
            [[r.span.line, r.span.column, r.span.end_line, r.span.end_column], r.message] for r in finding.related
        ]
    fix = finding.fix
    if fix is not None:
        entry["fix"] = {
            "applicability": fix.applicability.value,
            "message": fix.message,
            "imports": [[i.module, i.obj, i.alias] for i in fix.imports],
            "edits": _edits_entry(fix.edits),
            "header": _edits_entry(fix.header),
        }
    return entry


def _edits_entry(edits: Sequence[Edit]) -> List[Any]:
    return [[[e.span.line, e.span.column, e.span.end_line, e.span.end_column], e.content] for e in edits]


def _edits(value: Any) -> Tuple[Edit, ...]:
    return tuple(Edit(_span(span), _text(content)) for span, content in value)


def _span(value: Any) -> Span:
    if not isinstance(value, list) or len(value) != 4 or not all(type(n) is int for n in value):
        raise ValueError("span")
    return Span(*value)


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError("text")
    return value


def _optional_text(value: Any) -> Optional[str]:
    return None if value is None else _text(value)


def _finding(path: str, entry: Mapping[str, Any]) -> Finding:
    fix: Optional[Fix] = None
    raw = entry.get("fix")
    if raw is not None:
        fix = Fix(
            Applicability(raw["applicability"]),
            _text(raw["message"]),
            imports=tuple(Import(_text(m), _optional_text(o), _optional_text(a)) for m, o, a in raw["imports"]),
            edits=_edits(raw["edits"]),
            header=_edits(raw["header"]),
        )
    related = tuple(Related(path, _span(span), _text(message)) for span, message in entry.get("related", ()))
    return Finding(path, _span(entry["span"]), _text(entry["code"]), _text(entry["name"]), _text(entry["message"]), fix, related)


def fixable(result: FileResult, unsafe: bool) -> bool:
    """Whether ``--fix`` (``unsafe``: with ``--unsafe-fixes``) could change the file."""
    allowed = {Applicability.SAFE, Applicability.UNSAFE} if unsafe else {Applicability.SAFE}
    return any(f.fix is not None and f.fix.applicability in allowed for f in result.findings)
