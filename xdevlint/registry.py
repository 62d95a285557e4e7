"""The explicit list of rules, and selection by code prefix."""

from __future__ import annotations

from typing import Iterable, Optional, Sequence, Tuple, Type

from xdevlint.model import ANALYSIS_ERROR_CODE, ANALYSIS_ERROR_NAME
from xdevlint.rules.rule import Rule
from xdevlint.rules.xdv101_cross_mount_rename import CrossMountRename
from xdevlint.rules.xdv102_temp_rename_elsewhere import TempRenameElsewhere
from xdevlint.rules.xdv201_temp_not_cleaned_on_error import TempNotCleanedOnError
from xdevlint.rules.xdv202_swallowed_move_error import SwallowedMoveError
from xdevlint.rules.xdv203_temp_never_removed import TempNeverRemoved

ALL_RULES: Tuple[Type[Rule], ...] = (
    CrossMountRename, TempRenameElsewhere, TempNotCleanedOnError, SwallowedMoveError, TempNeverRemoved,
)

PREFIX = "XDV"


def by_code(code: str) -> Optional[Type[Rule]]:
    return next((rule for rule in ALL_RULES if rule.CODE == code.upper()), None)


def is_known_selector(selector: str) -> bool:
    """A selector is ``ALL`` or a prefix of at least one rule's code."""
    return selector == "ALL" or any(rule.CODE.startswith(selector) for rule in ALL_RULES)


def _specificity(code: str, selectors: Iterable[str]) -> int:
    """Length of the longest selector matching ``code`` (ALL counts as the shortest); -1 for none."""
    best = -1
    for selector in selectors:
        if selector == "ALL":
            best = max(best, 0)
        elif code.startswith(selector):
            best = max(best, len(selector))
    return best


def select(selectors: Sequence[str], ignores: Sequence[str]) -> Tuple[Type[Rule], ...]:
    """Rules a selection keeps; as in ruff, the more specific of select and ignore wins."""
    return tuple(
        rule for rule in ALL_RULES
        if _specificity(rule.CODE, selectors) > _specificity(rule.CODE, ignores)
    )
