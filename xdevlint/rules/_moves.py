"""What the move rules share: when a file can hold a move, and how its verdict is told."""

from __future__ import annotations

from typing import ClassVar, Dict, FrozenSet, Optional

import libcst as cst

from xdevlint.analysis.lifetime import Analysis, Lifetime
from xdevlint.analysis.locations import Locations
from xdevlint.analysis.moves import MoveEffect, verdict
from xdevlint.fixes.moves import MoveFixes
from xdevlint.rules.rule import Rule
from xdevlint.stages.scan import Scan


class MoveRule(Rule):
    """A rule about rename-like calls: it reports the moves whose verdict carries its code.

    A call reports its own move, and the moves the same-module functions it calls make
    with the values it passes them, where the interpreter placed each (``deferred``
    elsewhere: see ``provenance``)."""

    #: The message for each kind of verdict this rule reports.
    MESSAGES: ClassVar[Dict[str, str]]

    @classmethod
    def may_apply(cls, scan: Scan, locations: Locations) -> bool:
        return (
            scan.contains_any(locations.scan_tokens())
            and scan.has_move_call()
            and scan.has_location_source(locations)
        )

    _fixes: Optional[MoveFixes] = None
    _module: Optional[cst.Module] = None
    _lifetimes: Optional[Dict[cst.CSTNode, Lifetime]] = None

    def visit_Module(self, node: cst.Module) -> None:
        # Fixes are built only for reported calls, so a clean file never pays for them.
        self._module = node
        self._fixes = MoveFixes(
            node,
            self.value_of,
            self.context.move_function,
            self.context.move_function_atomic,
            self.context.line_length,
            self._leaking,
            self.context.bound_elsewhere,
            self._lifetime,
        )
        self._lifetimes = None

    def _leaking(self, creation: cst.Call) -> bool:
        """Whether XDV201 or XDV203 would report the temp ``creation`` makes (whether or
        not they are selected: the leak is there either way)."""
        lifetime = self._lifetime(creation)
        return lifetime is not None and (lifetime.leaking or lifetime.never_released)

    def _lifetime(self, creation: cst.Call) -> Optional[Lifetime]:
        """The lifetime of the temp ``creation`` makes: worked out only when a ``dir=`` fix
        asks, so that files without one never pay for them."""
        if self._lifetimes is None:
            assert self._module is not None
            found = Analysis(self._module, self.value_of).lifetimes()
            self._lifetimes = {lifetime.temp.creation: lifetime for lifetime in found}
        return self._lifetimes.get(creation)

    def visit_Call(self, node: cst.Call) -> None:
        for effect in self.value_of(node).moves:
            if effect.guarded or effect.deferred:
                continue  # a handler copies when the rename fails; or it is told elsewhere
            found = verdict(effect.source, effect.destination)
            if found is None or found.code != self.CODE:
                continue
            message = self.MESSAGES[found.kind].format(
                mover=_mover(effect), source=describe(found.source), destination=describe(found.destination),
                directory=self._directory(found.staged),
            )
            # A helper's move is fixed in the helper, for every caller, or not at all:
            # which callers' values it must then handle is not this call's to decide.
            fix = self._fixes.fix_for(effect.move) if self._fixes is not None and not effect.via else None
            self.report(node, message, fix)

    def _directory(self, staged: FrozenSet[cst.CSTNode]) -> str:
        module = self._module
        if module is None or not staged:
            return ""
        return " or ".join(f"`{code}`" for code in sorted({module.code_for_node(node) for node in staged}))


def _mover(effect: MoveEffect) -> str:
    """Who moves: ``os.rename``, or ``publish()`` calling it (in ``_write`` further down)."""
    if not effect.via:
        return f"`{effect.move.function}`"
    where = f" (in `{effect.via[-1]}`)" if len(effect.via) > 1 else ""
    if effect.origin:  # a rename in another module of the project
        where = f" (in `{effect.via[-1]}` at `{effect.origin}`)" if len(effect.via) > 1 else f" (at `{effect.origin}`)"
    return f"`{effect.via[0]}()` calls `{effect.move.function}`{where}, which"


def describe(locations: FrozenSet[str]) -> str:
    return " or ".join(sorted(locations))
