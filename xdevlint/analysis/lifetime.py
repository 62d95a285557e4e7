"""Temp lifetimes: who owns a temp file or directory, and whether every path lets go of it.

For each temp a function creates and holds (``fd, tmp = mkstemp()``, ``d = mkdtemp()``,
``f = NamedTemporaryFile(delete=False)``, ``p = NamedTemporaryFile().name``,
``p = mktemp() + ".ts"``,
``p = os.path.join(mkdtemp(), "x")`` (whose temp is the directory), ``d = out or
Path(mkdtemp())``, the call of a ``functools.partial`` factory the call can see,
``urlretrieve(url)``, a ``uuid4()`` name joined to ``gettempdir()``, ``self.tmp =
mkdtemp()``, ``env["TMP"] = mkdtemp()`` or ``dirs.append(mkdtemp())`` into a container
the function made, ``TemporaryDirectory()`` outside ``with``, or a helper that returns
one of those), a small abstract interpreter walks the function's statements with the
temp's status on every path: absent, live, removed, moved away, or handed off. Temps a
loop makes into a container made before it stay live there from pass to pass.

Only real transfers hand a temp off: ``return``/``yield`` to a caller; a store on
``self`` where some method of the class removes or moves it (otherwise the class keeps
it, and is checked as its owner); a container or constructed object holding it that is
itself returned or stored; a cleanup registration (``atexit``, ``addCleanup``,
``ExitStack.callback``, ``weakref.finalize``). A temp passed as an ordinary call
argument (``run(path=tmp)``, ``subprocess.run([..., tmp])``, a path derived from it) is
used, not handed off. A ``@contextmanager`` owns what it yields, since the caller's
exception arrives at its ``yield``; and ``__enter__`` (like a test's ``setUp``) owns what
it stores on ``self`` until it returns, since ``__exit__`` (``tearDown``) never runs when
it raises.

A statement that can raise sends the statuses of that moment to the handlers that may
catch the exception, or out of the function; ``finally`` runs on every way out. A
move's own failure starts an error path only when the move crosses locations (what
XDV101/XDV102 flag), its handler falls back to a copy, or it renames a temp directory
(which fails when the destination exists): the same-directory ``os.replace`` of an atomic
write is the recommended idiom, not a leak.

Two verdicts come out of it, one ``Lifetime`` per creation:
- the temp *leaks on an error path* (XDV201) when some path that went through an
  exception leaves the function, or starts the loop's next iteration, with the temp
  still live, while a normal path does remove, move or hand it off (a
  ``TemporaryDirectory`` object never: its finalizer removes it when it is dropped);
  the leak a message names is the first of those likeliest to fail;
- the temp is *never released* (XDV203) when no normal path (one no exception went
  through) removes, moves, hands off or registers it (nor a closure, nor, kept on
  ``self``, any method of its class): every call leaves it, whatever the error paths do.

A ``NamedTemporaryFile`` that deletes its file (the default) is followed too, held in a
plain name: its file goes when it is closed or its ``with`` ends, and only its own file.
When a later statement makes a file again at its name (``open(f.name, "w")``, a writer
given ``f.name``) or beside it (``f.name + ".gz"``, ``Path(f.name).with_suffix(".x")``),
that file is the temp from then on, as a ``mktemp`` name's is once used.

Ownership handed to the caller moves the obligation: the helper that returns a temp is
checked up to its ``return``, and each caller's call is a creation of its own.

Everything here is deterministic: sets are only tested, never iterated to choose, and
findings are ordered by source position.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field, replace
from typing import Callable, Dict, FrozenSet, Iterable, Iterator, List, Optional, Sequence, Set, Tuple, Union

import libcst as cst
from libcst.metadata import BaseMetadataProvider

from xdevlint.analysis import names
from xdevlint.analysis.locations import TEMP, staging_name
from xdevlint.analysis.moves import handed_to, move_of
from xdevlint.analysis.provenance import ProvenanceProvider, writes
from xdevlint.analysis.tree import children, decorated, is_property
from xdevlint.analysis.values import EMPTY, STR, TEMPDIR, Fresh, Parent, Partial, Value
from xdevlint.analysis.values import FILE as FILE_VALUE

#: What a temp is held as: a path to a file or a directory, or the object owning one.
FILE, DIRECTORY, FILE_OBJECT, DIRECTORY_OBJECT = "file", "directory", "file object", "directory object"
_OBJECTS = frozenset({FILE_OBJECT, DIRECTORY_OBJECT})
_FACTORY_KINDS = {
    "tempfile.mkstemp": FILE,
    "tempfile.mktemp": FILE,
    "tempfile.mkdtemp": DIRECTORY,
    "tempfile.NamedTemporaryFile": FILE_OBJECT,
    "tempfile.TemporaryDirectory": DIRECTORY_OBJECT,
}
#: Moves that put a directory inside an existing directory destination instead of failing.
_MOVES_INTO = frozenset({"shutil.move"})
_DIRECTORY_FACTORIES = frozenset(f for f, kind in _FACTORY_KINDS.items() if kind in (DIRECTORY, DIRECTORY_OBJECT))
_PARTIAL = "functools.partial"
_CASTS = frozenset({"typing.cast", "typing_extensions.cast"})
_QUOTES = frozenset({"shlex.quote", "pipes.quote", "urllib.request.pathname2url", "urllib.parse.quote"})
#: ``urljoin("file:", pathname2url(p))``: a URL naming what its parts name.
_URL_JOINS = frozenset({"urllib.parse.urljoin"})
_OPENS = frozenset({"builtins.open", "io.open", "os.fdopen"})
#: ``str`` methods: they cannot fail on a string, and these name the same file.
_STR_METHODS = frozenset({"lower", "upper", "casefold", "strip", "rstrip", "lstrip", "replace", "encode", "decode", "startswith", "endswith", "split", "rsplit", "format"})
_SAME_FILE_STR_METHODS = frozenset({"lower", "upper", "casefold", "strip", "rstrip", "lstrip", "encode", "decode"})
#: An unresolved function named for handing work to another process or thread
#: (``daemon(["send", path])``, ``pool.submit(job, path)``) takes the temp with it.
#: Calls that show a file to the user in another program, which reads it after they
#: return: ``webbrowser.open(f"file://{tmp}")``, ``webbrowser.get(name).open(url)``.
_VIEWERS = frozenset({"webbrowser.open", "webbrowser.open_new", "webbrowser.open_new_tab", "os.startfile"})
_VIEWER_METHODS = frozenset({"open", "open_new", "open_new_tab"})
_HANDING_WORD = re.compile(r"daemon|detach|background|submit|enqueue", re.I)
_DIRNAME = frozenset(f"{m}.dirname" for m in ("os.path", "posixpath", "ntpath"))
#: Calls that keep their single argument's path (``Path(p)``, ``str(p)``, ``abspath(p)``).
_SAME_PATH_CALLS = (names.PASS_THROUGH_CALLS - _DIRNAME) | names.PATH_CLASSES
_SAME_PATH_METHODS = frozenset({"resolve", "absolute", "expanduser"})
#: Calls and methods whose result names something below their first argument.
_JOINING_CALLS = names.JOIN_CALLS | names.PATH_CLASSES
_DERIVING_METHODS = names.PATH_DERIVING_METHODS | {"as_posix", "__fspath__"}
#: Calls that compute a name or a message and touch no file: a ``mktemp`` name given to
#: them is still only a name.
_INERT_CALLS = _JOINING_CALLS | _SAME_PATH_CALLS | frozenset(
    f"builtins.{f}" for f in ("print", "str", "repr", "format", "len", "isinstance", "bool", "hash", "dict", "list", "tuple", "set")
)
#: Copies: a handler that copies the temp after a failed move expects a cross-device move.
_COPIES = frozenset({"shutil.copy", "shutil.copy2", "shutil.copyfile", "shutil.copytree"})
#: Calls that write a file named by their first argument plus an extension and return its name.
_ARCHIVERS = frozenset({"shutil.make_archive"})
_CONTEXT_MANAGERS = frozenset({"contextlib.contextmanager", "contextlib.asynccontextmanager"})
#: pytest runs a fixture's code after its ``yield`` whatever the test did.
_FIXTURES = frozenset({"pytest.fixture", "pytest_asyncio.fixture"})
#: pytest's fixtures for a directory it makes per test (and removes in later runs), and for
#: its factories, whose ``mktemp()`` makes one.
_PYTEST_DIRECTORIES = frozenset({"tmp_path", "tmpdir"})
_PYTEST_FACTORIES = frozenset({"tmp_path_factory", "tmpdir_factory"})
_ENTER_METHODS = frozenset({"__enter__", "__aenter__"})
#: ``ExitStack`` (and ``unittest``) methods that take a context manager's cleanup over.
_CONTEXT_TAKERS = frozenset({"enter_context", "enter_async_context", "enterContext", "enterClassContext", "push", "push_async_exit"})
#: Builtin containers: a temp inside one goes where the container goes.
_CONTAINERS = frozenset(f"builtins.{c}" for c in ("dict", "list", "tuple", "set", "frozenset"))
#: An unresolved function or method named for removal or registration (``self._cleanup_later(p)``,
#: ``registry.track(p)``) is taken at its word. ``list.remove`` and ``set.discard`` are not.
_REMOVING = r"clean|remov|delet|unlink|rmtree|rmdir|purge|(?:^|_)rm(?:_|$)"
_RELEASING_WORD = re.compile(_REMOVING + r"|dispos|finali[sz]|register|track", re.I)
_CONTAINER_METHODS = frozenset({"remove", "discard", "pop"})
#: Methods that remove the path they are called on when called with no argument (py.path's,
#: plumbum's and etils' ``epath`` paths); a container's ``remove`` takes the item.
_PATH_REMOVERS = frozenset({"remove", "delete", "rmtree"})
#: Another module's functions and methods named for removing files (``repo.wvfs.rmtree(p)``),
#: not for deleting some other thing made of them (``cloud.delete_image(image.id)``).
_FILE_REMOVERS = frozenset({"rmtree", "rmdir", "remove", "removedirs", "unlink", "rm"})
#: Builtins whose failure is an error of the world, not of the program.
_FALLIBLE_BUILTINS = frozenset({"builtins.open", "builtins.input", "builtins.__import__", "builtins.exec", "builtins.eval", "builtins.compile", "builtins.next", "builtins.int", "builtins.float"})
#: Modules whose calls do I/O the world can make fail: processes, the network, files, archives.
_IO_MODULES = tuple(f"{m}." for m in (
    "subprocess", "urllib", "http", "socket", "ssl", "ftplib", "smtplib", "shutil", "tarfile", "zipfile", "gzip", "bz2",
    "lzma", "sqlite3", "requests", "httpx", "urllib3", "aiohttp", "boto3", "botocore", "paramiko",
)) + ("os.write", "os.read", "os.open", "os.mkdir", "os.makedirs", "os.listdir", "os.scandir", "os.stat", "os.system", "os.popen")
#: Of those, what only computes: parsing a URL, building a request, naming a status.
_NO_IO = ("urllib.parse.", "urllib.request.Request", "http.HTTPStatus", "http.client.responses")
#: Methods that hardly fail on a container or a string (not on a path: ``p.replace`` moves).
_HARDLY_FAILING_METHODS = frozenset({
    "append", "appendleft", "add", "insert", "extend", "update", "setdefault", "get", "pop", "popleft", "copy", "keys",
    "values", "items", "clear", "sort", "index", "count", "join", "format", "strip", "lstrip", "rstrip", "split",
    "rsplit", "splitlines", "lower", "upper", "replace", "startswith", "endswith", "encode", "decode",
})
#: Standard library calls that fail only on a bug (an argument of the wrong type, an
#: object that cannot be copied or serialised), never for the world's reasons: copies,
#: clocks, unique ids, hashes, patterns, locks, serialising to a string, registering a
#: finalizer. ``json.loads`` is not one: it fails on the data.
_BUG_ONLY_CALLS = frozenset({
    "copy.copy", "copy.deepcopy", "uuid.uuid1", "uuid.uuid4", "time.time", "time.time_ns", "time.monotonic",
    "time.perf_counter", "datetime.datetime.now", "datetime.datetime.utcnow", "datetime.date.today", "json.dumps",
    "weakref.finalize", "weakref.ref", "functools.partial", "itertools.count", "re.compile", "re.escape",
    "threading.Lock", "threading.RLock", "threading.Event", "hashlib.md5", "hashlib.sha1", "hashlib.sha256",
    "secrets.token_hex", "secrets.token_urlsafe", "textwrap.dedent", "dataclasses.replace", "dataclasses.asdict",
    "csv.writer", "csv.reader", "csv.DictWriter", "csv.DictReader",
})
#: Calls that fail only on a bug when given the temp just made (or, for the first two,
#: any descriptor): its mode, its descriptor's file object, its closing, entering it.
_ON_A_FRESH_TEMP = frozenset({"os.fdopen", "os.close", "os.chmod", "os.fchmod", "os.lchmod", "os.chdir"})
#: A file object's writing methods: on a file they fail with ``OSError`` (a full disk).
_FILE_WRITES = frozenset({"write", "writelines", "flush", "truncate", "seek"})
#: ``open`` by its names: given a descriptor, it is ``os.fdopen``.
_OPENERS = frozenset({"builtins.open", "io.open"})
_MAKE_DIRECTORIES = frozenset({"os.makedirs", "os.mkdir"})
#: Of ``_HARDLY_FAILING_METHODS``, the ones an object that does I/O may spell too (``session.get``, ``job.update``).
#: Of those, a container's that take no argument: given one, the method is something else's.
_NO_ARGUMENT_METHODS = frozenset({"copy", "keys", "values", "items", "clear"})
_AMBIGUOUS_METHODS = frozenset({"get", "pop", "popleft", "update", "replace", "decode", "encode", "index", "count", "format", "join"})
#: ``Path`` methods that only compute another name: no I/O.
_PATH_ARITHMETIC = frozenset({"as_posix", "with_name", "with_suffix", "with_stem", "joinpath", "is_absolute", "as_uri"})
#: Methods of a list, set or dict that cannot fail (whatever the item: a hashable key aside).
_INFALLIBLE_METHODS = frozenset({"append", "appendleft", "add", "insert", "get", "setdefault", "copy", "keys", "values", "items", "clear"})
#: Calls whose result is a fresh builtin container.
_CONTAINER_MAKERS = _CONTAINERS | {"collections.deque", "collections.OrderedDict", "collections.defaultdict"}
#: Registrations of any callable: they remove the temp only when the callable does
#: (``_registers_cleanup`` decides those), so their names prove nothing.
_REGISTRATIONS = frozenset({"register", "addCleanup", "addClassCleanup", "addAsyncCleanup", "callback", "finalize", "Finalize"})
_TAKING_METHODS = frozenset({"pop", "popleft", "popitem", "get"})
#: ``d.values()``, ``d.keys()``, ``list(paths)``: the same items, to a ``for``.
_VIEWS = frozenset({"values", "keys", "copy"})
_ORDERING = frozenset({"builtins.list", "builtins.tuple", "builtins.sorted", "builtins.reversed", "builtins.set"})
#: Calls whose items are the paths a pattern matches.
_GLOBS = frozenset({"glob.glob", "glob.iglob"})
#: ``with pytest.raises(...)``: what fails inside makes nothing
_EXPECTING = frozenset({"pytest.raises"})
#: kinds of an object holding a temp (not its path)
_OBJECT_VALUES = frozenset({FILE_VALUE, TEMPDIR})
#: calls named for reading a file (``read_csv``, ``_load_lattice``, ``import_file``, ``fromxlsx``):
#: given a deleted temp's name, they make nothing there
_READING_NAME = re.compile(r"_*(?:read|load|import|parse|from)", re.I)
_STDLIB = frozenset(sys.stdlib_module_names) | {"builtins"}
_LOOPS = (cst.For, cst.While)
_SCOPES = (cst.FunctionDef, cst.Lambda, cst.ClassDef)

#: Roles of the names (and ``self.attr`` keys) a temp is known by.
PATH, OBJECT, HOLDER, EITHER = "path", "object", "holder", "either"
#: The path separator, which joins a directory and a name: ``mkdtemp() + os.sep + name``.
_SEPARATORS = frozenset({"os.sep", "os.path.sep"})
#: The directory a path inside a new temp directory lies in (``d = os.path.dirname(p)``).
DIR = "dir"
#: Paths below the temp and nothing else (``out = join(tmp, "x")``, ``[join(tmp, n) for n in
#: names]``): handing one on hands the temp on, but an item of it, or its removal, is not the temp.
BELOW = "below"

ValueOf = Callable[[cst.CSTNode], Value]
Node = cst.CSTNode
Status = Tuple[object, ...]
State = Dict[int, FrozenSet[Status]]
Outcome = Dict[str, State]

ABSENT: Status = ("absent",)
NAMED: Status = ("named",)  # ``mktemp``: a name, until a statement using it creates the file
DELETING: Status = ("deleting",)  # a ``NamedTemporaryFile`` still deleting its own file on close
LIVE: Status = ("live",)
REMOVED: Status = ("removed",)
MOVED: Status = ("moved",)
HANDED: Status = ("handed",)
_EXIT_RANK = {"continues the loop": 0, "returns": 1, "carries on": 2, "re-raises": 3, "propagates": 4}


@dataclass(frozen=True)
class Made:
    """What a creation call makes, once the expression around it is read."""

    kind: str
    factory: str
    index: Optional[int] = None  # position of the path in the tuple returned (``mkstemp``)
    deleting: bool = False  # a ``NamedTemporaryFile`` that removes its file on close
    named: bool = False  # only a name until a statement uses it (``mktemp``, ``NamedTemporaryFile().name``)
    inside: bool = False  # a path inside the temp directory (``os.path.join(mkdtemp(), "x")``)
    located: bool = True  # in the temp location (no ``dir=``, or one there), not a directory the code chose
    unique: bool = False  # a name in the temp directory made unique by ``uuid4()``, not by ``tempfile``


@dataclass(frozen=True)
class Temp:
    """One creation: the call, the statement holding it, and the names that hold it."""

    creation: cst.Call
    statement: Node
    factory: str
    kind: str
    handle: str  # the name (or ``self.attr``) the creation is bound to
    is_path: bool  # a pathlib value, so the fix can call ``.unlink(missing_ok=True)``
    named: bool = False
    inside: bool = False
    located: bool = True
    #: ``out or mkdtemp()``: maybe not a temp at all; the names that decide it.
    conditional: bool = False
    guards: FrozenSet[str] = frozenset()
    #: created into an item of a container the function made (``env["TMP"] = mkdtemp()``,
    #: ``dirs.append(mkdtemp())``): ``handle`` is the container
    item: bool = False
    #: named by ``uuid4()`` in the temp directory, rather than made by ``tempfile``
    unique: bool = False
    #: created into ``self.attr``: the class that keeps it
    owner: Optional[cst.ClassDef] = field(default=None, compare=False)
    #: attribute names that denote the temp on any object (used to ask a class about it)
    attributes: FrozenSet[str] = frozenset()
    descriptor: Optional[str] = None  # ``fd`` of ``fd, tmp = mkstemp()``
    #: a ``NamedTemporaryFile`` deleting its own file: the temp is a file made again at
    #: its name or beside it; ``closing``: ``close()`` deletes it (``delete_on_close``)
    deleting: bool = False
    closing: bool = False
    handles: Dict[str, str] = field(default_factory=dict, compare=False, hash=False)  # name -> role
    #: made right in a call's argument (``Indexer(mkdtemp())``): the expression it is there,
    #: its only name; ``handle`` is the call's (``Indexer()``)
    inline: Optional[Node] = field(default=None, compare=False, hash=False)


@dataclass(frozen=True)
class Leak:
    """An error path: the exception from ``origin`` reaches ``exit`` with the temp live;
    ``handler`` is the ``except`` clause that caught it, if one did."""

    origin: Node
    handler: Optional[cst.ExceptHandler]
    exit: str  # "propagates", "re-raises", "returns", "carries on", "continues the loop"


@dataclass(frozen=True)
class Lifetime:
    temp: Temp
    handed_off: bool  # some normal path moves, removes or hands the temp on
    leaks: Tuple[Leak, ...]
    #: handlers where inserting the removal at the top keeps everything else; with
    #: the ``Try`` and the block holding it when the temp may not exist yet there
    #: (its name is then bound to None before the ``try``, and the removal guarded).
    handler_fixes: Tuple[Tuple[cst.ExceptHandler, Optional[Tuple[cst.Try, cst.IndentedBlock]]], ...] = ()
    #: the block, and the range of its statements after the creation that a
    #: ``try/except BaseException`` would have to wrap, for the leaks no handler sees.
    wrap: Optional[Tuple[cst.IndentedBlock, int, int]] = None
    #: instead of ``wrap``: an enclosing ``try`` (and its block) one of whose handlers
    #: already removes the temp; a ``try`` nested in it would remove it twice, so the
    #: leaks no handler sees get an ``except BaseException`` clause on it.
    extend: Optional[Tuple[cst.Try, cst.IndentedBlock]] = None
    #: instead of ``wrap``, in a ``unittest.TestCase`` method: the block, the number of the
    #: creation's statement and of the one removal (a statement of that block), which
    #: ``self.addCleanup`` right after the creation replaces, so it runs once whatever fails
    register: Optional[Tuple[cst.IndentedBlock, int, int]] = None
    #: no statement removes, moves, hands off or registers the temp (XDV203)
    never_released: bool = False
    #: ``self.attr`` it was stored on, when no method of the class removes it
    kept_on: Optional[str] = None
    #: never released, though an ``except`` clause (only) removes, moves or hands it on
    only_on_error: bool = False
    #: the leak a message names: the first of those likeliest to fail
    cited: Optional[Leak] = None
    #: ``cited`` is the creation's own statement, failing on a later pass of a loop
    again: bool = False
    #: every leak is a statement only a bug makes fail: nothing is left in practice
    unlikely: bool = False
    #: made on ``self`` in ``__enter__`` (``setUp``): the method and the one that would have
    #: removed it, which never runs when the first raises
    entering: Optional[Tuple[str, str]] = None
    #: for a deleting ``NamedTemporaryFile``: the statement that made a file again at its
    #: name, or (``beside``) one beside it
    remade: Optional[Node] = None
    beside: bool = False

    @property
    def leaking(self) -> bool:
        return self.handed_off and bool(self.leaks) and not self.unlikely


class LifetimeProvider(BaseMetadataProvider[Lifetime]):
    """Maps each temp creation call (or call of a helper returning a temp) to its ``Lifetime``.

    The file's own top-level package (``stages.package``) arrives through
    ``MetadataWrapper(cache=...)``, as the locations do for ``ProvenanceProvider``.
    """

    METADATA_DEPENDENCIES = (ProvenanceProvider,)
    # Being set is what makes MetadataWrapper hand its ``cache`` entry to the constructor.
    gen_cache = staticmethod(ProvenanceProvider.gen_cache)

    def __init__(self, cache: object = None) -> None:
        super().__init__(cache if cache is not None else "")  # "": no package

    def _gen_impl(self, module: cst.Module) -> None:
        package = self.cache if isinstance(self.cache, str) and self.cache else None
        analysis = Analysis(module, lambda node: self.get_metadata(ProvenanceProvider, node, EMPTY), package)
        for lifetime in analysis.lifetimes():
            self.set_metadata(lifetime.temp.creation, lifetime)


# -- what calls do ---------------------------------------------------------------------


def catch_class(handler: Union[cst.ExceptHandler, cst.ExceptStarHandler], value_of: ValueOf) -> str:
    """What an ``except`` clause catches: "all" (bare, ``BaseException``, ``Exception``),
    "os" (``OSError`` and its aliases), "enoent" (only ``FileNotFoundError``), or "some"."""
    if handler.type is None:
        return "all"
    types = [e.value for e in handler.type.elements] if isinstance(handler.type, cst.Tuple) else [handler.type]
    callees: Set[str] = set()
    for expression in types:
        callees |= value_of(expression).callees
    if callees & names.BROAD_EXCEPTIONS:
        return "all"
    if callees & names.OS_ERROR_CLASSES:
        return "os"
    if callees == {"builtins.FileNotFoundError"}:
        return "enoent"
    return "some"


def calls_in(node: Node) -> Iterator[cst.Call]:
    """Calls below ``node``, not looking into nested functions, lambdas and classes."""
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, cst.Call):
            yield current
        for child in reversed(children(current)):
            if not isinstance(child, _SCOPES):
                stack.append(child)


def _argument(call: cst.Call, index: int, keyword: str) -> Optional[cst.BaseExpression]:
    positional = 0
    for arg in call.args:
        if arg.star:
            return None
        if arg.keyword is not None:
            if arg.keyword.value == keyword:
                return arg.value
        elif positional == index:
            return arg.value
        else:
            positional += 1
    return None


def _items(given: cst.BaseExpression) -> List[cst.BaseExpression]:
    """What a literal sequence holds, through concatenation (``[a, b] + rest``: ``a``, ``b``
    and ``rest``); anything else stands for itself."""
    if isinstance(given, (cst.Tuple, cst.List)):
        return [e.value for e in given.elements]
    if isinstance(given, cst.BinaryOperation) and isinstance(given.operator, cst.Add):
        left = _items(given.left)
        if left != [given.left]:  # a sequence on the left: not text or numbers added
            return left + _items(given.right)
    return [given]


def _is_names(target: cst.BaseExpression) -> bool:
    if isinstance(target, (cst.Tuple, cst.List)):
        return all(_is_names(e.value) for e in target.elements)
    return isinstance(target, (cst.Name, cst.StarredElement))


def _pairs(target: cst.BaseExpression, value: cst.BaseExpression) -> List[Tuple[cst.BaseExpression, cst.BaseExpression]]:
    """What each target of an assignment gets: ``a, b = x, y`` binds ``a`` to ``x`` and
    ``b`` to ``y`` (element by element where both sides are tuples or lists of one length
    without a star), any other target the whole value."""
    if (
        isinstance(target, (cst.Tuple, cst.List))
        and isinstance(value, (cst.Tuple, cst.List))
        and len(target.elements) == len(value.elements)
        and not any(isinstance(e, cst.StarredElement) for e in (*target.elements, *value.elements))
    ):
        return [pair for t, v in zip(target.elements, value.elements) for pair in _pairs(t.value, v.value)]
    return [(target, value)]


def _is_none(node: Optional[cst.BaseExpression]) -> bool:
    return isinstance(node, cst.Name) and node.value == "None"


def _constant(node: Optional[cst.BaseExpression]) -> Optional[Tuple[object]]:
    """The value of a constant argument or default (``True``, ``None``, ``0``, ``"x"``), in a
    tuple (``(None,)`` is a constant None); None for anything else."""
    if isinstance(node, cst.Name) and node.value in ("True", "False", "None"):
        return ({"True": True, "False": False, "None": None}[node.value],)
    if isinstance(node, (cst.Integer, cst.SimpleString)):
        return (node.evaluated_value,)
    return None


def _is_false(node: Optional[cst.BaseExpression]) -> bool:
    return isinstance(node, cst.Name) and node.value == "False"


def _is_true(node: Optional[cst.BaseExpression]) -> bool:
    return isinstance(node, cst.Name) and node.value == "True"


def _key(expression: Node) -> Optional[str]:
    """How a temp's holder is named: ``tmp``, or ``self.tmp``."""
    if isinstance(expression, cst.Name):
        return expression.value
    if isinstance(expression, cst.Attribute) and isinstance(expression.value, cst.Name):
        return f"{expression.value.value}.{expression.attr.value}"
    return None


