"""Provenance: every source and propagation DESIGN lists, one small program each.

Each program passes the expression under test to ``probe(...)``; the test reads the
location set the analysis gives that argument (the last probe in the file).
"""

from __future__ import annotations

import textwrap
from typing import FrozenSet

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper

from xdevlint.analysis.locations import Location, Locations
from xdevlint.analysis.provenance import ProvenanceProvider
from xdevlint.analysis.values import Value

TEMP, CACHE = frozenset({"temp"}), frozenset({"cache"})
BOTH, NONE = TEMP | CACHE, frozenset()


def probe(source: str, locations: Locations = Locations()) -> Value:
    module = cst.parse_module(textwrap.dedent(source))
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True, cache={ProvenanceProvider: locations})
    values = wrapper.resolve(ProvenanceProvider)
    probes = [
        node for node in values
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == "probe"
    ]
    assert probes, "the program must call probe(...)"
    last = max(probes, key=lambda call: module.code.find(module.code_for_node(call)))
    return values.get(last.args[0].value, Value())


def located(source: str, locations: Locations = Locations()) -> FrozenSet[str]:
    return probe(source, locations).locations


SOURCES = {
    "mkstemp tuple unpacking": ("import tempfile\nfd, p = tempfile.mkstemp()\nprobe(p)", TEMP),
    "mkstemp()[1]": ("import tempfile\nprobe(tempfile.mkstemp()[1])", TEMP),
    "mkstemp fd is not the path": ("import tempfile\nfd, p = tempfile.mkstemp()\nprobe(fd)", NONE),
    "mkdtemp": ("from tempfile import mkdtemp\nprobe(mkdtemp())", TEMP),
    "mktemp": ("import tempfile as tf\nprobe(tf.mktemp())", TEMP),
    "NamedTemporaryFile .name": ("import tempfile\nf = tempfile.NamedTemporaryFile(delete=False)\nprobe(f.name)", TEMP),
    "with NamedTemporaryFile as f": ("import tempfile\nwith tempfile.NamedTemporaryFile() as f:\n    probe(f.name)", TEMP),
    "with TemporaryDirectory as d": ("import tempfile\nwith tempfile.TemporaryDirectory() as d:\n    probe(d)", TEMP),
    "TemporaryDirectory().name": ("import tempfile\nprobe(tempfile.TemporaryDirectory().name)", TEMP),
    "gettempdir": ("import tempfile\nprobe(tempfile.gettempdir())", TEMP),
    "gettempdirb": ("import tempfile\nprobe(tempfile.gettempdirb())", TEMP),
    "tempfile.tempdir": ("import tempfile\nprobe(tempfile.tempdir)", TEMP),
    "environ[TMPDIR]": ("import os\nprobe(os.environ['TMPDIR'])", TEMP),
    "environ.get(TEMP)": ("import os\nprobe(os.environ.get('TEMP'))", TEMP),
    "getenv(TMP)": ("import os\nprobe(os.getenv('TMP'))", TEMP),
    "/tmp literal": ("probe('/tmp/shard')", TEMP),
    "/var/tmp literal": ("probe('/var/tmp')", TEMP),
    "/dev/shm literal": ("probe(b'/dev/shm/x')", TEMP),
    "/tmpfs is not /tmp": ("probe('/tmpfs/x')", NONE),
    "mkstemp(dir=cache)": ("import tempfile, os\nfd, p = tempfile.mkstemp(dir=os.environ['HF_HOME'])\nprobe(p)", CACHE),
    "mkstemp positional dir": ("import tempfile\nfd, p = tempfile.mkstemp('.x', 'y', '/var/cache/z')\nprobe(p)", CACHE),
    "mkstemp(dir=None)": ("import tempfile\nfd, p = tempfile.mkstemp(dir=None)\nprobe(p)", TEMP),
    "mkstemp(dir=unknown)": ("import tempfile\ndef f(d):\n    fd, p = tempfile.mkstemp(dir=d)\n    probe(p)", NONE),
    "mkstemp(**kwargs) may pass dir": ("import tempfile\ndef f(**kw):\n    probe(tempfile.mkstemp(**kw)[1])", NONE),
    "HF_HOME": ("import os\nprobe(os.environ['HF_HOME'])", CACHE),
    "HF_XET_CACHE with default": ("import os\nprobe(os.environ.get('HF_XET_CACHE', '/srv/x'))", CACHE),
    "env default's location joins": ("import os\nprobe(os.getenv('NOT_A_LOCATION', '/tmp'))", TEMP),
    "XDG_CACHE_HOME": ("import os\nprobe(os.getenv('XDG_CACHE_HOME'))", CACHE),
    "TORCH_HOME": ("from os import environ\nprobe(environ['TORCH_HOME'])", CACHE),
    "platformdirs.user_cache_dir": ("import platformdirs\nprobe(platformdirs.user_cache_dir('app'))", CACHE),
    "appdirs.user_cache_dir": ("from appdirs import user_cache_dir\nprobe(user_cache_dir('app'))", CACHE),
    "expanduser ~/.cache": ("import os\nprobe(os.path.expanduser('~/.cache/hf'))", CACHE),
    "Path.home() / .cache": ("from pathlib import Path\nprobe(Path.home() / '.cache' / 'x')", CACHE),
    "join(expanduser(~), .cache)": ("import os\nprobe(os.path.join(os.path.expanduser('~'), '.cache'))", CACHE),
    "/var/cache literal": ("probe('/var/cache/app')", CACHE),
    "~/.cache literal": ("probe('~/.cache')", CACHE),
    "cache-named parameter": ("def f(model_cache):\n    probe(model_cache)", CACHE),
    "cache-named attribute": ("def f(cfg):\n    probe(cfg.cache_root)", CACHE),
    "cache-named constant": ("CACHE_DIR = compute()\nprobe(CACHE_DIR)", CACHE),
    "a value wins over a cache name": ("import tempfile\ntmp_cache = tempfile.mkdtemp()\nprobe(tmp_cache)", TEMP),
    "a file fetched into a download cache": ("from .utils import cached_path\nprobe(cached_path(url))", CACHE),
    "hf_hub_download": ("import huggingface_hub as h\nprobe(h.hf_hub_download('r', 'f'))", CACHE),
    "hf_hub_download(local_dir=) is below it": (
        "import tempfile\nfrom huggingface_hub import hf_hub_download\nprobe(hf_hub_download('r', 'f', local_dir=tempfile.mkdtemp()))",
        TEMP),
    "a fetch given **kwargs may download anywhere": ("from huggingface_hub import hf_hub_download\nprobe(hf_hub_download(**kw))", NONE),
    "unknown call": ("probe(compute())", NONE),
    "sys.argv": ("import sys\nprobe(sys.argv[1])", NONE),
    "parameter": ("def f(dst):\n    probe(dst)", NONE),
    "parameter default": ("import tempfile\ndef f(d=tempfile.gettempdir()):\n    probe(d)", TEMP),
    "annotated parameter with cache default": ("def f(d: str = '/var/cache/x'):\n    probe(d)", CACHE),
}

