"""The explicit list of rules, and selection by code prefix.

Each rule is named here by its code, its name, where its class lives and the cheap
scan (``gate``) that decides whether a file can hold one of its findings. The gate
runs on the stdlib-only ``Scan``, so a run whose files every gate clears never imports
a rule module, and with them libcst (``xdevlint --version`` neither). A rule's class,
its visitor and its documentation, is imported the first time it is asked for.

Each gate is its rule's ``may_apply``, stated where it can be called without importing
the rule: ``tests/test_registry.py`` holds the two to the same answers.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Dict, FrozenSet, Iterable, Optional, Sequence, Tuple, Type

from xdevlint.model import ANALYSIS_ERROR_CODE, ANALYSIS_ERROR_NAME

if TYPE_CHECKING:  # the gates get a Scan; this module need not import its machinery
    from xdevlint.analysis.locations import Locations
    from xdevlint.rules.documented import Documented
    from xdevlint.rules.rule import Rule
    from xdevlint.stages.scan import Scan

__all__ = [
    "ANALYSIS_ERROR_CODE", "ANALYSIS_ERROR_NAME", "ENGINE_CODES", "PREFIX", "SPECS", "UNUSED_NOQA_CODE", "RuleSpec",
    "by_code", "documented", "documentation_for", "engine_code_selected", "is_known_selector", "known_codes", "matches", "select", "select_specs",
    "spec_for",
]

PREFIX = "XDV"

Gate = Callable[["Scan", "Locations"], bool]
Cleared = Callable[["Scan"], FrozenSet[Tuple[int, int]]]

#: Words of which a file must contain one to create a temp (lower case): every
#: factory's own name, which ``from tempfile import mkstemp as mk`` still spells.
#: The same words as ``xdv201_temp_not_cleaned_on_error.TEMP_FACTORY_WORDS``.
TEMP_FACTORY_WORDS = ("mkstemp", "mkdtemp", "mktemp", "namedtemporaryfile", "temporarydirectory", "urlretrieve", "gettempdir")


def _may_cross(scan: Scan, locations: Locations) -> bool:
    """``CrossMountRename.may_apply`` (XDV101)."""
    return scan.contains_any(locations.scan_tokens()) and scan.has_move_call() and scan.has_location_source(locations)


def _may_stage(scan: Scan, locations: Locations) -> bool:
    """``StagedMoveNotProven.may_apply`` (XDV102)."""
    return scan.may_stage_by_text(locations) and scan.has_move_call() and scan.may_stage(locations)


def _may_move_at_all(scan: Scan, locations: Locations) -> bool:
    """``MoveNotProvenSameFilesystem.may_apply`` (XDV103): any move, whatever its paths."""
    return scan.has_move_call()


def _may_leak(scan: Scan, locations: Locations) -> bool:
    """``TempNotCleanedOnError.may_apply`` (XDV201)."""
    return scan.contains_any(TEMP_FACTORY_WORDS) and scan.may_leak_temp()


def _may_keep(scan: Scan, locations: Locations) -> bool:
    """``TempNeverRemoved.may_apply`` (XDV203)."""
    return scan.contains_any(TEMP_FACTORY_WORDS) and scan.may_keep_temp()


def _may_swallow(scan: Scan, locations: Locations) -> bool:
    """``SwallowedMoveError.may_apply`` (XDV202)."""
    return scan.has_guarded_move_call()


@dataclass(frozen=True)
class RuleSpec:
    """A rule as the engine first meets it: enough to select it and to scan for it."""

    code: str
    name: str
    module: str
    attribute: str
    gate: Gate = field(compare=False)
    #: ``Rule.cleared``, callable without importing the rule: where it never reports.
    cleared: Cleared = field(default=lambda scan: frozenset(), compare=False)
    #: Off unless a selection names the code itself (``extend-select = ["XDV103"]``):
    #: ``ALL`` and prefixes leave it out, as ruff leaves out its preview rules.
    opt_in: bool = False

    @property
    def rule(self) -> Type["Rule"]:
        """The rule's class, imported on first use (it brings libcst)."""
        loaded = _LOADED.get(self.code)
        if loaded is None:
            loaded = getattr(importlib.import_module(f"xdevlint.rules.{self.module}"), self.attribute)
            _LOADED[self.code] = loaded
        return loaded