#: Words of a function's or a flag's name that say it removes what it is given
#: (``_RELEASING_WORD`` without what only registers or disposes of it).
_REMOVING_WORD = re.compile(_REMOVING, re.I)


def _is_remover_name(expression: Node, callees: FrozenSet[str]) -> bool:
    """A function handed over by a name that says it removes (``remove_tree`` imported from
    another module, ``zope.testing.setupstack.rmtree``), not the stdlib's; a method of an
    object so named (``paths.remove``, a list's) proves nothing."""
    if isinstance(expression, cst.Name):
        name: str = expression.value
    elif isinstance(expression, cst.Attribute) and _module_function(callees):
        name = expression.attr.value
    else:
        return False
    return _REMOVING_WORD.search(name) is not None and not any(_of_the_stdlib(c) for c in callees)


def _directory_of_prefix(creation: cst.Call) -> Optional[cst.BaseExpression]:
    """``mkstemp(prefix=module.tmpdir + "/")``: a prefix naming a directory (an expression,
    then ``/``) puts the temp in it, not in the temp location (``os.path.join`` keeps an
    absolute second part)."""
    prefix = next((a.value for a in creation.args if a.keyword is not None and a.keyword.value == "prefix"), None)
    if isinstance(prefix, cst.BinaryOperation) and isinstance(prefix.operator, cst.Add):
        if isinstance(prefix.right, cst.SimpleString) and prefix.right.evaluated_value in ("/", b"/"):
            return prefix.left
    if isinstance(prefix, cst.FormattedString) and len(prefix.parts) == 2:
        first, last = prefix.parts
        if isinstance(first, cst.FormattedStringExpression) and isinstance(last, cst.FormattedStringText) and last.value == "/":
            return first.expression
    return None


def _of_the_stdlib(callee: str) -> bool:
    """Whether a qualified callee (``os.remove``, ``builtins.open``) is the standard library's."""
    return callee.split(".", 1)[0] in _STDLIB


def _module_function(callees: FrozenSet[str]) -> bool:
    """Whether every callee is a function imported from a module (``beets.util.remove``),
    not a method of an object (whose callees are unknown)."""
    return bool(callees) and all(c.count(".") >= 1 and not c.startswith("builtins.") for c in callees)


def _asks_removal(arg: cst.Arg) -> bool:
    """``auto_delete_file=True``, ``cleanup=True``: a keyword flag asking the callee to remove."""
    return (
        arg.keyword is not None and _REMOVING_WORD.search(arg.keyword.value) is not None
        and isinstance(arg.value, cst.Name) and arg.value.value == "True"
    )


#: Functions that run a command line, given as their first argument.
_COMMAND_RUNNERS = frozenset(
    {"os.system", "os.popen"}
    | {f"subprocess.{f}" for f in ("run", "call", "check_call", "check_output", "Popen", "getoutput", "getstatusoutput")}
)
#: A command line that removes what it names: ``rm -rf``, ``sudo rm``, ``/bin/rmdir``.
_REMOVING_COMMAND = re.compile(r"\s*(?:sudo\s+)?(?:\S*/)?(?:rm|rmdir)(?:\s|$)")
#: Calls that quote or spell a path for a command line and leave it the same path.
_QUOTING_CALLS = frozenset({"shlex.quote", "pipes.quote", "builtins.str", "os.fspath"})


def _command_parts(command: Node) -> Optional[Tuple[str, List[cst.BaseExpression]]]:
    """A command line's leading text and the expressions spliced into it
    (``f"rm -rf {d}"``, ``"rm -rf " + d``, ``"rm -rf %s" % d``, ``"rm -rf {}".format(d)``),
    or ``None`` when it is not spelled here."""
    if isinstance(command, cst.SimpleString):
        value = command.evaluated_value
        return (value, []) if isinstance(value, str) else None
    if isinstance(command, cst.FormattedString):
        first = command.parts[0] if command.parts else None
        text = first.value if isinstance(first, cst.FormattedStringText) else ""
        return text, [p.expression for p in command.parts if isinstance(p, cst.FormattedStringExpression)]
    if isinstance(command, cst.BinaryOperation) and isinstance(command.operator, cst.Add):
        left = _command_parts(command.left)
        if left is None:
            return None
        right = _command_parts(command.right)
        return left[0], left[1] + (right[1] if right is not None else [command.right])
    if isinstance(command, cst.BinaryOperation) and isinstance(command.operator, cst.Modulo):
        left = _command_parts(command.left)
        values = [e.value for e in command.right.elements] if isinstance(command.right, cst.Tuple) else [command.right]
        return None if left is None else (left[0], values)
    if (
        isinstance(command, cst.Call) and isinstance(command.func, cst.Attribute) and command.func.attr.value == "format"
        and isinstance(command.func.value, cst.SimpleString)
    ):
        left = _command_parts(command.func.value)
        return None if left is None else (left[0], [a.value for a in command.args])
    return None


def _views(value: Value, func: Node) -> bool:
    """Whether a call of ``func`` (whose value is ``value``) opens a file in a viewer."""
    if value.callees & _VIEWERS:
        return True
    if isinstance(func, cst.Attribute) and func.attr.value in _VIEWER_METHODS:
        receiver = func.value
        return isinstance(receiver, cst.Call) and isinstance(receiver.func, cst.Attribute) and (
            receiver.func.attr.value == "get" and isinstance(receiver.func.value, cst.Name) and receiver.func.value.value == "webbrowser"
        )
    return False


def _file_url(expression: Node) -> bool:
    """Whether ``expression`` spells a ``file:`` URL: what only a viewer is handed
    (``"file://" + p``, ``f"file://{p}"``, ``urljoin("file:", ...)``, ``p.as_uri()``)."""
    stack = [expression]
    while stack:
        node = stack.pop()
        stack.extend(children(node))
        if isinstance(node, cst.SimpleString) and node.raw_value.startswith("file:"):
            return True
        if isinstance(node, cst.FormattedStringText) and node.value.startswith("file:"):
            return True
        if isinstance(node, cst.Attribute) and node.attr.value == "as_uri":
            return True
    return False


#: Class methods that make an instance: ``Store.create(d)``, ``Repo.from_path(p)``, ``Db.open(p)``.
_FACTORY_METHOD = re.compile(r"create(?:_\w+)?|open|init|new|load|from_\w+")


def _camel_case(name: str) -> bool:
    """A class's name, as PEP 8 spells it (``LFSStore``), not a constant's (``TMP``)."""
    return name[:1].isupper() and not name.isupper()


def _super_method_name(call: cst.Call, bare: bool = False) -> Optional[str]:
    """``name`` of a ``super().name(...)`` (or, unless ``bare``, ``super(C, self).name(...)``)
    call, or None."""
    func = call.func
    if not (isinstance(func, cst.Attribute) and isinstance(func.value, cst.Call)) or bare and func.value.args:
        return None
    inner = func.value.func
    return func.attr.value if isinstance(inner, cst.Name) and inner.value == "super" else None


def _terminal(func: Node) -> Optional[str]:
    if isinstance(func, cst.Name):
        return func.value
    if isinstance(func, cst.Attribute):
        return func.attr.value
    return None


#: What a path predicate is called, whoever defines it: it looks at the path and makes nothing.
_PATH_PREDICATES: FrozenSet[str] = frozenset({"exists", "lexists", "isfile", "isdir", "islink", "ismount"})
#: A mapping's look-ups with a default (``d.get(key, default)``): they give the default back.
_LOOKUPS = frozenset({"get", "setdefault", "pop"})
#: A question, by its name (``is_file``, ``is_hdf5``, ``has_header``): it looks and makes nothing.
_PREDICATE_NAME = re.compile(r"_*(?:is|has)_[A-Za-z0-9_]+")


def _logs(func: Node) -> bool:
    """``logger.info``, ``logging.debug``, and a project's logging module's own spelling
    (``log.Debug``, ``LOG.Warn``): a logging call, which reports its handler's failures itself."""
    if not isinstance(func, cst.Attribute):
        return False
    name = func.attr.value
    if name in names.LOGGING_METHODS:
        return True
    receiver = _terminal(func.value)
    return name.lower() in names.LOGGING_METHODS and receiver is not None and "log" in receiver.lower()


def _parameters(function: cst.FunctionDef) -> List[cst.Param]:
    return [*function.params.posonly_params, *function.params.params]


def _display(value: Optional[Node]) -> bool:
    """A container the expression makes afresh: a display, a comprehension, ``[None] * n``."""
    if isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.Multiply):
        return _display(value.left) or _display(value.right)
    return isinstance(value, (cst.List, cst.Set, cst.Dict, cst.ListComp, cst.SetComp, cst.DictComp))


def _item_of(target: Node, name: str) -> bool:
    """``c[k] = x`` stores an item into ``c``: it fills the container, it does not rebind it."""
    return isinstance(target, cst.Subscript) and isinstance(target.value, cst.Name) and target.value.value == name


def _targets(node: Node) -> List[cst.BaseExpression]:
    if isinstance(node, cst.Assign):
        return [t.target for t in node.targets]
    if isinstance(node, (cst.AnnAssign, cst.AugAssign)):
        return [node.target]
    return []


# -- the analysis of one module ------------------------------------------------------------


#: The nodes through which ``_aliases`` finds more names for a temp (concrete types:
#: ``type(n) in`` costs less than ``isinstance`` against libcst's ABCs).
_BINDERS = frozenset({cst.Assign, cst.AnnAssign, cst.For, cst.Call, cst.WithItem})


