"""The flake8 plugin: xdevlint's ``XDV`` codes in a flake8 run, from the same engine.

An adapter only. It asks the engine for every rule with line suppressions left
alone, because flake8 itself applies ``--select``/``--extend-select``/``--ignore``,
``# noqa`` (and ``--disable-noqa``) and ``per-file-ignores`` to what plugins report;
filtering here as well would break unused-noqa checkers and flake8's own options.

* Settings come from ``[tool.xdevlint]`` in the closest ``pyproject.toml``, as for the
  CLI, or from the file named by ``--xdevlint-config``. The flake8 options
  ``--xdevlint-move-function``, ``--xdevlint-move-function-atomic`` and
  ``--xdevlint-locations`` replace those keys of that table. xdevlint's own
  ``select``/``ignore``/``exclude`` keys do not apply: under flake8, flake8's options
  decide. (flake8's ``--isolated`` is consumed before plugins see their options, so it
  covers flake8's own files only; ``--xdevlint-config`` pins xdevlint's.)
* flake8 runs every plugin on every file whatever ``--select`` says. So the plugin asks
  flake8's own decision engine, once, whether any ``XDV`` code can be reported at all
  (``--select F`` without ``XDV`` in ``--select``/``--extend-select``, or ``XDV`` in
  ``--ignore``): if none can, it does nothing per file and never imports the engine.
  Otherwise the engine's cheap scan rules out most files before libcst sees them; its
  AST tier uses the ``tree`` flake8 parsed rather than parsing the file again.
* flake8 reads the file (coding cookie, BOM, universal newlines) and hands over text
  lines; they are linted as text, so a cookie naming another codec cannot mislead.
* ``XDV000`` (a file xdevlint could not check) is reported as any other code. flake8
  calls tree plugins only for files Python's own parser accepted (otherwise it reports
  ``E999`` and runs no plugin), so a file Python cannot parse yields nothing from
  here, while one that libcst cannot parse or analyse although Python can (a libcst
  grammar gap, the recursion limit, an internal error) must not pass silently.
  ``extend-ignore = XDV000`` silences it.
* flake8 compares ``# noqa`` codes as written, so ``# noqa: xdv101`` would not silence
  XDV101 there while the CLI reads codes in any case: the plugin drops a finding whose
  noqa names its code in another case, so that both front ends agree. XDV001 (unused
  noqa) is the CLI's: under flake8, flake8-noqa does that job.
"""

from __future__ import annotations

import argparse
import ast
from pathlib import Path
from typing import TYPE_CHECKING, Any, Dict, FrozenSet, Iterator, List, Mapping, Optional, Sequence, Tuple, Type

from xdevlint import __version__

if TYPE_CHECKING:  # the engine is imported only once flake8 may report an XDV code
    from xdevlint.config import Config, ConfigResolver

Result = Tuple[int, int, str, Type[Any]]

#: flake8 option -> the ``[tool.xdevlint]`` key it replaces.
_KEYS = {
    "xdevlint_move_function": "move-function",
    "xdevlint_move_function_atomic": "move-function-atomic",
    "xdevlint_locations": "locations",
}


class XdevlintChecker:
    """One file's ``XDV`` findings, as flake8 wants them."""

    name = "xdevlint"
    version = __version__

    #: Set by ``parse_options``; a checker made without flake8's option parsing
    #: (a test, another harness) falls back to the closest pyproject.toml.
    resolver: Optional["ConfigResolver"] = None
    #: Whether flake8 can report any XDV code in this run (``parse_options`` decides).
    enabled: bool = True
    #: flake8's ``--disable-noqa`` turns every noqa off, ours (in another case) too.
    honour_noqa: bool = True
    #: Opt-in codes ``--select``/``--extend-select`` name whole (``parse_options``): an
    #: opt-in rule runs only then, as with the CLI's ``select``.
    opted_in: FrozenSet[str] = frozenset()

    def __init__(self, tree: ast.AST, lines: Sequence[str], filename: str) -> None:
        # flake8 picks plugins by parameter name: ``tree`` makes this a once-per-file
        # plugin. The cheap scan uses it instead of parsing again; libcst, which cannot
        # use it, parses ``lines`` itself for the files the scan keeps.
        self.tree = tree
        self.lines = lines
        self.filename = filename
        self.config: Optional["Config"] = None
        if not type(self).enabled:
            return
        # Resolved here, not in ``run``: flake8 turns exceptions raised while making a
        # checker into a clean "plugin failed" message, but not those raised from ``run``.
        from xdevlint.config import ConfigResolver

        resolver = type(self).resolver or ConfigResolver()
        self.config = resolver.for_path(filename)

    @staticmethod
    def add_options(option_manager: Any) -> None:
        option_manager.add_option(
            "--xdevlint-config",
            metavar="FILE",
            parse_from_config=True,
            normalize_paths=True,
            help="xdevlint: read [tool.xdevlint] from FILE instead of the closest pyproject.toml",
        )
        option_manager.add_option(
            "--xdevlint-move-function",
            metavar="DOTTED.NAME",
            parse_from_config=True,
            help="xdevlint: the function fixes move files with (default: shutil.move)",
        )
        option_manager.add_option(
            "--xdevlint-move-function-atomic",
            action="store_true",
            default=None,
            parse_from_config=True,
            help="xdevlint: the move function is atomic, so rewriting a call to it is a safe fix",
        )
        option_manager.add_option(
            "--xdevlint-locations",
            metavar="NAME.KEY=VALUE,...",
            default=[],
            parse_from_config=True,
            comma_separated_list=True,
            help="xdevlint: locations, e.g. scratch.paths=/mnt/scratch,scratch.env=SCRATCH_DIR,"
            "cache.extend-names=*blob*; KEY is env, names, paths, calls or extend-<one of them>",
        )

    @classmethod
    def parse_options(cls, options: argparse.Namespace) -> None:
        cls.enabled = may_report_xdv(options)
        cls.honour_noqa = not getattr(options, "disable_noqa", False)
        cls.opted_in = frozenset(
            code.strip().upper() for name in ("select", "extend_select") for code in getattr(options, name, None) or ()
        )
        if not cls.enabled:
            return
        from xdevlint.config import ConfigError

        try:
            cls.resolver = resolver_for(options)
        except ConfigError as error:
            from flake8.exceptions import ExecutionError  # type: ignore[import-untyped]

            raise ExecutionError(f"xdevlint: {error}") from None

    def run(self) -> Iterator[Result]:
        if self.config is None:
            return
        from xdevlint import registry
        from xdevlint.engine import lint_text
        from xdevlint.stages.suppress import comments, written_in_another_case

        text = "".join(self.lines)
        specs = [spec for spec in registry.SPECS if not spec.opt_in or spec.code in type(self).opted_in]
        result = lint_text(text, self.filename, self.config, specs, noqa=False, edits=False, tree=self.tree)
        found = comments(text) if result.findings and type(self).honour_noqa else None
        for finding in result.findings:
            if found is not None and written_in_another_case(finding, found):
                continue  # flake8 compares codes as written: `# noqa: xdv101` means XDV101 here as in the CLI
            # flake8 columns are 0-based (it prints them +1); ours are 1-based.
            yield finding.line, finding.column - 1, f"{finding.code} {finding.message}", type(self)


