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
#: How far up from a move the safe move function and the configured one are looked for:
#: they call the rename themselves, or through a helper or two.
EXEMPT_DEPTH = 12


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


@dataclass(frozen=True)
class Context:
    """When something happened: the test, its phase, the fixture being set up, and who
    owns the temps made then (the test, or a fixture of a wider scope)."""

    test: str
    phase: str
    fixture: Optional[str]
    owner: object


@dataclass
class Temp:
    """A temp still there; ``moved``/``removed`` say what was tried on it (the hook runs
    before the call, so it cannot know whether the call worked)."""

    path: str
    directory: bool
    event: str
    frame: Frame
    location: Optional[str]
    context: Context
    moved: Optional[Tuple[str, str]] = None  # (event, destination) of the last move tried
    removed: Optional[str] = None  # the removal event last tried


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
    return getattr(code, "co_qualname", code.co_name)


class Frames:
    """Finds the user's frame on the stack, caching per module file whether it is the user's.

    Reads ``f_globals["__file__"]`` rather than ``f_code``: reading a frame's ``f_code``
    raises an audit event of its own (``object.__getattr__``), which costs a call of
    every hook."""

    def __init__(self, libraries: Sequence[str]) -> None:
        self._libraries = tuple(libraries)
        #: Module file (``__file__``) -> whether it is the user's; what the hook reads first.
        self.user_files: Dict[object, bool] = {}
        self._described: Dict[Tuple[str, int], Frame] = {}

    def is_user(self, frame: FrameType) -> bool:
        module_file = frame.f_globals.get("__file__")
        known = self.user_files.get(module_file)
        if known is None:
            path = module_file if isinstance(module_file, str) else frame.f_code.co_filename
            known = not path.startswith("<") and not os.path.abspath(path).startswith(self._libraries)
            if isinstance(module_file, str):  # code without a module file: asked each time
                self.user_files[module_file] = known
        return known

    def user_frame(self, frame: Optional[FrameType]) -> Optional[FrameType]:
        while frame is not None and not self.is_user(frame):
            frame = frame.f_back
        return frame

    def exempt(self, frame: Optional[FrameType], names: FrozenSet[Tuple[str, str]], modules: FrozenSet[str]) -> bool:
        """Whether the move happens inside one of ``names``: a frame of it among the
        ``EXEMPT_DEPTH`` nearest the call (not the whole stack: each frame read is made)."""
        depth = EXEMPT_DEPTH
        while frame is not None and depth:
            module = frame.f_globals.get("__name__")
            if module in modules and (module, _qualname(frame.f_code)) in names:
                return True
            frame = frame.f_back
            depth -= 1
        return False

    def describe(self, frame: FrameType) -> Frame:
        module_file = frame.f_globals.get("__file__")
        if not isinstance(module_file, str):
            module_file = frame.f_code.co_filename
        key = (module_file, frame.f_lineno)
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
    """Which location a directory is in while the tests run: the longest of the locations'
    directories on this machine (as written and resolved) that holds it.

    The directories are read again when a test begins (:meth:`refresh`, which may resolve
    symbolic links and call a location's function), and when one of the locations'
    variables or ``tempfile.tempdir`` changes (:meth:`ensure`, inside the hook: no I/O
    then, the resolved forms learnt before are reused). ``generation`` counts the readings."""

    def __init__(self, locations: Locations) -> None:
        self.locations = locations
        names = {variable for location in locations.locations for variable in location.env}
        self.variables: FrozenSet[object] = frozenset(names | {os.fsencode(n) for n in names})
        self._call_names = tuple(dotted for location in locations.locations for dotted in location.calls)
        self._imported: FrozenSet[str] = frozenset()  # the calls whose module was imported, last asked
        self._calls: Dict[str, Optional[str]] = {}
        self._resolved: Dict[str, str] = {}
        self.roots: Tuple[Root, ...] = ()
        self.exact: Dict[str, Root] = {}
        self.tempdir: object = object()  # tempfile.tempdir when the roots were read
        self.stale = True
        self.env_changed = True  # since the location functions were last called
        self.generation = 0

    def refresh(self) -> None:
        """Outside the hook (a test begins): call the location functions again if their
        module was imported since, or a variable changed; resolve new directories."""
        imported = frozenset(d for d in self._call_names if d.rpartition(".")[0] in sys.modules)
        if imported != self._imported or self.env_changed:
            self._imported, self.env_changed = imported, False
            self._calls = {dotted: _imported_call(dotted) for dotted in imported}
        self._build(resolve=True)

    def ensure(self) -> None:
        if self.stale or tempfile.tempdir is not self.tempdir:
            self._build(resolve=False)

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
        self.roots = tuple(roots)
        self.exact = {root.path: root for root in roots}
        self.tempdir = tempdir
        self.stale = False
        self.generation += 1