class Analysis:
    """Indexes a module once, then answers for each function what its temps do."""

    def __init__(self, module: cst.Module, value_of: ValueOf, package: Optional[str] = None) -> None:
        self.module = module
        self.value_of = value_of
        self.package = package  # the file's top-level package: its absolute imports name the project
        self.parent: Dict[Node, Node] = {}
        self.order: Dict[Node, int] = {}
        self.end: Dict[Node, int] = {}
        self.calls: Dict[Node, List[cst.Call]] = {}  # scope -> calls in it
        self._moved_beside: Dict[cst.Call, bool] = {}
        self.scope_of: Dict[Node, Node] = {}
        self.kids: Dict[Node, List[Node]] = {}
        self.classes: List[cst.ClassDef] = []
        self._index(module)
        self._returns: Dict[Node, Optional[Made]] = {}
        self._returned_from: Dict[Node, List[Node]] = {}
        self._parameter_effects: Dict[Node, Dict[str, Status]] = {}
        self._raises: Dict[Node, Optional[str]] = {}
        self._temps: Dict[Node, List[Temp]] = {}
        self._locals: Dict[Node, FrozenSet[str]] = {}
        self._released: Dict[Tuple[cst.ClassDef, str, bool, Optional[Node], Optional[str], bool], bool] = {}
        self._busy: Set[Node] = set()
        self._cleaning: Set[Node] = set()
        self._partials: Optional[Dict[str, List[Tuple[cst.Call, Node, Made]]]] = None
        self._families: Dict[cst.ClassDef, List[cst.ClassDef]] = {}
        self._bases: Optional[Dict[cst.ClassDef, List[cst.ClassDef]]] = None
        self._naming: Optional[Dict[str, Set[Node]]] = None
        self._initializers: Dict[cst.ClassDef, Optional[cst.FunctionDef]] = {}
        self._own: Dict[Node, List[Node]] = {}
        self._binders: Dict[Node, List[Node]] = {}
        self._containers: Dict[Tuple[Node, str], bool] = {}
        self._method_releases: Dict[Tuple[cst.ClassDef, str, str, bool], bool] = {}

    def _index(self, module: cst.Module) -> None:
        counter = 0
        stack: List[Tuple[Node, Node, bool]] = [(module, module, False)]
        while stack:
            node, scope, done = stack.pop()
            if done:
                self.end[node] = counter
                continue
            counter += 1
            self.order[node] = counter
            self.scope_of[node] = scope
            # ``type(...) is``: libcst's classes are ABCs, whose ``isinstance`` costs a call.
            kind = type(node)
            if kind is cst.Call:
                self.calls.setdefault(scope, []).append(node)  # type: ignore[arg-type]
            elif kind is cst.ClassDef:
                self.classes.append(node)  # type: ignore[arg-type]
            inner = node if kind is cst.FunctionDef or kind is cst.Lambda or kind is cst.ClassDef else scope
            stack.append((node, scope, True))
            kids = children(node)
            self.kids[node] = kids
            for child in reversed(kids):
                self.parent[child] = node
                stack.append((child, inner, False))

    def sorted_defs(self, value: Value) -> List[cst.CSTNode]:
        """A value's same-module definitions in source order (never in set order)."""
        return sorted(value.defs, key=lambda d: self.order.get(d, 0))

    # -- methods and their classes

    def method_of(self, function: Node) -> Optional[Tuple[cst.ClassDef, str]]:
        """The class of a method and the name its instance goes by (``self``)."""
        if not isinstance(function, cst.FunctionDef):
            return None
        block = self.parent.get(function)
        cls = self.parent.get(block) if block is not None else None
        params = _parameters(function)
        if not isinstance(cls, cst.ClassDef) or not params or decorated(function, "staticmethod"):
            return None
        return cls, params[0].name.value

    def self_attribute(self, target: Node, scope: Node) -> Optional[Tuple[cst.ClassDef, str]]:
        """``self.attr`` (or ``self.attr[k]``, ``self.attr.x``) in a method: the class and ``attr``."""
        while isinstance(target, (cst.Subscript, cst.Attribute)) and not (
            isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name)
        ):
            target = target.value
        method = self.method_of(scope)
        if method is None or not isinstance(target, cst.Attribute) or not isinstance(target.value, cst.Name):
            return None
        cls, self_name = method
        return (cls, target.attr.value) if target.value.value == self_name else None

    def family(self, cls: cst.ClassDef) -> List[cst.ClassDef]:
        """The class, its same-module bases and its same-module subclasses, transitively."""
        found = self._families.get(cls)
        if found is not None:
            return found
        relatives: Dict[cst.ClassDef, List[cst.ClassDef]] = {}
        for klass, bases in self.bases().items():
            relatives.setdefault(klass, []).extend(bases)
            for base in bases:
                relatives.setdefault(base, []).append(klass)
        members = [cls]
        for member in members:  # grows while it is walked: a breadth-first search
            members.extend(k for k in relatives.get(member, ()) if k not in members)
        self._families[cls] = members
        return members

    def bases(self) -> Dict[cst.ClassDef, List[cst.ClassDef]]:
        """Each class's same-module bases."""
        if self._bases is None:
            self._bases = {}
            for klass in self.classes:
                self._bases[klass] = [
                    base for arg in klass.bases for base in self.sorted_defs(self.value_of(arg.value)) if isinstance(base, cst.ClassDef)
                ]
        return self._bases

    def functions_naming(self, attr: str) -> Set[Node]:
        """The functions (and lambdas) in which some ``x.attr`` (or ``getattr(x, "attr")``) appears."""
        if self._naming is None:
            self._naming = {}
            for node, scope in self.scope_of.items():
                if isinstance(scope, (cst.FunctionDef, cst.Lambda)):
                    name = node.attr.value if isinstance(node, cst.Attribute) else self.attribute_read(node)
                    if name is not None:
                        self._naming.setdefault(name, set()).add(scope)
        return self._naming.get(attr, set())

    def shared_by_the_class(self, cls: cst.ClassDef, attr: str) -> bool:
        """Whether ``attr`` is set in the class body and on no instance (``TEMPFILES = []``,
        never ``self.TEMPFILES = ...``): every instance and the class share it, so what is
        stored in it outlives the object, as in a module's list."""
        body = cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ()
        declared = any(
            isinstance(t, cst.Name) and t.value == attr
            for statement in body if isinstance(statement, cst.SimpleStatementLine)
            for small in statement.body for t in _targets(small)
        )
        if not declared:
            return False
        family = self.family(cls)
        for function in self.functions_naming(attr):
            method = self.method_of(function)
            if method is None or method[0] not in family:
                continue
            for node in self._walk(function):
                for target in _targets(node):
                    # ``self.TEMPFILES = []`` (not ``self.TEMPFILES[k] = v``): an instance's own list.
                    if isinstance(target, cst.Attribute) and target.attr.value == attr and self.self_attribute(target, function):
                        return False
        return True

    def exposed(self, cls: cst.ClassDef, attr: str) -> bool:
        """Whether a public property of the class (or a same-module relative) returns
        ``self.attr`` (``@property def directory(self): return self._directory``): the class
        gives what it holds to its users, whose it is from then on."""
        family = self.family(cls)
        for function in self.functions_naming(attr):
            method = self.method_of(function)
            if method is None or method[0] not in family or not isinstance(function, cst.FunctionDef):
                continue
            if function.name.value.startswith("_") or not is_property(function):
                continue
            for node in self._walk(function):
                if isinstance(node, cst.Return) and isinstance(node.value, cst.Attribute) and node.value.attr.value == attr:
                    if isinstance(node.value.value, cst.Name) and node.value.value.value == method[1]:
                        return True
        return False

    def torn_down_anyway(self, cls: cst.ClassDef, attr: str, inside: bool, scope: Node) -> bool:
        """Whether ``scope``, pytest's ``setup_class`` of a unittest test case, keeps
        ``cls.attr`` for ``tearDownClass`` to remove: pytest runs that even when
        ``setup_class`` fails, so the temp is the class's from the start."""
        if not isinstance(scope, cst.FunctionDef) or scope.name.value != "setup_class":
            return False
        bases = [self.value_of(arg.value) for member in self.family(cls) for arg in member.bases if arg.keyword is None]
        if not any(base.callees & names.TEST_CASE_CLASSES for base in bases):
            return False
        return self.released(cls, attr, inside, only="tearDownClass")

    def released(
        self, cls: cst.ClassDef, attr: str, inside: bool = False, besides: Optional[Node] = None, only: Optional[str] = None,
        unseen: bool = True,
    ) -> bool:
        """Whether some method of the class (or a same-module base or subclass), other than
        ``besides`` (``only``: the methods of that name), removes, moves or registers the
        removal of what ``self.attr`` holds (``inside``: of the new temp directory a path
        inside it lies in); ``unseen``: or may, from a base of the project's own in another
        module."""
        key = (cls, attr, inside, besides, only, unseen)
        found = self._released.get(key)
        if found is not None:
            return found
        self._released[key] = False  # recursion answers "no" meanwhile
        result = False
        family = set(self.family(cls))
        # Only functions that name the attribute can remove what it holds.
        for function in sorted(self.functions_naming(attr), key=lambda f: self.order[f]):
            method, owner = self.method_and_class(function)
            if owner not in family or function is besides:
                continue
            if only is not None and not (isinstance(method, cst.FunctionDef) and method.name.value == only):
                continue
            if self.lets_go(function, attr, inside):
                result = True
                break
        if not result and only is None and unseen and self.inherits_unseen(cls):
            result = True  # a base of the project's own, in another module, may remove it
        self._released[key] = result
        return result

    def method_and_class(self, function: Node) -> Tuple[Node, Optional[Node]]:
        """The method holding ``function`` (itself, or the method a closure is in) and the
        class or module that holds that method."""
        method, owner = function, self.scope_of.get(function)
        while owner is not None and not isinstance(owner, (cst.ClassDef, cst.Module)):
            method, owner = owner, self.scope_of.get(owner)
        return method, owner

    def lets_go(self, function: Node, attr: str, inside: bool) -> bool:
        """Whether ``function`` removes, moves or registers the removal of what ``x.attr`` holds."""
        probe = Temp(cst.Call(func=cst.Name("_")), function, "", DIRECTORY_OBJECT, "", False, inside=inside, attributes=frozenset({attr}))
        self._aliases(function, [probe])
        return self.lets_go_of(function, probe)

    def lets_go_of(self, function: Node, temp: Temp) -> bool:
        """Whether a call in ``function`` removes, moves or registers the removal of ``temp``."""
        return any(self.cleans(c, temp) or self.moves(c, temp) for c in self.calls.get(function, ()))

    def leaves_the_base_out(self, cls: cst.ClassDef, scope: Node) -> bool:
        """Whether ``scope`` enters (``setUpClass``) and the class or a same-module base
        defines the method that leaves it (``tearDownClass``) without calling a base's
        (``super().tearDownClass()``): a base not in view never gets to remove what
        ``scope`` keeps then (pyomo's test cases, whose own ``tearDownClass`` is ``pass``)."""
        method = self.method_of(scope)
        leaving = names.ENTERING.get(scope.name.value) if method is not None else None  # type: ignore[attr-defined]
        own = self.inherited_method(cls, leaving, own=True) if leaving is not None else None
        if own is None:
            return False
        return not any(
            isinstance(c.func, cst.Attribute) and c.func.attr.value == leaving for c in self.calls.get(own, ())
        )

    def inherits_unseen(self, cls: cst.ClassDef) -> bool:
        """Whether the class or one of its same-module relatives derives from a class of
        the project that this module imports (``from ..app import JupyterHub``, or by its
        absolute name, ``from jupyterhub.app import JupyterHub`` inside ``jupyterhub``):
        its methods, which may remove what the subclass keeps, are not in view."""
        bases = [self.value_of(arg.value) for member in self.family(cls) for arg in member.bases]
        return any(not base.defs and any(names.of_project(c, self.package) for c in base.callees) for base in bases)

    # -- temps and their names

    def creation_kind(self, call: cst.Call) -> Optional[Made]:
        """What ``call`` makes, when it creates a temp (or returns one from a helper)."""
        value = self.value_of(call.func)
        if any(isinstance(t, Partial) for t in value.idents):
            return self.partial_made(call)  # the factory with what the ``partial`` bound
        if value.callees & names.DOWNLOAD_TEMPS:
            if any(a.star for a in call.args) or _argument(call, 1, "filename") is not None:
                return None  # downloaded where the code said
            return Made(FILE, sorted(value.callees & names.DOWNLOAD_TEMPS)[0], 0)
        if value.callees & (names.JOIN_CALLS | names.PATH_CLASSES) and self.unique_in_temp(call):
            return Made(DIRECTORY if self.makes_directories(call) else FILE, sorted(value.callees)[0], named=True, unique=True)
        for found in sorted(value.callees):
            # ``from toil.lib.io import mkdtemp``: a project's maker named as tempfile's, called
            # by that name or through its imported module (mercurial's ``pycompat.mkstemp()``),
            # makes what tempfile's would (an object's method so named may be anything).
            wrapped = names.tempfile_lookalike(found) if self.called_as_imported(call.func) else None
            callee = wrapped or found
            kind = _FACTORY_KINDS.get(callee)
            if kind is not None:
                if callee == "tempfile.mktemp" and self._pipe_name(call):
                    return None  # a Windows named pipe's name, not a file
                if self.in_a_temp_directory(callee, call):
                    return None  # that directory's to remove, with it
                deleting = kind == FILE_OBJECT and not _is_false(_argument(call, 7, "delete"))
                index = 1 if callee == "tempfile.mkstemp" else None
                # A lookalike's positional arguments need not be tempfile's: ``mktemp(d)``
                # of ``ZODB.utils`` makes its file in ``d``. A spelled-out string is a
                # suffix or a prefix (``mkdtemp("debugWorkflow")``); another value may be where.
                located = self._in_temp_location(callee, [call]) and not (wrapped and any(
                    a.keyword is None and not isinstance(a.value, cst.SimpleString) for a in call.args
                ))
                return Made(kind, callee, index, deleting=deleting, named=callee == "tempfile.mktemp", located=located)
        if not value.callees and not value.defs:
            made = self.partial_made(call)
            if made is not None:
                return made
        for definition in self.sorted_defs(value):
            if isinstance(definition, cst.FunctionDef):
                returned = self.returns_temp(definition)
                if returned is not None and not self.declines(definition, call):
                    return returned
        return None

    def _made_in_argument(
        self, creation: cst.Call, expression: Node, call: cst.Call, made: Made, conditional: bool, guards: FrozenSet[str],
    ) -> Optional[Temp]:
        """A temp made right in an argument of ``call`` (``run(mkdtemp())``, ``Indexer(root=
        mkdtemp())``), as the statement ``call`` is (an expression, or the value assigned):
        the same temp as ``d = mkdtemp(); run(d)``, whose only name is that argument, so its
        verdict is that one's. A call in a ``return`` or a ``yield`` is not followed: its
        result, which may hold the temp, goes to the caller."""
        line = self.parent.get(call)
        if isinstance(line, cst.Assign) and line.value is call and len(line.targets) == 1 or isinstance(line, cst.Expr) and line.value is call:
            statement = self.parent.get(line)
        else:
            return None
        if not isinstance(statement, cst.SimpleStatementLine) or self.value_of(creation.func).defs:
            return None  # a helper's temp is judged at the helper, and where its result is kept
        callees = self.value_of(call.func).callees
        if any(c in _FACTORY_KINDS or names.tempfile_lookalike(c) for c in callees) or self.creation_kind(call) is not None:
            return None  # ``mkstemp(dir=mkdtemp())``: a maker's directory, left to the rules on moves
        if made.named and (not isinstance(line, cst.Expr) or not self._may_make(call)):
            # ``print(mktemp())``, ``load(mktemp())``: still only a name; and one kept in a
            # result (``p = realpath(mktemp())``, ``Provider(value=mktemp())``) may be one too.
            return None
        name = _terminal(call.func)
        if name is None:
            return None
        key = f"{name}()"
        is_path = self.value_of(expression).is_path
        temp = Temp(
            creation, statement, made.factory, made.kind, key, is_path, inside=made.inside,
            located=made.located, conditional=conditional, guards=guards, unique=made.unique, inline=expression,
        )
        temp.handles[key] = PATH
        return temp

    def called_as_imported(self, func: Node) -> bool:
        """``mkdtemp`` or ``pycompat.mkdtemp``: a function named by its import, or reached
        through a module imported by its own (lower-case) name; not a method of an object
        the code made or was given (ansible's ``self._shell.mkdtemp()`` returns a shell
        command), nor of one a module holds (pyomo's ``with TempfileManager as tmp:
        tmp.mkdtemp()`` removes what it made when the block ends)."""
        if isinstance(func, cst.Name):
            return True
        if not isinstance(func, cst.Attribute):
            return False
        receiver = _terminal(func.value)
        callees = self.value_of(func.value).callees
        return receiver is not None and receiver[:1].islower() and any(c.rpartition(".")[2] == receiver for c in callees)

    def unique_in_temp(self, call: cst.Call) -> bool:
        """``os.path.join(tempfile.gettempdir(), f"app-{uuid.uuid4()}")``: a name in the
        temp directory itself made unique by a call, which nothing else will ever remove."""
        if len(call.args) < 2 or any(a.star or a.keyword is not None for a in call.args):
            return False
        first = call.args[0].value
        if not isinstance(first, cst.Call) or not self.value_of(first.func).callees & names.TEMP_DIR_CALLS:
            return False
        return any(
            isinstance(n, cst.Call) and self.value_of(n.func).callees & names.UNIQUE_NAME_CALLS
            for a in call.args[1:] for n in self._walk(a.value)
        )

    def makes_directories(self, call: cst.Call) -> bool:
        """Whether the function holding ``call`` makes a directory somewhere (what a unique
        name in the temp directory most likely becomes then)."""
        scope = self.scope_of.get(call, self.module)
        return any(
            self.value_of(c.func).callees & {"os.makedirs", "os.mkdir"} or isinstance(c.func, cst.Attribute) and c.func.attr.value == "mkdir"
            for c in self.calls.get(scope, ())
        )

    def _pipe_name(self, call: cst.Call) -> bool:
        prefix = _argument(call, 1, "prefix")
        # the template of ``r"\\.\pipe\x-%d" % n`` or ``"...{}".format(n)``
        while isinstance(prefix, (cst.BinaryOperation, cst.Call)):
            prefix = prefix.left if isinstance(prefix, cst.BinaryOperation) else getattr(prefix.func, "value", None)
        literal = prefix.evaluated_value if isinstance(prefix, cst.SimpleString) else None
        return isinstance(literal, str) and literal.startswith("\\\\.\\pipe\\")

    def in_a_temp_directory(self, factory: str, call: cst.Call) -> bool:
        """Whether ``call`` makes its temp inside a directory ``tempfile`` made (``mkdtemp(dir=
        self._temp_dir)`` with ``self._temp_dir = mkdtemp()``, ``NamedTemporaryFile(dir=d)``
        in ``with TemporaryDirectory() as d``): removing that directory removes it, and
        whether something does is asked of that directory's own creation."""
        directory = _argument(call, names.TEMP_FACTORIES[factory][0], "dir")
        if directory is None or any(a.star for a in call.args):
            return False
        value = self.value_of(directory)
        return any(
            isinstance(t, Fresh) and self.value_of(t.call.func).callees & _DIRECTORY_FACTORIES
            for t in (*value.idents, *value.within)
        )

    def _in_temp_location(self, factory: str, calls: Sequence[cst.Call]) -> bool:
        """Whether the factory's ``dir=`` (given in any of ``calls``: a partial and its
        call) leaves the temp in the temp location: absent, ``None``, or a temp directory."""
        index = names.TEMP_FACTORIES[factory][0]
        for call in calls:
            if any(a.star for a in call.args):
                return False  # ``**kwargs`` may hold a ``dir``
        directory = _argument(calls[-1], index, "dir") if len(calls) == 1 else next(
            (a.value for c in calls for a in c.args if a.keyword is not None and a.keyword.value == "dir"), None
        )
        if directory is None or _is_none(directory):
            return True
        # The temp directory itself (``gettempdir()``, a ``/tmp`` literal), not a directory
        # that is temp by what made it (``mkdtemp()``) or by its name (``tmp_dir``): a temp
        # made inside one of those is that directory's to remove, with it.
        value = self.value_of(directory)
        if TEMP not in value.locations:
            return False
        if isinstance(directory, cst.Call) and self.value_of(directory.func).callees & names.TEMP_DIR_CALLS:
            return True
        return value.literal is not None

    def partial_made(self, call: cst.Call) -> Optional[Made]:
        """The call of a ``functools.partial`` factory bound to a name or attribute
        (``make = partial(NamedTemporaryFile, delete=False)``; ``make()``) that the call can
        see: a module's or its own function's name, or an attribute of its own object."""
        if self._partials is None:
            self._partials = {}
            for scope_calls in self.calls.values():
                for inner in scope_calls:
                    if not self.value_of(inner.func).callees & {_PARTIAL} or not inner.args:
                        continue
                    factory = sorted(self.value_of(inner.args[0].value).callees & _FACTORY_KINDS.keys())
                    holder = self.parent.get(inner)
                    if not factory or not isinstance(holder, cst.Assign) or len(holder.targets) != 1:
                        continue
                    name = _terminal(holder.targets[0].target)
                    if name is not None:
                        kind = _FACTORY_KINDS[factory[0]]
                        made = Made(kind, factory[0], 1 if factory[0] == "tempfile.mkstemp" else None)
                        self._partials.setdefault(name, []).append((inner, holder.targets[0].target, made))
        name = _terminal(call.func)
        bound = next((b for b in self._partials.get(name, ()) if self._sees(call, b[1])), None) if name is not None else None
        if bound is None:
            return None
        partial, _, made = bound
        made = replace(made, located=self._in_temp_location(made.factory, [partial, call]))
        if made.kind == FILE_OBJECT:
            given = [a.value for a in (*partial.args[1:], *call.args) if a.keyword is not None and a.keyword.value == "delete"]
            made = replace(made, deleting=not (given and _is_false(given[-1])))
        return replace(made, named=made.factory == "tempfile.mktemp")

    def _sees(self, call: cst.Call, target: Node) -> bool:
        """Whether ``call``'s function can be what the assignment to ``target`` bound: a name
        of the module, of the call's own function or one around it; ``self.make`` (or a
        class attribute) of the call's own object's class family."""
        bound_in = self.scope_of.get(target, self.module)
        if isinstance(target, cst.Name) and isinstance(call.func, cst.Name):
            scope: Optional[Node] = self.scope_of.get(call, self.module)
            while scope is not None and scope is not bound_in and not isinstance(scope, cst.Module):
                scope = self.scope_of.get(scope)
            return scope is bound_in
        if not isinstance(call.func, cst.Attribute):
            return False
        used = self.method_of(self.scope_of.get(call, self.module))
        if used is None or not isinstance(call.func.value, cst.Name) or call.func.value.value != used[1]:
            return False
        if isinstance(bound_in, cst.ClassDef) and isinstance(target, cst.Name):
            owner: Optional[cst.ClassDef] = bound_in  # ``make = partial(...)`` in the class body
        else:
            made_on = self.self_attribute(target, bound_in) if isinstance(target, cst.Attribute) else None
            owner = made_on[0] if made_on is not None else None
        return owner is not None and owner in self.family(used[0])

    def starts_below(self, node: Node) -> bool:
        """Whether text added to a directory's path names something in it: ``"/x"``, ``os.sep``."""
        if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
            text = node.evaluated_value
            return isinstance(text, str) and text.startswith("/")
        if isinstance(node, cst.FormattedStringText):
            return node.value.startswith("/")
        return isinstance(node, cst.Attribute) and bool(self.value_of(node).callees & _SEPARATORS)

    def climb(self, call: cst.Call, made: Made) -> Optional[Tuple[Node, Made, bool, FrozenSet[str]]]:
        """The expression a creation ends up as (``mkstemp()[1]``, ``NamedTemporaryFile().name``,
        ``Path(mkdtemp())``, ``os.path.join(mkdtemp(), "x")``, ``out or mkdtemp()``), what it
        is then, whether it may not be a temp at all, and the names that decide that."""
        expression: Node = call
        parent = self.parent.get(expression)
        if made.index is not None and isinstance(parent, cst.Subscript):
            (element,) = parent.slice if len(parent.slice) == 1 else (None,)
            if element is None or not isinstance(element.slice, cst.Index) or not isinstance(element.slice.value, cst.Integer):
                return None
            if int(element.slice.value.value) != made.index:
                return None
            expression, made = parent, replace(made, index=None)
            parent = self.parent.get(expression)
        conditional = False
        guards: Set[str] = set()
        while True:
            up: Optional[Node] = None
            if isinstance(parent, cst.Attribute) and parent.value is expression:
                if parent.attr.value == "name" and made.kind == FILE_OBJECT and made.index is None:
                    made, up = replace(made, kind=FILE, named=made.deleting, deleting=False), parent
            elif isinstance(parent, cst.Arg) and made.index is None and made.kind in (FILE, DIRECTORY):
                wrapper = self.parent.get(parent)
                if isinstance(wrapper, cst.Call) and wrapper.args and wrapper.args[0] is parent and parent.keyword is None and not parent.star:
                    callees = self.value_of(wrapper.func).callees
                    if len(wrapper.args) == 1 and (callees & _SAME_PATH_CALLS or self.converts(wrapper, made)):
                        up = wrapper
                    elif len(wrapper.args) > 1 and made.kind == DIRECTORY and callees & _JOINING_CALLS:
                        made, up = replace(made, inside=True), wrapper
            elif isinstance(parent, cst.BinaryOperation) and parent.left is expression and made.kind == DIRECTORY:
                # ``Path(mkdtemp()) / "x"``, ``mkdtemp() + "/x"``, ``mkdtemp() + os.sep + name``
                if isinstance(parent.operator, cst.Divide):
                    made, up = replace(made, inside=True), parent
                elif isinstance(parent.operator, cst.Add) and self.starts_below(parent.right):
                    made, up = replace(made, inside=True), parent
                    then = self.parent.get(parent)
                    if isinstance(then, cst.BinaryOperation) and then.left is parent and isinstance(then.operator, cst.Add):
                        up = then  # ``+ os.sep``, then the name
            elif isinstance(parent, cst.BinaryOperation) and parent.left is expression and made.named and made.kind == FILE:
                if isinstance(parent.operator, cst.Add):
                    up = parent  # ``mktemp() + ".ts"``: only a name, so the file is the name with its suffix
            elif isinstance(parent, cst.FormattedStringExpression) and made.named and made.kind == FILE:
                text = self.parent.get(parent)
                if isinstance(text, cst.FormattedString) and text.parts and text.parts[0] is parent:
                    up = text  # ``f"{mktemp()}.ts"``
            elif isinstance(parent, cst.FormattedStringExpression) and made.kind == DIRECTORY and made.index is None:
                text = self.parent.get(parent)
                if isinstance(text, cst.FormattedString) and len(text.parts) > 1 and text.parts[0] is parent and self.starts_below(text.parts[1]):
                    made, up = replace(made, inside=True), text  # ``f"{mkdtemp()}/{name}.csv"``
            elif isinstance(parent, cst.BooleanOperation) and made.index is None:
                other = parent.left if parent.right is expression else parent.right
                guards |= self.names_in(other)
                conditional, up = True, parent
            elif isinstance(parent, cst.IfExp) and parent.test is not expression and made.index is None:
                guards |= self.names_in(parent.test)
                conditional, up = True, parent
            if up is None:
                return expression, made, conditional, frozenset(guards)
            expression, parent = up, self.parent.get(up)

    def converts(self, call: cst.Call, made: Made) -> bool:
        """``tmp_dir = realpath(mkdtemp())``, ``bytestring_path(...)``, ``py.path.local(...)``:
        a call of one argument, a new temp's path, whose result the code keeps instead of
        the path: the path in another form (the code has no other name for the temp)."""
        line = self.parent.get(call)
        if not isinstance(line, (cst.Assign, cst.AnnAssign)) or line.value is not call or made.named:
            return False
        callees = self.value_of(call.func).callees
        return not callees & (names.CLEANUP_FUNCTIONS | _CONTAINER_MAKERS) and not any(c in _FACTORY_KINDS for c in callees)

    def names_in(self, node: Node) -> Set[str]:
        found: Set[str] = set()
        for inner in self._walk(node):
            key = _key(inner)
            if key is not None:
                found.add(key)
        return found

    def returns_temp(self, function: cst.FunctionDef) -> Optional[Made]:
        """What a same-module function returns when it hands a temp to its caller."""
        if function in self._returns:
            return self._returns[function]
        if function in self._busy:
            return None
        self._busy.add(function)
        found: Optional[Made] = None
        temps = [
            t for t in self.temps_of(function)
            if t.owner is None and not t.conditional and not self._kept_elsewhere(function, t)
        ]
        made_at: List[Node] = []  # the statements that made what it returns
        for node in self._walk(function.body):
            if not isinstance(node, cst.Return) or node.value is None or self.scope_of.get(node) is not function:
                continue
            if _is_none(node.value):
                continue
            elements = node.value.elements if isinstance(node.value, cst.Tuple) else None
            returned: Optional[Made] = None
            for index, expression in enumerate([e.value for e in elements] if elements else [node.value]):
                where = index if elements else None
                for inner in calls_in(expression):
                    made = self.creation_kind(inner)
                    climbed = self.climb(inner, made) if made is not None else None
                    if climbed is not None and climbed[0] is expression and not climbed[2] and not climbed[1].deleting:
                        made = climbed[1]
                        if made.index is None or where is None:
                            returned = replace(made, index=where if made.index is None else made.index)
                            made_at.append(node)
                for temp in temps:
                    if self.holds_object(expression, temp):
                        if not temp.deleting:
                            returned = Made(temp.kind, temp.factory, where, named=temp.named, inside=temp.inside, located=temp.located)
                            made_at.append(temp.statement)
                    elif self.refers(expression, temp):
                        # ``return f.name`` of a ``NamedTemporaryFile(delete=False)``: the caller gets
                        # a path; of one that deletes its file (gone with the object), or that a
                        # ``finally`` around the ``return`` removes, only a name
                        kind = FILE if temp.kind == FILE_OBJECT else temp.kind
                        named = temp.named or temp.deleting or self.removed_on_return(node, temp)
                        returned = Made(kind, temp.factory, where, named=named, inside=temp.inside, located=temp.located)
                        made_at.append(temp.statement)
                    elif temp.kind == DIRECTORY and self.derives(expression, temp):
                        returned = Made(DIRECTORY, temp.factory, where, inside=True, located=temp.located)
                        made_at.append(temp.statement)
            if returned is None:
                found = None  # it returns something else too: callers get a temp only sometimes
                break
            found = found or returned
        self._busy.discard(function)
        self._returns[function] = found
        self._returned_from[function] = made_at
        return found

    def declines(self, function: cst.FunctionDef, call: cst.Call) -> bool:
        """Whether this call's own arguments keep the helper from making what it returns:
        each of its temps is made under an ``if`` on a parameter (``if not cache:``, ``if out
        is None:``) that the argument given, or the default left, makes go the other way
        (``fetch(url, cache=True)``)."""
        made_at = self._returned_from.get(function) or []
        return bool(made_at) and all(
            any(self._static_test(test, function, call) is (not holds) for test, holds in self._parameter_guards(function, node))
            for node in made_at
        )

    def _parameter_guards(self, function: cst.FunctionDef, node: Node) -> List[Tuple[cst.BaseExpression, bool]]:
        """The ``if`` tests on the function's parameters that ``node`` runs under."""
        parameters = {p.name.value for p in _parameters(function)}
        return [(test, holds) for test, holds in self.enclosing_tests(node, function) if self.names_in(test) & parameters]

    def enclosing_tests(self, node: Node, scope: Node) -> List[Tuple[cst.BaseExpression, bool]]:
        """The ``if`` tests ``node`` runs under in ``scope``, innermost first, and whether it
        needs each true (their body) or false (their ``else`` or ``elif``)."""
        found: List[Tuple[cst.BaseExpression, bool]] = []
        parent = self.parent.get(node)
        while parent is not None and parent is not scope:
            if isinstance(parent, cst.If) and node is not parent.test:
                found.append((parent.test, node is parent.body))
            node, parent = parent, self.parent.get(parent)
        return found

    def _static_test(self, test: cst.BaseExpression, function: cst.FunctionDef, call: cst.Call) -> Optional[bool]:
        """The value of a test of one parameter (``p``, ``not p``, ``p is None``, ``p is not
        None``) at ``call``, when the argument given (or the default left) is a constant."""
        negated = False
        while isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            test, negated = test.expression, not negated
        compared: Optional[bool] = None  # ``is None`` (True), ``is not None`` (False)
        if isinstance(test, cst.Comparison) and len(test.comparisons) == 1 and _is_none(test.comparisons[0].comparator):
            operator = test.comparisons[0].operator
            if not isinstance(operator, (cst.Is, cst.IsNot)):
                return None
            test, compared = test.left, isinstance(operator, cst.Is)
        if not isinstance(test, cst.Name) or self._rebinds(function, test.value) or any(a.star for a in call.args):
            return None
        params = _parameters(function)
        param = next((p for p in params if p.name.value == test.value), None)
        if param is None:
            return None
        index = params.index(param) - (1 if self.method_of(function) is not None and isinstance(call.func, cst.Attribute) else 0)
        given = _argument(call, index, param.name.value)
        constant = _constant(given if given is not None else param.default)
        if constant is None:
            return None
        value = (constant[0] is None) == compared if compared is not None else bool(constant[0])
        return value != negated

    def removed_on_return(self, node: cst.Return, temp: Temp) -> bool:
        """Whether a ``finally`` around ``node`` removes the temp as the function returns."""
        child: Node = node
        parent = self.parent.get(node)
        while parent is not None and not isinstance(parent, _SCOPES):
            if isinstance(parent, cst.Try) and parent.finalbody is not None and child is not parent.finalbody:
                if self._surely_cleans(parent.finalbody.body, temp):
                    return True
            child, parent = parent, self.parent.get(parent)
        return False

    def _surely_cleans(self, suite: cst.BaseSuite, temp: Temp) -> bool:
        """Whether ``suite`` removes the temp whatever flag is set: directly, in a ``with``
        or ``try`` body, or under a test of the temp itself (``if os.path.exists(name):``),
        which its absence answers; not under ``if not complete:``."""
        if isinstance(suite, cst.SimpleStatementSuite):  # ``finally: os.remove(name)``
            return any(self.cleans(c, temp) for c in calls_in(suite))
        for statement in suite.body:
            if isinstance(statement, cst.SimpleStatementLine):
                if any(self.cleans(c, temp) for c in calls_in(statement)):
                    return True
            elif isinstance(statement, (cst.With, cst.Try)):
                if self._surely_cleans(statement.body, temp):
                    return True
            elif isinstance(statement, cst.If) and self.mentions(statement.test, temp):
                if self._surely_cleans(statement.body, temp):
                    return True
        return False

    def _kept_elsewhere(self, function: cst.FunctionDef, temp: Temp) -> bool:
        """Whether the helper stores the temp where it outlives the call (``CLONES[url] = path``)
        or registers its removal before returning it: then that owner, not each caller, has it."""
        index = self.temps_of(function).index(temp)
        flow = _Flow(self, function, self.temps_of(function))
        for node in self._walk(function.body):
            if self.scope_of.get(node) is not function or isinstance(node, cst.Return):
                continue
            if isinstance(node, cst.BaseSmallStatement) and flow.effects(node).get(index) is HANDED:
                return True
            if isinstance(node, cst.Call) and (self._registers_cleanup(node, temp) or self._named_releaser(node, temp)):
                return True
        return False

    def temps_of(self, scope: Node) -> List[Temp]:
        found = self._temps.get(scope)
        if found is not None:
            return found
        temps: List[Temp] = []
        for call in self.calls.get(scope, ()):
            made = self.creation_kind(call)
            if made is not None:
                temp = self._held(call, made)
                if temp is not None:
                    temps.append(temp)
        temps = [t for t in temps if not self._inside_another(t, temps)]
        self._aliases(scope, temps)
        self._temps[scope] = temps
        return temps

    def _inside_another(self, temp: Temp, temps: List[Temp]) -> bool:
        """A temp made inside another temp directory of the function (``mkstemp(dir=d)``,
        ``dir=work`` of ``with TemporaryDirectory() as work``) goes when that one goes; so
        does one made in a staging directory the program keeps (``dir=self.tmpdir``)."""
        factory = names.TEMP_FACTORIES.get(temp.factory)
        if factory is not None and temp.factory in self.value_of(temp.creation.func).callees:
            directory = _argument(temp.creation, factory[0], "dir")
        else:  # a helper or a partial: its ``dir=`` is passed on to the factory
            directory = next((a.value for a in temp.creation.args if a.keyword is not None and a.keyword.value == "dir"), None)
        if directory is None:
            directory = _directory_of_prefix(temp.creation)
        if directory is None:
            return False
        if any(other is not temp and other.kind in (DIRECTORY, DIRECTORY_OBJECT) and self.refers(directory, other) for other in temps):
            return True
        scope = self.scope_of.get(temp.creation)
        if scope is not None and self._left_to_default(directory, scope):
            return False  # ``dir=tmpdir`` of ``tmpdir=None`` that a call leaves out: in the temp location
        placed = self.value_of(directory)
        # ``mkstemp(dir=module.tmpdir)``, ``dir=C.DEFAULT_LOCAL_TMP`` (another module's
        # constant, known only by its name): a staging directory of the program's own, not
        # the system's temp location; who made it removes it whole (as XDV203 has it).
        named = isinstance(directory, cst.Attribute) and staging_name(directory.attr.value)
        if (placed.evidence or named) and TEMP not in placed.locations:
            return True
        return scope is not None and self._removed_whole(directory, scope, 0)

    def _left_to_default(self, directory: Node, scope: Node) -> bool:
        """Whether ``directory`` is a parameter whose default is ``None`` (``def
        make(text, tmpdir=None)``) that some call of the function in the module leaves out or
        passes as ``None``: there ``tempfile`` makes the temp in the temp location, whatever
        the parameter's name says."""
        if not isinstance(directory, cst.Name) or not isinstance(scope, cst.FunctionDef):
            return False
        params = _parameters(scope)
        param = next((p for p in params if p.name.value == directory.value), None)
        if param is None or not _is_none(param.default):
            return False
        if self._rebinds(scope, directory.value):
            return False  # ``tmpdir = tmpdir or mkdtemp()``
        index = params.index(param) - (1 if self.method_of(scope) is not None else 0)
        for call in self._callers(scope):
            if any(a.star for a in call.args):
                continue
            given = _argument(call, index, directory.value)
            if given is None or _is_none(given):
                return True
        return False

    def _rebinds(self, scope: cst.FunctionDef, name: str) -> bool:
        """Whether the function binds its parameter ``name`` again."""
        return any(any(isinstance(t, cst.Name) and t.value == name for t in _targets(n)) for n in self.own_nodes(scope))

    def _callers(self, scope: Node) -> List[cst.Call]:
        """The calls in the module that may call the function ``scope``."""
        return [c for calls in self.calls.values() for c in calls if scope in self.value_of(c.func).defs]

    def _removed_whole(self, directory: Node, scope: Node, depth: int) -> bool:
        """Whether ``directory``, seen in ``scope``, is a temp directory that goes whole with
        everything in it: the target of ``with TemporaryDirectory() as d``, or a parameter
        that every same-module call fills with one (``write_input(test_dir)``, called only
        inside ``with TemporaryDirectory() as test_dir``, or through a helper that is)."""
        if not isinstance(directory, cst.Name):
            return False
        for node in self._walk(scope):
            if isinstance(node, cst.WithItem) and node.asname is not None and isinstance(node.asname.name, cst.Name):
                if node.asname.name.value == directory.value and isinstance(node.item, cst.Call):
                    if self.value_of(node.item.func).callees & {"tempfile.TemporaryDirectory"}:
                        return True
        if depth >= 3 or not isinstance(scope, cst.FunctionDef):
            return False
        params = [p.name.value for p in _parameters(scope)]
        if directory.value not in params or self._rebinds(scope, directory.value):
            return False  # not a parameter, or one the function binds again
        if _decorated(scope, _FIXTURES, self.value_of) or scope.name.value.startswith("test"):
            return self._pytest_directory(directory.value, depth)
        if self.method_of(scope) is not None:
            return False
        index = params.index(directory.value)
        callers = self._callers(scope)
        for call in callers:
            given = _argument(call, index, directory.value)
            if given is None or not self._removed_whole(given, self.scope_of.get(call, self.module), depth + 1):
                return False
        return bool(callers)

    def _pytest_directory(self, name: str, depth: int) -> bool:
        """Whether pytest fills a test's or a fixture's parameter ``name`` with a directory it
        removes: ``tmp_path``/``tmpdir``, or a fixture of this module that yields or returns
        one (``str(tmpdir_factory.mktemp("data"))``, its own ``tmp_path``)."""
        if name in _PYTEST_DIRECTORIES:
            return True
        for fixture in self.calls:
            if not (isinstance(fixture, cst.FunctionDef) and fixture.name.value == name and _decorated(fixture, _FIXTURES, self.value_of)):
                continue
            given = [n.value for n in self.own_nodes(fixture) if isinstance(n, (cst.Yield, cst.Return)) and n.value is not None]
            return bool(given) and all(self._made_by_pytest(g, fixture, depth + 1) for g in given)
        return False

    def _made_by_pytest(self, expression: Node, fixture: cst.FunctionDef, depth: int) -> bool:
        """``tmp_path``, ``str(tmpdir_factory.mktemp("x"))``, ``tmp_path / "sub"``, or a name
        bound once to one of those, in the fixture ``fixture``."""
        while isinstance(expression, cst.Call) and len(expression.args) == 1 and self.value_of(expression.func).callees & (_SAME_PATH_CALLS | _JOINING_CALLS):
            expression = expression.args[0].value
        if isinstance(expression, cst.BinaryOperation) and isinstance(expression.operator, cst.Divide):
            return self._made_by_pytest(expression.left, fixture, depth)
        if isinstance(expression, cst.Call) and isinstance(expression.func, cst.Attribute) and expression.func.attr.value == "mktemp":
            receiver = expression.func.value
            return isinstance(receiver, cst.Name) and receiver.value in _PYTEST_FACTORIES
        if not isinstance(expression, cst.Name):
            return False
        bound = [n for n in self.own_nodes(fixture) if isinstance(n, cst.Assign) and any(isinstance(t, cst.Name) and t.value == expression.value for t in _targets(n))]
        if len(bound) == 1:
            return self._made_by_pytest(bound[0].value, fixture, depth)
        return not bound and self._removed_whole(expression, fixture, depth)

    def _redirected(self, call: cst.Call) -> bool:
        """Whether the creation runs inside a ``with`` that points ``tempfile.tempdir``
        somewhere else for its duration (``with swap_attr(tempfile, "tempdir", d)``, or a
        same-module context manager doing that)."""
        node = self.parent.get(call)
        while node is not None and not isinstance(node, (*_SCOPES, cst.Module)):
            if isinstance(node, cst.With) and any(self._points_tempdir(item.item, True) for item in node.items):
                return True
            node = self.parent.get(node)
        return False

    def _points_tempdir(self, expression: Node, deeper: bool) -> bool:
        for inner in self._walk(expression):
            if isinstance(inner, cst.Attribute) and inner.attr.value == "tempdir":
                return True
            if isinstance(inner, cst.SimpleString) and inner.evaluated_value == "tempdir":
                return True
            if deeper and isinstance(inner, cst.Call):
                for definition in self.sorted_defs(self.value_of(inner.func)):
                    if isinstance(definition, cst.FunctionDef) and self._points_tempdir(definition.body, False):
                        return True
        return False

    def _held(self, call: cst.Call, made: Made) -> Optional[Temp]:
        """The temp as held in a name or on ``self``, or None (returned, passed on, unused)."""
        climbed = self.climb(call, made)
        if climbed is None:
            return None
        expression, made, conditional, guards = climbed
        if made.located and self._redirected(call):
            made = replace(made, located=False)
        parent = self.parent.get(expression)
        target: Optional[Node] = None
        statement: Optional[Node] = None
        item = False
        if isinstance(parent, cst.Assign) and parent.value is expression and len(parent.targets) == 1:
            target, statement = parent.targets[0].target, self.parent.get(parent)
        elif isinstance(parent, cst.AnnAssign) and parent.value is expression:
            target, statement = parent.target, self.parent.get(parent)
        elif isinstance(parent, cst.WithItem) and parent.item is expression and parent.asname is not None:
            if made.kind == DIRECTORY_OBJECT:
                return None  # ``with TemporaryDirectory() as d``: the context manager cleans up
            target, statement = parent.asname.name, self.parent.get(parent)  # the With
        elif isinstance(parent, cst.Arg) and parent.keyword is None and not parent.star and made.index is None:
            stored = self.parent.get(parent)  # ``dirs.append(mkdtemp())``: an item of ``dirs``
            line = self.parent.get(stored) if isinstance(stored, cst.Call) else None
            if (
                isinstance(stored, cst.Call) and isinstance(stored.func, cst.Attribute) and stored.func.attr.value in names.STORE_METHODS
                and isinstance(line, cst.Expr) and line.value is stored
            ):
                target, statement, item = stored.func.value, self.parent.get(line), True
            elif isinstance(stored, cst.Call) and made.kind in (FILE, DIRECTORY):
                return self._made_in_argument(call, expression, stored, made, conditional, guards)
        elif isinstance(parent, cst.Arg) and parent.keyword is not None and made.index is None and made.kind in (FILE, DIRECTORY):
            stored = self.parent.get(parent)
            return self._made_in_argument(call, expression, stored, made, conditional, guards) if isinstance(stored, cst.Call) else None
        descriptor: Optional[str] = None
        if made.index is not None:
            if not isinstance(target, (cst.Tuple, cst.List)) or made.index >= len(target.elements):
                return None
            first = target.elements[0].value
            descriptor = first.value if isinstance(first, cst.Name) and made.index == 1 else None
            target = target.elements[made.index].value
        if target is None or statement is None:
            return None
        if made.deleting and (item or not isinstance(target, cst.Name)):
            return None  # deleted on close; only a plain name is followed to what is made at its name
        scope = self.scope_of.get(call, self.module)
        owner: Optional[cst.ClassDef] = None
        if isinstance(target, cst.Subscript):  # ``env["TMP"] = mkdtemp()``
            target, item = target.value, True
        if item:  # held by a container, when the function made it
            if not isinstance(target, cst.Name) or target.value not in self.locals_of(scope):
                return None  # a parameter's, a global's, an attribute's: that owner's to remove
        if isinstance(target, cst.Name):
            if target.value in self._globals(call):
                return None
            key = target.value
        elif isinstance(target, cst.Attribute) and not isinstance(parent, cst.WithItem):
            owned = self.self_attribute(target, scope)
            if owned is None or owned[1] != target.attr.value:
                return None  # on another object, or deeper in this one: that object's to remove
            owner = owned[0]
            key = f"{_key(target.value)}.{target.attr.value}"
            entering = getattr(scope, "name", None) is not None and scope.name.value in names.ENTERING  # type: ignore[attr-defined]
            # What the method removes itself (``self.run_path = mkdtemp()`` ... ``finally:
            # rmtree(self.run_path)``) is its own, whatever a base not in view may do.
            unseen = not self.lets_go(scope, target.attr.value, made.inside)
            if not entering and self.released(owner, target.attr.value, made.inside, besides=scope, unseen=unseen):
                return None  # the object owns it from the start, and another method removes it
            if entering and self.torn_down_anyway(owner, target.attr.value, made.inside, scope):
                return None  # ``tearDownClass`` removes it, even when this ``setup_class`` fails
        else:
            return None
        is_path = self.value_of(expression).is_path
        temp = Temp(
            call, statement, made.factory, made.kind, key, is_path, named=made.named, inside=made.inside,
            located=made.located, conditional=conditional, guards=guards, owner=owner, descriptor=descriptor, item=item,
            unique=made.unique, deleting=made.deleting,
            closing=made.deleting and not _is_false(_argument(call, -1, "delete_on_close")),
        )
        temp.handles[key] = HOLDER if item else OBJECT if made.kind in _OBJECTS else PATH
        return temp

    def _globals(self, node: Node) -> Set[str]:
        """Names declared ``global``/``nonlocal`` in ``node``'s function: they outlive it."""
        scope = self.scope_of.get(node)
        declared: Set[str] = set()
        if isinstance(scope, cst.FunctionDef):
            for inner in self._walk(scope.body):
                if isinstance(inner, (cst.Global, cst.Nonlocal)):
                    declared.update(n.name.value for n in inner.names)
        return declared

    def locals_of(self, scope: Node) -> FrozenSet[str]:
        """Names the scope binds itself (its parameters and globals are someone else's)."""
        found = self._locals.get(scope)
        if found is not None:
            return found
        bound: Set[str] = set()
        for node in self.own_nodes(scope):
            targets: List[Node] = list(_targets(node))
            if isinstance(node, cst.For):
                targets.append(node.target)
            elif isinstance(node, cst.WithItem) and node.asname is not None:
                targets.append(node.asname.name)
            elif isinstance(node, cst.NamedExpr):
                targets.append(node.target)
            for target in targets:
                for inner in self._walk(target):
                    if isinstance(inner, cst.Name) and (inner is target or isinstance(self.parent.get(inner), (cst.Element, cst.StarredElement))):
                        bound.add(inner.value)
        result = frozenset(bound - self._globals_of(scope)) if not isinstance(scope, cst.Module) else frozenset()
        self._locals[scope] = result
        return result

    def in_handler(self, node: Node) -> bool:
        """Whether ``node`` is in an ``except`` clause of its own scope."""
        current = self.parent.get(node)
        while current is not None and not isinstance(current, (*_SCOPES, cst.Module)):
            if isinstance(current, (cst.ExceptHandler, cst.ExceptStarHandler)):
                return True
            current = self.parent.get(current)
        return False

    def own_container(self, scope: Node, name: str) -> bool:
        """Whether ``name`` is a list, set or dict the scope made itself: bound only to
        displays, comprehensions or builtin containers' calls (never a parameter, a
        loop variable or a global)."""
        key = (scope, name)
        found = self._containers.get(key)
        if found is not None:
            return found
        # ``**settings``: a dict each call makes afresh.
        star = scope.params.star_kwarg if isinstance(scope, cst.FunctionDef) else None
        bindings = 1 if star is not None and star.name.value == name else 0
        found = bool(bindings) or name in self.locals_of(scope) and not (
            isinstance(scope, cst.FunctionDef) and any(p.name.value == name for p in (*_parameters(scope), *scope.params.kwonly_params))
        )
        for node in self.own_nodes(scope) if found else ():
            if isinstance(node, (cst.Assign, cst.AnnAssign)):
                targets = _targets(node)
                if any(isinstance(t, cst.Name) and t.value == name for t in targets):
                    value = node.value
                    bindings += 1
                    if len(targets) != 1 or not (
                        _display(value)
                        or isinstance(value, cst.Call) and bool(self.value_of(value.func).callees) and self.value_of(value.func).callees <= _CONTAINER_MAKERS
                    ):
                        found = False
                        break
                elif any(n.value == name for t in targets if not _item_of(t, name) for n in self._walk(t) if isinstance(n, cst.Name)):
                    found = False  # unpacked into, or stored through (``c[k] = x`` only fills it)
                    break
            elif isinstance(node, (cst.For, cst.WithItem, cst.NamedExpr, cst.CompFor)) and name in self.names_in(
                node.target if isinstance(node, (cst.For, cst.NamedExpr, cst.CompFor)) else (node.asname.name if node.asname else cst.Pass())
            ):
                found = False
                break
        found = bool(found and bindings)
        self._containers[key] = found
        return found

    def _globals_of(self, scope: Node) -> Set[str]:
        declared: Set[str] = set()
        for inner in self._walk(scope):
            if isinstance(inner, (cst.Global, cst.Nonlocal)) and self.scope_of.get(inner) is scope:
                declared.update(n.name.value for n in inner.names)
        return declared

    def receiver(self, target: Node, scope: Node) -> Tuple[str, Optional[Tuple[cst.ClassDef, str]]]:
        """Where a store puts the temp: on ``self`` ("self", with the class and attribute),
        in a container or object the function made ("local": it holds the temp now), into
        the standard library's state ("used"), or into something that outlives the call
        ("away": a parameter's, a global's)."""
        owned = self.self_attribute(target, scope)
        if owned is not None:
            return "self", owned
        base = target
        while isinstance(base, (cst.Subscript, cst.Attribute)):
            base = base.value
        if isinstance(base, cst.Name) and base.value in self.locals_of(scope):
            return "local", None
        callees = self.value_of(base).callees
        if callees and all(_of_the_stdlib(c) for c in callees):
            return "used", None  # ``sys.path.insert(0, d)``: the interpreter's, which removes nothing
        return "away", None

    def _aliases(self, scope: Node, temps: List[Temp]) -> None:
        """More names for the same temp: ``path = f.name``, ``p = Path(tmp)`` (its path);
        ``g = f`` (its object); ``paths = [tmp]``, ``job = Job(tmp)``, ``paths.append(tmp)``
        on a container the function made, ``out = os.path.join(tmp, "x")`` (holders, which
        hand the temp on when they are returned or stored); ``for p in paths`` (its path)."""
        if not temps:
            return
        nodes = self._binders.get(scope)
        if nodes is None:  # asked again for each temp and each probe of ``released``
            nodes = self._binders[scope] = [n for n in self.own_nodes(scope) if type(n) in _BINDERS]
        local = self.locals_of(scope)
        for temp in temps:
            for _ in range(4):
                before = len(temp.handles)
                for node in nodes:
                    if isinstance(node, (cst.Assign, cst.AnnAssign)) and node.value is not None:
                        for target, value in (p for t in _targets(node) for p in _pairs(t, node.value)):
                            if isinstance(target, cst.Name):
                                if target.value in temp.handles:
                                    continue
                                role = self.role_of_value(value, temp)
                                if role is not None:
                                    temp.handles[target.value] = role
                            elif self.carries(value, temp):
                                key = _key(target)
                                if isinstance(target, cst.Attribute) and key is not None and self.below_only(value, temp):
                                    temp.handles.setdefault(key, BELOW)  # ``self.files = [join(tmp, n) for n in names]``
                                self._hold(target, local, temp)
                    elif isinstance(node, cst.For):
                        target, iterated = node.target, node.iter
                        if isinstance(target, cst.Tuple) and len(target.elements) == 2 and isinstance(iterated, cst.Call):
                            if iterated.args and self.value_of(iterated.func).callees & {"builtins.enumerate"}:
                                target, iterated = target.elements[1].value, iterated.args[0].value  # ``for i, p in enumerate(paths)``
                        if isinstance(target, cst.Name) and target.value not in temp.handles:
                            if self.iterates(iterated, temp):
                                temp.handles[target.value] = EITHER if temp.kind in _OBJECTS else PATH
                            elif self.carries(iterated, temp) and self.below_only(iterated, temp):
                                temp.handles[target.value] = BELOW  # ``for p in [join(tmp, n) for n in names]``
                    elif isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value in names.STORE_METHODS:
                        if any(self.carries(a.value, temp) for a in node.args):
                            self._hold(node.func.value, local, temp)
                    elif isinstance(node, cst.WithItem) and node.asname is not None and isinstance(node.asname.name, cst.Name):
                        if node.asname.name.value not in temp.handles and self.opens(node.item, temp):
                            temp.handles[node.asname.name.value] = HOLDER
                if len(temp.handles) == before:
                    break

    def _hold(self, target: Node, local: FrozenSet[str], temp: Temp) -> None:
        """``c[k] = tmp``, ``c.x = tmp``, ``c.append(tmp)`` on a name the function bound: ``c`` holds it."""
        while isinstance(target, (cst.Subscript, cst.Attribute)):
            target = target.value
        if isinstance(target, cst.Name) and target.value in local and target.value not in temp.handles:
            temp.handles[target.value] = HOLDER

    def role_of_value(self, value: Node, temp: Temp) -> Optional[str]:
        if temp.inside and self.names_directory(value, temp):
            return DIR
        if self.refers(value, temp):
            return PATH
        if self.holds_object(value, temp):
            return OBJECT
        if self.carries(value, temp) or self.opens(value, temp):
            return BELOW if self.below_only(value, temp) else HOLDER
        return None

    def below_only(self, value: Node, temp: Temp) -> bool:
        """Whether ``value`` carries the temp only as paths below it: one (``join(tmp, "x")``),
        or a display or comprehension of such paths (``[join(tmp, n) for n in names]``)."""
        if isinstance(value, (cst.Tuple, cst.List, cst.Set)):
            carried = [e.value for e in value.elements if self.carries(e.value, temp)]
            return bool(carried) and all(self.below_only(e, temp) for e in carried)
        if isinstance(value, (cst.ListComp, cst.SetComp, cst.GeneratorExp)):
            return self.below_only(value.elt, temp)
        if isinstance(value, (cst.Name, cst.Attribute)):
            return self.role(value, temp) == BELOW
        return self.derives(value, temp) and not self.refers(value, temp)

    def opens(self, value: Node, temp: Temp) -> bool:
        """A file object on the temp (``open(tmp)``, ``os.fdopen(fd)`` of its ``mkstemp``):
        a handle on it, which hands the temp on where it goes."""
        if not isinstance(value, cst.Call) or not value.args or not self.value_of(value.func).callees & _OPENS:
            return False
        first = value.args[0].value
        return self.refers(first, temp) or isinstance(first, cst.Name) and first.value == temp.descriptor

    def item_of(self, value: Node, temp: Temp) -> bool:
        """An item taken out of something holding the temp: ``paths[0]``, ``self.dirs.pop()``."""
        if isinstance(value, cst.Subscript):
            return self.role(value.value, temp) in (HOLDER, EITHER)
        if isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) and value.func.attr.value in _TAKING_METHODS:
            return self.role(value.func.value, temp) in (HOLDER, EITHER)
        return False

    def own_nodes(self, scope: Node) -> List[Node]:
        """The nodes of a scope, not of the functions and classes in it (walked once)."""
        found = self._own.get(scope)
        if found is None:
            found = [n for n in self._walk(scope) if self.scope_of.get(n) is scope]
            self._own[scope] = found
        return found

    def _walk(self, node: Node) -> Iterator[Node]:
        stack = [node]
        kids = self.kids
        while stack:
            current = stack.pop()
            yield current
            found = kids.get(current)
            stack.extend(reversed(found if found is not None else children(current)))

    # -- expressions and the temp

    def names_directory(self, expression: Node, temp: Temp) -> bool:
        """Whether removing (or moving) ``expression`` lets go of the temp: its path; for
        a path inside a new temp directory (``os.path.join(mkdtemp(), "x")``), only that
        directory (``os.path.dirname(p)``, ``p.parent``, a name bound to one), since
        removing or moving the file leaves the directory behind."""
        if not temp.inside:
            return self.refers(expression, temp)
        role = self.role(expression, temp)
        if role is not None:
            return role == DIR
        if isinstance(expression, cst.Attribute) and expression.attr.value == "parent":
            return self.refers(expression.value, temp) and not self.names_directory(expression.value, temp)
        if isinstance(expression, cst.Call) and len(expression.args) == 1:
            func, argument = expression.func, expression.args[0].value
            callees = self.value_of(func).callees
            if callees & _DIRNAME:
                return self.refers(argument, temp) and not self.names_directory(argument, temp)
            if callees & _SAME_PATH_CALLS:
                return self.names_directory(argument, temp)
        if isinstance(expression, cst.Call) and not expression.args:
            func = expression.func
            if isinstance(func, cst.Attribute) and func.attr.value in _SAME_PATH_METHODS:
                return self.names_directory(func.value, temp)
        return False

    def role(self, expression: Node, temp: Temp) -> Optional[str]:
        if expression is temp.inline:
            return PATH
        if isinstance(expression, cst.Attribute) and expression.attr.value in temp.attributes:
            return EITHER
        if temp.attributes and self.attribute_read(expression) in temp.attributes:
            return EITHER  # ``getattr(self, "tmp", None)`` reads ``self.tmp``
        key = _key(expression)
        return temp.handles.get(key) if key is not None else None

    def attribute_read(self, expression: Node) -> Optional[str]:
        """The attribute ``getattr(obj, "name"[, default])`` reads, spelled out."""
        if not isinstance(expression, cst.Call) or not 2 <= len(expression.args) <= 3:
            return None
        name = expression.args[1].value
        if any(a.star or a.keyword for a in expression.args) or not isinstance(name, cst.SimpleString):
            return None
        if self.value_of(expression.func).callees != {"builtins.getattr"}:
            return None
        text = name.evaluated_value
        return text if isinstance(text, str) else None

    def refers(self, expression: Node, temp: Temp) -> bool:
        """Whether ``expression`` is the temp's path (``tmp``, ``f.name``, ``Path(tmp)``;
        for a path inside a temp directory, that directory too: ``os.path.dirname(p)``)."""
        role = self.role(expression, temp)
        if role is not None:
            return role in (PATH, EITHER, DIR)
        if self.item_of(expression, temp):
            return True
        if not temp.deleting and self.made_at(expression, temp):
            return True  # renamed beside its own name (``tmp + ".gz"``): the temp is there now
        if isinstance(expression, cst.Attribute):
            if expression.attr.value == "name":
                # the temp's own object, or a file opened at its path (``with open(tmp, "w") as
                # fout`` ... ``os.unlink(fout.name)``)
                return self.holds_object(expression.value, temp) or _names_path(self.value_of(expression), Fresh(temp.creation))
            return temp.inside and expression.attr.value == "parent" and self.refers(expression.value, temp)
        if isinstance(expression, cst.Call):
            func = expression.func
            if self.transparent(expression):
                return self.refers(expression.args[1].value, temp)
            if isinstance(func, cst.Attribute) and func.attr.value in _SAME_PATH_METHODS and not expression.args:
                return self.refers(func.value, temp)
            if isinstance(func, cst.Attribute) and (
                func.attr.value in _SAME_FILE_STR_METHODS or func.attr.value == "replace" and len(expression.args) == 2
            ) and STR in self.value_of(func.value).kinds:
                return self.refers(func.value, temp)  # ``fname.lower()``, ``fn.replace("\\", "\\\\")``
            if len(expression.args) == 1:
                callees = self.value_of(func).callees
                if callees & _SAME_PATH_CALLS or temp.inside and callees & _DIRNAME:
                    return self.refers(expression.args[0].value, temp)
            if temp.named and self.names_what_it_made(expression, temp):
                return True
            if (
                temp.located and not temp.inside and len(expression.args) > 1 and not any(a.star or a.keyword for a in expression.args)
                and self.value_of(func).callees & names.JOIN_CALLS and self.refers(expression.args[-1].value, temp)
            ):
                return True  # ``join(d, mktemp())``: tempfile's names are absolute, and join keeps an absolute last part
            if self.value_of(func).defs:
                # A function of the module that returns its argument as it is (``to_bytes(p)``):
                # the interpreter names the result as that argument.
                made = self.value_of(expression).idents
                for arg in expression.args:
                    if made and not arg.star and self.value_of(arg.value).idents == made:
                        return self.refers(arg.value, temp)
        return False

    def names_what_it_made(self, call: cst.Call, temp: Temp) -> bool:
        """An unused name (``mktemp()``'s, a unique one in the temp directory) given first to
        a call that returns a value: the call made the file and says where, as
        ``shutil.make_archive(stem, "zip")`` and the project helpers like it return
        ``stem + ".zip"``; so its result is the temp, and removing the result removes it.
        A standard library call that makes nothing of a name (``open``, ``subprocess.run``)
        returns something else."""
        if not call.args or call.args[0].star or call.args[0].keyword is not None or not self.refers(call.args[0].value, temp):
            return False
        callees = self.value_of(call.func).callees
        if self._makes_nothing(call) or not callees & _ARCHIVERS and any(_of_the_stdlib(c) for c in callees):
            return False
        start = self.order.get(call, 0)
        end = self.end[temp.statement]
        return not any(
            end < self.order[c] < start and self.uses(c, temp)
            for c in self.calls.get(self.scope_of.get(call, self.module), ())
        )

    def holds_object(self, expression: Node, temp: Temp) -> bool:
        if isinstance(expression, cst.Call) and self.transparent(expression):
            return self.holds_object(expression.args[1].value, temp)
        role = self.role(expression, temp)
        if role is not None:
            return role in (OBJECT, EITHER)
        # ``self._files[k]`` of a dict of ``NamedTemporaryFile`` objects: one of them
        return temp.kind in _OBJECTS and self.item_of(expression, temp)

    def iterates(self, iterated: Node, temp: Temp) -> bool:
        """Whether a ``for`` over ``iterated`` comes to the temp: a container holding it
        (``paths``, ``self._files.values()``, ``list(paths)``), or a display naming it
        (``(a, b)``); not one of paths below it only."""
        if isinstance(iterated, (cst.Tuple, cst.List, cst.Set)):
            return any(self.carries(e.value, temp) and not self.below_only(e.value, temp) for e in iterated.elements)
        if isinstance(iterated, (cst.ListComp, cst.SetComp, cst.GeneratorExp)):
            return self.carries(iterated.elt, temp) and not self.below_only(iterated.elt, temp)
        if isinstance(iterated, cst.Call):
            func = iterated.func
            if isinstance(func, cst.Attribute) and func.attr.value in _VIEWS and not iterated.args:
                return self.role(func.value, temp) in (HOLDER, EITHER)
            if len(iterated.args) == 1 and self.value_of(func).callees & _ORDERING:
                return self.iterates(iterated.args[0].value, temp)
            if iterated.args and not iterated.args[0].star and self.value_of(func).callees & _GLOBS:
                return self.matches_itself(iterated.args[0].value, temp)
            return False
        return self.role(iterated, temp) in (HOLDER, EITHER)

    def matches_itself(self, pattern: Node, temp: Temp) -> bool:
        """A glob pattern that is the temp's name and then ``*`` (``f"{name}*"``,
        ``name + "*.tmp"``): it matches the name itself, with whatever was made beside it."""
        if isinstance(pattern, cst.IfExp):
            return self.matches_itself(pattern.body, temp) or self.matches_itself(pattern.orelse, temp)
        if isinstance(pattern, cst.FormattedString) and len(pattern.parts) >= 2:
            first, second = pattern.parts[0], pattern.parts[1]
            return (
                isinstance(first, cst.FormattedStringExpression) and self.refers(first.expression, temp)
                and isinstance(second, cst.FormattedStringText) and second.value.startswith("*")
            )
        if isinstance(pattern, cst.BinaryOperation) and isinstance(pattern.operator, cst.Add):
            right = pattern.right
            return self.refers(pattern.left, temp) and isinstance(right, cst.SimpleString) and str(right.evaluated_value).startswith("*")
        return False

    def transparent(self, call: cst.Call) -> bool:
        """``typing.cast(T, x)``: ``x`` itself."""
        return len(call.args) == 2 and bool(self.value_of(call.func).callees & _CASTS)

    def mentions(self, node: Node, temp: Temp) -> bool:
        for inner in self._walk(node):
            if isinstance(inner, cst.Name) and inner.value in temp.handles:
                return True
            if isinstance(inner, cst.Attribute) and (inner.attr.value in temp.attributes or _key(inner) in temp.handles):
                return True
        return False

    def uses(self, node: Node, temp: Temp) -> bool:
        """Whether ``node`` gives a ``mktemp``-like name to a call that may make the file
        (``open(name, "w")``, ``writer.save(name)``, ``subprocess.run(cmd)`` with ``cmd`` built
        from it): storing the name in a result, or formatting or logging it, makes nothing;
        nor does a call that gives the name back in another form (``name = fsencode(name)``)."""
        for inner in self._walk(node):
            if not isinstance(inner, cst.Call) or not self._may_make(inner) or self._converts_in_place(inner):
                continue
            if any(self.mentions(a.value, temp) for a in inner.args):
                return True
            if isinstance(inner.func, cst.Attribute) and inner.func.attr.value not in _STR_METHODS and self.mentions(inner.func.value, temp):
                return True
        return False

    def uses_name(self, node: Node, temp: Temp) -> bool:
        """Whether ``node`` gives the name of a deleting ``NamedTemporaryFile`` (its path, not
        its object) to a call that may make a file there (``open(f.name, "w")``,
        ``wb.save(path)``); not to one only asking about it, nor one expected to fail."""
        fresh = Fresh(temp.creation)
        return self._given(node, lambda v: _names_path(v, fresh))

    def uses_beside(self, node: Node, temp: Temp) -> bool:
        """Whether ``node`` gives a path beside a ``NamedTemporaryFile``'s (``f.name + ".gz"``,
        ``Path(f.name).with_suffix(".x")``) to a call that may make a file there."""
        fresh = Fresh(temp.creation)
        return self._given(node, lambda v: _beside(v, fresh), embedded=True)

    def made_at(self, expression: Node, temp: Temp) -> bool:
        """A path at or beside a deleting ``NamedTemporaryFile``'s (``f2.name`` of ``f2 =
        open(f.name, "w")``, ``f.name + ".gz"``): removing it removes what was made there."""
        if not temp.deleting and not self.moved_beside(temp):
            return False
        value, fresh = self.value_of(expression), Fresh(temp.creation)
        return _names_path(value, fresh) or _beside(value, fresh)

    def _given(self, node: Node, wanted: Callable[[Value], bool], embedded: bool = False) -> bool:
        """Whether ``node`` gives a wanted path to a call that may make a file there;
        ``embedded``: also one written into an f-string argument (``f"ark,t:{path}"``)."""
        for inner in self._walk(node):
            if not isinstance(inner, cst.Call) or not self._may_make(inner):
                continue
            for arg in inner.args:
                if arg.star:
                    continue
                if wanted(self.value_of(arg.value)):
                    return True
                if embedded and isinstance(arg.value, cst.FormattedString) and any(
                    isinstance(part, cst.FormattedStringExpression) and wanted(self.value_of(part.expression)) for part in arg.value.parts
                ):
                    return True
        return False

    def _converts_in_place(self, call: cst.Call) -> bool:
        """``name = pycompat.fsencode(name)``, ``path = Path(path)``: a call of one argument
        whose result the name it was given is bound to again, the same path in another form."""
        line = self.parent.get(call)
        if not isinstance(line, cst.Assign) or line.value is not call or len(line.targets) != 1 or len(call.args) != 1:
            return False
        target, argument = line.targets[0].target, call.args[0]
        return not argument.star and argument.keyword is None and _key(target) is not None and _key(target) == _key(argument.value)

    def _may_make(self, call: cst.Call) -> bool:
        """Whether ``call``, given a name where nothing is yet, may make a file there: not
        one computing a name or a message, one expected to fail, or one reading what is
        there (``load(f.name)``, ``toil.import_file(name)``)."""
        if self._makes_nothing(call) or self._expects_failure(call):
            return False
        return not _READING_NAME.match(_terminal(call.func) or "")

    def _expects_failure(self, call: cst.Call) -> bool:
        """An assertion (``assertEqual(f.name, x)``), or a call inside ``pytest.raises``/
        ``assertRaises``: it looks at the name and makes nothing."""
        name = _terminal(call.func)
        if name is not None and name.startswith("assert"):
            return True
        node = self.parent.get(call)
        while node is not None and not isinstance(node, (*_SCOPES, cst.Module)):
            if isinstance(node, cst.With) and any(isinstance(i.item, cst.Call) and self._expecting(i.item) for i in node.items):
                return True
            node = self.parent.get(node)
        return False

    def _expecting(self, call: cst.Call) -> bool:
        """``pytest.raises(...)``, ``self.assertRaises(...)``: a block that expects a failure."""
        return bool(self.value_of(call.func).callees & _EXPECTING) or (_terminal(call.func) or "").startswith("assertRaises")

    def names_beside(self, scope: Node, temp: Temp) -> bool:
        """Whether the function spells a path beside the temp's (a sum, an f-string,
        ``with_suffix``): only then can a file be made beside it."""
        for node in self.own_nodes(scope):
            if isinstance(node, (cst.BinaryOperation, cst.FormattedString)) or (
                isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value in names.BESIDE_METHODS
            ):
                if self.mentions(node, temp):
                    return True
        return False

    def _makes_nothing(self, call: cst.Call) -> bool:
        """A call that only computes a name or a message from its arguments."""
        if isinstance(call.func, cst.Attribute) and call.func.attr.value in names.LOGGING_METHODS | _PATH_ARITHMETIC:
            return True
        if isinstance(call.func, cst.Attribute) and call.func.attr.value in _LOOKUPS and len(call.args) == 2:
            return True  # ``kwargs.get("out", mktemp())``: the name is a default, handed back as it is
        name = _terminal(call.func)
        if name is not None and (name in _PATH_PREDICATES or _PREDICATE_NAME.fullmatch(name)):
            return True  # ``exists(name)``, ``is_hdf5(name)``, a project's own included: it asks, and makes nothing
        if name is not None and name.endswith(("Error", "Exception", "Warning")):
            return True  # ``RuntimeError("%s exists" % name)``: an exception carries the name
        return bool(self.value_of(call.func).callees & _INERT_CALLS)

    def derives(self, expression: Node, temp: Temp) -> bool:
        """A path below (or beside) the temp's: ``os.path.join(tmp, "x")``, ``tmp / "x"``,
        ``tmp + ".d"``, ``f"{tmp}/x"``."""
        base: Optional[Node] = None
        if isinstance(expression, cst.Call):
            func, args = expression.func, expression.args
            callees = self.value_of(func).callees
            if args and not args[0].star and args[0].keyword is None and callees & _JOINING_CALLS:
                base = args[0].value
            elif isinstance(func, cst.Attribute) and func.attr.value in _DERIVING_METHODS:
                base = func.value
            elif len(args) == 1 and not args[0].star and callees & _SAME_PATH_CALLS:
                return self.derives(args[0].value, temp)  # ``abspath(join(tmp, sub))``
        elif isinstance(expression, cst.BinaryOperation) and isinstance(expression.operator, (cst.Divide, cst.Add)):
            base = expression.left
        elif isinstance(expression, cst.FormattedString) and expression.parts:
            first = expression.parts[0]
            base = first.expression if isinstance(first, cst.FormattedStringExpression) else None
        return base is not None and (self.refers(base, temp) or self.derives(base, temp))

    def spells(self, expression: Node, temp: Temp) -> bool:
        """Text that names the temp: ``"rm -f " + quote(tmp)``, ``"%s" % tmp``,
        ``"{}".format(tmp)``, ``f"... {tmp}"``, ``" ".join([cmd, tmp])``."""
        if isinstance(expression, cst.BinaryOperation):
            if isinstance(expression.operator, cst.Add):
                return self.carries(expression.left, temp) or self.carries(expression.right, temp)
            if isinstance(expression.operator, cst.Modulo):
                return self.carries(expression.right, temp)
        if isinstance(expression, cst.FormattedString):
            return any(isinstance(p, cst.FormattedStringExpression) and self.carries(p.expression, temp) for p in expression.parts)
        if isinstance(expression, cst.Call):
            func, args = expression.func, expression.args
            callees = self.value_of(func).callees
            if len(args) == 1 and callees & _QUOTES:
                return self.carries(args[0].value, temp)
            if callees & _URL_JOINS:
                return any(self.carries(a.value, temp) for a in args)
            if isinstance(func, cst.Attribute) and func.attr.value == "as_uri" and not args:
                return self.carries(func.value, temp)  # ``path.as_uri()``: ``file:///...``
            if isinstance(func, cst.Attribute) and (
                func.attr.value == "format" or func.attr.value == "join" and isinstance(func.value, (cst.SimpleString, cst.ConcatenatedString))
            ):
                return any(self.carries(a.value, temp) for a in args)
        return False

    def carries(self, expression: Node, temp: Temp) -> bool:
        """Whether whoever gets ``expression`` gets the temp: the temp itself, a path
        below it, a container holding it, or an object constructed with it."""
        if self.role(expression, temp) is not None or self.refers(expression, temp) or self.holds_object(expression, temp):
            return True
        if isinstance(expression, (cst.Tuple, cst.List, cst.Set)):
            return any(self.carries(e.value, temp) for e in expression.elements)
        if isinstance(expression, cst.Dict):
            return any(isinstance(e, (cst.DictElement, cst.StarredDictElement)) and self.carries(e.value, temp) for e in expression.elements)
        if isinstance(expression, (cst.StarredElement, cst.Element)):
            return self.carries(expression.value, temp)
        if isinstance(expression, (cst.ListComp, cst.SetComp, cst.GeneratorExp)):
            return self.carries(expression.elt, temp)
        if isinstance(expression, cst.DictComp):
            return self.carries(expression.value, temp)
        if isinstance(expression, cst.IfExp):
            return self.carries(expression.body, temp) or self.carries(expression.orelse, temp)
        if isinstance(expression, cst.BooleanOperation):
            return self.carries(expression.left, temp) or self.carries(expression.right, temp)
        if isinstance(expression, cst.Call) and self.constructs(expression):
            return any(self.carries(a.value, temp) for a in expression.args)
        if isinstance(expression, cst.Call) and len(expression.args) == 1 and not expression.args[0].star:
            if self.value_of(expression.func).callees & _SAME_PATH_CALLS:
                return self.carries(expression.args[0].value, temp)  # ``str(out)`` of a path below it
        return self.derives(expression, temp) or self.spells(expression, temp) or self.returned_below(expression, temp)

    def returned_below(self, expression: Node, temp: Temp) -> bool:
        """A same-module function's result that is the temp or a path below it, by that
        function's summary with this call's arguments (``extract(archive, tmpdir)``
        returning ``join(destination, top)``)."""
        if not isinstance(expression, cst.Call) or not self.value_of(expression.func).defs:
            return False
        value = self.value_of(expression)
        return any(isinstance(t, Fresh) and t.call is temp.creation for t in (*value.idents, *value.within))

    def constructs(self, call: cst.Call) -> bool:
        """A constructor: a same-module class, a builtin container, or a class from outside
        the standard library (named in CamelCase), called or asked for an instance by one
        of its factory methods (``LFSStore.create(d)``, ``Repo.from_path(p)``). Its object
        keeps what it is given."""
        value = self.value_of(call.func)
        if any(isinstance(d, cst.ClassDef) for d in value.defs) or value.callees & _CONTAINERS:
            return True
        func: Node = call.func
        # ``Class.create(...)``: the class, through one of its factories.
        owner = func.value if isinstance(func, cst.Attribute) and _FACTORY_METHOD.fullmatch(func.attr.value) else None
        if owner is not None and any(isinstance(d, cst.ClassDef) for d in self.value_of(owner).defs):
            return True  # ``DiskDataset.create_dataset(...)`` of a same-module class
        if value.defs:
            return False
        if owner is not None:
            func = owner
        if isinstance(func, cst.Name) and self.the_class(func, call):
            return True  # ``cls(...)``, ``cls.from_directory(d)`` in a classmethod
        name = _terminal(func)
        if name is None or not _camel_case(name):
            return False
        return not any(_of_the_stdlib(c) for c in value.callees)

    def the_class(self, name: cst.Name, node: Node) -> bool:
        """Whether ``name``, read at ``node``, is a ``@classmethod``'s first parameter: the class."""
        scope = self.scope_of.get(node)
        if not isinstance(scope, cst.FunctionDef):
            return False
        method = self.method_of(scope)
        return method is not None and method[1] == name.value and decorated(scope, "classmethod")

    def cleans(self, call: cst.Call, temp: Temp) -> bool:
        """Whether ``call`` removes the temp, now or by registering its removal."""
        func = call.func
        value = self.value_of(func)
        callees = value.callees
        first = _argument(call, 0, "path")
        if callees & names.CLEANUP_FUNCTIONS and first is not None and (
            self.names_directory(first, temp) or self.made_at(first, temp) or self.of_an_object_made_of(first, temp)
        ):
            return True
        if temp.factory in names.DOWNLOAD_TEMPS and names.DOWNLOAD_CLEANUP in callees:
            return True  # ``urlcleanup()`` removes what ``urlretrieve`` downloaded
        if isinstance(func, cst.Attribute) and func.attr.value in _PATH_REMOVERS and not call.args:
            if self.names_directory(func.value, temp):
                return True  # ``py.path.local(d).remove()``, ``epath.Path(d).rmtree()``: not a list's ``remove(x)``
        if isinstance(func, cst.Attribute) and func.attr.value in names.CLEANUP_METHODS:
            if func.attr.value == "cleanup":
                if temp.kind == DIRECTORY_OBJECT and self.holds_object(func.value, temp):
                    return True
            elif self.names_directory(func.value, temp) or self.made_at(func.value, temp):
                return True
        if self.argument_effect(call, temp) == REMOVED:
            return True
        for definition in self.sorted_defs(value):
            if isinstance(definition, (cst.FunctionDef, cst.Lambda)) and self.closure_cleans(definition, call, temp):
                return True  # a closure that removes the temp
        if self._registers_cleanup(call, temp) or self.self_method_releases(call, temp):
            return True
        if any(_asks_removal(a) for a in call.args) and any(self.names_directory(a.value, temp) for a in call.args):
            return True  # ``upload(path=tmp, delete_after_upload=True)``: the callee removes it
        return self._named_releaser(call, temp) or self._runs_removal(call, temp)

    def _runs_removal(self, call: cst.Call, temp: Temp) -> bool:
        """``os.system(f"rm -rf {d}")``, ``subprocess.run(["rm", "-r", d])``: a command line
        that removes the temp."""
        if not self.value_of(call.func).callees & _COMMAND_RUNNERS:
            return False
        command = _argument(call, 0, "args") or _argument(call, 0, "command") or _argument(call, 0, "cmd")
        if isinstance(command, (cst.List, cst.Tuple)) and command.elements:
            program, *rest = (e.value for e in command.elements)
            parts = _command_parts(program)
            if parts is None or parts[1] or _REMOVING_COMMAND.fullmatch(parts[0] + " ") is None:
                return False
            spliced = rest
        else:
            parts = _command_parts(command) if command is not None else None
            if parts is None or _REMOVING_COMMAND.match(parts[0]) is None:
                return False
            spliced = parts[1]
        for expression in spliced:
            while isinstance(expression, cst.Call) and len(expression.args) == 1 and self.value_of(expression.func).callees & _QUOTING_CALLS:
                expression = expression.args[0].value
            if self.names_directory(expression, temp):
                return True
        return False

    def _named_releaser(self, call: cst.Call, temp: Temp) -> bool:
        """``module.add_cleanup_file(p)``, ``registry.track(p)``: a function not resolved here,
        named for removal or registration, given the temp: taken at its word."""
        func = call.func
        value = self.value_of(func)
        name = _terminal(func)
        return (
            name is not None and not value.defs
            # ``paths.remove(p)`` empties a list; ``util.remove(p)``, a module's function, removes,
            # and so does ``fs.remove(p, recursive=True)``: no container takes ``recursive``.
            and not (
                isinstance(func, cst.Attribute) and name in _CONTAINER_METHODS and not _module_function(value.callees)
                and not any(a.keyword is not None and a.keyword.value == "recursive" for a in call.args)
            )
            and name not in _REGISTRATIONS
            and _RELEASING_WORD.search(name) is not None
            and not any(_of_the_stdlib(c) for c in value.callees)
            and any(
                self.names_directory(a.value, temp) or self.holds_object(a.value, temp)
                or name in _FILE_REMOVERS and self.of_an_object_made_of(a.value, temp)
                for a in call.args
            )
        )

    def makes_an_object_of(self, call: cst.Call, temp: Temp) -> bool:
        """``localrepo.instance(ui, tmpdir)``, ``vfs(root)``: a call, not the standard
        library's, given the temp: what it returns is most likely an object made on it."""
        return not any(_of_the_stdlib(c) for c in self.value_of(call.func).callees) and any(
            not a.star and self.carries(a.value, temp) for a in call.args
        )

    def removes_an_attribute_of(self, cls: cst.ClassDef, attr: str) -> bool:
        """Whether a method of the class (or a same-module relative) removes an attribute of
        what ``self.attr`` holds (``shutil.rmtree(self.opener.base)``): the path an object kept
        there was made on."""
        family = set(self.family(cls))
        for function in self.functions_naming(attr):
            if self.method_and_class(function)[1] not in family:
                continue
            for call in self.calls.get(function, ()):
                callees = self.value_of(call.func).callees
                removing = bool(callees & names.CLEANUP_FUNCTIONS) or (
                    _terminal(call.func) in _FILE_REMOVERS and not any(_of_the_stdlib(c) for c in callees)
                )
                if removing and any(
                    not a.star and isinstance(a.value, cst.Attribute) and isinstance(a.value.value, cst.Attribute)
                    and a.value.value.attr.value == attr and self.self_attribute(a.value.value, function) is not None
                    for a in call.args
                ):
                    return True
        return False

    def of_an_object_made_of(self, expression: Node, temp: Temp) -> bool:
        """``repo.root`` after ``repo = localrepo.instance(ui, tmpdir)``: an attribute of an
        object the function made of the temp (a call given it, once it was made), which is
        most likely the path the object was made on; removing it removes the temp. Not for
        a path inside a new temp directory: the object's path is the path, not the directory."""
        if temp.inside or not isinstance(expression, cst.Attribute):
            return False
        key = _key(expression.value)
        scope = self.scope_of.get(expression)
        if key is None or scope is None:
            return False
        made, at = self.order.get(temp.creation, -1), self.order.get(expression, 0)
        for node in self.own_nodes(scope):
            if (
                isinstance(node, cst.Assign) and len(node.targets) == 1 and isinstance(node.value, cst.Call)
                and _key(node.targets[0].target) == key and made < self.order.get(node, 0) < at
                and self.makes_an_object_of(node.value, temp)
            ):
                return True
        return False

    def self_method_releases(self, call: cst.Call, temp: Temp) -> bool:
        """``self.__exit__(*sys.exc_info())``, ``self._cleanup()`` for a temp held on
        ``self``: a method of the object's class (or a same-module base or subclass) that
        removes or moves what that attribute holds."""
        func = call.func
        if not isinstance(func, cst.Attribute) or not isinstance(func.value, cst.Name):
            return False
        method = self.method_of(self.scope_of.get(call, self.module))
        if method is None or method[1] != func.value.value:
            return False
        prefix = func.value.value + "."
        held = {key[len(prefix):] for key in temp.handles if key.startswith(prefix)} | temp.attributes
        return any(self.method_releases(method[0], func.attr.value, attr, temp.inside) for attr in sorted(held))

    def method_releases(self, cls: cst.ClassDef, name: str, attr: str, inside: bool) -> bool:
        key = (cls, name, attr, inside)
        found = self._method_releases.get(key)
        if found is not None:
            return found
        self._method_releases[key] = False  # recursion answers "no" meanwhile
        found = False
        for klass in self.family(cls):
            for statement in klass.body.body:
                if isinstance(statement, cst.FunctionDef) and statement.name.value == name:
                    found = found or self.lets_go(statement, attr, inside)
        self._method_releases[key] = found
        return found

    def closure_cleans(self, definition: Node, call: cst.Call, temp: Temp) -> bool:
        if self.scope_of.get(definition) is not self.scope_of.get(call) or definition in self._cleaning:
            return False
        self._cleaning.add(definition)
        try:
            return any(self.cleans(c, temp) for c in self.calls.get(definition, ()))
        finally:
            self._cleaning.discard(definition)

    def _registers_cleanup(self, call: cst.Call, temp: Temp) -> bool:
        """``atexit.register(shutil.rmtree, d)``, ``self.addCleanup(os.unlink, p)``,
        ``stack.callback(d.cleanup)``, ``weakref.finalize(obj, lambda: rmtree(d))``."""
        arguments: List[cst.BaseExpression] = []
        for arg in call.args:  # ``Finalize(None, _remove, args=(rmtree, d))``, ``[a] + rest`` too
            arguments.extend(_items(arg.value))
        if not arguments:
            return False
        remover = False
        for expression in arguments:
            value = self.value_of(expression)
            if value.callees & names.CLEANUP_FUNCTIONS:
                remover = True
            elif isinstance(expression, cst.Attribute) and expression.attr.value == "cleanup" and self.holds_object(expression.value, temp):
                return True
            elif isinstance(expression, cst.Lambda) and any(self.cleans(c, temp) for c in calls_in(expression.body)):
                return True
            elif not value.defs and _is_remover_name(expression, value.callees):
                remover = True  # ``ExitHandler.register(remove_tree, d)``: another module's, at its word
            else:
                for definition in self.sorted_defs(value):
                    if isinstance(definition, cst.FunctionDef):
                        if REMOVED in self.parameter_effects(definition).values():
                            remover = True
                        elif self.closure_cleans(definition, call, temp) or self.method_removes(definition, temp):
                            return True
        return remover and any(self.names_directory(e, temp) for e in arguments)

    def method_removes(self, function: cst.FunctionDef, temp: Temp) -> bool:
        """``self.addCleanup(self._rmtree)`` of a temp kept on ``self``: a method of its
        class that removes what the attribute holds, registered as a bound method."""
        method = self.method_of(function)
        if temp.owner is None or method is None or method[0] is not temp.owner or "." not in temp.handle:
            return False
        return self.released(temp.owner, temp.handle.split(".", 1)[1], temp.inside, only=function.name.value)

    def parameter_effects(self, function: cst.FunctionDef) -> Dict[str, Status]:
        """What a same-module function does to each parameter: removes it
        (``def _rm(p): os.unlink(p)``), moves it, or keeps it where it outlives the call
        (``self.files.append(p)`` in a class that removes them, ``registry[k] = p``)."""
        found = self._parameter_effects.get(function)
        if found is not None:
            return found
        self._parameter_effects[function] = {}  # recursion answers "nothing" meanwhile
        params = [*_parameters(function), *function.params.kwonly_params]
        if self.method_of(function) is not None:
            params = params[1:]
        effects: Dict[str, Status] = {}
        for param in params:
            name = param.name.value
            probe = Temp(cst.Call(func=cst.Name("_")), function, "", DIRECTORY_OBJECT, name, False)
            probe.handles[name] = EITHER
            self._aliases(function, [probe])
            calls = self.calls.get(function, ())
            if any(self.cleans(c, probe) for c in calls):
                effects[name] = REMOVED
            elif any(self.moves(c, probe) for c in calls):
                effects[name] = MOVED
            elif self.keeps(function, probe):
                effects[name] = HANDED
        self._parameter_effects[function] = effects
        return effects

    def keeps(self, function: cst.FunctionDef, probe: Temp) -> bool:
        for node in self.own_nodes(function):
            if isinstance(node, (cst.Assign, cst.AnnAssign, cst.AugAssign)) and node.value is not None:
                receivers: List[Node] = [
                    t for target in _targets(node) for t, v in _pairs(target, node.value)
                    if not _is_names(t) and self.carries(v, probe)
                ]
            elif isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value in names.STORE_METHODS:
                receivers = [node.func.value] if any(self.carries(a.value, probe) for a in node.args) else []
            else:
                continue
            for target in receivers:
                where, owned = self.receiver(target, function)
                if where == "away" or owned is not None and self.released(*owned):
                    return True
        return False

    def argument_effect(self, call: cst.Call, temp: Temp) -> Optional[Status]:
        """What a same-module function called with the temp does to it (see ``parameter_effects``)."""
        best: Optional[Status] = None
        func: cst.BaseExpression = call.func
        args: Sequence[cst.Arg] = call.args
        handed = handed_to(call, self.value_of)
        if handed is not None:
            func, args = handed  # ``asyncio.to_thread(_commit, tmp, dst)``: ``_commit(tmp, dst)``
        definitions: List[cst.CSTNode] = self.sorted_defs(self.value_of(func))
        if not definitions:
            inherited = self.super_method(call)
            definitions = [inherited] if inherited is not None else []
        for definition in definitions:
            if isinstance(definition, cst.ClassDef):
                definition = self.initializer(definition)  # type: ignore[assignment]
            if not isinstance(definition, cst.FunctionDef):
                continue
            effects = self.parameter_effects(definition)
            if not effects:
                continue
            params = _parameters(definition)
            first = params[0].name.value if params else None
            # ``Base.__init__(self, ...)`` passes the instance itself: its first argument is ``self``.
            unbound = first == "self" and isinstance(func, cst.Attribute) and any(
                isinstance(d, cst.ClassDef) for d in self.value_of(func.value).defs
            )
            offset = 1 if first == "cls" or first == "self" and not unbound else 0
            position = 0
            for arg in args:
                if arg.star:
                    break
                if arg.keyword is not None:
                    name: Optional[str] = arg.keyword.value
                else:
                    index = position + offset
                    position += 1
                    name = params[index].name.value if index < len(params) else None
                effect = effects.get(name) if name is not None else None
                if effect is None:
                    continue
                if effect in (REMOVED, MOVED) and self.names_directory(arg.value, temp) or effect is HANDED and self.carries(arg.value, temp):
                    if best is None or (REMOVED, MOVED, HANDED).index(effect) < (REMOVED, MOVED, HANDED).index(best):
                        best = effect
        return best

    def super_method(self, call: cst.Call) -> Optional[cst.FunctionDef]:
        """The same-module method ``super().name(...)`` runs, in a method of a class whose
        bases are in the module."""
        name = _super_method_name(call, bare=True)
        if name is None:
            return None
        method = self.method_of(self.scope_of.get(call, self.module))
        return self.inherited_method(method[0], name, own=False) if method is not None else None

    def initializer(self, cls: cst.ClassDef) -> Optional[cst.FunctionDef]:
        """The ``__init__`` a same-module class (or its same-module base) runs."""
        if cls not in self._initializers:
            self._initializers[cls] = self.inherited_method(cls, "__init__", own=True)
        return self._initializers[cls]

    def inherited_method(self, cls: cst.ClassDef, name: str, own: bool) -> Optional[cst.FunctionDef]:
        """The first method ``name`` of the class (``own``) or its same-module bases, breadth
        first: near enough to the MRO here."""
        chain = [cls] if own else list(self.bases().get(cls, ()))
        for klass in chain:  # grows while it is walked
            found = next((s for s in klass.body.body if isinstance(s, cst.FunctionDef) and s.name.value == name), None)
            if found is not None:
                return found
            chain.extend(b for b in self.bases().get(klass, ()) if b not in chain)
        return None

    def function_raises(self, call: cst.Call) -> Optional[str]:
        """"any" unless ``call`` can only be same-module functions whose bodies call
        nothing that raises (a thin logging wrapper); None then."""
        definitions = self.sorted_defs(self.value_of(call.func))
        functions = [d for d in definitions if isinstance(d, cst.FunctionDef)]
        if not definitions or len(functions) != len(definitions):
            return "any"
        for definition in functions:
            if definition not in self._raises:
                self._raises[definition] = "any"  # recursion: assume the worst meanwhile
                self._raises[definition] = _Flow(self, definition, []).raise_class(definition.body)
            if self._raises[definition] is not None:
                return "any"
        return None

    def moves(self, call: cst.Call, temp: Temp) -> bool:
        renamed = self.renamed(call)
        if renamed is not None:
            source, destination = renamed
            return source is not None and self.names_directory(source, temp) and not self.kept_beside(destination, temp)
        handed = move_of(call, self.value_of)
        if handed is not None and handed.passed:
            # ``self._run_safely(os.replace, tmp, dst)``, ``run_in_executor(None, os.rename, tmp, dst)``:
            # the move runs with the arguments handed with it.
            return self.names_directory(handed.source, temp)
        return self.argument_effect(call, temp) == MOVED

    def renamed(self, call: cst.Call) -> Optional[Tuple[Optional[Node], Optional[Node]]]:
        """The source and destination of a rename that takes a temp away (``os.rename(p,
        q)``, the project's own ``rename``, ``p.rename(q)``), or None for another call."""
        func = call.func
        callees = self.value_of(func).callees
        if callees & names.CONSUMING_MOVES or any(names.project_move(c) for c in callees):
            return _argument(call, 0, "src"), _argument(call, 1, "dst")
        if isinstance(func, cst.Attribute) and func.attr.value in ("rename", "replace") and len(call.args) == 1:
            return func.value, call.args[0].value
        return None

    def kept_beside(self, destination: Optional[Node], temp: Temp) -> bool:
        """Whether a move of the temp to ``destination`` leaves it in the temp directory,
        a temp still: ``os.rename(f.name, f.name + ".gz")`` renames it beside its own name,
        where it is from then on, and removing that path removes it (``made_at``)."""
        return temp.located and destination is not None and _beside(self.value_of(destination), Fresh(temp.creation))

    def moved_beside(self, temp: Temp) -> bool:
        """Whether a move in the temp's own function renames it beside its name (``kept_beside``)."""
        found = self._moved_beside.get(temp.creation)
        if found is None:
            self._moved_beside[temp.creation] = False  # while asking: ``refers`` asks it back
            found = self._moved_beside[temp.creation] = any(
                self.renames_beside(c, temp) for c in self.calls.get(self.scope_of.get(temp.creation, self.module), ())
            )
        return found

    def renames_beside(self, call: cst.Call, temp: Temp) -> bool:
        """``os.rename(tmp, tmp + ".gz")``: ``call`` renames the temp beside its own name."""
        renamed = self.renamed(call)
        return renamed is not None and renamed[0] is not None and self.names_directory(renamed[0], temp) and self.kept_beside(renamed[1], temp)

    def crosses(self, call: cst.Call) -> bool:
        """Whether a move may fail for the reason the incident's did: its sides are not
        proven to stay on one filesystem (``samefs``), with the values of every call of
        the function that reaches it. Unknown shapes count."""
        own = [e for e in self.value_of(call).moves if e.judged]
        if own:
            return any(not e.proven for e in own)
        # ``shutil.move`` and the like, which copy across filesystems: only a move
        # between locations, or of a temp to somewhere unknown, is worth an error path.
        found_source, found_destination = _argument(call, 0, "src"), _argument(call, 1, "dst")
        if found_source is None or found_destination is None:
            return True
        here, there = self.value_of(found_source).locations, self.value_of(found_destination).locations
        return bool(here and there and here != there) or TEMP in here and not there

    def renames_the_directory(self, call: cst.Call, temp: Temp) -> bool:
        """Whether ``call`` renames the temp directory itself (``os.rename(tmpdir, dst)``,
        ``Path(tmpdir).rename(dst)``, ``safe_move``): ``rename(2)`` refuses a destination that
        exists and is not an empty directory (``ENOTEMPTY``, ``EEXIST``, ``ENOTDIR``), on one
        filesystem too, as when another process published it first. A file renamed onto a
        file replaces it, and ``shutil.move`` moves a directory into one that exists."""
        if temp.kind != DIRECTORY or temp.inside or self.value_of(call.func).callees & _MOVES_INTO:
            return False
        renamed = self.renamed(call)
        return renamed is not None and renamed[0] is not None and self.refers(renamed[0], temp)

    def copied_after(self, call: cst.Call, temp: Temp) -> bool:
        """Whether a handler of a ``try`` around ``call`` copies the temp: a copy fallback."""
        child: Node = call
        node = self.parent.get(call)
        while node is not None and not isinstance(node, _SCOPES):
            if isinstance(node, cst.Try) and child is node.body:
                for handler in node.handlers:
                    for inner in calls_in(handler.body):
                        source = _argument(inner, 0, "src")
                        if self.value_of(inner.func).callees & _COPIES and source is not None and self.refers(source, temp):
                            return True
            child, node = node, self.parent.get(node)
        return False

    # -- driving

    def lifetimes(self) -> List[Lifetime]:
        found: List[Lifetime] = []
        for scope in list(self.calls):
            if isinstance(scope, (cst.Lambda, cst.ClassDef)):
                continue
            temps = self.temps_of(scope)
            if temps:
                if isinstance(scope, cst.FunctionDef):
                    found.extend(_Flow(self, scope, temps).run(scope.body))
                elif isinstance(scope, cst.Module):
                    found.extend(_Flow(self, scope, temps).run(scope))
        return found


