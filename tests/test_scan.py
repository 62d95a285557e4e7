"""The cheap scan: what its text tiers rule out, and that they never rule out a finding."""

from __future__ import annotations

import textwrap
from dataclasses import replace

import pytest

from xdevlint.config import Config
from xdevlint.engine import lint_source
from xdevlint.stages.scan import Scan, _call_shape, _text_may_guard_move, _text_may_hold_temp, _text_may_move

CONFIG = replace(Config(), select=("ALL",))

#: Shapes that hold a finding; the scan must keep every one (each also proves the
#: rule flags it, so a case cannot pass by finding nothing either way).
FLAGGED = {
    "os.rename": """
        import os, tempfile
        def f(cache_dir):
            fd, tmp = tempfile.mkstemp()
            try:
                os.rename(tmp, cache_dir + "/x")
            except OSError:
                pass
    """,
    "module alias": """
        import os as _os, tempfile
        def f(cache_dir):
            tmp = tempfile.mkdtemp()
            try:
                _os.rename(tmp, cache_dir)
            except OSError:
                pass
    """,
    "attribute alias of a module": """
        import shutil, tempfile
        class Mover:
            def __init__(self):
                self._shutil = shutil
            def go(self, cache_dir):
                tmp = tempfile.mkdtemp()
                try:
                    self._shutil.move(tmp, cache_dir)
                except OSError:
                    pass
    """,
    "from-import with brackets": """
        import tempfile
        from shutil import (
            copy,
            move as mv,
        )
        def f(cache_dir):
            tmp = tempfile.mkdtemp()
            try:
                mv(tmp, cache_dir)
            except OSError:
                pass
    """,
    "function alias": """
        import shutil, tempfile
        put = shutil.move
        def f(cache_dir):
            tmp = tempfile.mkdtemp()
            try:
                put(tmp, cache_dir)
            except OSError:
                pass
    """,
    "path method, one argument over lines": """
        import tempfile
        from pathlib import Path
        def f(cache_dir):
            tmp = Path(tempfile.mkdtemp())
            try:
                tmp.rename(
                    # where it goes
                    Path(cache_dir) / "x",
                )
            except OSError:
                pass
    """,
    "path method, target keyword": """
        import tempfile
        from pathlib import Path
        def f(cache_dir):
            tmp = Path(tempfile.mkdtemp())
            try:
                tmp.replace(target=Path(cache_dir) / "x")
            except OSError:
                pass
    """,
    "unbound path method": """
        import tempfile
        import pathlib
        def f(cache_dir):
            tmp = pathlib.Path(tempfile.mkdtemp())
            try:
                pathlib.Path.rename(tmp, pathlib.Path(cache_dir) / "x")
            except OSError:
                pass
    """,
}


@pytest.mark.parametrize("source", FLAGGED.values(), ids=FLAGGED.keys())
def test_the_scan_keeps_every_shape_with_a_finding(source: str) -> None:
    data = textwrap.dedent(source).encode()
    with_scan = lint_source(data, "m.py", CONFIG).findings
    assert with_scan, "the case must hold a finding"
    assert with_scan == lint_source(data, "m.py", CONFIG, prescan=False).findings


#: Everyday calls sharing a move's name that no rule counts: the text tiers alone rule
#: them out, so the file is never parsed.
NOT_MOVES = {
    "str.replace": 'try:\n    s = s.replace("a", "b")\nexcept ValueError:\n    pass\n',
    "str.replace with count": "try:\n    s = s.replace('1', '0', 1)\nexcept OSError:\n    pass\n",
    "datetime.replace": "try:\n    t = t.replace(tzinfo=tz)\nexcept OSError:\n    pass\n",
    "dict.copy": "try:\n    d = d.copy()\n    cp = d.copy\nexcept OSError:\n    pass\n",
    "copy module": "import copy\ntry:\n    x = copy.copy(y)\nexcept OSError:\n    pass\n",
    "dataclasses.replace": "from dataclasses import replace\ntry:\n    x = replace(y, a=1)\nexcept OSError:\n    pass\n",
    "words in other words": "# copyright: unlink, relink, renamed\ntry:\n    x = y.copyfiles\nexcept OSError:\n    pass\n",
    "comparison, not a keyword": "try:\n    x = s.replace(a == b, c)\nexcept OSError:\n    pass\n",
}


@pytest.mark.parametrize("source", NOT_MOVES.values(), ids=NOT_MOVES.keys())
def test_the_text_tiers_rule_out_calls_that_only_share_a_name(source: str) -> None:
    assert not _text_may_move(source)
    assert not _text_may_guard_move(source)
    scan = Scan(source)
    assert not scan.has_move_call() and not scan.has_guarded_move_call()
    assert scan._tree is None  # decided without parsing


@pytest.mark.parametrize(
    ("arguments", "shape"),
    [
        ("a, b)", (2, frozenset(), False)),
        ("target=x)", (0, frozenset({"target"}), False)),
        ("*args)", (0, frozenset(), True)),
        ('"a, b", f(c, d), [e, f])', (3, frozenset(), False)),
        ("'''),(''', b)", (2, frozenset(), False)),
        ("  # a, b=\n  target=x,\n)", (0, frozenset({"target"}), False)),
        ("lambda x=1: x)", (1, frozenset(), False)),
        (r'"\")", b)', (2, frozenset(), False)),
        ("a, (b", None),
        ('"never closed, b)', None),
    ],
)
def test_call_shapes(arguments: str, shape: object) -> None:
    assert _call_shape(arguments, 0) == shape