SPECS: Tuple[RuleSpec, ...] = (
    RuleSpec("XDV101", "cross-mount-rename", "xdv101_cross_mount_rename", "CrossMountRename", _may_cross),
    RuleSpec("XDV102", "staged-move-not-proven", "xdv102_staged_move_not_proven", "StagedMoveNotProven", _may_stage),
    RuleSpec(
        "XDV103", "move-not-proven-same-filesystem", "xdv103_move_not_proven_same_filesystem",
        "MoveNotProvenSameFilesystem", _may_move_at_all, opt_in=True,
    ),
    RuleSpec(
        "XDV201", "temp-not-cleaned-on-error", "xdv201_temp_not_cleaned_on_error", "TempNotCleanedOnError", _may_leak,
        lambda scan: scan.cleared_temps(stay=False),
    ),
    RuleSpec("XDV202", "swallowed-move-error", "xdv202_swallowed_move_error", "SwallowedMoveError", _may_swallow),
    RuleSpec(
        "XDV203", "temp-never-removed", "xdv203_temp_never_removed", "TempNeverRemoved", _may_keep,
        lambda scan: scan.cleared_temps(stay=True),
    ),
)

#: Codes the engine reports itself, not a rule's visitor: a file it could not check
#: (XDV000) and a ``# noqa`` that suppresses nothing (XDV001). Each has a documentation
#: class, in the module named here, and is selected and ignored as any code.
UNUSED_NOQA_CODE = "XDV001"
ENGINE_CODES: Tuple[Tuple[str, str, str, str], ...] = (
    (ANALYSIS_ERROR_CODE, ANALYSIS_ERROR_NAME, "xdv000_analysis_error", "AnalysisError"),
    (UNUSED_NOQA_CODE, "unused-noqa", "xdv001_unused_noqa", "UnusedNoqa"),
)

_LOADED: Dict[str, Type["Rule"]] = {}
_BY_CODE: Dict[str, RuleSpec] = {spec.code: spec for spec in SPECS}


def __getattr__(name: str) -> Tuple[Type["Rule"], ...]:
    """``ALL_RULES``: every rule's class, in order (imports them all, and libcst)."""
    if name == "ALL_RULES":
        return tuple(spec.rule for spec in SPECS)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def spec_for(code: str) -> Optional[RuleSpec]:
    return _BY_CODE.get(code.upper())


def by_code(code: str) -> Optional[Type["Rule"]]:
    spec = spec_for(code)
    return spec.rule if spec is not None else None


def known_codes() -> Tuple[str, ...]:
    """Every code xdevlint can report, in order."""
    return tuple(sorted((*(code for code, *_ in ENGINE_CODES), *(spec.code for spec in SPECS))))


def documented() -> Tuple[Type["Documented"], ...]:
    """The documentation of every code, in order (imports every rule, and libcst)."""
    found = (documentation_for(code) for code in known_codes())
    return tuple(doc for doc in found if doc is not None)


def documentation_for(code: str) -> Optional[Type["Documented"]]:
    """A code's documentation: its rule, or the engine's class for XDV000/XDV001."""
    for known, _, module, attribute in ENGINE_CODES:
        if known == code.upper():
            documentation: Type["Documented"] = getattr(importlib.import_module(f"xdevlint.rules.{module}"), attribute)
            return documentation
    return by_code(code)


def is_known_selector(selector: str) -> bool:
    """A selector is ``ALL`` or a prefix of at least one code."""
    return selector == "ALL" or any(code.startswith(selector) for code in known_codes())


def matches(code: str, selectors: Sequence[str]) -> bool:
    """Whether any selector (``ALL`` or a prefix) names ``code``."""
    return _specificity(code, selectors) >= 0


def engine_code_selected(code: str, selectors: Sequence[str], ignores: Sequence[str]) -> bool:
    """Whether an engine code is reported: XDV001 by selection as any rule; XDV000 as if
    every selection held it (a file that was not checked must not pass silently), so
    only an ignore more specific than any select turns it off."""
    if code == ANALYSIS_ERROR_CODE:
        return _specificity(code, ignores) < max(_specificity(code, selectors), 0)
    return _specificity(code, selectors) > _specificity(code, ignores)


def _specificity(code: str, selectors: Iterable[str]) -> int:
    """Length of the longest selector matching ``code`` (ALL counts as the shortest); -1 for none."""
    best = -1
    for selector in selectors:
        if selector == "ALL":
            best = max(best, 0)
        elif code.startswith(selector):
            best = max(best, len(selector))
    return best


def select_specs(selectors: Sequence[str], ignores: Sequence[str]) -> Tuple[RuleSpec, ...]:
    """Rules a selection keeps; as in ruff, the more specific of select and ignore wins.
    An opt-in rule is kept only when a selector names its whole code."""
    return tuple(
        spec for spec in SPECS
        if _specificity(spec.code, selectors) > _specificity(spec.code, ignores)
        and (not spec.opt_in or spec.code in selectors)
    )


def select(selectors: Sequence[str], ignores: Sequence[str]) -> Tuple[Type["Rule"], ...]:
    """``select_specs`` as rule classes (imports them)."""
    return tuple(spec.rule for spec in select_specs(selectors, ignores))