def _classify(directory: str, roots: Sequence[Root]) -> Optional[Root]:
    """The root (of ``roots``, longest first) that holds ``directory`` (absolute, normalised)."""
    for root in roots:
        if directory == root.path or directory.startswith(root.path.rstrip(os.sep) + os.sep):
            return root
    return None


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


def _absolute_text(value: object) -> Optional[str]:
    text = _text(value)
    return None if text is None else _absolute(text)


def _given(dir_fd: object) -> bool:
    """Whether a ``*_dir_fd`` argument names a directory (paths are then relative to it)."""
    return isinstance(dir_fd, int) and dir_fd >= 0


def _device(path: str) -> Optional[int]:
    try:
        return os.stat(path).st_dev
    except (OSError, ValueError):
        return None


# -- the recorder ------------------------------------------------------------------------


#: A place's device not asked for yet (``os.stat`` only when a move needs it).
_UNKNOWN = -1
_SEP = os.sep
_O_CREAT = os.O_CREAT


class Place:
    """What the guard knows of a directory during one test: its location, whether it is
    pytest's (``tmp_path``), and its device, asked for once."""

    __slots__ = ("path", "location", "root", "fixture", "device")

    def __init__(self, path: str, root: Optional[Root], fixture: bool) -> None:
        self.path, self.root, self.fixture = path, root, fixture
        self.location = root.location if root else None
        self.device: Optional[int] = _UNKNOWN

    def stat(self) -> Optional[int]:
        if self.device == _UNKNOWN:
            self.device = _device(self.path)
        return self.device


#: A temp as the hook notes it; see ``Recorder._temps``.
_Record = Tuple[Frame, str, bool, Context, str, Tuple[Root, ...], bool]