@pytest.mark.parametrize(
    ("source", "may_hold"),
    [
        ("with tempfile.TemporaryDirectory() as d:\n    pass\n", False),
        ("    with TemporaryDirectory() as d, open(x):\n", False),
        ("from tempfile import NamedTemporaryFile, TemporaryDirectory\n", False),
        ("from tempfile import (\n    mkdtemp,\n    TemporaryDirectory,\n)\n", False),
        ("f = tempfile.NamedTemporaryFile(mode='w', suffix='.x')\n", False),
        ("f = tempfile.NamedTemporaryFile(suffix='.x')\nf.close()\nsave(f.name)\n", True),  # made again at its name
        ("with tempfile.NamedTemporaryFile() as f:\n    gz = f .name + '.gz'\n", True),
        ("# notes on mkdtemp: see the docs\n", True),
        ("f = tempfile.NamedTemporaryFile(delete=False)\n", True),
        ("f = tempfile.NamedTemporaryFile(**options)\n", True),
        ("d = tempfile.TemporaryDirectory()\n", True),
        ("d = mkdtemp()\n", True),
        ("from tempfile import mkdtemp as md\n", True),
        ("import tempfile; make = tempfile.mkdtemp\n", True),
        ("x = TemporaryDirectory\n", True),
        ("with x, TemporaryDirectory() as d:\n", True),
        ("d = self.mkdtemp()\nos.rmdir(d)\n", False),  # a method: the AST pass counts none either
        ("d = cls.mkdtemp(prefix='x')\n", False),
        ("d = self.tools.mkdtemp()\n", True),
        ("d = x.self.mkdtemp()\n", True),
        ("self.mkdtemp = tempfile.mkdtemp\nd = self.mkdtemp()\n", True),
    ],
)
def test_the_temp_text_tier_rules_out_temps_nobody_holds(source: str, may_hold: bool) -> None:
    assert _text_may_hold_temp(source) is may_hold


#: A move finding needs a temp (XDV102) or two different locations (XDV101): a file
#: that can only say "cache" is ruled out before libcst, a temp or a second location keeps it.
ONE_LOCATION = """
import os
def publish(cache_dir, name):
    os.rename(os.path.join(cache_dir, name + ".part"), os.path.join(cache_dir, name))
"""


@pytest.mark.parametrize(
    ("extra", "kept"),
    [
        ("", False),
        ("SCRATCH = '/tmp/x'\n", True),
        ("import tempfile\nd = tempfile.gettempdir()\n", True),
        ("T = os.environ['TMPDIR']\n", True),
        ("def stage(staging_dir): pass\n", True),
    ],
)
def test_the_move_gate_needs_a_temp_or_two_locations(extra: str, kept: bool) -> None:
    source = ONE_LOCATION + extra
    assert Scan(source).has_location_source(CONFIG.locations) is kept
    if not kept:  # and the analysis agrees: nothing to find
        assert not lint_source(source.encode(), "m.py", CONFIG, prescan=False).findings


def test_a_file_fetched_into_a_download_cache_keeps_the_staged_move_gate() -> None:
    source = "import os\nfrom huggingface_hub import hf_hub_download\nos.replace(hf_hub_download('r', 'f'), dst)\n"
    assert Scan(source).may_stage(CONFIG.locations)
    assert [f.code for f in lint_source(source.encode(), "m.py", CONFIG).findings] == ["XDV102"]


def test_two_configured_locations_keep_a_file_without_temp() -> None:
    from xdevlint.analysis.locations import DEFAULT_LOCATIONS, Location, Locations

    locations = Locations(DEFAULT_LOCATIONS + (Location("data", names=("*data_dir*",)),))
    source = ONE_LOCATION + "def load(data_dir): pass\n"
    assert Scan(source).has_location_source(locations)
    assert not Scan(ONE_LOCATION).has_location_source(locations)


@pytest.mark.parametrize(
    ("handler", "kept"),
    [
        ("except OSError:\n    pass\n", True),
        ("except:\n    pass\n", True),
        ("except (KeyError, Exception):\n    pass\n", True),
        ("except shutil.Error:\n    pass\n", True),
        ("except (KeyError, FileNotFoundError):\n    pass\n", False),
        ("except json.JSONDecodeError:\n    pass\n", False),
        ("except OSError:\n    if flaky:\n        raise\n", False),  # a re-raise anywhere reveals it
        ("except OSError:\n    def later():\n        raise\n", True),  # not in a nested function
        ("except Failure:\n    pass\nFailure = OSError\n", True),  # a bound name may be an alias
        ("except x.failure:\n    pass\nx.failure = OSError\n", True),  # an assigned attribute, too
        ("except errors[0]:\n    pass\n", True),  # not a name: anything
    ],
)
def test_the_swallow_gate_needs_a_handler_that_may_hide_exdev(handler: str, kept: bool) -> None:
    source = f"import os, shutil, json\ntry:\n    os.rename(a, b)\n{handler}"
    assert Scan(source).has_guarded_move_call() is kept
    if not kept:
        assert not lint_source(source.encode(), "m.py", CONFIG, prescan=False).findings


def test_the_swallow_gate_knows_every_class_the_rule_counts() -> None:
    from xdevlint.rules.xdv202_swallowed_move_error import EXDEV_CLASSES
    from xdevlint.stages.scan import EXDEV_CLASS_NAMES

    assert {q.rsplit(".", 1)[1] for q in EXDEV_CLASSES} <= EXDEV_CLASS_NAMES