PROPAGATION = {
    "assignment chain": ("import tempfile\na = tempfile.mkdtemp()\nb = a\nc = b\nprobe(c)", TEMP),
    "walrus": ("import tempfile\nif (t := tempfile.mkdtemp()):\n    probe(t)", TEMP),
    "tuple assignment": ("import tempfile, os\na, b = tempfile.mkdtemp(), os.environ['HF_HOME']\nprobe(b)", CACHE),
    "os.path.join first component": ("import os, tempfile\nprobe(os.path.join(tempfile.gettempdir(), 'a', 'b'))", TEMP),
    "os.path.join later absolute literal": ("import os\ndef f(cache_dir):\n    probe(os.path.join(cache_dir, '/tmp/x'))", TEMP),
    "os.path.join literal second component is not a location": ("import os\ndef f(root):\n    probe(os.path.join(root, 'cache'))", NONE),
    "import os.path as osp": ("import os.path as osp, tempfile\nprobe(osp.join(tempfile.mkdtemp(), 'x'))", TEMP),
    "abspath realpath normpath": ("import os, tempfile\nt = tempfile.mkdtemp()\nprobe(os.path.abspath(os.path.realpath(os.path.normpath(t))))", TEMP),
    "dirname": ("import os, tempfile\nfd, t = tempfile.mkstemp()\nprobe(os.path.dirname(t))", TEMP),
    "Path(x)": ("import tempfile\nfrom pathlib import Path\nprobe(Path(tempfile.mkdtemp()))", TEMP),
    "Path / y": ("import tempfile\nfrom pathlib import Path as P\nprobe(P(tempfile.mkdtemp()) / 'x')", TEMP),
    ".parent .with_name .with_suffix .resolve .absolute": (
        "import os\nfrom pathlib import Path\np = Path(os.environ['HF_HOME'])\n"
        "probe(p.parent.with_name('a').with_suffix('.b').resolve().absolute())", CACHE),
    "Path.name is only a component": ("import tempfile\nfrom pathlib import Path\nprobe(Path(tempfile.mkdtemp()).name)", NONE),
    "str() and os.fspath()": ("import os, tempfile\nfrom pathlib import Path\nprobe(str(os.fspath(Path(tempfile.mkdtemp()))))", TEMP),
    "f-string first component": ("import tempfile\nt = tempfile.mkdtemp()\nprobe(f'{t}/x')", TEMP),
    "f-string literal prefix": ("def f(name):\n    probe(f'/tmp/{name}')", TEMP),
    "f-string with another first component": ("import tempfile\ndef f(root):\n    t = tempfile.mkdtemp()\n    probe(f'{root}/{t}')", NONE),
    "concatenation": ("import os\nprobe(os.environ['HF_HOME'] + '/x')", CACHE),
    "percent format": ("import tempfile\nprobe('%s/x' % tempfile.mkdtemp())", TEMP),
    "percent format with a tuple": ("import tempfile\nprobe('%s/%s' % (tempfile.mkdtemp(), 'x'))", TEMP),
    "percent format literal prefix": ("def f(n):\n    probe('/var/cache/%s' % n)", CACHE),
    ".format": ("import tempfile\nprobe('{}/x'.format(tempfile.mkdtemp()))", TEMP),
    "if/else branch merge": (
        "import os, tempfile\nif os.name:\n    d = tempfile.mkdtemp()\nelse:\n    d = os.environ['HF_HOME']\nprobe(d)", BOTH),
    "if without else keeps the old value too": (
        "import os, tempfile\nd = tempfile.mkdtemp()\nif os.name:\n    d = os.environ['HF_HOME']\nprobe(d)", BOTH),
    "reassignment replaces": ("import os, tempfile\nd = tempfile.mkdtemp()\nd = os.environ['HF_HOME']\nprobe(d)", CACHE),
    "return ends a branch": (
        "import os, tempfile\ndef f(x):\n    d = tempfile.mkdtemp()\n    if x:\n        d = os.environ['HF_HOME']\n        return\n    probe(d)", TEMP),
    "conditional expression": ("import os, tempfile\nprobe(tempfile.mkdtemp() if os.name else os.environ['HF_HOME'])", BOTH),
    "or": ("import os, tempfile\nprobe(os.environ.get('X') or tempfile.gettempdir())", TEMP),
    "loop carries values round": (
        "import os, tempfile\nd = None\nfor i in range(3):\n    probe(d)\n    d = tempfile.mkdtemp()", TEMP),
    "try/except merges": (
        "import os, tempfile\ntry:\n    d = os.environ['HF_HOME']\nexcept KeyError:\n    d = tempfile.gettempdir()\nprobe(d)", BOTH),
    "iterdir entries": ("import tempfile\nfrom pathlib import Path\nfor p in Path(tempfile.mkdtemp()).iterdir():\n    probe(p)", TEMP),
    "self.attr across methods": (
        "import tempfile\nclass W:\n    def __init__(self):\n        self.stage = tempfile.mkdtemp()\n"
        "    def go(self):\n        probe(self.stage)", TEMP),
    "self.attr set after use, in a later method": (
        "import os\nclass W:\n    def go(self):\n        probe(self.root)\n"
        "    def setup(self):\n        self.root = os.environ['HF_HOME']", CACHE),
    "module function return value": (
        "import tempfile\ndef staging_path():\n    return tempfile.mkstemp()[1]\ndef f():\n    probe(staging_path())", TEMP),
    "function defined after its caller": (
        "def f():\n    probe(g())\ndef g():\n    import os\n    return os.environ['HF_HOME']", CACHE),
    "method return value via self": (
        "import tempfile\nclass W:\n    def scratch(self):\n        return tempfile.mkdtemp()\n"
        "    def go(self):\n        probe(self.scratch())", TEMP),
    "instance attribute through a constructed object": (
        "import tempfile\nclass Job:\n    def __init__(self):\n        self.tmp = tempfile.mkdtemp()\n"
        "job = Job()\nprobe(job.tmp)", TEMP),
    "recursive function terminates": (
        "import tempfile\ndef f(n):\n    if n:\n        return f(n - 1)\n    return tempfile.mkdtemp()\nprobe(f(3))", TEMP),
    "closure sees the enclosing value": (
        "import tempfile\ndef outer():\n    t = tempfile.mkdtemp()\n    def inner():\n        probe(t)\n    return inner", TEMP),
    "async function": ("import tempfile\nasync def f():\n    t = tempfile.mkdtemp()\n    probe(t)", TEMP),
    "await passes through": (
        "import tempfile\nasync def g():\n    return tempfile.mkdtemp()\nasync def f():\n    probe(await g())", TEMP),
    "lambda body": ("import tempfile\nt = tempfile.mkdtemp()\ncb = lambda: probe(t)", TEMP),
    "comprehension element": ("import os, tempfile\nt = tempfile.mkdtemp()\nx = [probe(os.path.join(t, n)) for n in 'ab']", TEMP),
    "conditional import merges": (
        "try:\n    from platformdirs import user_cache_dir\nexcept ImportError:\n    user_cache_dir = None\nprobe(user_cache_dir('x'))", CACHE),
    "star import of tempfile": ("from tempfile import *\nprobe(mkdtemp())", TEMP),
    "a local function shadowing a factory is not it": ("def mkdtemp():\n    return 'x'\nprobe(mkdtemp())", NONE),
    "derived temp has the destination's location": (
        "import os, tempfile\ndef f(cache_dir, name):\n    dst = os.path.join(cache_dir, name)\n"
        "    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(dst))\n    probe(tmp)", CACHE),
    "dst + .tmp": ("import os\ndst = os.environ['HF_HOME'] + '/blob'\nprobe(dst + '.tmp')", CACHE),
    "dst.with_suffix(.part)": ("import os\nfrom pathlib import Path\ndst = Path(os.environ['HF_HOME'])\nprobe(dst.with_suffix('.part'))", CACHE),
}


