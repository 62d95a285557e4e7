"""What the move rules share: when a file can hold a move, and how a move is described."""

from __future__ import annotations

from typing import FrozenSet, Optional

import libcst as cst

from xdevlint.analysis.locations import Locations
from xdevlint.analysis.moves import Move, move_of
from xdevlint.fixes.moves import MoveFixes
from xdevlint.rules.rule import Rule
from xdevlint.stages.scan import Scan


class MoveRule(Rule):
    """A rule about rename-like calls; subclasses decide from the two locations."""

    @classmethod
    def may_apply(cls, scan: Scan, locations: Locations) -> bool:
        return (
            scan.contains_any(locations.scan_tokens())
            and scan.has_move_call()
            and scan.has_location_source(locations)
        )

    _fixes: Optional[MoveFixes] = None

    def visit_Module(self, node: cst.Module) -> None:
        # Fixes are built only for reported calls, so a clean file never pays for them.
        self._fixes = MoveFixes(node, self.value_of, self.context.move_function, self.context.move_function_atomic)

    def visit_Call(self, node: cst.Call) -> None:
        move = move_of(node, self.value_of)
        if move is not None:
            message = self.check(
                move, self.value_of(move.source).locations, self.value_of(move.destination).locations
            )
            if message is not None:
                self.report(node, message, self._fixes.fix_for(move) if self._fixes is not None else None)

    def check(self, move: Move, source: FrozenSet[str], destination: FrozenSet[str]) -> Optional[str]:
        raise NotImplementedError


def describe(locations: FrozenSet[str]) -> str:
    return " or ".join(sorted(locations))
