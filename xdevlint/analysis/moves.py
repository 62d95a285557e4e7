"""Which calls move or link a file, and which expressions are their source and target."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional, Sequence

import libcst as cst

from xdevlint.analysis import names
from xdevlint.analysis.values import Value

ValueOf = Callable[[cst.CSTNode], Value]


@dataclass(frozen=True)
class Move:
    """A rename-like call: ``function`` is how users know it (``os.replace``, ``Path.rename``)."""

    call: cst.Call
    function: str
    source: cst.BaseExpression
    destination: cst.BaseExpression
    method: bool  # ``p.rename(q)`` rather than ``os.rename(p, q)``


def _argument(args: Sequence[cst.Arg], index: int, keyword: str) -> Optional[cst.BaseExpression]:
    if any(a.star for a in args):
        return None
    for arg in args:
        if arg.keyword is not None and arg.keyword.value == keyword:
            return arg.value
    positional = [a for a in args if a.keyword is None]
    return positional[index].value if index < len(positional) else None


def move_of(call: cst.Call, value_of: ValueOf) -> Optional[Move]:
    """The move ``call`` performs, or None: by qualified name, or a method on a known path."""
    callees = value_of(call.func).callees
    for qualified, (source_param, destination_param) in names.MOVE_FUNCTIONS.items():
        if qualified in callees:
            return _move(call, qualified, 0, source_param, 1, destination_param, method=False)
    unbound = sorted(names.UNBOUND_MOVE_METHODS.keys() & callees)
    if unbound:
        name = names.UNBOUND_MOVE_METHODS[unbound[0]]
        receiver, target = (0, "self"), (1, "target")
        source, destination = (receiver, target) if names.MOVE_METHODS[name] else (target, receiver)
        return _move(call, f"Path.{name}", *source, *destination, method=False)
    func = call.func
    if not isinstance(func, cst.Attribute) or func.attr.value not in names.MOVE_METHODS:
        return None
    if not value_of(func.value).is_path:
        return None
    argument = _argument(call.args, 0, "target")
    if argument is None:
        return None
    method = func.attr.value
    if names.MOVE_METHODS[method]:
        return Move(call, f"Path.{method}", func.value, argument, method=True)
    return Move(call, f"Path.{method}", argument, func.value, method=True)


def _move(
    call: cst.Call, function: str, source_index: int, source_keyword: str,
    destination_index: int, destination_keyword: str, *, method: bool,
) -> Optional[Move]:
    source = _argument(call.args, source_index, source_keyword)
    destination = _argument(call.args, destination_index, destination_keyword)
    if source is None or destination is None:
        return None
    return Move(call, function, source, destination, method=method)