@pytest.mark.parametrize("source,expected", SOURCES.values(), ids=list(SOURCES))
def test_sources(source: str, expected: FrozenSet[str]) -> None:
    assert located(source) == expected


@pytest.mark.parametrize("source,expected", PROPAGATION.values(), ids=list(PROPAGATION))
def test_propagation(source: str, expected: FrozenSet[str]) -> None:
    assert located(source) == expected


def test_path_kind_is_tracked() -> None:
    assert probe("from pathlib import Path\nprobe(Path('x') / 'y')").is_path
    assert not probe("import os\nprobe(os.path.join('x', 'y'))").is_path
    assert probe("from pathlib import Path\ndef f(p: Path):\n    probe(p)").is_path
    assert probe("import pathlib\ndef f(p: 'pathlib.Path'):\n    probe(p)").is_path
    assert not probe("def f(p):\n    probe(p)").is_path


def test_move_function_aliases_resolve() -> None:
    assert "os.replace" in probe("import os\n_swap = os.replace\nprobe(_swap)").callees
    assert "os.replace" in probe("from os import replace as publish\nprobe(publish)").callees
    assert "os.rename" in probe("import os as _os\nprobe(_os.rename)").callees
    assert "os.rename" in probe("def f():\n    from os import rename as mv\n    probe(mv)").callees
    assert "os.rename" not in probe("def rename(a, b): pass\nprobe(rename)").callees


