"""Qualified names the analysis knows: temp factories, path helpers, move functions.

Data only, so the cheap pre-scan and the libcst analysis read the same tables and
cannot disagree about what can hold a finding.
"""

from __future__ import annotations

import builtins
import sys
from typing import Dict, FrozenSet, Optional, Tuple

#: tempfile factories that create a path, with the positional index of ``dir`` and
#: the kind of value they return.
TEMP_FACTORIES: Dict[str, Tuple[int, str]] = {
    "tempfile.mkstemp": (2, "str"),
    "tempfile.mkdtemp": (2, "str"),
    "tempfile.mktemp": (2, "str"),
    "tempfile.NamedTemporaryFile": (6, "file"),
    "tempfile.TemporaryDirectory": (2, "tempdir"),
}

#: Methods that hand what they store on ``self`` (or ``cls``) to a later method only when
#: they return, each with that method: ``__exit__`` never runs when ``__enter__`` raises,
#: nor ``tearDown`` when ``setUp`` does (nor pytest's ``teardown_method`` when
#: ``setup_method`` does).
ENTERING: Dict[str, str] = {
    "__enter__": "__exit__",
    "__aenter__": "__aexit__",
    "setUp": "tearDown",
    "asyncSetUp": "asyncTearDown",
    "setUpClass": "tearDownClass",
    "setup_method": "teardown_method",
    "setup_class": "teardown_class",
}

#: unittest's test case classes: pytest runs their ``tearDownClass`` once the class's
#: tests are done even when its own ``setup_class`` raised (only a failing ``setUpClass``
#: skips it).
TEST_CASE_CLASSES: FrozenSet[str] = frozenset({
    "unittest.TestCase", "unittest.IsolatedAsyncioTestCase", "unittest.case.TestCase",
    "django.test.TestCase", "django.test.SimpleTestCase", "django.test.TransactionTestCase",
})

#: Downloads into a new temp file when given no ``filename`` (its path is the first of
#: the pair returned); ``urlcleanup()`` removes every such file.
DOWNLOAD_TEMPS: FrozenSet[str] = frozenset({"urllib.request.urlretrieve"})
DOWNLOAD_CLEANUP = "urllib.request.urlcleanup"

#: Calls whose result makes a name unique: a path in the temp directory named with one
#: (``os.path.join(tempfile.gettempdir(), f"app-{uuid.uuid4()}")``) is a new temp.
UNIQUE_NAME_CALLS: FrozenSet[str] = frozenset({"uuid.uuid1", "uuid.uuid4", "secrets.token_hex", "secrets.token_urlsafe"})

#: Calls that return a temp-location directory whatever their arguments.
TEMP_DIR_CALLS: FrozenSet[str] = frozenset({"tempfile.gettempdir", "tempfile.gettempdirb"})

#: Calls that return one of their arguments unchanged: ``typing.cast(T, value)``.
IDENTITY_CALLS: FrozenSet[str] = frozenset({"typing.cast", "typing_extensions.cast"})

#: Calls whose result lies in the directory tree of their first argument's directory:
#: ``importlib.util.cache_from_source(p)`` is ``dirname(p)/__pycache__/...``.
BESIDE_CALLS: FrozenSet[str] = frozenset(
    {"importlib.util.cache_from_source", "importlib.util.source_from_cache", "imp.cache_from_source", "imp.source_from_cache"}
)

#: Downloads to a temp file of their own unless given a file name: ``(path, headers)``.
DOWNLOAD_CALLS: FrozenSet[str] = frozenset({"urllib.request.urlretrieve"})

#: Calls, known by their last name whatever module holds them, that fetch a file into a
#: download cache and return its path there: ``cached_path(url)`` (allennlp's, datasets',
#: transformers', and the copies projects keep of it), huggingface_hub's downloads. A move of
#: that file takes it out of the cache, wherever the cache's directory was set up. Given
#: ``local_dir=``, huggingface_hub's download below that directory instead.
CACHE_FETCH_NAMES: FrozenSet[str] = frozenset({"cached_path", "cached_download", "hf_hub_download", "snapshot_download"})
CACHE_FETCH_ELSEWHERE = "local_dir"

#: Module attributes holding a temp-location directory.
TEMP_DIR_ATTRIBUTES: FrozenSet[str] = frozenset({"tempfile.tempdir"})

