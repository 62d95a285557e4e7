"""What the move rules share: when a file can hold a move, and how its verdict is told."""

from __future__ import annotations

from typing import ClassVar, Dict, FrozenSet, Optional, Tuple

import libcst as cst

from xdevlint.analysis.lifetime import Analysis, Lifetime
from xdevlint.analysis.locations import Locations
from xdevlint.analysis.moves import CROSS, Related
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
        return scan.may_stage_by_text(locations) and scan.has_move_call() and scan.may_stage(locations)

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
            found = Analysis(self._module, self.value_of, self.context.package).lifetimes()
            self._lifetimes = {lifetime.temp.creation: lifetime for lifetime in found}
        return self._lifetimes.get(creation)

    def visit_Call(self, node: cst.Call) -> None:
        for effect in self.value_of(node).moves:
            found = effect.verdict
            if effect.deferred or not effect.judged or found is None or found.code != self.CODE:
                continue  # told elsewhere, proven, handled by a copy, or another rule's
            message = self.MESSAGES[found.kind].format(
                mover=f"`{effect.move.function}`", source=describe(found.source), destination=describe(found.destination),
                why=_why(found.evidence), callers=_callers(effect.related),
            )
            # A move function handed to another call (``run_in_executor``) is not a call to rewrite.
            fix = None
            if self._fixes is not None and not effect.move.passed:
                fix = self._fixes.fix_for(effect.move)
            related = tuple((r.call, _passes(r)) for r in effect.related)
            self.report(node, message, fix, related)


def _why(evidence: Tuple[str, ...]) -> str:
    """What makes the source staged, for the message: its first reason, and how many more."""
    if not evidence:
        return "staged"
    more = f" and {len(evidence) - 1} more" if len(evidence) > 1 else ""
    return f"{evidence[0]}{more}"


def _callers(related: Tuple[Related, ...]) -> str:
    """Where the paths that make the verdict come from: `` as called from `store()` ``."""
    names = sorted({f"`{r.caller}()`" if r.caller else "the module's code" for r in related})
    if not names:
        return ""
    shown = " and ".join(names[:2]) + (f" and {len(names) - 2} more" if len(names) > 2 else "")
    return f" as called from {shown}"


def _passes(related: Related) -> str:
    """The related location's own message: what this call hands the move."""
    found = related.verdict
    if found.kind == CROSS:
        what = f"a {describe(found.source)} path to move to {describe(found.destination)}"
    elif found.evidence:
        what = f"a staged path ({_why(found.evidence)})"
    else:
        what = "the paths"
    callee = f"`{related.via[0]}()`" if related.via else "the helper"
    return f"{callee} is called here with {what}"


def describe(locations: FrozenSet[str]) -> str:
    return " or ".join(sorted(locations))