# -- the flow of one function ----------------------------------------------------------------


def _names_path(value: Value, fresh: Fresh) -> bool:
    """The path ``fresh`` made (``f.name``, ``Path(f.name)``), not the object holding it."""
    return fresh in value.idents and not value.kinds & _OBJECT_VALUES


def _beside(value: Value, fresh: Fresh) -> bool:
    """A path in the directory of the one ``fresh`` made, other than that path (``f.name + ".gz"``)."""
    return Parent(fresh) in value.within and fresh not in value.idents


def _join(states: Iterable[Optional[State]]) -> Optional[State]:
    """The union of states, status by status: exact (every status of every path is kept)."""
    merged: Optional[State] = None
    for state in states:
        if state is None:
            continue
        if merged is None:
            merged = dict(state)
            continue
        for key, statuses in state.items():
            old = merged.get(key)
            if old is not statuses:
                merged[key] = statuses if old is None else old | statuses
    return merged


def _merge(into: Outcome, other: Outcome) -> None:
    for kind, state in other.items():
        joined = _join([into.get(kind), state])
        if joined is not None:
            into[kind] = joined


def _decorated(function: Node, qualified: FrozenSet[str], value_of: ValueOf) -> bool:
    if not isinstance(function, cst.FunctionDef):
        return False
    for decorator in function.decorators:
        expression = decorator.decorator
        if isinstance(expression, cst.Call):
            expression = expression.func
        if value_of(expression).callees & qualified:
            return True
    return False