#: Well-known libraries' constants that hold a directory of a built-in location: the
#: analysis never reads installed code, so what they are is written down here.
LIBRARY_LOCATIONS: Dict[str, str] = {
    **{
        f"huggingface_hub.constants.{name}": "cache"
        for name in (
            "HF_HOME", "default_cache_path", "HF_HUB_CACHE", "HUGGINGFACE_HUB_CACHE", "HF_ASSETS_CACHE",
            "HUGGINGFACE_ASSETS_CACHE", "HF_XET_CACHE",
        )
    },
    **{f"datasets.config.{name}": "cache" for name in ("HF_CACHE_HOME", "HF_DATASETS_CACHE", "HF_MODULES_CACHE", "XDG_CACHE_HOME")},
    **{
        f"{module}.{name}": "cache"
        for module in ("transformers", "transformers.utils", "transformers.utils.hub", "transformers.file_utils")
        for name in ("TRANSFORMERS_CACHE", "PYTORCH_TRANSFORMERS_CACHE", "HF_MODULES_CACHE")
    },
    **{f"{module}.HF_MODULES_CACHE": "cache" for module in ("diffusers.utils", "diffusers.utils.constants")},
}

_PATH_MODULES = ("os.path", "posixpath", "ntpath")

#: ``f(p)`` keeps ``p``'s location.
PASS_THROUGH_CALLS: FrozenSet[str] = frozenset(
    {
        f"{mod}.{fn}"
        for mod in _PATH_MODULES
        for fn in ("abspath", "realpath", "normpath", "normcase", "expanduser", "expandvars", "dirname")
    }
    | {"os.fspath", "os.fsencode", "os.fsdecode", "builtins.str", "builtins.bytes"}
    # Text/bytes converters of widely used libraries: the same path, as the other type.
    | {f"six.ensure_{kind}" for kind in ("str", "binary", "text")}
    | {f"django.utils.encoding.{fn}" for fn in ("force_str", "force_bytes", "force_text", "smart_str", "smart_bytes")}
    | {
        f"ansible.module_utils.{mod}.{fn}"
        for mod in ("_text", "common.text.converters")
        for fn in ("to_bytes", "to_text", "to_native")
    }
)

#: ``f(a, b, ...)``: the first component decides, unless a later one is absolute.
JOIN_CALLS: FrozenSet[str] = frozenset(f"{mod}.join" for mod in _PATH_MODULES)

#: ``head, tail = split(p)`` and ``root, ext = splitext(p)``.
SPLIT_CALLS: FrozenSet[str] = frozenset(f"{mod}.{fn}" for mod in _PATH_MODULES for fn in ("split", "splitext"))

#: Constructors of ``pathlib`` paths (and of ``pathlib2``, its backport, which projects import
#: in its place: ``try: from pathlib2 import Path``); they join their arguments like ``os.path.join``.
PATH_CLASSES: FrozenSet[str] = frozenset(
    f"{module}.{cls}"
    for module in ("pathlib", "pathlib2")
    for cls in ("Path", "PurePath", "PosixPath", "PurePosixPath", "WindowsPath", "PureWindowsPath")
)

#: ``Path`` methods naming a file beside the receiver (in its directory).
BESIDE_METHODS: FrozenSet[str] = frozenset({"with_name", "with_suffix", "with_stem"})
#: ``Path`` methods whose result is a path in the receiver's location.
PATH_DERIVING_METHODS: FrozenSet[str] = BESIDE_METHODS | {"resolve", "absolute", "expanduser", "joinpath", "readlink"}

#: ``Path`` methods that iterate over entries below the receiver.
PATH_ITERATING_METHODS: FrozenSet[str] = frozenset({"iterdir", "glob", "rglob"})

#: Attributes of a path that still name something inside its location.
PATH_DERIVING_ATTRIBUTES: FrozenSet[str] = frozenset({"parent"})


#: Reading the environment: ``os.getenv(NAME, default)`` and friends.
ENV_CALLS: FrozenSet[str] = frozenset({"os.getenv", "os.environ.get", "os.environ.setdefault", "os.getenvb"})
ENV_MAPPINGS: FrozenSet[str] = frozenset({"os.environ", "os.environb"})

#: ``Path.home()`` and ``expanduser("~")`` both mean the literal ``~``.
HOME_CALLS: FrozenSet[str] = frozenset(
    f"{module}.{cls}.home" for module in ("pathlib", "pathlib2") for cls in ("Path", "PosixPath", "WindowsPath")
)

#: Filesystem move functions: qualified name -> (source parameter, destination parameter).
MOVE_FUNCTIONS: Dict[str, Tuple[str, str]] = {
    "os.rename": ("src", "dst"),
    "os.replace": ("src", "dst"),
    "os.renames": ("old", "new"),
    "os.link": ("src", "dst"),
}

#: What a project's own module calls its move function, imported with a relative import
#: (fcache's ``from .posixemulation import rename``, a compat module's ``replace``): a thin
#: wrapper of ``os``'s on POSIX, taken as a move of its first argument to its second.
PROJECT_MOVE_NAMES: FrozenSet[str] = frozenset({"rename", "replace", "renames"})

