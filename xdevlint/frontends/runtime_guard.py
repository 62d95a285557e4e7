"""The runtime guard's recorder: an audit hook (``sys.addaudithook``) that sees, while a
test suite runs, what static analysis cannot: a move whose two sides are in different
locations (or on different filesystems) and a temp still there when its test ends, for
paths read from a config file, made in a library, or chosen at run time.

An audit hook cannot be removed, so :func:`activate` installs one at most once per
process, and only when a session enables the guard; ``_recorder`` is its switch, ``None``
(every event returns at once) outside an enabled session. The hook does no I/O but
``os.stat`` of a move's two sides; whether a temp is still there is asked when its test
ends (:meth:`Recorder.end`). It never raises into the code it watches: a failure inside
it is counted and shown in the report instead.

No pytest here: :mod:`xdevlint.frontends.pytest_guard` says which test runs and when it ends.
"""

from __future__ import annotations

import linecache
import os
import site
import stat
import sys
import sysconfig
import tempfile
from dataclasses import dataclass
from types import CodeType, FrameType
from typing import Any, Callable, Dict, FrozenSet, Iterable, List, Optional, Sequence, Set, Tuple

from xdevlint.analysis.locations import TEMP, Locations

#: Events that move a path: ``os.rename`` is raised by ``os.rename``, ``os.replace`` and
#: ``os.renames`` (and so by ``Path.rename``/``Path.replace``), ``os.link`` by
#: ``Path.hardlink_to`` too.
MOVE_EVENTS = ("os.rename", "os.link", "shutil.move")
#: ``tempfile`` raises these with each name it tries, before creating it.
TEMP_EVENTS = ("tempfile.mkstemp", "tempfile.mkdtemp")
#: A file or directory created anywhere: a temp when it is in the temp location.
CREATE_EVENTS = ("open", "os.mkdir")
REMOVE_EVENTS = ("os.remove", "os.rmdir", "shutil.rmtree")
#: A location's environment variable changing (``monkeypatch.setenv``) moves its root.
ENV_EVENTS = ("os.putenv", "os.unsetenv")

#: The moves never reported, whatever their sides: the atomic helper, and (for the
#: ``os.rename`` inside it) ``shutil.move``, which raises its own event.
SAFE_MOVE = "xdevlint.safemove.safe_move"
SHUTIL_MOVE = "shutil.move"

#: Temps tracked per test at most: a loop that makes millions keeps the memory bounded.
TEMP_LIMIT = 200_000
#: Above this many temps in one directory, one listing answers for all of them at test end.
LIST_THRESHOLD = 32


@dataclass(frozen=True)
class Frame:
    """Where the user's code made a call: the first frame outside the standard library,
    site-packages and xdevlint."""

    path: str
    line: int
    function: str

    def code(self) -> str:
        """The source line, read when a report is written (never inside the hook)."""
        return linecache.getline(self.path, self.line).strip()


@dataclass(frozen=True)
class Root:
    """A directory a location names on this machine, and what named it."""

    path: str  # absolute, normalised
    location: str
    named_by: str  # "$XDG_CACHE_HOME", "/tmp", "tempfile.gettempdir()", ...


@dataclass(frozen=True)
class Side:
    """One side of a move: the path, the location root that holds it, its device."""

    path: str
    root: Optional[Root]
    device: Optional[int]

    @property
    def location(self) -> Optional[str]:
        return self.root.location if self.root else None


@dataclass
class Move:
    """A move between locations or devices; repeats from one call site are counted."""

    test: str
    phase: str
    fixture: Optional[str]
    event: str
    frame: Frame
    source: Side
    destination: Side
    different_locations: bool
    different_devices: bool
    staged_at: Optional[Frame]  # where the source was made, when it is a temp the guard saw made
    count: int = 1