#: Where flake8's ``DecisionEngine`` keeps the code prefixes it decides by.
_PREFIXES = ("selected", "ignored", "selected_explicitly", "ignored_explicitly")


def may_report_xdv(options: argparse.Namespace) -> bool:
    """Whether flake8, configured by ``options``, would report any XDV code.

    flake8's own ``DecisionEngine`` decides, from ``--select``, ``--extend-select``,
    ``--ignore``, ``--extend-ignore`` and the plugins' default selection, exactly as it
    will for each error; per-file ignores can only ignore more. If it cannot be asked
    (options from another harness), the plugin stays on.

    Every code is ``XDV`` and three digits: when flake8 selects none of the thousand,
    the answer is no without importing anything of xdevlint's (the model and the
    registry cost a run of ``flake8 --select F`` on a small tree a few percent). The
    engine tells codes apart only by the prefixes it was given: unless one of them is
    longer than ``XDV``, one code stands for all thousand.
    """
    try:
        from flake8.style_guide import Decision, DecisionEngine  # type: ignore[import-untyped]

        engine = DecisionEngine(options)
        given = [p for name in _PREFIXES for p in getattr(engine, name, ("XDV0",))]
        every = range(1000) if any(p.startswith("XDV") and len(p) > 3 for p in given) else range(1)
        if not any(engine.decision_for(f"XDV{number:03}") is Decision.Selected for number in every):
            return False
        from xdevlint.model import ANALYSIS_ERROR_CODE
        from xdevlint.registry import SPECS

        codes = (ANALYSIS_ERROR_CODE, *(spec.code for spec in SPECS))
        return any(engine.decision_for(code) is Decision.Selected for code in codes)
    except Exception:
        return True


def resolver_for(options: argparse.Namespace) -> "ConfigResolver":
    """The settings flake8's options ask for; ConfigError names the bad option."""
    from xdevlint.config import ConfigError, ConfigResolver, from_table

    table: Dict[str, Any] = {}
    for option, key in _KEYS.items():
        value = getattr(options, option, None)
        if option == "xdevlint_locations":
            value = locations_table(value or ())
        if value is not None:
            table[key] = value
    try:
        overridden = from_table(table, None)
    except ConfigError as error:
        option = next(o for o, k in _KEYS.items() if error.key.split(".")[0] == k)
        raise ConfigError("--" + option.replace("_", "-"), error.key, error.message) from None
    overrides = {key.replace("-", "_"): getattr(overridden, key.replace("-", "_")) for key in table}
    explicit = getattr(options, "xdevlint_config", None)
    return ConfigResolver(Path(explicit) if explicit else None, overrides)


def locations_table(items: Sequence[str]) -> Optional[Mapping[str, Mapping[str, List[str]]]]:
    """``scratch.paths=/a,scratch.paths=/b`` -> ``{"scratch": {"paths": ["/a", "/b"]}}``.

    One value per item, since flake8 splits list options at commas and whitespace;
    repeating a key adds to its list, as the TOML list would.
    """
    table: Dict[str, Dict[str, List[str]]] = {}
    for item in items:
        target, equals, value = item.partition("=")
        name, dot, key = target.partition(".")
        if not (equals and dot and name and key and value):
            from xdevlint.config import ConfigError

            raise ConfigError("--xdevlint-locations", item, "expected NAME.KEY=VALUE, e.g. scratch.paths=/mnt/scratch")
        table.setdefault(name, {}).setdefault(key, []).append(value)
    return table or None