#: How the interpreter names such a function: ``.posixemulation.rename``.
PROJECT_PREFIX = "."


def of_project(qualified: str, package: Optional[str]) -> bool:
    """Whether ``qualified`` names an object of the project: imported relatively, or by
    an absolute name in the file's own top-level ``package``."""
    return qualified.startswith(PROJECT_PREFIX) or package is not None and qualified.partition(".")[0] == package


def project_move(qualified: str) -> bool:
    """Whether ``qualified`` names a project's own move function (``PROJECT_MOVE_NAMES``)."""
    return qualified.startswith(PROJECT_PREFIX) and qualified.rpartition(".")[2] in PROJECT_MOVE_NAMES


#: ``Path`` methods that move or link: name -> whether the receiver is the source.
#: ``p.rename(t)`` moves ``p`` to ``t``; ``p.hardlink_to(t)`` makes ``p`` a link to ``t``.
MOVE_METHODS: Dict[str, bool] = {"rename": True, "replace": True, "hardlink_to": False}


#: ``Path.rename(p, q)``: the same methods called on the class.
UNBOUND_MOVE_METHODS: Dict[str, str] = {f"{cls}.{m}": m for cls in PATH_CLASSES for m in MOVE_METHODS}

#: Functions that remove the path given as their first argument (temp cleanup).
CLEANUP_FUNCTIONS: FrozenSet[str] = frozenset(
    {"os.unlink", "os.remove", "os.rmdir", "os.removedirs", "shutil.rmtree"}
    | {f"{cls}.{m}" for cls in PATH_CLASSES for m in ("unlink", "rmdir")}
    # The stdlib's own test helpers, which ignore a missing path.
    | {f"{m}.{f}" for m in ("test.support.os_helper", "test.support") for f in ("unlink", "rmtree", "rmdir")}
)

#: Methods that remove their receiver: ``Path.unlink``, ``Path.rmdir``, and
#: ``TemporaryDirectory.cleanup`` on the object.
CLEANUP_METHODS: FrozenSet[str] = frozenset({"unlink", "rmdir", "cleanup"})

#: Methods that keep their argument in a container: the container owns the temp then.
STORE_METHODS: FrozenSet[str] = frozenset(
    {"append", "add", "extend", "insert", "appendleft", "put", "put_nowait", "setdefault", "update", "push"}
)

#: Moves after which the source no longer exists: the temp has been handed on.
#: Links and copies leave the source in place, so they are not here.
CONSUMING_MOVES: FrozenSet[str] = frozenset(
    {"os.rename", "os.replace", "os.renames", "shutil.move", "xdevlint.safemove.safe_move"}
    | {f"{cls}.{m}" for cls in PATH_CLASSES for m in ("rename", "replace")}
)

#: The names of the ``builtins`` module (``str``, ``open``): what a name is when nothing binds it.
BUILTINS: FrozenSet[str] = frozenset(dir(builtins))

#: Calls that never return: they exit the process or end the test.
EXIT_FUNCTIONS: FrozenSet[str] = frozenset(
    {"sys.exit", "os._exit", "os.abort", "builtins.exit", "builtins.quit", "pytest.fail", "pytest.skip", "pytest.exit", "pytest.xfail"}
)

#: Rename, move, copy and link calls, whose swallowed failure XDV202 looks for.
#: ``os.symlink`` is no move: it links to any path, on any filesystem.
MOVE_LIKE_FUNCTIONS: FrozenSet[str] = frozenset(MOVE_FUNCTIONS) | {
    "shutil.move",
    "shutil.copy",
    "shutil.copy2",
    "shutil.copyfile",
    "shutil.copytree",
    "xdevlint.safemove.safe_move",
}

#: What a handler may do when a rename fails, to move the data anyway: copy it (or move
#: it with a function that copies across filesystems).
COPY_FALLBACKS: FrozenSet[str] = frozenset(
    {"shutil.copy", "shutil.copy2", "shutil.copyfile", "shutil.copytree", "shutil.copyfileobj", "shutil.move"}
    | {"xdevlint.safemove.safe_move"}
)