class _Flow:
    def __init__(self, analysis: Analysis, scope: Node, temps: List[Temp]) -> None:
        self.a = analysis
        self.scope = scope
        self.temps = temps
        self.created: Dict[Node, List[int]] = {}
        for index, temp in enumerate(temps):
            self.created.setdefault(temp.statement, []).append(index)
        self.leaks: Dict[int, Dict[Leak, None]] = {i: {} for i in range(len(temps))}
        self.handed: Set[int] = set()
        self.alive: Set[int] = set()  # the file exists on some path
        self.shown: Set[int] = set()  # opened in a browser or viewer while it exists
        self.entries: Dict[Tuple[int, cst.ExceptHandler], Set[Status]] = {}
        #: what the exceptions no handler of a ``try`` catches carry, per temp and ``try``
        self.escapes: Dict[Tuple[int, Node], Set[Status]] = {}
        self.falls_through: Set[cst.ExceptHandler] = set()
        self._effects: Dict[Node, Dict[int, Status]] = {}
        self._shows: Dict[Node, Dict[int, None]] = {}
        self._removes_itself: Dict[int, bool] = {}
        self._raises: Dict[Node, Optional[str]] = {}
        self._loop_temps: Dict[Node, FrozenSet[int]] = {}
        self._gathered: Dict[Node, FrozenSet[int]] = {}
        self._spared: Dict[Node, FrozenSet[int]] = {}
        self._counts: Dict[Tuple[Node, int], bool] = {}
        value_of = analysis.value_of
        self.lends = _decorated(scope, _CONTEXT_MANAGERS, value_of)  # the caller's exception arrives at its yield
        self.fixture = _decorated(scope, _FIXTURES, value_of)  # pytest resumes it after the test, whatever happened
        self.entering = isinstance(scope, cst.FunctionDef) and scope.name.value in names.ENTERING and analysis.method_of(scope) is not None
        # A temp the function removes somewhere (not only in an ``except`` clause) is its
        # own: yielding it lends it out, to remove it once resumed.
        self.owned = {
            i for i, t in enumerate(temps)
            if any(analysis.cleans(c, t) for c in analysis.calls.get(scope, ()) if not analysis.in_handler(c))
        }
        #: temps ``__enter__`` keeps on ``self`` for ``__exit__``: handed over when it returns
        #: (only those a method of the class removes: one it keeps for good is never released)
        self.pending: Set[int] = {
            i for i, t in enumerate(temps)
            if t.owner is not None and self.entering and analysis.released(
                t.owner, t.handle.split(".", 1)[1], t.inside, besides=scope, unseen=not analysis.leaves_the_base_out(t.owner, scope),
            )
        }
        #: ``self.attr`` a temp is stored on that no method of the class removes
        self.kept_on: Dict[int, str] = {}
        #: deleting ``NamedTemporaryFile`` temps: the statement that made a file again at the
        #: name, or beside it; and those a path beside which is spelled out in the function
        self.remade: Dict[int, Tuple[Node, bool]] = {}
        self.besides = frozenset(i for i, t in enumerate(temps) if t.deleting and analysis.names_beside(scope, t))
        self.flags = self._flags() if temps else frozenset()
        self._bound_names: Optional[FrozenSet[str]] = None
        self._tests: Dict[Node, Tuple[str, bool, Node]] = {}
        self._opened: Optional[Dict[str, int]] = None
        self._guards: Dict[Node, List[Tuple[Tuple[str, bool, Node], bool]]] = {}  # per creation statement

    def _flags(self) -> FrozenSet[str]:
        """Names the function sets to ``True``/``False`` (``created = True``): tests of
        them say whether a temp was made, like tests of the temp itself."""
        found: Set[str] = set()
        for node in self.a._walk(self.scope):
            if isinstance(node, cst.Assign) and isinstance(node.value, cst.Name) and node.value.value in ("True", "False"):
                for target in node.targets:
                    key = _key(target.target)
                    if key is not None:
                        found.add(key)
        return frozenset(found)

    def run(self, body: Union[cst.BaseSuite, cst.Module]) -> List[Lifetime]:
        start: State = {i: frozenset({ABSENT}) for i in range(len(self.temps))}
        out = self.block(body.body, start) if isinstance(body, (cst.Module, cst.IndentedBlock)) else self.smalls(body.body, start)
        for kind, label in (("next", "carries on"), ("return", "returns")):
            for index, statuses in out.get(kind, {}).items():
                if index in self.pending and LIVE in statuses:
                    self.handed.add(index)  # ``__enter__`` returns: ``__exit__`` will remove it
                for status in statuses:
                    if status[0] == "err":
                        self.leak(index, status[1], status[2], label)
        for index, statuses in out.get("raise", {}).items():
            for status in statuses:
                if status[0] == "raised":
                    self.leak(index, status[1], status[2], "re-raises" if status[2] is not None else "propagates")
        return [self.lifetime(i, t) for i, t in enumerate(self.temps)]

    def leak(self, index: int, origin: object, handler: object, exit: str) -> None:
        self.leaks[index][Leak(origin, handler, exit)] = None  # type: ignore[arg-type]

    # -- statements

    def block(self, statements: Sequence[Node], state: State) -> Outcome:
        out: Outcome = {}
        current: Optional[State] = state
        for statement in statements:
            if current is None:
                break
            result = self.statement(statement, current)
            current = result.pop("next", None)
            _merge(out, result)
        if current is not None:
            _merge(out, {"next": current})
        return out

    def suite(self, suite: cst.BaseSuite, state: State) -> Outcome:
        if isinstance(suite, cst.IndentedBlock):
            return self.block(suite.body, state)
        return self.smalls(suite.body, state)

    def smalls(self, statements: Sequence[Node], state: State) -> Outcome:
        return self.block(statements, state)

    def statement(self, node: Node, state: State) -> Outcome:
        if isinstance(node, cst.SimpleStatementLine):
            out = self.smalls(node.body, state)
            if node in self.created:
                out = self.create(node, out)
            return out
        if isinstance(node, cst.If):
            return self.if_statement(node, state)
        if isinstance(node, _LOOPS):
            return self.loop(node, state)
        if isinstance(node, (cst.Try, cst.TryStar)):
            return self.try_statement(node, state)
        if isinstance(node, cst.With):
            return self.with_statement(node, state)
        if isinstance(node, cst.Match):
            out, state = self.header(node.subject, state)
            rest: List[Outcome] = [{"next": dict(state)}]
            for case in node.cases:
                rest.append(self.suite(case.body, state))
            for result in rest:
                _merge(out, result)
            return out
        if isinstance(node, (cst.FunctionDef, cst.ClassDef)):
            return {"next": state}
        return self.small(node, state)

    def create(self, node: Node, out: Outcome) -> Outcome:
        """After the creation statement completes, its temps are live."""
        following = out.get("next")
        if following is not None:
            following = dict(following)
            for index in self.created[node]:
                temp = self.temps[index]
                following[index] = frozenset({DELETING if temp.deleting else NAMED if temp.named else LIVE})
                if not temp.named and not temp.deleting:
                    self.alive.add(index)
                if temp.inline is not None:
                    # Made right in the call's argument: the call has it as it runs, and
                    # removes, moves or takes it over as it would ``d`` of ``d = mkdtemp()``.
                    effect = self.effects(node).get(index)
                    if effect is not None:
                        following = self.apply(following, {index: effect})
            out["next"] = following
        return out

    def small(self, node: Node, state: State) -> Outcome:
        out: Outcome = {}
        if isinstance(node, cst.Raise):
            after = self.used(node, self.apply(state, self.effects(node)))
        else:
            out, after = self.evaluate(node, node, state)
        if isinstance(node, cst.Return):
            out["return"] = after
        elif isinstance(node, cst.Raise):
            out["raise"] = self.raised(after, node, "any", reraise=True)
        elif isinstance(node, cst.Continue):
            out["continue"] = after
        elif isinstance(node, cst.Break):
            out["break"] = after
        else:
            out["next"] = after
        return out

    def evaluate(self, node: Node, origin: Node, state: State) -> Tuple[Outcome, State]:
        """Where running ``node`` (a simple statement, or the header of a compound one: an
        ``if`` test, a loop's iterable or test, a ``match`` subject) raises, and the state
        after it: its calls remove, move or hand over the temp wherever they sit
        (``for job in jobs.submit(tmp):``). ``origin`` is the statement the messages name."""
        out: Outcome = {}
        effects = self.effects(node)
        self.note_shown(node, state)
        cls = self.raise_class(node)
        if cls is not None:
            # A removal or a hand-off is done even if the statement raises afterwards.
            # A failed move leaves the temp where it was, but counts as an error path
            # only when the move crosses locations (or has a copy fallback).
            before = dict(state)
            for index, effect in effects.items():
                if effect is not MOVED or not self.move_failure_counts(node, index):
                    before[index] = frozenset({effect})
            out["raise"] = self.raised(before, origin, cls)
        return out, self.used(node, self.apply(state, effects))

    def note_shown(self, node: Node, state: State) -> None:
        """Which temps there (on some path) ``node`` opens in a browser or viewer, which reads
        the file after the call returns: kept for the user on purpose."""
        for index in self.shows(node):
            if state.get(index, frozenset()) & {LIVE, NAMED}:
                self.shown.add(index)

    def shows(self, node: Node) -> Dict[int, None]:
        """The temps ``node`` hands to a browser or viewer, whatever the state (once per node)."""
        found = self._shows.get(node)
        if found is not None:
            return found
        found = {}
        a = self.a
        for call in calls_in(node):
            func = call.func
            value = a.value_of(func)
            views = _views(value, func)
            if not views and _terminal(func) not in _VIEWER_METHODS:
                continue
            for index, temp in enumerate(self.temps):
                if any(a.carries(arg.value, temp) and (views or _file_url(arg.value)) for arg in call.args):
                    found[index] = None
        self._shows[node] = found
        return found

    def header(self, node: Optional[Node], state: State) -> Tuple[Outcome, State]:
        """``evaluate`` for a compound statement's header expression."""
        if node is None:
            return {}, state
        return self.evaluate(node, self.statement_of(node), state)

    def move_failure_counts(self, node: Node, index: int) -> bool:
        """Whether the statement moving the temp starts an error path when it fails: the
        move crosses locations or falls back to a copy, or something else in the
        statement (an argument, another call) can raise while the temp is there."""
        key = (node, index)
        found = self._counts.get(key)
        if found is None:
            temp = self.temps[index]
            moving = [c for c in calls_in(node) if self.a.moves(c, temp)]
            found = any(
                self.a.crosses(c) or self.a.copied_after(c, temp) or self.a.renames_the_directory(c, temp) for c in moving
            ) or self.raise_class(node, skip=moving) is not None
            self._counts[key] = found
        return found

    def apply(self, state: State, effects: Dict[int, Status]) -> State:
        if not effects:
            return state
        after = dict(state)
        for index, effect in effects.items():
            if state.get(index, frozenset()) & {LIVE, NAMED}:
                self.handed.add(index)
            after[index] = frozenset({effect})
        return after

    def used(self, node: Node, state: State) -> State:
        """A ``mktemp`` name exists once a statement that uses it has completed. A deleting
        ``NamedTemporaryFile`` leaves only its name once closed; a file made again at that
        name, or beside it, is then the temp."""
        after = state
        for index, statuses in state.items():
            temp = self.temps[index]
            if temp.deleting:
                updated = self.remade_by(node, index, statuses)
            elif NAMED in statuses and self.a.uses(node, temp):
                updated = (statuses - {NAMED}) | {LIVE}
                self.alive.add(index)
            else:
                continue
            if updated != statuses:
                after = dict(after) if after is state else after
                after[index] = updated
        return after

    def remade_by(self, node: Node, index: int, statuses: FrozenSet[Status]) -> FrozenSet[Status]:
        """A deleting ``NamedTemporaryFile`` after ``node``: closed (only its name is left),
        or a file made again at its name or beside it (the temp, from then on)."""
        temp = self.temps[index]
        if DELETING in statuses and temp.closing and self.closes(node, temp):
            statuses = (statuses - {DELETING}) | {NAMED}
        if NAMED in statuses and self.a.uses_name(node, temp):
            gone, beside = NAMED, False
        elif statuses & {NAMED, DELETING} and index in self.besides and self.a.uses_beside(node, temp):
            gone, beside = (DELETING if DELETING in statuses else NAMED), True
        else:
            return statuses
        self.alive.add(index)
        self.remade.setdefault(index, (self.statement_of(node), beside))
        return (statuses - {gone}) | {LIVE}

    def closes(self, node: Node, temp: Temp) -> bool:
        """Whether ``node`` calls ``close()`` on the temp's object (which deletes its file)."""
        return any(self.closes_object(c, temp) for c in calls_in(node))

    def closes_object(self, call: cst.Call, temp: Temp) -> bool:
        func = call.func
        return isinstance(func, cst.Attribute) and func.attr.value == "close" and not call.args and self.a.holds_object(func.value, temp)

    def raised(self, state: State, origin: Node, cls: str, reraise: bool = False) -> State:
        """The statuses an exception from ``origin`` carries.

        One exception is followed at a time: a statement that fails while an error is
        already being handled (a log call in the handler, a ``finally`` step) starts no
        error path of its own, so only live temps, and an explicit re-raise, count. A
        step of a ``finally`` that goes on to remove the temp (``f.close()`` before
        ``os.unlink(f.name)``) starts none either: that cleanup is what the code meant.
        """
        spared = self.spared(origin)
        result: State = {}
        for index, statuses in state.items():
            converted: Set[Status] = set()
            for status in statuses:
                if index in spared and (status == LIVE or status[0] in ("raised", "err")):
                    converted.add(REMOVED)  # the ``finally`` goes on to remove it
                elif status == LIVE:
                    converted.add(("raised", origin, None, cls))
                elif status[0] == "err" and reraise:
                    converted.add(("raised", status[1], status[2], cls))
                else:
                    converted.add(status)
            result[index] = frozenset(converted)
        return result

    def spared(self, origin: Node) -> FrozenSet[int]:
        """The temps removed by the ``finally`` block ``origin`` is a step of."""
        node: Optional[Node] = origin
        while node is not None and not isinstance(node, (cst.Finally, *_SCOPES, cst.Module)):
            node = self.a.parent.get(node)
        if not isinstance(node, cst.Finally):
            return frozenset()
        found = self._spared.get(node)
        if found is None:
            calls = list(calls_in(node.body))
            found = frozenset(i for i, t in enumerate(self.temps) if any(self.a.cleans(c, t) for c in calls))
            self._spared[node] = found
        return found

    def raising(self, node: Optional[Node], state: State) -> Outcome:
        if node is None:
            return {}
        cls = self.raise_class(node)
        return {"raise": self.raised(state, self.statement_of(node), cls)} if cls is not None else {}

    def statement_of(self, node: Node) -> Node:
        """The compound statement a header expression belongs to (for messages)."""
        parent = self.a.parent.get(node)
        while parent is not None and not isinstance(parent, (cst.BaseCompoundStatement, cst.SimpleStatementLine)):
            parent = self.a.parent.get(parent)
        return parent if parent is not None else node

    def decides(self, test: Node, temp: Temp) -> bool:
        """Whether an ``if`` test can tell whether the temp is there: it tests the temp
        (``os.path.exists(tmp)``, ``tmp is not None``), what its creation depended on
        (``out is None`` for ``out or mkdtemp()``), or a flag the function sets."""
        if self.a.mentions(test, temp):
            return True
        tested = self.a.names_in(test)
        return bool(tested & temp.guards or tested & self.flags)

    def made_on_the_same_test(self, test: Node, temp: Temp) -> bool:
        """Whether the temp was made only where ``test`` holds: under an ``if`` on the same
        test, or in the ``else`` of its negation, at any depth, of names the function never
        binds (``if args.explain: ... else: d = mkdtemp()``, later ``if not args.explain:
        rmtree(d)``), spelled out or through a flag bound once to it (``owns = out is None``)."""
        spelled, negated, tested = self._tested(test)
        for (condition, condition_negated, guard), holds in self._creation_guards(temp):
            if spelled == condition and holds == (negated == condition_negated):
                return not ((self.a.names_in(tested) | self.a.names_in(guard)) & self._bound())
        return False

    def _bound(self) -> FrozenSet[str]:
        if self._bound_names is None:
            self._bound_names = frozenset(k for node in self.a.own_nodes(self.scope) for t in _targets(node) for k in self.a.names_in(t))
        return self._bound_names

    def _tested(self, test: Node) -> Tuple[str, bool, Node]:
        """A test's spelling without its ``not``, whether it had one, and the expression
        spelled: a name bound once in the function to a comparison stands for it."""
        found = self._tests.get(test)
        if found is None:
            found = self._tests[test] = self._read_test(test)
        return found

    def _read_test(self, test: Node) -> Tuple[str, bool, Node]:
        spelled, negated = self._spelling(test)
        bare = test
        while isinstance(bare, cst.UnaryOperation) and isinstance(bare.operator, cst.Not):
            bare = bare.expression
        parameters = {p.name.value for p in _parameters(self.scope)} if isinstance(self.scope, cst.FunctionDef) else set()
        if isinstance(bare, cst.Name) and bare.value not in parameters:
            bindings = [
                node for node in self.a.own_nodes(self.scope)
                if any(bare.value in self.a.names_in(t) for t in _targets(node))
            ]
            if (
                len(bindings) == 1 and isinstance(bindings[0], cst.Assign) and len(bindings[0].targets) == 1
                and self.a.order.get(bindings[0], 0) < self.a.order.get(test, 0)
            ):
                value = bindings[0].value
                if isinstance(bindings[0].targets[0].target, cst.Name) and isinstance(value, (cst.Comparison, cst.UnaryOperation)):
                    inner, inner_negated = self._spelling(value)
                    return inner, negated != inner_negated, value
        return spelled, negated, bare

    def policy(self, node: cst.If) -> bool:
        """Whether an ``if`` sits in a ``finally`` (``if delete: os.unlink(tmp)``, ``if not
        args.keep: rmtree(d)``): the failing paths run it as the others do, so its test
        decides the temp's fate alike on all of them; what it keeps is kept on purpose (a
        success flag keeps a failed run's temp to look at), not left by an error path."""
        parent = self.a.parent.get(node)
        while parent is not None and parent is not self.scope:
            if isinstance(parent, cst.Finally):
                return True
            if isinstance(parent, (cst.ExceptHandler, cst.ExceptStarHandler, cst.Try, cst.TryStar)):
                return False
            parent = self.a.parent.get(parent)
        return False

    def where(self, test: Node, holds: bool, state: State) -> State:
        """The state where ``test`` is ``holds``: a temp made only under the other outcome of
        the same test, of names the function never binds, was never made there (``if
        backup: return`` after ``if backup: ... else: path = mkstemp()``)."""
        if not self.temps:
            return state
        spelled, negated, tested = self._tested(test)
        after = state
        for index, temp in enumerate(self.temps):
            if after.get(index) == frozenset({ABSENT}):
                continue
            for (condition, condition_negated, guard), needed in self._creation_guards(temp):
                if condition != spelled or (self.a.names_in(tested) | self.a.names_in(guard)) & self._bound():
                    continue
                value = (holds != negated) != condition_negated  # the guard's value where ``test`` is ``holds``
                if value != needed:
                    after = dict(after) if after is state else after
                    after[index] = frozenset({ABSENT})
                    break
        return after

    def _creation_guards(self, temp: Temp) -> List[Tuple[Tuple[str, bool, Node], bool]]:
        """The ``if`` tests the creation depends on, as ``_tested`` reads them, and whether
        the creation needs each true or false."""
        found = self._guards.get(temp.statement)
        if found is None:
            found = self._guards[temp.statement] = [(self._tested(test), holds) for test, holds in self.a.enclosing_tests(temp.statement, self.scope)]
        return found

    def _spelling(self, test: Node) -> Tuple[str, bool]:
        """A test's code without its ``not``, and whether it had one."""
        negated = False
        while isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            test, negated = test.expression, not negated
        if getattr(test, "lpar", None):
            test = test.with_changes(lpar=[], rpar=[])
        return "".join(self.a.module.code_for_node(test).split()), negated

    def if_statement(self, node: cst.If, state: State) -> Outcome:
        out, state = self.header(node.test, state)
        then = self.suite(node.body, self.where(node.test, True, state))
        otherwise = self.where(node.test, False, state)
        if isinstance(node.orelse, cst.If):
            other = self.if_statement(node.orelse, otherwise)
        elif isinstance(node.orelse, cst.Else):
            other = self.suite(node.orelse.body, otherwise)
        else:
            other = {"next": otherwise}
        # ``if os.path.exists(tmp): os.unlink(tmp)``: a test of the temp whose branch
        # removes it covers the other branch too (the temp is not there, or is None);
        # not a test of a name the temp is not yet (``if d is not None: rmtree(d)`` of a
        # parameter ``d``, before ``else: d = mkdtemp()``).
        for index, temp in enumerate(self.temps):
            then_next = then.get("next")
            there = any(s in (LIVE, NAMED) or s[0] in ("err", "raised") for s in state.get(index, ()))
            if there and then_next is not None and then_next.get(index) == frozenset({REMOVED}) and (
                self.decides(node.test, temp) or self.made_on_the_same_test(node.test, temp) or self.policy(node)
            ):
                if "next" in other:
                    other["next"] = {**other["next"], index: frozenset({REMOVED})}
        _merge(out, then)
        _merge(out, other)
        return out

    def loop(self, node: Union[cst.For, cst.While], state: State) -> Outcome:
        header = node.iter if isinstance(node, cst.For) else node.test
        out, entry = self.header(header, state)
        mine = self.loop_temps(node)
        exits: Outcome = {}
        while True:  # states only grow, over finitely many statuses: this ends
            body = self.suite(node.body, entry)
            back = _join([body.get("next"), body.get("continue")])
            for kind in ("return", "raise", "break"):
                if kind in body:
                    _merge(exits, {kind: body[kind]})
            if back is None:
                break
            back = dict(back)
            for index in sorted(mine):
                if index in self.gathered(node):
                    # Still in the container after this pass (an error swallowed or not):
                    # the next pass's failures leave it behind too, until the container is emptied.
                    back[index] = frozenset(LIVE if status[0] == "err" else status for status in back.get(index, ()))
                    continue
                for status in back.get(index, ()):
                    if status[0] == "err":
                        self.leak(index, status[1], status[2], "continues the loop")
                back[index] = frozenset({ABSENT})
            merged = _join([entry, back])
            assert merged is not None
            if merged == entry:
                break
            entry = merged
            _merge(out, self.raising(header, entry))
        done: Outcome = {"next": entry}
        if node.orelse is not None:
            done = self.suite(node.orelse.body, entry)
        if isinstance(node, cst.For) and "next" in done:
            # ``for p in paths: os.unlink(p)`` over a container holding the temp (or
            # ``for n in (a, b)``) removes it: the temp is among the items, so the loop
            # does not end before it comes.
            removing = [i for i, t in enumerate(self.temps) if self.empties(node, t, i)]
            if removing:
                done["next"] = {**done["next"], **{i: frozenset({REMOVED}) for i in removing}}
        _merge(out, done)
        if "break" in exits:
            _merge(out, {"next": exits.pop("break")})
        _merge(out, exits)
        return out

    def empties(self, node: cst.For, temp: Temp, index: int) -> bool:
        a = self.a
        if not isinstance(node.target, cst.Name) or not a.iterates(node.iter, temp):
            return False
        item = node.target.value
        for statement in a._walk(node.body):
            if isinstance(statement, cst.BaseSmallStatement) and self.effects(statement).get(index) is REMOVED:
                if item in a.names_in(statement):
                    return True
        return False

    def gathered(self, node: Node) -> FrozenSet[int]:
        """The loop's temps that a container bound outside it holds (``dirs.append(d)``,
        ``dirs.append(mkdtemp())``; ``urllib``'s own list, for ``urlretrieve``'s, which
        ``urlcleanup()`` empties): each pass adds one, and they stay together."""
        found = self._gathered.get(node)
        if found is None:
            a = self.a
            start, end = a.order[node.body], a.end[node.body]  # type: ignore[attr-defined]
            inside = [n for n in a.own_nodes(self.scope) if start <= a.order[n] <= end]
            targets = [
                *(t for n in inside for t in _targets(n)),
                *(n.target for n in inside if isinstance(n, (cst.For, cst.NamedExpr))),
                *(n.asname.name for n in inside if isinstance(n, cst.WithItem) and n.asname is not None),
            ]
            bound_inside = {name for t in targets for name in a.names_in(t) if not _item_of(t, name)}
            found = frozenset(
                i for i in self.loop_temps(node)
                if self.temps[i].factory in names.DOWNLOAD_TEMPS or any(
                    role in (HOLDER, BELOW) and key not in bound_inside and a.own_container(self.scope, key)
                    for key, role in self.temps[i].handles.items()
                )
            )
            self._gathered[node] = found
        return found

    def loop_temps(self, node: Node) -> FrozenSet[int]:
        found = self._loop_temps.get(node)
        if found is None:
            start, end = self.a.order[node.body], self.a.end[node.body]  # type: ignore[attr-defined]
            found = frozenset(i for i, t in enumerate(self.temps) if start <= self.a.order[t.statement] <= end)
            self._loop_temps[node] = found
        return found

    def with_statement(self, node: cst.With, state: State) -> Outcome:
        out: Outcome = {}
        for item in node.items:
            _merge(out, self.raising(item.item, state))
        effects = self.with_effects(node)
        state = self.apply(state, effects)
        for item in node.items:
            state = self.used(item.item, state)
        made = self.created.get(node, ())
        if made:
            state = dict(state)
            for index in made:
                if self.temps[index].deleting:
                    state[index] = frozenset({DELETING})
                else:
                    state[index] = frozenset({LIVE})
                    self.alive.add(index)
        body = self.suite(node.body, state)
        deleted = frozenset(i for i in made if self.temps[i].deleting)
        for kind in body if deleted else ():
            if kind != "raise":  # the end of the block deletes the file: only its name is left
                body[kind] = {i: frozenset(NAMED if s == DELETING and i in deleted else s for s in ss) for i, ss in body[kind].items()}
        raised = body.pop("raise", None) if self.suppresses_os_errors(node) else None
        if raised is not None:
            # ``with suppress(OSError): os.chmod(tmp, mode)``: the I/O failures the body can
            # have end the block, and the function goes on with the temp where it was.
            _merge(body, {"next": {i: frozenset(LIVE if s[0] == "err" else s for s in statuses) for i, statuses in raised.items()}})
        _merge(out, body)
        return out

    def suppresses_os_errors(self, node: cst.With) -> bool:
        """Whether a ``with`` item is ``contextlib.suppress`` of ``OSError`` or broader."""
        value_of = self.a.value_of
        for item in node.items:
            call = item.item
            if isinstance(call, cst.Call) and value_of(call.func).callees & {"contextlib.suppress"}:
                if any(value_of(a.value).callees & (names.OS_ERROR_CLASSES | names.BROAD_EXCEPTIONS) for a in call.args):
                    return True
        return False

    def with_effects(self, node: cst.With) -> Dict[int, Status]:
        effects: Dict[int, Status] = {}
        for item in node.items:
            for index, temp in enumerate(self.temps):
                if temp.kind == DIRECTORY_OBJECT and self.a.holds_object(item.item, temp):
                    effects[index] = REMOVED  # ``with d:`` removes it on the way out
        return effects

    def try_statement(self, node: Union[cst.Try, cst.TryStar], state: State) -> Outcome:
        body = self.suite(node.body, state)
        raised = body.pop("raise", None)
        out: Outcome = {}
        if node.orelse is not None and "next" in body:
            following = self.suite(node.orelse.body, body.pop("next"))
            _merge(out, following)
        _merge(out, body)
        remaining = raised
        for handler in node.handlers:
            if remaining is None:
                break
            catches = catch_class(handler, self.a.value_of)
            entry: State = {}
            for index, statuses in remaining.items():
                self.entries.setdefault((index, handler), set()).update(statuses)  # type: ignore[arg-type]
                entry[index] = frozenset(
                    ("err", s[1], handler) if s[0] == "raised" else s for s in statuses
                )
            result = self.suite(handler.body, entry)
            if "next" in result:
                self.falls_through.add(handler)  # type: ignore[arg-type]
            _merge(out, result)
            if catches == "all":
                remaining = None
            elif catches == "os":
                remaining = {i: frozenset(s for s in ss if not (s[0] == "raised" and s[3] == "os")) for i, ss in remaining.items()}
        if remaining is not None:
            for index, statuses in remaining.items():
                self.escapes.setdefault((index, node), set()).update(statuses)
            _merge(out, {"raise": remaining})
        if node.finalbody is not None:
            finished: Outcome = {}
            for kind, kind_state in out.items():
                result = self.suite(node.finalbody.body, kind_state)
                if "next" in result:
                    result[kind] = _join([result.get(kind), result.pop("next")])  # type: ignore[assignment]
                _merge(finished, result)
            out = finished
        return out

    # -- what one statement does

    def effects(self, node: Node) -> Dict[int, Status]:
        found = self._effects.get(node)
        if found is not None:
            return found
        found = {}
        a = self.a
        for index, temp in enumerate(self.temps):
            effect: Optional[Status] = None
            for call in calls_in(node):
                if a.cleans(call, temp):
                    effect = REMOVED
                    break
                if a.moves(call, temp):
                    effect = MOVED
                elif effect is None:
                    effect = self.hands_over(call, temp, index)
            if effect is None:
                effect = self.hands_off(node, temp, index)
            if effect is not None:
                found[index] = effect
        self._effects[node] = found
        return found

    def store(self, target: Node, index: int) -> Optional[Status]:
        """A store of the temp into ``target``: a hand-off when it outlives the call, or
        lands on ``self`` where the class removes it (``__enter__`` hands it over only
        when it returns); nothing when the function's own container or object holds it
        (that holder is one of the temp's names), or the class never removes it."""
        where, owned = self.a.receiver(target, self.scope)
        if where == "away":
            return HANDED
        if owned is None:
            return None
        cls, attr = owned
        if self.a.shared_by_the_class(cls, attr):
            return HANDED  # ``cls.TEMPFILES.append(p)``: a registry of the class, like a global one
        if self.a.exposed(cls, attr) and not self.temps[index].inside:
            return HANDED  # a public property hands it to the object's users
        temp = self.temps[index]
        # A base not in view may remove what the class keeps, but not what this function
        # removes itself: storing a path of its temp on ``self`` hands nothing over then.
        unseen = not self.removes_itself(index) and not self.a.leaves_the_base_out(cls, self.scope)
        if self.a.released(cls, attr, temp.inside, unseen=unseen):
            if self.entering:
                self.pending.add(index)
                return None
            return HANDED
        self.kept_on.setdefault(index, f"{self.a.method_of(self.scope)[1]}.{attr}")  # type: ignore[index]
        return None

    def removes_itself(self, index: int) -> bool:
        """Whether the function itself removes or moves the temp ``index`` somewhere."""
        found = self._removes_itself.get(index)
        if found is None:
            found = self._removes_itself[index] = self.a.lets_go_of(self.scope, self.temps[index])
        return found

    def hands_over(self, call: cst.Call, temp: Temp, index: int) -> Optional[Status]:
        """A call that takes the temp over: a store into a container (``registry.append(p)``),
        a same-module function that keeps it, ``stack.enter_context(d)``."""
        a = self.a
        func = call.func
        if isinstance(func, cst.Attribute) and func.attr.value in names.STORE_METHODS:
            if any(a.carries(arg.value, temp) for arg in call.args):
                return self.store(func.value, index)
        if a.argument_effect(call, temp) is HANDED:
            return HANDED
        if temp.kind == DIRECTORY_OBJECT and isinstance(func, cst.Attribute) and func.attr.value in _CONTEXT_TAKERS:
            if any(a.holds_object(arg.value, temp) for arg in call.args):
                return HANDED  # a directory object given away takes its cleanup with it
        setattr_ = len(call.args) == 3 and a.value_of(func).callees == {"builtins.setattr"} and not any(x.star or x.keyword for x in call.args)
        if setattr_ and a.carries(call.args[2].value, temp):
            target = call.args[0].value  # ``setattr(namespace, self.dest, log)``: stored on that object
            if not (isinstance(target, cst.Name) and target.value in a.locals_of(self.scope)):
                return HANDED
        if a.super_method(call) is None and self.to_an_unseen_initializer(call) and any(a.carries(arg.value, temp) for arg in call.args):
            return HANDED  # ``super().__init__(folder=d)`` of the project's base in another module: the object's now
        name = _terminal(func)
        value = a.value_of(func)
        if name is not None and _HANDING_WORD.search(name) and not value.defs and not any(_of_the_stdlib(c) for c in value.callees):
            if any(a.carries(arg.value, temp) for arg in call.args):
                return HANDED
        return None

    def to_an_unseen_initializer(self, call: cst.Call) -> bool:
        """``super().__init__(...)`` in ``__init__`` of a class that derives from a class of
        the project in another module: that base keeps what it is given (virtualenv's
        ``AppDataDiskFolder(folder)``), and its methods, which may remove it, are not in view."""
        if _super_method_name(call) != "__init__":
            return False
        method = self.a.method_of(self.scope)
        return method is not None and self.scope.name.value == "__init__" and self.a.inherits_unseen(method[0])  # type: ignore[attr-defined]

    def hands_off(self, node: Node, temp: Temp, index: int) -> Optional[Status]:
        a = self.a
        if isinstance(node, cst.Return):
            return HANDED if node.value is not None and a.carries(node.value, temp) else None
        if isinstance(node, (cst.Assign, cst.AnnAssign, cst.AugAssign)):
            value = node.value
            if value is not None:
                pairs = [(t, v) for target in _targets(node) for t, v in _pairs(target, value) if not _is_names(t)]
                # ``self._pending[path] = None``: a registry keyed by the temp holds it too.
                stored = [t for t, v in pairs if a.carries(v, temp) or isinstance(t, cst.Subscript) and any(
                    isinstance(e.slice, cst.Index) and a.carries(e.slice.value, temp) for e in t.slice
                )]
                if stored:
                    effects = [self.store(t, index) for t in stored]
                    if HANDED in effects:
                        return HANDED
                # ``self.opener = vfs(root)``, removed as ``shutil.rmtree(self.opener.base)``
                # by a method of the class: the object's path is the temp.
                for t, v in pairs:
                    if not isinstance(v, cst.Call) or t in stored:
                        continue
                    owned = a.self_attribute(t, self.scope)
                    if owned is not None and a.makes_an_object_of(v, temp) and a.removes_an_attribute_of(*owned):
                        if self.entering:
                            self.pending.add(index)
                            return None
                        return HANDED
        if not self.fixture and (self.lends or index not in self.owned):
            for inner in a._walk(node):
                if isinstance(inner, cst.Yield) and isinstance(inner.value, cst.BaseExpression) and a.carries(inner.value, temp):
                    if not self.lends:
                        return HANDED
                    # A context manager lends it: the caller's exception arrives here, and
                    # only a normal exit leaves the temp with the caller.
                    self.pending.add(index)
        return None

    def raise_class(self, node: Node, skip: Sequence[Node] = ()) -> Optional[str]:
        """None when ``node`` cannot raise, "os" when only ``OSError``, else "any";
        ``skip``: calls left out (their arguments are still looked at)."""
        if not skip and node in self._raises:
            return self._raises[node]
        found: Optional[str] = None
        stack = [node]
        while stack and found != "any":
            current = stack.pop()
            if isinstance(current, cst.Yield):
                if not self.fixture:
                    found = "any"
            elif isinstance(current, (cst.Await, cst.Assert, cst.Raise)):
                found = "any"
            elif isinstance(current, cst.Call) and not any(current is s for s in skip):
                callees = self.a.value_of(current.func).callees
                if callees and callees <= names.NON_RAISING_CALLS:
                    pass
                elif _terminal(current.func) in _REGISTRATIONS:
                    pass  # ``atexit.register(f, d)``, ``stack.callback(...)``: a registration does not fail
                elif callees and callees <= names.NON_RAISING_WITH_DEFAULT and len(current.args) == 2 and not any(
                    a.star or a.keyword is not None for a in current.args
                ):
                    pass  # ``sys.modules.pop(name, None)``
                elif callees and callees <= _CONTAINERS and not current.args or self.a.transparent(current):
                    pass  # ``set()``, ``cast(T, x)``
                elif isinstance(current.func, cst.Attribute) and current.func.attr.value in _STR_METHODS and (
                    self.a.value_of(current.func.value).kinds == {STR}
                ):
                    pass  # a ``str`` method on a string
                elif self.closes_temp(current):
                    pass  # closing the temp's own file: its writes are where it fails
                elif self.safe_on_own_container(current) or self.makes_existing(current):
                    pass  # ``names.append(x)`` on a list the function made; ``os.makedirs(tmp, exist_ok=True)``
                elif _logs(current.func):
                    pass  # logging handles its own errors (``Handler.handleError``)
                elif not callees and self.a.function_raises(current) is None:
                    pass  # a same-module function that cannot raise (``def info(msg): _log.info(msg)``)
                elif callees and callees <= _BUG_ONLY_CALLS:
                    pass  # ``json.dumps(record)``: fails only on a bug (see ``likelihood``)
                elif callees and all(c.startswith(names.OS_ERROR_MODULES) for c in callees):
                    found = "os"
                elif self.writes_a_temp_file(current):
                    found = "os"  # ``f.write(data)`` on the temp's own file: the disk fails, not the code
                elif isinstance(current.func, cst.Attribute) and self.a.value_of(current.func.value).is_path:
                    found = "os"
                else:
                    found = "any"
            if isinstance(current, cst.Call) and any(current is s for s in skip):
                stack.extend(a.value for a in current.args)
                if isinstance(current.func, cst.Attribute):
                    stack.append(current.func.value)
            else:
                stack.extend(c for c in self.a.kids.get(current) or children(current) if not isinstance(c, _SCOPES))
        if not skip:
            self._raises[node] = found
        return found

    def writes_a_temp_file(self, call: cst.Call) -> bool:
        """``f.write(data)``, ``f.flush()`` on a file object of one of the temps (the
        ``NamedTemporaryFile`` itself, ``with os.fdopen(fd, "w") as f``): what fails there
        is the disk, an ``OSError``."""
        func = call.func
        if not isinstance(func, cst.Attribute) or func.attr.value not in _FILE_WRITES:
            return False
        return any(self.a.holds_object(func.value, t) or self.a.role(func.value, t) == HOLDER for t in self.temps)

    def safe_on_own_container(self, call: cst.Call) -> bool:
        """``found.append(x)``, ``seen.add(x)``, ``env.get(k)`` on a list, set or dict the
        function made itself (every binding of the name is a display or a builtin
        container's call): such a method cannot fail."""
        func = call.func
        if not isinstance(func, cst.Attribute) or not isinstance(func.value, cst.Name):
            return False
        # ``d.pop(k, default)`` gives the default where ``d.pop(k)`` would raise ``KeyError``.
        with_default = func.attr.value == "pop" and len(call.args) == 2 and not any(a.star or a.keyword for a in call.args)
        if func.attr.value not in _INFALLIBLE_METHODS and not with_default:
            return False
        return self.a.own_container(self.scope, func.value.value)

    def makes_existing(self, call: cst.Call) -> bool:
        """``os.makedirs(d, exist_ok=True)`` or ``Path(d).mkdir(exist_ok=True)`` of a temp
        directory the function made: it is there already, so nothing happens."""
        func = call.func
        if not any(a.keyword is not None and a.keyword.value == "exist_ok" and _is_true(a.value) for a in call.args):
            return False
        if self.a.value_of(func).callees & {"os.makedirs", "os.mkdir"} and call.args and call.args[0].keyword is None:
            target: Node = call.args[0].value
        elif isinstance(func, cst.Attribute) and func.attr.value == "mkdir":
            target = func.value
        else:
            return False
        return any(t.kind == DIRECTORY and self.a.names_directory(target, t) for t in self.temps)

    def closes_temp(self, call: cst.Call) -> bool:
        return any(t.kind == FILE_OBJECT and self.closes_object(call, t) for t in self.temps)

    # -- the result

    def lifetime(self, index: int, temp: Temp) -> Lifetime:
        found = self._lifetime(index, temp)
        if index in self.remade:
            found = replace(found, remade=self.remade[index][0], beside=self.remade[index][1])
        if not found.leaks:
            return found
        # The first of the likeliest to fail (``max`` keeps the first of equals).
        cited = max(found.leaks, key=lambda leak: self.likelihood(leak.origin))
        a = self.a
        again = a.order.get(cited.origin, 0) <= a.order[temp.creation] <= a.end.get(cited.origin, -1)
        # Error paths only a bug could take (a builtin, path arithmetic, an assertion,
        # ``os.chmod`` of the temp just made) leave nothing behind in practice.
        entering: Optional[Tuple[str, str]] = None
        floor = 2
        if self.entering and index in self.pending:
            method = self.scope.name.value  # type: ignore[attr-defined]
            entering = (method, names.ENTERING[method])
            if method not in _ENTER_METHODS:
                # A test's setUp that fails is a test error, seen and fixed at once: its temp
                # matters when the world makes setup fail (I/O, a process), not a bug.
                floor = 3
        return replace(found, cited=cited, again=again, unlikely=self.likelihood(cited.origin) < floor, entering=entering)

    def likelihood(self, origin: Node) -> int:
        """How likely a statement is to fail, to name the likeliest of a temp's error paths:
        3 for a ``raise``, a wait, or a call that does I/O the world can make fail (a
        process, the network, a file, an archive; work on the temp itself); 2 for any
        other call not known here (a project's own function); 1 when only a bug could make
        it fail (a builtin, a container's or a string's method, path arithmetic, an
        assertion, opening, closing or ``chmod``-ing the temp just made, a copy, a clock,
        a unique id)."""
        parts: Sequence[Node] = [origin]
        if isinstance(origin, cst.If):
            parts = [origin.test]
        elif isinstance(origin, cst.For):
            parts = [origin.iter]
        elif isinstance(origin, cst.While):
            parts = [origin.test]
        elif isinstance(origin, cst.With):
            parts = [item.item for item in origin.items]
        elif isinstance(origin, cst.Match):
            parts = [origin.subject]
        found = 0
        for part in parts:
            for node in self.a._walk(part):
                if isinstance(node, cst.Assert):
                    found = max(found, 1)
                elif isinstance(node, (cst.Raise, cst.Await, cst.Yield)):
                    return 3
                if isinstance(node, cst.Call) and self.raise_class(node) is not None:
                    if self.hardly_fails(node):
                        found = max(found, 1)
                    elif self.does_io(node):
                        return 3
                    else:
                        found = 2
        return found

    def does_io(self, call: cst.Call) -> bool:
        """A call the world can make fail: a process, the network, a file or an archive
        (the standard library's, or a well-known client's), or work on one of the temps
        (``extract(archive, tmp)``, ``f.write(data)``)."""
        callees = self.a.value_of(call.func).callees
        if any((c.startswith(_IO_MODULES) and not c.startswith(_NO_IO)) or c in _FALLIBLE_BUILTINS for c in callees):
            return True
        func = call.func
        parts = [arg.value for arg in call.args] + ([func.value] if isinstance(func, cst.Attribute) else [])
        opened = self.opened_on()
        if any(self.a.mentions(part, t) for t in self.temps for part in parts):
            return True
        at = self.a.order.get(call, 0)
        return bool(opened) and any(
            opened.get(_key(inner), at) < at for part in parts for inner in self.a._walk(part)  # type: ignore[arg-type]
        )

    def opened_on(self) -> Dict[str, int]:
        """The names the function binds, once a temp is made, to what a call made of it
        (``h5 = open_file(tmp, "w")``, ``self.db = connect(path)``), each with where it first
        does: working on them after that is working on the temp, I/O the world can make fail
        (``arr.copy(h5.root)``), as ``f.write(data)`` is."""
        if self._opened is None:
            found: Dict[str, int] = {}
            for node in self.a.own_nodes(self.scope):
                if not isinstance(node, cst.Assign) or len(node.targets) != 1 or not isinstance(node.value, cst.Call):
                    continue
                key = _key(node.targets[0].target)
                at = self.a.order.get(node, 0)
                if key is not None and any(
                    not arg.star and self.a.order.get(t.creation, at) < at and self.a.mentions(arg.value, t)
                    for t in self.temps for arg in node.value.args
                ) and not any(self.a.role(node.targets[0].target, t) is not None for t in self.temps):
                    found.setdefault(key, at)
            self._opened = found
        return self._opened

    def hardly_fails(self, call: cst.Call) -> bool:
        func = call.func
        callees = self.a.value_of(func).callees
        if any(self.a.renames_beside(call, t) for t in self.temps):
            return True  # a rename within the temp directory, of the file just made there
        if callees & _ON_A_FRESH_TEMP and call.args and not call.args[0].star:
            first = call.args[0].value
            return callees <= {"os.fdopen", "os.close"} or any(self.a.refers(first, t) for t in self.temps)
        if callees and callees <= _OPENERS and call.args and self.opens_descriptor(call.args[0]):
            return True  # ``open(fd, "w")`` of ``fd, tmp = mkstemp()``: ``os.fdopen`` by another name
        if callees and callees <= _OPENERS and self.opens_a_temp_to_write(call):
            return True  # ``open(tmp, "w")``: the temp directory takes a file, as it just did
        if callees and callees <= _MAKE_DIRECTORIES and call.args and not call.args[0].star and call.args[0].keyword is None:
            return self.below_a_fresh_directory(call.args[0].value)  # ``os.makedirs(join(tmp, "git"))``
        if callees:
            return all(
                c.startswith(("builtins.", "os.path.")) and c not in _FALLIBLE_BUILTINS
                or c in names.PATH_CLASSES or c in names.PASS_THROUGH_CALLS or c in names.NON_RAISING_CALLS or c in _BUG_ONLY_CALLS
                for c in callees
            )
        if not isinstance(func, cst.Attribute):
            return False
        if _logs(func):
            return True  # logging handles its own errors (``Handler.handleError``)
        receiver = self.a.value_of(func.value)
        if receiver.is_path and func.attr.value in _PATH_ARITHMETIC:
            return True
        if func.attr.value == "mkdir" and self.below_a_fresh_directory(func.value):
            return True
        if func.attr.value not in _HARDLY_FAILING_METHODS:
            return False
        if func.attr.value in _NO_ARGUMENT_METHODS and call.args:
            return False  # ``arr.copy(h5.root, newname="x")``: not a container's ``copy()``
        # ``session.get(url)``, ``obj.update()``: on a receiver of unknown kind, only the
        # methods no I/O object is likely to spell alike.
        return not receiver.is_path and (bool(receiver.kinds) or func.attr.value not in _AMBIGUOUS_METHODS)

    def below_a_fresh_directory(self, path: Node) -> bool:
        """A path inside a temp directory the function made: making a directory there fails
        only when the disk is full, as any write to the temp would."""
        value = self.a.value_of(path)
        return any(
            t.kind == DIRECTORY and not t.inside and Fresh(t.creation) in value.within and Fresh(t.creation) not in value.idents
            for t in self.temps
        )

    def opens_a_temp_to_write(self, call: cst.Call) -> bool:
        """``open(tmp, "w")`` of a temp file the function made in the temp directory: it
        fails only on a full disk or a bug."""
        path, mode = _argument(call, 0, "file"), _argument(call, 1, "mode")
        if path is None or mode is None or any(a.star for a in call.args):
            return False
        return writes(self.a.value_of(mode).literal) and any(
            t.located and t.kind in (FILE, FILE_OBJECT) and not t.inside and self.a.refers(path, t) for t in self.temps
        )

    def opens_descriptor(self, arg: cst.Arg) -> bool:
        """Whether ``arg`` is the descriptor of a temp's ``mkstemp`` (``fd`` of ``fd, tmp``)."""
        value = arg.value
        return not arg.star and arg.keyword is None and isinstance(value, cst.Name) and any(
            t.descriptor == value.value for t in self.temps
        )

    def _lifetime(self, index: int, temp: Temp) -> Lifetime:
        # A ``TemporaryDirectory`` object's finalizer removes the directory when the object
        # goes, which an exception leaving the function makes it do: no error path leaks it.
        leaks = tuple(sorted(self.leaks[index], key=self.leak_key)) if temp.kind != DIRECTORY_OBJECT else ()
        handed = index in self.handed
        never = not handed and self.never_released(index, temp)
        kept_on = self.kept_on.get(index) if never else None
        if temp.owner is not None and never:
            kept_on = temp.handle
        if not (leaks and handed):
            on_error = never and any(
                isinstance(node, cst.BaseSmallStatement) and index in self.effects(node) and self.a.in_handler(node)
                for node in self.a.own_nodes(self.scope)
            )
            return Lifetime(temp, handed, leaks, never_released=never, kept_on=kept_on, only_on_error=on_error)
        if temp.conditional or temp.inside or temp.item or temp.unique or temp.deleting or self.a.moved_beside(temp):
            # No fix: the cleanup would need the directory, a test, the item's key, or the
            # file made at (or beside) a deleted temp's name, or renamed beside its own.
            return Lifetime(temp, True, leaks)
        fixes = []
        for handler in dict.fromkeys(l.handler for l in leaks if l.handler is not None):
            fix = self.handler_fix(index, temp, handler)
            if fix is not None:
                fixes.append(fix)
        unhandled = [l for l in leaks if l.handler is None]
        if not unhandled:
            return Lifetime(temp, True, leaks, tuple(fixes))
        cleaning = self.cleaning_try(temp)
        if cleaning is not None:
            return Lifetime(temp, True, leaks, tuple(fixes), extend=self.extension(temp, cleaning, unhandled))
        enclosing = self.enclosing_try(index, temp, unhandled)
        if enclosing is not None:
            return Lifetime(temp, True, leaks, tuple(fixes), extend=enclosing)
        wrap = self.wrap(temp, unhandled)
        return Lifetime(temp, True, leaks, tuple(fixes), wrap, register=self.registration(temp, wrap) if wrap else None)

    def leak_key(self, leak: Leak) -> Tuple[int, int, int]:
        """Source order of the failing statement, then of the handler: a total order,
        so the first leak (the one a message names) never depends on set order."""
        order = self.a.order
        return order.get(leak.origin, 0), order.get(leak.handler, 0) if leak.handler is not None else 0, _EXIT_RANK[leak.exit]

    def never_released(self, index: int, temp: Temp) -> bool:
        """XDV203, asked of a temp no normal path (one no exception went through) removes,
        moves, hands off or registers: the file exists on some path, and no closure of
        the function (for a temp kept on ``self``, no method of its class) lets go of it.
        A removal only on error paths (in an ``except`` clause) does not count: every
        call that succeeds leaves the temp. A ``TemporaryDirectory`` object is left out:
        its finalizer removes the directory when the object goes."""
        if temp.kind == DIRECTORY_OBJECT or not temp.located or index in self.pending or index not in self.alive:
            return False  # no file: a ``mktemp`` name no call that may make a file was given
        a = self.a
        if index in self.shown:
            return False  # opened in a browser or viewer: kept for the user
        nested = [n for n in a._walk(self.scope) if isinstance(n, (cst.FunctionDef, cst.Lambda)) and n is not self.scope]
        if isinstance(self.scope, cst.Module):
            nested = [n for n in a.calls if isinstance(n, (cst.FunctionDef, cst.Lambda))]
        for function in nested:
            if a.lets_go_of(function, temp):
                return False  # a closure (or, for a module's temp, a function) lets go of it
        return True

    def handler_fix(
        self, index: int, temp: Temp, handler: cst.ExceptHandler
    ) -> Optional[Tuple[cst.ExceptHandler, Optional[Tuple[cst.Try, cst.IndentedBlock]]]]:
        a = self.a
        if a.mentions(handler.body, temp):
            return None  # it does something with the temp already: not ours to reorder
        entry = self.entries.get((index, handler), set())
        if HANDED in entry or LIVE in entry:
            return None  # someone else may own it by then
        node = a.parent.get(handler)
        if not isinstance(node, cst.Try):
            return None
        if handler in self.falls_through:
            end = a.end[node]
            for name_node in a._walk(self.scope):
                if a.order[name_node] > end and a.mentions(name_node, temp) and isinstance(name_node, (cst.Name, cst.Attribute)):
                    return None  # used after the try: removing it early would change that
        if ABSENT not in entry:
            return handler, None
        if temp.owner is not None:
            return None  # ``self.tmp = None`` first would change the object
        body, block = node.body, a.parent.get(node)
        inside = a.order[body] <= a.order[temp.statement] <= a.end[body]
        if not inside or not isinstance(block, cst.IndentedBlock):
            return None
        return handler, (node, block)

    def cleaning_try(self, temp: Temp) -> Optional[cst.Try]:
        """The innermost ``try`` around the creation (in its body) with a handler that
        removes the temp: what it catches is cleaned up already."""
        a = self.a
        node = a.parent.get(temp.statement)
        while node is not None and node is not self.scope and not isinstance(node, _SCOPES):
            if isinstance(node, cst.Try) and a.order[node.body] <= a.order[temp.statement] <= a.end[node.body]:
                for handler in node.handlers:
                    if any(isinstance(n, cst.Call) and a.cleans(n, temp) for n in a._walk(handler.body)):
                        return node
            node = a.parent.get(node)
        return None

    def extension(self, temp: Temp, node: cst.Try, leaks: List[Leak]) -> Optional[Tuple[cst.Try, cst.IndentedBlock]]:
        """``node`` and its block when every leak is raised in its body (so a clause of its
        own catches them all); None then means no fix, since a nested one would clean twice."""
        a = self.a
        block = a.parent.get(node)
        if temp.owner is not None or not isinstance(block, cst.IndentedBlock):
            return None
        start, end = a.order[node.body], a.end[node.body]
        if all(start <= a.order.get(leak.origin, -1) <= end for leak in leaks):
            return node, block
        return None

    def enclosing_try(self, index: int, temp: Temp, leaks: List[Leak]) -> Optional[Tuple[cst.Try, cst.IndentedBlock]]:
        """The innermost ``try`` around the creation whose body raises every leak, when an
        ``except BaseException`` clause on it (guarded, the name bound to None before it)
        would remove the temp exactly when it leaks: every exception that escapes its
        handlers carries the temp live (an earlier error swallowed or not), or not created
        yet, never handed on or removed
        already, nor re-raised by a handler (which a safe fix makes remove it), and the name
        is not used before the creation, so binding it to None changes nothing."""
        a = self.a
        if temp.owner is not None:
            return None
        created = a.order[temp.statement]
        node = a.parent.get(temp.statement)
        while node is not None and node is not self.scope and not isinstance(node, _SCOPES):
            if isinstance(node, cst.Try) and a.order[node.body] <= created <= a.end[node.body]:
                if all(created < a.order.get(leak.origin, -1) <= a.end[node.body] for leak in leaks):
                    break
            node = a.parent.get(node)
        else:
            return None
        if not isinstance(node, cst.Try):
            return None
        block = a.parent.get(node)
        if not isinstance(block, cst.IndentedBlock):
            return None
        for status in self.escapes.get((index, node), set()):
            if status != ABSENT and status[0] != "err" and not (status[0] == "raised" and status[2] is None):
                return None  # handed on or removed already, or re-raised by a handler
        statements = list(block.body)
        number = statements.index(node)
        before = statements[number - 1] if number else None
        for name_node in a._walk(self.scope):
            if isinstance(name_node, cst.Name) and name_node.value == temp.handle and a.order[name_node] < created:
                if before is None or not (a.order[before] <= a.order[name_node] <= a.end[before]) or not binds_none(before, temp.handle):
                    return None  # the name holds something else there: ``None`` or a removal would change it
        return node, block

    def test_case(self, cls: cst.ClassDef) -> bool:
        """A ``unittest.TestCase`` subclass, directly or through same-module bases."""
        seen = [cls]
        for klass in seen:  # grows while it is walked
            if _test_case(klass):
                return True
            seen.extend(b for b in self.a.bases().get(klass, ()) if b not in seen)
        return False

    def registration(self, temp: Temp, wrap: Tuple[cst.IndentedBlock, int, int]) -> Optional[Tuple[cst.IndentedBlock, int, int]]:
        """In a method of a ``TestCase`` subclass whose only release of the temp is one
        removal statement (``os.remove(fn)``, ``shutil.rmtree(d)``, ``d.cleanup()``) after
        the leaks in the creation's block, with nothing after it using the temp: that block,
        the creation's statement and the removal's. Registering that very call with
        ``self.addCleanup`` right after the creation removes the temp once, after the test,
        whether it passed or not; no other statement stores, returns or removes it."""
        a = self.a
        method = a.method_of(self.scope)
        if method is None or method[1] != "self" or not self.test_case(method[0]) or temp.owner is not None:
            return None
        if isinstance(self.scope, cst.FunctionDef) and decorated(self.scope, "classmethod"):
            return None
        block, first, last = wrap
        statements = list(block.body)
        cleaning = [c for c in a.calls.get(self.scope, ()) if a.cleans(c, temp) or a.moves(c, temp)]
        if len(cleaning) != 1:
            return None
        removal = next((n for n, s in enumerate(statements) if a.order[s] <= a.order[cleaning[0]] <= a.end[s]), None)
        if removal is None or removal <= last:
            return None
        line = statements[removal]
        if not (isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 and isinstance(line.body[0], cst.Expr)):
            return None
        call = line.body[0].value
        if call is not cleaning[0] or any(e.comment is not None for e in line.leading_lines):
            return None
        if not all(isinstance(arg.value, (cst.Name, cst.Attribute, cst.SimpleString, cst.Integer)) and not arg.star for arg in call.args):
            return None  # only the temp (or its ``.name``) and constants: the same values at the creation
        names_used = {n.value for n in a._walk(call) if isinstance(n, cst.Name)}
        local = a.locals_of(self.scope)
        if any(n in local and n != temp.handle and n != "self" for n in names_used):
            return None  # a local might differ between the creation and the removal
        end = a.end[line]
        for node in a._walk(self.scope):
            if a.order[node] > end and isinstance(node, cst.Name) and node.value == temp.handle:
                return None  # used after its removal: registering it would keep it longer
            if isinstance(node, (cst.Return, cst.Yield, cst.Global, cst.Nonlocal)) and node.value is not None and a.mentions(node, temp):  # type: ignore[union-attr]
                return None
            if isinstance(node, (cst.Assign, cst.AugAssign, cst.AnnAssign)) and node.value is not None and a.mentions(node.value, temp):
                targets = [t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target]
                if not all(isinstance(t, cst.Name) for t in targets):
                    return None  # stored where it outlives the method
        return block, first - 1, removal  # ``wrap`` starts right after the creation's statement

    def wrap(self, temp: Temp, leaks: List[Leak]) -> Optional[Tuple[cst.IndentedBlock, int, int]]:
        a = self.a
        block = a.parent.get(temp.statement)
        if not isinstance(block, cst.IndentedBlock) or not isinstance(temp.statement, cst.SimpleStatementLine):
            return None
        statements = list(block.body)
        first = statements.index(temp.statement) + 1
        last = -1
        for leak in leaks:
            position = a.order.get(leak.origin, 0)
            for number, statement in enumerate(statements[first:], start=first):
                if a.order[statement] <= position <= a.end[statement]:
                    last = max(last, number)
                    break
            else:
                return None  # raised outside this block (or by the creation itself)
        return (block, first, last) if last >= first else None


def binds_none(statement: Node, name: str) -> bool:
    """``name = None`` alone on its line."""
    if not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1:
        return False
    assign = statement.body[0]
    return (
        isinstance(assign, cst.Assign)
        and len(assign.targets) == 1
        and isinstance(assign.targets[0].target, cst.Name)
        and assign.targets[0].target.value == name
        and _is_none(assign.value)
    )


def _test_case(cls: cst.ClassDef) -> bool:
    """A ``unittest.TestCase`` subclass by its bases' spelling (``TestCase``,
    ``unittest.TestCase``): what gives its methods ``self.addCleanup``."""
    for base in cls.bases:
        value = base.value
        if isinstance(value, cst.Name) and value.value == "TestCase":
            return True
        if isinstance(value, cst.Attribute) and value.attr.value == "TestCase":
            return True
    return False
