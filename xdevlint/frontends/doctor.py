"""``xdevlint doctor``: where the configured locations really are on this machine, and
which of them a rename cannot cross here.

The rules know locations as classes (temp, cache, ...); whether a move between two of
them fails depends on the machine: a container with ``/tmp`` on a tmpfs and the cache on
a volume fails, a laptop with both on one disk does not. For each location this resolves
the directories it names here (``tempfile.gettempdir()``; the location's environment
variables that are set; its configured paths that exist; the platform's cache directory)
to the mount that holds each (``/proc/self/mountinfo``: mount point, filesystem type,
source) and its device (``os.stat``), and prints every pair of locations between which
``rename(2)`` fails with ``EXDEV``: Linux refuses a rename between two mounts even of
the same filesystem (a bind mount), so the mount decides, not only the device.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import asdict, dataclass
from typing import Dict, List, Optional, Sequence, TextIO, Tuple

from xdevlint.analysis.locations import Locations

MOUNTINFO = "/proc/self/mountinfo"


@dataclass(frozen=True)
class Mount:
    """One line of ``/proc/self/mountinfo``."""

    mount_id: int
    point: str
    fs_type: str
    source: str


@dataclass(frozen=True)
class Place:
    """A directory a location names on this machine, and what holds it."""

    location: str
    sources: Tuple[str, ...]  # what named it: "$TMPDIR", "tempfile.gettempdir()", a configured path
    path: str  # resolved (symbolic links followed)
    exists: bool  # False: it would be created under ``path``'s closest existing parent
    device: str  # "major:minor" of ``os.stat``
    mount_point: str
    fs_type: str
    mount_source: str
    mount_id: Optional[int]


@dataclass(frozen=True)
class Pair:
    """Two places of different locations, and whether a rename between them fails here."""

    first: Place
    second: Place
    exdev: bool
    reason: str


def read_mounts(path: str = MOUNTINFO) -> List[Mount]:
    """The mounts of this process's namespace; [] where there is no mountinfo (not Linux)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            lines = handle.read().splitlines()
    except OSError:
        return []
    mounts = []
    for line in lines:
        fields = line.split()
        if "-" not in fields or len(fields) < 5:
            continue
        dash = fields.index("-")
        if len(fields) < dash + 3:
            continue
        mounts.append(Mount(int(fields[0]), _unescape(fields[4]), fields[dash + 1], _unescape(fields[dash + 2])))
    return mounts


def _unescape(field: str) -> str:
    """mountinfo writes space, tab, newline and backslash as octal escapes (``\\040``)."""
    return field.encode("latin-1", "backslashreplace").decode("unicode_escape") if "\\" in field else field


def mount_of(path: str, mounts: Sequence[Mount]) -> Optional[Mount]:
    """The mount that holds ``path`` (resolved): the last-mounted of the deepest mount points."""
    best: Optional[Mount] = None
    for mount in mounts:
        point = mount.point.rstrip("/") or "/"
        inside = path == point or point == "/" or path.startswith(point + "/")
        if inside and (best is None or len(point) >= len(best.point.rstrip("/") or "/")):
            best = mount
    return best


def candidates(locations: Locations, environ: Optional[Dict[str, str]] = None) -> List[Tuple[str, str, str]]:
    """(location, source, directory) for each directory the locations name here (a
    configured path only when it exists)."""
    env = os.environ if environ is None else environ
    found = locations.directories(env, tempfile.gettempdir(), _call)
    configured = {(loc.name, path) for loc in locations.locations for path in loc.paths}
    return [entry for entry in found if (entry[0], entry[1]) not in configured or os.path.isdir(entry[2])]


def _call(dotted: str) -> Optional[str]:
    """A location's directory function, called without arguments if it is installed
    (``platformdirs.user_cache_dir()``); None when it is not, or fails."""
    import importlib

    module, _, name = dotted.rpartition(".")
    try:
        value = getattr(importlib.import_module(module), name)()
    except Exception:  # not installed, or needs arguments: it names no directory here
        return None
    return os.fspath(value) if isinstance(value, (str, os.PathLike)) else None