#: Calls the lifetime analysis takes as not raising: pure path arithmetic and a few
#: builtins whose failure would be a bug in the code, not an error path.
NON_RAISING_CALLS: FrozenSet[str] = frozenset(
    {
        f"{mod}.{fn}"
        for mod in _PATH_MODULES
        for fn in ("join", "basename", "dirname", "split", "splitext", "exists", "isfile", "isdir", "lexists", "islink", "normpath", "abspath", "realpath", "expanduser")
    }
    | {f"builtins.{fn}" for fn in ("len", "isinstance", "str", "repr", "bool", "id", "type", "hasattr")}
    | {"os.fspath", "os.fsencode", "os.fsdecode", "contextlib.suppress"}
    # Closing a descriptor the code holds fails only for a bad descriptor (a bug);
    # process ids and the umask are always there.
    | {"os.close", "os.getpid", "os.getppid", "os.getuid", "os.geteuid", "os.getgid", "os.umask"}
    # The interpreter's own list and dict: appending, inserting and looking up never fail.
    | {"sys.path.append", "sys.path.insert", "sys.modules.get"}
    # The environment: a copy or a look-up (with its default) of a dict in memory.
    | {"os.environ.copy", "os.environ.get", "os.getenv"}
    # A shell command's failure is its exit status, returned, never raised.
    | {"os.system"}
    # A path from strings (``Path(f.name)``); what a loop counts through (iterating a
    # name is no call either); a string quoted for a shell.
    | PATH_CLASSES | {"builtins.range", "builtins.enumerate", "builtins.zip", "shlex.quote", "shlex.join", "pipes.quote"}
    # The interpreter's own configuration: look-ups in tables it already holds.
    | {"sysconfig.get_paths", "sysconfig.get_path", "sysconfig.get_config_var", "sysconfig.get_config_vars"}
    | {"platform.system", "platform.machine", "sys.getfilesystemencoding"}
)

#: Calls that cannot raise when given a default (``sys.modules.pop(name, None)``);
#: without one, a missing key raises ``KeyError``.
NON_RAISING_WITH_DEFAULT: FrozenSet[str] = frozenset({"sys.modules.pop"})

#: Logger methods: logging reports a handler's failure itself and does not raise.
LOGGING_METHODS: FrozenSet[str] = frozenset({"debug", "info", "warning", "warn", "error", "exception", "critical", "fatal", "log"})

#: The module prefixes whose calls raise ``OSError`` (and nothing else an
#: ``except OSError`` would miss) for reasons outside the program.
OS_ERROR_MODULES: Tuple[str, ...] = ("os.", "shutil.", "tempfile.", "pathlib.", "builtins.open", "io.open")

#: Exception classes that catch ``EXDEV``: ``OSError`` and its aliases, and the broad ones.
OS_ERROR_CLASSES: FrozenSet[str] = frozenset(
    {"builtins.OSError", "builtins.IOError", "builtins.EnvironmentError", "os.error", "socket.error", "select.error"}
)
BROAD_EXCEPTIONS: FrozenSet[str] = frozenset({"builtins.BaseException", "builtins.Exception"})
#: ``OSError`` subclasses: each catches one kind of failure only.
OS_ERROR_SUBCLASSES: FrozenSet[str] = frozenset(
    f"builtins.{cls}"
    for cls in (
        "BlockingIOError", "ChildProcessError", "ConnectionError", "BrokenPipeError", "ConnectionAbortedError",
        "ConnectionRefusedError", "ConnectionResetError", "FileExistsError", "FileNotFoundError",
        "InterruptedError", "IsADirectoryError", "NotADirectoryError", "PermissionError",
        "ProcessLookupError", "TimeoutError",
    )
) | {"shutil.Error", "shutil.SameFileError"}

#: Every qualified name above, for ``from MODULE import *``.
KNOWN_NAMES: FrozenSet[str] = frozenset(
    {*TEMP_FACTORIES, *TEMP_DIR_CALLS, *TEMP_DIR_ATTRIBUTES, *PASS_THROUGH_CALLS, *JOIN_CALLS, *SPLIT_CALLS, *PATH_CLASSES, *ENV_CALLS, *ENV_MAPPINGS, *MOVE_FUNCTIONS, *IDENTITY_CALLS, *DOWNLOAD_CALLS, *BESIDE_CALLS}
)


#: ``tempfile``'s plain makers, which a project may wrap under the same name.
_WRAPPED_FACTORIES = frozenset({"mkdtemp", "mkstemp", "mktemp"})


def tempfile_lookalike(qualified: str) -> Optional[str]:
    """The ``tempfile`` maker a project's function of the same name stands for (toil's
    ``toil.lib.io.mkdtemp`` sets a mode and calls ``tempfile.mkdtemp``), imported from
    outside the standard library; ``None`` for anything else."""
    module, _, name = qualified.rpartition(".")
    if name not in _WRAPPED_FACTORIES or not module or module.split(".", 1)[0] in sys.stdlib_module_names:
        return None
    return None if qualified in KNOWN_NAMES else f"tempfile.{name}"