class Temp:
    """A temp made during a test; ``moved``/``removed`` note what was tried on it, since
    the hook runs before the call and cannot know whether it worked."""

    __slots__ = ("path", "directory", "event", "frame", "root", "test", "phase", "fixture", "owner", "moved", "removed")

    def __init__(
        self, path: str, directory: bool, event: str, frame: Frame, root: Optional[Root],
        test: str, phase: str, fixture: Optional[str], owner: object,
    ) -> None:
        self.path, self.directory, self.event, self.frame, self.root = path, directory, event, frame, root
        self.test, self.phase, self.fixture, self.owner = test, phase, fixture, owner
        self.moved: Optional[Tuple[str, str]] = None  # (event, destination) of the last move tried
        self.removed: Optional[str] = None  # the removal event last tried


@dataclass
class Leftover:
    """A temp still there when its owner (a test, or a fixture of a wider scope) ended."""

    temp: Temp
    inside: int = 0  # other leftovers inside this directory, not reported on their own


# -- where code comes from -----------------------------------------------------------


def library_directories(extra: Iterable[str] = ()) -> Tuple[str, ...]:
    """Directories whose code is not the user's: the standard library, every
    site-packages this interpreter knows, xdevlint itself, and ``extra``; each as
    written and resolved, ending in a separator."""
    found: Set[str] = set()
    for scheme_vars in (None, {"base": sys.base_prefix, "platbase": sys.base_exec_prefix}):
        paths = sysconfig.get_paths(vars=scheme_vars) if scheme_vars else sysconfig.get_paths()
        found.update(paths[key] for key in ("stdlib", "platstdlib", "purelib", "platlib") if paths.get(key))
    getsitepackages = getattr(site, "getsitepackages", None)  # missing in some old virtualenvs
    if getsitepackages is not None:
        found.update(getsitepackages())
    found.add(site.getusersitepackages())
    found.add(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # xdevlint/
    found.update(extra)
    result: Set[str] = set()
    for directory in found:
        for form in (os.path.abspath(directory), os.path.realpath(directory)):
            result.add(form.rstrip(os.sep) + os.sep)
    return tuple(sorted(result))


def exempt_names(dotted_names: Iterable[str]) -> FrozenSet[Tuple[str, str]]:
    """(module, qualified name) pairs a frame of each dotted function name can show:
    ``a.b.f`` is ``f`` of module ``a.b``, or ``b.f`` (a method) of module ``a``. Before
    Python 3.11 a code object has no qualified name: the last part stands for it."""
    pairs: Set[Tuple[str, str]] = set()
    for dotted in dotted_names:
        parts = dotted.split(".")
        for cut in range(1, len(parts)):
            module, qualname = ".".join(parts[:cut]), ".".join(parts[cut:])
            pairs.add((module, qualname if sys.version_info >= (3, 11) else parts[-1]))
    return frozenset(pairs)


def _qualname(code: CodeType) -> str:
    return getattr(code, "co_qualname", code.co_name)  # type: ignore[no-any-return]


class Frames:
    """Finds the user's frame on the stack, caching per module file whether it is the user's.

    Reads ``f_globals["__file__"]`` rather than ``f_code``: reading a frame's ``f_code``
    raises an audit event of its own (``object.__getattr__``), which costs a call of
    every hook."""

    def __init__(self, libraries: Sequence[str]) -> None:
        self._libraries = tuple(libraries)
        self._user: Dict[str, bool] = {}
        self._described: Dict[Tuple[str, int], Frame] = {}

    def is_user(self, frame: FrameType) -> bool:
        path = frame.f_globals.get("__file__")
        if not isinstance(path, str):
            path = frame.f_code.co_filename
        known = self._user.get(path)
        if known is None:
            known = not path.startswith("<") and not os.path.abspath(path).startswith(self._libraries)
            self._user[path] = known
        return known

    def user_frame(self, frame: Optional[FrameType]) -> Optional[FrameType]:
        while frame is not None and not self.is_user(frame):
            frame = frame.f_back
        return frame

    def exempt(self, frame: Optional[FrameType], names: FrozenSet[Tuple[str, str]], modules: FrozenSet[str]) -> bool:
        """Whether a frame of one of ``names`` is on the stack (the move happens inside it)."""
        while frame is not None:
            module = frame.f_globals.get("__name__")
            if module in modules and (module, _qualname(frame.f_code)) in names:
                return True
            frame = frame.f_back
        return False

    def describe(self, frame: FrameType) -> Frame:
        path = frame.f_globals.get("__file__")
        key = (path if isinstance(path, str) else "", frame.f_lineno)
        found = self._described.get(key)
        if found is None:
            code = frame.f_code
            found = Frame(code.co_filename, frame.f_lineno, _qualname(code))
            self._described[key] = found
        return found


# -- where paths are -------------------------------------------------------------------


def _imported_call(dotted: str) -> Optional[str]:
    """A location's directory function, called without arguments if its module is already
    imported: the guard never imports the user's dependencies (``torch.hub.get_dir``)."""
    module, _, name = dotted.rpartition(".")
    loaded = sys.modules.get(module)
    if loaded is None:
        return None
    try:
        value = getattr(loaded, name)()
    except Exception:  # needs arguments, or fails: it names no directory here
        return None
    return os.fspath(value) if isinstance(value, (str, os.PathLike)) else None


class Classifier:
    """Which location a path is in while the tests run: the longest of the locations'
    directories on this machine (as written and resolved) that holds it.

    The directories are read again when a test begins (:meth:`refresh`, which may resolve
    symbolic links and call a location's function), when one of the locations' variables
    changes and when ``tempfile.tempdir`` does (inside the hook: no I/O then, the
    resolved forms learnt before are reused)."""

    def __init__(self, locations: Locations) -> None:
        self.locations = locations
        names = {variable for location in locations.locations for variable in location.env}
        self.variables: FrozenSet[object] = frozenset(names | {os.fsencode(n) for n in names})
        self._calls: Dict[str, Optional[str]] = {}
        self._resolved: Dict[str, str] = {}
        self._roots: Tuple[Root, ...] = ()
        self._exact: Dict[str, Root] = {}
        self._by_directory: Dict[str, Optional[Root]] = {}
        self._tempdir: object = object()  # tempfile.tempdir when the roots were read
        self.stale = True

    @property
    def roots(self) -> Tuple[Root, ...]:
        if self.stale or tempfile.tempdir is not self._tempdir:
            self._build(resolve=False)
        return self._roots

    def refresh(self) -> None:
        for location in self.locations.locations:
            for dotted in location.calls:
                self._calls[dotted] = _imported_call(dotted)
        self._build(resolve=True)

    def _build(self, resolve: bool) -> None:
        tempdir = tempfile.tempdir
        entries = self.locations.directories(os.environ, tempdir, self._calls.get)
        roots: List[Root] = []
        seen: Set[str] = set()
        for location, named_by, directory in entries:
            written = os.path.abspath(directory)
            if resolve and written not in self._resolved:
                self._resolved[written] = os.path.realpath(written)
            for form in (written, self._resolved.get(written, written)):
                if form not in seen:  # the first location to name a directory keeps it
                    seen.add(form)
                    roots.append(Root(form, location, named_by))
        roots.sort(key=lambda root: len(root.path), reverse=True)
        self._roots = tuple(roots)
        self._exact = {root.path: root for root in roots}
        self._by_directory = {}
        self._tempdir = tempdir
        self.stale = False

    def classify(self, path: str) -> Optional[Root]:
        """``path`` is absolute and normalised."""
        if self.stale or tempfile.tempdir is not self._tempdir:
            self._build(resolve=False)
        exact = self._exact.get(path)
        if exact is not None:
            return exact
        directory = os.path.dirname(path)
        try:
            return self._by_directory[directory]
        except KeyError:
            pass
        found: Optional[Root] = None
        for root in self._roots:  # longest first
            if directory == root.path or directory.startswith(root.path.rstrip(os.sep) + os.sep):
                found = root
                break
        self._by_directory[directory] = found
        return found


def _text(value: object) -> Optional[str]:
    """A path argument as text; None for a file descriptor."""
    if isinstance(value, str):
        return value
    if isinstance(value, bytes):
        return os.fsdecode(value)
    if isinstance(value, os.PathLike):
        return _text(os.fspath(value))
    return None


def _absolute(path: str) -> str:
    return os.path.normpath(path) if os.path.isabs(path) else os.path.abspath(path)


def _given(dir_fd: object) -> bool:
    """Whether a ``*_dir_fd`` argument names a directory (paths are then relative to it)."""
    return isinstance(dir_fd, int) and dir_fd >= 0


def _device(path: str, follow: bool = True) -> Optional[int]:
    try:
        return os.stat(path, follow_symlinks=follow).st_dev
    except (OSError, ValueError):
        return None


# -- the recorder ------------------------------------------------------------------------


class Recorder:
    """What the hook saw during the session, by test; driven by the pytest plugin."""

    def __init__(
        self, classifier: Classifier, frames: Frames, move_function: str, fixture_roots: Sequence[str] = (),
        fixture_names: Sequence[str] = (),
    ) -> None:
        self.classifier = classifier
        self.frames = frames
        self.move_function = move_function
        # Moves inside these are not reported: ``shutil.move`` only for the rename inside
        # it (its own event is judged on its own, unless it is the configured function).
        self._exempt = exempt_names({SAFE_MOVE, move_function})
        self._exempt_nested = self._exempt | exempt_names({SHUTIL_MOVE})
        self._exempt_modules = frozenset(module for module, _ in self._exempt_nested)
        # pytest's own temps (tmp_path, tmpdir, tmp_path_factory): its base directory,
        # given (--basetemp) or ``pytest-of-USER`` under a temp root.
        self._fixture_roots = tuple(os.path.abspath(p).rstrip(os.sep) + os.sep for p in fixture_roots)
        self._fixture_names = tuple(name + os.sep for name in fixture_names)
        self.test: Optional[str] = None
        self.phase = ""
        self._fixtures: List[Tuple[str, object]] = []  # (name, owner) of the fixtures being set up
        self._temps: Dict[str, Temp] = {}
        self._moves: Dict[Tuple[object, ...], Move] = {}
        self.moves_seen = 0
        self.temps_seen = 0
        self.dropped = 0  # temps not tracked: over TEMP_LIMIT
        self.errors = 0
        self.first_error: Optional[str] = None
        self.handlers: Dict[str, Callable[[str, Tuple[Any, ...]], None]] = {}
        for event in MOVE_EVENTS:
            self.handlers[event] = self._on_move
        for event in TEMP_EVENTS:
            self.handlers[event] = self._on_temp
        for event in CREATE_EVENTS:
            self.handlers[event] = self._on_create
        for event in REMOVE_EVENTS:
            self.handlers[event] = self._on_remove
        for event in ENV_EVENTS:
            self.handlers[event] = self._on_env

    # -- driven by the plugin (outside the hook) --

    def begin(self, test: str) -> None:
        self.test = test
        self.phase = "setup"
        self.classifier.refresh()

    def enter_fixture(self, name: str, owner: Optional[object]) -> None:
        """A fixture's setup starts; ``owner`` (a fixture of a wider scope than the test)
        owns the temps made in it, which are judged when it is torn down."""
        self._fixtures.append((name, owner))

    def leave_fixture(self) -> None:
        if self._fixtures:
            self._fixtures.pop()

    def end(self, test: str) -> Tuple[List[Move], List[Leftover]]:
        """The test's moves, and its temps still there now that it has been torn down."""
        moves = [move for key, move in list(self._moves.items()) if key[0] == test]
        for move in moves:
            self._moves.pop(self._key(move), None)
        leftovers = self._judge([temp for temp in self._temps.values() if temp.owner == test])
        self.test = None
        self.phase = ""
        return moves, leftovers

    def end_owner(self, owner: object) -> List[Leftover]:
        """The temps a wider-scoped fixture made, still there after its teardown."""
        return self._judge([temp for temp in self._temps.values() if temp.owner is owner])

    def finish(self) -> Tuple[List[Move], List[Leftover]]:
        """Whatever no test or fixture end has claimed (an interrupted session)."""
        moves = list(self._moves.values())
        self._moves.clear()
        return moves, self._judge(list(self._temps.values()))

    @staticmethod
    def _key(move: Move) -> Tuple[object, ...]:
        return (move.test, move.phase, move.fixture, move.event, move.frame, move.source.location,
                move.destination.location, move.different_devices)

    def _judge(self, temps: List[Temp]) -> List[Leftover]:
        """Which of ``temps`` are still there (forgetting all of them): one ``lstat`` each,
        or one listing of a directory holding many; a leftover inside a leftover
        directory is counted in it."""
        for temp in temps:
            self._temps.pop(temp.path, None)
        by_directory: Dict[str, List[Temp]] = {}
        for temp in temps:
            by_directory.setdefault(os.path.dirname(temp.path), []).append(temp)
        there: List[Temp] = []
        for directory, group in by_directory.items():
            if len(group) > LIST_THRESHOLD:
                try:
                    names = set(os.listdir(directory))
                except OSError:
                    names = set()
                there.extend(t for t in group if os.path.basename(t.path) in names)
            else:
                there.extend(t for t in group if os.path.lexists(t.path))
        by_path = {temp.path: Leftover(temp) for temp in there}
        kept: List[Leftover] = []
        for path in sorted(by_path):
            parent, outer = os.path.dirname(path), None
            while parent and outer is None:
                candidate = by_path.get(parent)
                if candidate is not None and candidate.temp.directory:
                    outer = candidate
                parent, previous = os.path.dirname(parent), parent
                if parent == previous:
                    break
            if outer is None:
                kept.append(by_path[path])
            else:
                outer.inside += 1
        return kept

    # -- the hook's handlers (inside the hook: no I/O but os.stat of a move's sides) --

    def _fixture_path(self, path: str, root: Optional[Root]) -> bool:
        """Whether ``path`` is pytest's to clean up (``tmp_path`` and its kin)."""
        if path.startswith(self._fixture_roots):
            return True
        if root is None or root.location != TEMP or not self._fixture_names:
            return False
        return path[len(root.path.rstrip(os.sep)) + 1 :].startswith(self._fixture_names)

    def _owner(self) -> Tuple[object, Optional[str]]:
        if self._fixtures:
            name, owner = self._fixtures[-1]
            return (owner if owner is not None else self.test), name
        return self.test, None

    def _on_move(self, event: str, args: Tuple[Any, ...]) -> None:
        if self.test is None:
            return
        if event != "shutil.move" and (_given(args[2]) or _given(args[3])):
            return  # relative to directory descriptors: no path to classify
        source, destination = _text(args[0]), _text(args[1])
        if source is None or destination is None:
            return
        source, destination = _absolute(source), _absolute(destination)
        self.moves_seen += 1
        source_device = _device(source, follow=False)  # a rename moves a link, not its target
        if event == "shutil.move":
            # Into an existing directory, as shutil.move does; else beside the path.
            try:
                info = os.stat(destination)
            except (OSError, ValueError):
                destination_device = _device(os.path.dirname(destination))
            else:
                destination_device = info.st_dev
                if stat.S_ISDIR(info.st_mode):
                    destination = os.path.join(destination, os.path.basename(source.rstrip(os.sep)))
        else:
            destination_device = _device(os.path.dirname(destination))
        classify = self.classifier.classify
        source_root, destination_root = classify(source), classify(destination)
        temp = self._temps.get(source)
        if temp is not None:
            temp.moved = (event, destination)
            # Renamed inside the temp location it is still a temp, under its new name.
            if (
                destination_root is not None and destination_root.location == TEMP
                and destination not in self._temps and not self._fixture_path(destination, destination_root)
            ):
                self._temps[destination] = Temp(
                    destination, temp.directory, temp.event, temp.frame, destination_root,
                    temp.test, temp.phase, temp.fixture, temp.owner,
                )
        source_location = source_root.location if source_root else None
        destination_location = destination_root.location if destination_root else None
        different_locations = source_location != destination_location
        different_devices = source_device is not None and destination_device is not None and source_device != destination_device
        if not (different_locations or different_devices):
            return
        caller = sys._getframe(2)  # this handler <- _audit <- the caller of os.rename (C has no frame)
        exempt = self._exempt if event == "shutil.move" else self._exempt_nested
        if self.frames.exempt(caller, exempt, self._exempt_modules):
            return
        user = self.frames.user_frame(caller)
        if user is None:
            return  # pytest's own, or the interpreter's
        frame = self.frames.describe(user)
        owner, fixture = self._owner()
        move = Move(
            test=self.test, phase=self.phase, fixture=fixture, event=event, frame=frame,
            source=Side(source, source_root, source_device),
            destination=Side(destination, destination_root, destination_device),
            different_locations=different_locations, different_devices=different_devices,
            staged_at=temp.frame if temp is not None else None,
        )
        key = self._key(move)
        known = self._moves.get(key)
        if known is not None:
            known.count += 1
        else:
            self._moves[key] = move

    def _on_temp(self, event: str, args: Tuple[Any, ...]) -> None:
        self._track(args[0], event == "tempfile.mkdtemp", event, True)

    def _on_create(self, event: str, args: Tuple[Any, ...]) -> None:
        if event == "open":
            flags = args[2]
            if not isinstance(flags, int) or not flags & os.O_CREAT:
                return  # opened, not created
        elif _given(args[2]):
            return  # os.mkdir relative to a directory descriptor
        self._track(args[0], event == "os.mkdir", event, False)

    def _track(self, value: object, directory: bool, event: str, anywhere: bool) -> None:
        if self.test is None:
            return
        path = _text(value)
        if path is None:
            return
        path = _absolute(path)
        if path in self._temps:
            return  # tempfile's own open/mkdir of the name it just announced
        root = self.classifier.classify(path)
        if not anywhere and (root is None or root.location != TEMP):
            return  # created outside the temp location and not by tempfile: not a temp
        if self._fixture_path(path, root):
            return
        if len(self._temps) >= TEMP_LIMIT:
            self.dropped += 1
            return
        user = self.frames.user_frame(sys._getframe(3))  # _track <- handler <- _audit <- caller
        if user is None:
            return
        self.temps_seen += 1
        owner, fixture = self._owner()
        self._temps[path] = Temp(
            path, directory, event, self.frames.describe(user), root, self.test, self.phase, fixture, owner
        )

    def _on_remove(self, event: str, args: Tuple[Any, ...]) -> None:
        if not self._temps or _given(args[1]):
            return
        path = _text(args[0])
        if path is None:
            return
        temp = self._temps.get(_absolute(path))
        if temp is not None:
            temp.removed = event

    def _on_env(self, event: str, args: Tuple[Any, ...]) -> None:
        if args[0] in self.classifier.variables:
            self.classifier.stale = True

    def failed(self, error: BaseException) -> None:
        self.errors += 1
        if self.first_error is None:
            self.first_error = f"{type(error).__name__}: {error}"


# -- the hook ----------------------------------------------------------------------------

_recorder: Optional[Recorder] = None
_installed = False


def _audit(event: str, args: Tuple[Any, ...]) -> None:
    """The audit hook: one dictionary lookup for the events it does not watch, nothing at
    all while no enabled session runs."""
    recorder = _recorder
    if recorder is None:
        return
    handler = recorder.handlers.get(event)
    if handler is None:
        return
    try:
        handler(event, args)
    except Exception as error:  # never into the user's code; KeyboardInterrupt is the user's own
        recorder.failed(error)


def activate(recorder: Optional[Recorder]) -> Optional[Recorder]:
    """Make ``recorder`` the one the hook reports to (None: off), installing the hook on
    first use; returns the previous one, for a session run inside another."""
    global _recorder, _installed
    previous = _recorder
    if recorder is not None and not _installed:
        sys.addaudithook(_audit)
        _installed = True
    _recorder = recorder
    return previous


def installed() -> bool:
    return _installed