class Recorder:
    """What the hook saw during the session, by test; driven by the pytest plugin.

    The hook runs for every watched call of the suite, so at event time it does only what
    cannot wait: a temp's path and the user's frame (the stack is gone after), a move's
    verdict (learnt once per pair of directories and test). Which location a temp is in,
    and whether it is pytest's, is decided at the test's end, for the temps still there,
    against the locations' directories as they were when it was made."""

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
        self._fixture_roots = tuple(os.path.abspath(p).rstrip(_SEP) + _SEP for p in fixture_roots)
        self._fixture_names = tuple(name + _SEP for name in fixture_names)
        self.test: Optional[str] = None
        self.phase = ""
        self._context: Optional[Context] = None  # None between tests: nothing is recorded
        self._fixtures: List[Tuple[str, object]] = []  # (name, owner) of the fixtures being set up
        # Learnt per generation of the classifier (and test): directories, moves' verdicts,
        # and the prefixes that tell a creation in the temp location (not pytest's) at once.
        self._generation = -1
        self._places: Dict[str, Place] = {}
        self._verdicts: Dict[Tuple[str, str], Optional[Tuple[Place, Place, bool, bool]]] = {}
        self._temp_prefixes: Tuple[str, ...] = ()
        self._fixture_prefixes: Tuple[str, ...] = ()
        # path -> (frame, event, is a directory, context, parent directory, the roots then,
        # whether it counts wherever it is: made by tempfile, not renamed or created since).
        self._temps: Dict[str, _Record] = {}
        self._moved: Dict[str, Tuple[str, str]] = {}
        self._removed: Dict[str, str] = {}
        self._moves: Dict[Tuple[object, ...], Move] = {}
        self._fixtures_owning = False  # whether a fixture of a wider scope owns a temp noted
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
        # A file or directory created anywhere: a temp when it is in the temp location.
        self.handlers["open"] = self._on_open
        self.handlers["os.mkdir"] = self._on_mkdir
        for event in REMOVE_EVENTS:
            self.handlers[event] = self._on_remove
        for event in ENV_EVENTS:
            self.handlers[event] = self._on_env

    # -- driven by the plugin (outside the hook) --

    def begin(self, test: str) -> None:
        self.test = test
        self.classifier.refresh()  # a new generation: devices and mounts are asked again
        self._regenerate()
        self.set_phase("setup")

    def set_phase(self, phase: str) -> None:
        self.phase = phase
        self._update()

    def enter_fixture(self, name: str, owner: Optional[object]) -> None:
        """A fixture's setup starts; ``owner`` (a fixture of a wider scope than the test)
        owns the temps made in it, which are judged when it is torn down."""
        self._fixtures.append((name, owner))
        self._update()

    def leave_fixture(self) -> None:
        if self._fixtures:
            self._fixtures.pop()
        self._update()

    def _update(self) -> None:
        if self.test is None:
            self._context = None
        elif self._fixtures:
            name, owner = self._fixtures[-1]
            self._context = Context(self.test, self.phase, name, owner if owner is not None else self.test)
        else:
            self._context = Context(self.test, self.phase, None, self.test)

    def end(self, test: str) -> Tuple[List[Move], List[Leftover]]:
        """The test's moves, and its temps still there now that it has been torn down."""
        keys = [key for key in self._moves if key[0] == test]
        moves = [self._moves.pop(key) for key in keys]
        # Commonly every temp still noted is this test's: no need to ask each.
        all_owned = not self._fixtures_owning
        leftovers = self._judge(lambda context: context.owner == test, all_owned)
        self.test = None
        self._update()
        return moves, leftovers

    def end_owner(self, owner: object) -> List[Leftover]:
        """The temps a wider-scoped fixture made, still there after its teardown."""
        return self._judge(lambda context: context.owner is owner)

    def finish(self) -> Tuple[List[Move], List[Leftover]]:
        """Whatever no test or fixture end has claimed (an interrupted session)."""
        moves = list(self._moves.values())
        self._moves.clear()
        return moves, self._judge(lambda context: True, True)

    def _judge(self, owned: Callable[[Context], bool], all_owned: bool = False) -> List[Leftover]:
        """Which of the temps ``owned`` are still there and are temps, forgetting all of
        them: one ``lstat`` each, or one listing of a directory holding many; a leftover
        inside a leftover directory is counted in it."""
        temps = self._temps
        if all_owned:
            mine = list(temps)
        else:
            mine = [path for path, temp in temps.items() if owned(temp[3])]
        by_parent: Dict[str, List[str]] = {}
        for path in mine:
            parent = temps[path][4]
            group = by_parent.get(parent)
            if group is None:
                by_parent[parent] = [path]
            else:
                group.append(path)
        there: List[str] = []
        for parent, group in by_parent.items():
            if len(group) > LIST_THRESHOLD:
                try:
                    names = set(os.listdir(parent))
                except OSError:
                    names = set()
                start = len(parent.rstrip(_SEP)) + 1
                there.extend(path for path in group if path[start:] in names)
            else:
                there.extend(path for path in group if os.path.lexists(path))
        found: Dict[str, Leftover] = {}
        for path in there:
            frame, event, is_directory, context, parent, roots, anywhere = temps[path]
            root = _classify(os.path.normpath(parent), roots)
            location = root.location if root else None
            if (not anywhere and location != TEMP) or self._fixture_directory(os.path.normpath(parent), root):
                continue  # made outside the temp location after all, or pytest's (tmp_path)
            found[path] = Leftover(
                Temp(path, is_directory, event, frame, location, context, self._moved.get(path), self._removed.get(path))
            )
        if len(mine) == len(temps):
            temps.clear()
            self._moved.clear()
            self._removed.clear()
            self._fixtures_owning = False
        else:
            for path in mine:
                del temps[path]
                self._moved.pop(path, None)
                self._removed.pop(path, None)
        kept: List[Leftover] = []
        for path in sorted(found):
            outer: Optional[Leftover] = None
            parent, previous = os.path.dirname(path), path
            while parent != previous and outer is None:
                candidate = found.get(parent)
                if candidate is not None and candidate.temp.directory:
                    outer = candidate
                parent, previous = os.path.dirname(parent), parent
            if outer is None:
                kept.append(found[path])
            else:
                outer.inside += 1
        return kept

    def _fixture_directory(self, directory: str, root: Optional[Root]) -> bool:
        """Whether ``directory`` is pytest's to clean up (``tmp_path`` and its kin)."""
        inside = directory + _SEP
        if inside.startswith(self._fixture_roots):
            return True
        if root is None or root.location != TEMP or len(directory) <= len(root.path):
            return False
        return inside[len(root.path.rstrip(_SEP)) + 1 :].startswith(self._fixture_names)

    # -- the hook's handlers (inside the hook: no I/O but os.stat of a move's sides) --

    def _regenerate(self) -> None:
        """Forget what was learnt of directories: the locations' directories moved, or a
        test begins (devices and mounts may have changed since the last)."""
        classifier = self.classifier
        self._generation = classifier.generation
        self._places = {}
        self._verdicts = {}
        temp_roots = [root.path.rstrip(_SEP) + _SEP for root in classifier.roots if root.location == TEMP]
        self._temp_prefixes = tuple(temp_roots)
        self._fixture_prefixes = self._fixture_roots + tuple(r + n for r in temp_roots for n in self._fixture_names)

    def _place(self, directory: str) -> Place:
        """What is known of ``directory`` (absolute), learnt on first use in a generation."""
        place = self._places.get(directory)
        if place is None:
            normal = os.path.normpath(directory)
            root = _classify(normal, self.classifier.roots)
            place = Place(normal, root, self._fixture_directory(normal, root))
            self._places[directory] = place
        return place

    def _verdict(self, source_key: str, destination_key: str) -> Optional[Tuple[Place, Place, bool, bool]]:
        """Whether a move between two directories is one to report: (their places, in
        different locations, on different devices); None when it is not."""
        source_place, destination_place = self._place(source_key), self._place(destination_key)
        # A file's device is its directory's: one os.stat per directory and generation.
        source_device, destination_device = source_place.stat(), destination_place.stat()
        different_locations = source_place.location != destination_place.location
        different_devices = source_device != destination_device and source_device is not None and destination_device is not None
        verdict = (source_place, destination_place, different_locations, different_devices)
        found = verdict if different_locations or different_devices else None
        self._verdicts[(source_key, destination_key)] = found
        return found

    def _on_move(self, event: str, args: Tuple[Any, ...]) -> None:
        context = self._context
        if context is None:
            return
        if event != "shutil.move" and (args[2] != -1 or args[3] != -1) and (_given(args[2]) or _given(args[3])):
            return  # relative to directory descriptors: no path to classify
        source, destination = args[0], args[1]
        if type(source) is not str or not source.startswith(_SEP):
            source = _absolute_text(source)
        if type(destination) is not str or not destination.startswith(_SEP):
            destination = _absolute_text(destination)
        if source is None or destination is None:
            return
        self.moves_seen += 1
        classifier = self.classifier
        if classifier.stale or tempfile.tempdir is not classifier.tempdir:
            classifier.ensure()
        if classifier.generation != self._generation:
            self._regenerate()
        if event == "shutil.move":
            # Into an existing directory, as shutil.move does.
            try:
                info = os.stat(destination)
            except (OSError, ValueError):
                pass
            else:
                if stat.S_ISDIR(info.st_mode):
                    destination = os.path.join(destination, os.path.basename(source.rstrip(_SEP)))
        # Judged by directory, or by the path when it is a location's own directory (a
        # directory moved onto $XDG_CACHE_HOME).
        exact = classifier.exact
        source_key = source if source in exact else (source[: source.rfind(_SEP)] or _SEP)
        destination_key = destination if destination in exact else (destination[: destination.rfind(_SEP)] or _SEP)
        try:
            verdict = self._verdicts[(source_key, destination_key)]
        except KeyError:
            verdict = self._verdict(source_key, destination_key)
        temps = self._temps
        temp = temps.get(source)
        if temp is not None:
            self._moved[source] = (event, destination)
            # Renamed inside the temp location it is still a temp, under its new name.
            if (
                destination not in temps and destination.startswith(self._temp_prefixes)
                and not destination.startswith(self._fixture_prefixes)
            ):
                temps[destination] = temp[:4] + (destination_key, classifier.roots, False)
        if verdict is not None:
            self._report_move(event, source, destination, verdict, temp, context)

    def _report_move(
        self, event: str, source: str, destination: str, verdict: Tuple[Place, Place, bool, bool],
        temp: Optional[_Record], context: Context,
    ) -> None:
        caller = sys._getframe(3)  # this <- _on_move <- _audit <- the caller of os.rename (C has no frame)
        exempt = self._exempt if event == "shutil.move" else self._exempt_nested
        if self.frames.exempt(caller, exempt, self._exempt_modules):
            return
        user = self.frames.user_frame(caller)
        if user is None:
            return  # pytest's own, or the interpreter's
        source_place, destination_place, different_locations, different_devices = verdict
        frame = self.frames.describe(user)
        key = (context.test, context.phase, context.fixture, event, frame, source_place.location,
               destination_place.location, different_devices)
        known = self._moves.get(key)
        if known is not None:
            known.count += 1
            return
        self._moves[key] = Move(
            test=context.test, phase=context.phase, fixture=context.fixture, event=event, frame=frame,
            source=Side(source, source_place.root, source_place.device),
            destination=Side(destination, destination_place.root, destination_place.device),
            different_locations=different_locations, different_devices=different_devices,
            staged_at=temp[0] if temp is not None else None,
        )

    def _on_open(self, event: str, args: Tuple[Any, ...]) -> None:
        flags, path = args[2], args[0]
        if type(flags) is int and flags & _O_CREAT and type(path) is not int and path not in self._temps:
            self._created(event, path, False)

    def _on_mkdir(self, event: str, args: Tuple[Any, ...]) -> None:
        path = args[0]
        if path not in self._temps and (args[2] == -1 or not _given(args[2])):
            self._created(event, path, True)

    def _created(self, event: str, value: object, directory: bool) -> None:
        """A file or directory created: a temp when it is in the temp location and not
        pytest's (a first look by prefix; the test's end decides)."""
        if self._context is None:
            return
        path = value if type(value) is str and value.startswith(_SEP) else _absolute_text(value)
        if path is None:
            return
        classifier = self.classifier
        if classifier.stale or tempfile.tempdir is not classifier.tempdir:
            classifier.ensure()
        if classifier.generation != self._generation:
            self._regenerate()
        if not path.startswith(self._temp_prefixes) or path.startswith(self._fixture_prefixes):
            return  # outside every temp directory (most files), or pytest's
        if path in classifier.exact:
            return  # a location's own directory (NamedTemporaryFile opens its dir)
        parent = path[: path.rfind(_SEP)] or _SEP
        place = self._places.get(parent) or self._place(parent)
        if place.location == TEMP and not place.fixture:  # the longest directory holding it is temp's
            self._track(event, path, directory, False, 4)  # _track <- this <- handler <- _audit <- the caller

    def _on_temp(self, event: str, args: Tuple[Any, ...]) -> None:
        value = args[0]
        path = value if type(value) is str and value.startswith(_SEP) else _absolute_text(value)
        if path is not None:
            classifier = self.classifier
            if classifier.stale or tempfile.tempdir is not classifier.tempdir:
                classifier.ensure()
            # _track <- this <- _audit <- tempfile's own frames (which raise the event: mkdtemp;
            # _mkstemp_inner, under mkstemp or a NamedTemporaryFile's opener) <- the caller.
            directory = event == "tempfile.mkdtemp"
            self._track(event, path, directory, True, 4 if directory else 5)

    def _track(self, event: str, path: str, directory: bool, anywhere: bool, depth: int) -> None:
        """Note a temp made, with the user's frame, looked for from ``depth`` frames up.

        Python 3.11 makes a frame object for each frame a walk reads: starting above the
        frames that are always tempfile's own saves making theirs at every temp."""
        context = self._context
        temps = self._temps
        if context is None or path in temps:
            return  # between tests; or tempfile's own open/mkdir of the name it announced
        parent = path[: path.rfind(_SEP)] or _SEP
        if parent in temps:
            return  # inside a temp directory the guard tracks: judged with it
        if len(temps) >= TEMP_LIMIT:
            self.dropped += 1
            return
        if context.owner is not context.test:
            self._fixtures_owning = True
        frames = self.frames
        frame: Optional[FrameType] = sys._getframe(depth)
        known = frames.user_files
        while frame is not None:
            user = known.get(frame.f_globals.get("__file__"))
            if user is None:
                user = frames.is_user(frame)
            if user:
                break
            frame = frame.f_back
        else:
            return  # pytest's own, or the interpreter's
        self.temps_seen += 1
        temps[path] = (frames.describe(frame), event, directory, context, parent, self.classifier.roots, anywhere)

    def _on_remove(self, event: str, args: Tuple[Any, ...]) -> None:
        temps = self._temps
        if not temps or (len(args) > 1 and args[1] != -1 and _given(args[1])):
            return  # (shutil.rmtree's event has no dir_fd before Python 3.11)
        path = args[0]
        if type(path) is not str or path not in temps:
            path = _absolute_text(path)
        if path in temps:
            self._removed[path] = event

    def _on_env(self, event: str, args: Tuple[Any, ...]) -> None:
        classifier = self.classifier
        if args[0] in classifier.variables:
            # os.environ sets its own copy after putenv: read the roots once it has.
            classifier.stale = classifier.env_changed = True

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