def places(locations: Locations, environ: Optional[Dict[str, str]] = None, mountinfo: str = MOUNTINFO) -> List[Place]:
    """Each directory once per location, with the sources that name it, in order."""
    mounts = read_mounts(mountinfo)
    merged: Dict[Tuple[str, str], List[str]] = {}
    for location, source, directory in candidates(locations, environ):
        merged.setdefault((location, os.path.realpath(directory)), []).append(source)
    result = []
    for (location, path), sources in merged.items():
        existing = path
        while not os.path.exists(existing) and os.path.dirname(existing) != existing:
            existing = os.path.dirname(existing)
        info = os.stat(existing)
        mount = mount_of(existing, mounts)
        result.append(
            Place(
                location=location,
                sources=tuple(dict.fromkeys(sources)),
                path=path,
                exists=existing == path,
                device=f"{os.major(info.st_dev)}:{os.minor(info.st_dev)}",
                mount_point=mount.point if mount else _mount_point(existing),
                fs_type=mount.fs_type if mount else "",
                mount_source=mount.source if mount else "",
                mount_id=mount.mount_id if mount else None,
            )
        )
    return result


def _mount_point(path: str) -> str:
    while not os.path.ismount(path):
        path = os.path.dirname(path)
    return path


def pairs(found: Sequence[Place]) -> List[Pair]:
    """Every two places of different locations, and whether ``rename(2)`` between them
    fails here: on different devices, or on different mounts of one (a bind mount)."""
    result = []
    for index, first in enumerate(found):
        for second in found[index + 1 :]:
            if first.location == second.location:
                continue
            if first.device != second.device:
                reason = f"different filesystems ({_describe(first)} / {_describe(second)})"
                result.append(Pair(first, second, True, reason))
            elif first.mount_id is not None and second.mount_id is not None and first.mount_id != second.mount_id:
                reason = f"one filesystem, two mounts ({first.mount_point} / {second.mount_point}): Linux refuses the rename"
                result.append(Pair(first, second, True, reason))
            else:
                result.append(Pair(first, second, False, f"same mount ({_describe(first)})"))
    return result


def _describe(place: Place) -> str:
    kind = f"{place.fs_type} " if place.fs_type else ""
    return f"{kind}on {place.mount_point}"


def report(found: Sequence[Place], out: TextIO, output_format: str = "text") -> None:
    checked = pairs(found)
    if output_format == "json":
        json.dump({"places": [asdict(p) for p in found], "pairs": [_pair_entry(p) for p in checked]}, out, indent=2)
        out.write("\n")
        return
    out.write("Locations on this machine:\n")
    width = max((len(p.location) for p in found), default=0)
    for place in found:
        missing = "" if place.exists else " (does not exist yet)"
        out.write(
            f"  {place.location:<{width}}  {place.path}{missing}  [{', '.join(place.sources)}]\n"
            f"  {'':<{width}}  {_describe(place)}, device {place.device}"
            f"{', from ' + place.mount_source if place.mount_source else ''}\n"
        )
    failing = [pair for pair in checked if pair.exdev]
    if failing:
        out.write("\nA rename between these fails with EXDEV here (what XDV101/XDV102 warn about):\n")
        for pair in failing:
            out.write(f"  {pair.first.location} {pair.first.path}  <->  {pair.second.location} {pair.second.path}\n")
            out.write(f"    {pair.reason}\n")
    elif checked:
        out.write("\nEvery pair of locations shares one mount here: a rename between them works on this machine\n"
                  "(the findings still matter wherever the code runs elsewhere).\n")
    else:
        out.write("\nFewer than two locations resolve to a directory here: nothing to compare.\n")


def _pair_entry(pair: Pair) -> Dict[str, object]:
    return {
        "first": {"location": pair.first.location, "path": pair.first.path},
        "second": {"location": pair.second.location, "path": pair.second.path},
        "exdev": pair.exdev,
        "reason": pair.reason,
    }