def test_user_defined_location() -> None:
    scratch = Location("scratch", env=("SCRATCH",), names=("*scratch*",), paths=("/mnt/scratch",), calls=("proj.paths.scratch_dir",))
    locations = Locations((*Locations().locations, scratch))
    assert located("import os\nprobe(os.environ['SCRATCH'])", locations) == {"scratch"}
    assert located("def f(scratch_root):\n    probe(scratch_root)", locations) == {"scratch"}
    assert located("probe('/mnt/scratch/a')", locations) == {"scratch"}
    assert located("from proj.paths import scratch_dir\nprobe(scratch_dir())", locations) == {"scratch"}
    assert located("probe('/mnt/scratch/a')") == set()


def _handed(source: str) -> object:
    """What ``moves.handed_to`` makes of the last call in ``source``."""
    from xdevlint.analysis.moves import handed_to

    module = cst.parse_module(textwrap.dedent(source))
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True, cache={ProvenanceProvider: Locations()})
    values = wrapper.resolve(ProvenanceProvider)
    call = module.body[-1].body[0].value  # type: ignore[attr-defined]
    found = handed_to(call, lambda node: values.get(node, Value()))
    if found is None:
        return None
    function, rest = found
    return module.code_for_node(function), [module.code_for_node(a.value) for a in rest]


@pytest.mark.parametrize(
    "call, expected",
    [
        ("asyncio.to_thread(commit, tmp, dst)", ("commit", ["tmp", "dst"])),
        ("loop.run_in_executor(None, commit, tmp, dst)", ("commit", ["tmp", "dst"])),
        ("pool.submit(commit, tmp, dst=dst)", ("commit", ["tmp", "dst"])),
        ("commit(tmp, dst)", None),  # a call of it, not a hand-off
        ("list(map(commit, pairs))", None),
        ("map(commit, tmps, dsts)", None),  # called once per element
        ("atexit.register(commit)", None),  # a callback: its arguments are someone else's
        ("pool.submit(commit, *pairs)", None),
        ("pool.submit(os.replace, tmp, dst)", None),  # no function of the module
    ],
)
def test_a_function_handed_on_with_its_arguments(call: str, expected: object) -> None:
    source = f"""
    import asyncio, atexit, os

    def commit(src, dst):
        os.replace(src, dst)

    {call}
    """
    assert _handed(source) == expected
