"""Which calls move or link a file, and what a same-module function does with its parameters.

A ``FunctionSummary`` is computed once per function by the provenance interpreter and
applied at each call site with the caller's values (``instantiate``): the moves the
function makes, the parameters it removes, and the path it returns, each in terms of
its parameters (``Param`` tokens in the values).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable, FrozenSet, Mapping, Optional, Sequence, Set, Tuple

import libcst as cst

from xdevlint.analysis import names
from xdevlint.analysis.locations import TEMP
from xdevlint.analysis.values import Attr, Fresh, Param, Parent, Token, Value, parent_of, together

ValueOf = Callable[[cst.CSTNode], Value]


@dataclass(frozen=True)
class Move:
    """A rename-like call: ``function`` is how users know it (``os.replace``, ``Path.rename``)."""

    call: cst.Call
    function: str
    source: cst.BaseExpression
    destination: cst.BaseExpression
    method: bool  # ``p.rename(q)`` rather than ``os.rename(p, q)``


@dataclass(frozen=True)
class MoveEffect:
    """A move a call makes: the call itself (``via`` empty), or a move inside the
    same-module functions ``via`` names, from the one called here to the one holding it.

    ``source`` and ``destination`` are as seen at the call (the caller's values put in
    for the callee's parameters). ``guarded``: a handler around it falls back to a copy
    when the rename fails. ``deferred``: it depends on the parameters of a function that
    is called in the module, and is judged at those calls, with their values.
    ``origin``: for a rename in another project module's function (``via`` names it),
    where that rename is written (``pkg/io.py:41``)."""

    move: Move
    source: Value
    destination: Value
    via: Tuple[str, ...] = ()
    guarded: bool = False
    deferred: bool = False
    origin: str = ""

    @property
    def key(self) -> Tuple[cst.Call, Tuple[str, ...], str]:
        return self.move.call, self.via, self.origin

    def merged(self, other: "MoveEffect") -> "MoveEffect":
        """The same move seen on another pass (a loop's second round): values unite."""
        return replace(
            self, source=self.source | other.source, destination=self.destination | other.destination,
            guarded=self.guarded and other.guarded,
        )


@dataclass(frozen=True)
class FunctionSummary:
    """What one same-module function does with its parameters, for every call site.

    ``positional`` and ``keyword_only`` are its parameters in order; ``implicit`` says
    whether a call binds the first itself: on an instance (``"instance"``, a method) or
    always (``"class"``, a classmethod). ``defaults`` are the values of the defaults a
    call may leave out. ``moves`` are the moves whose source or destination depends on a
    parameter (in nested functions too, which see it as a closure), ``removes`` the
    parameters it deletes, and ``returns`` the path it returns (empty for a generator)."""

    node: cst.CSTNode
    name: str
    positional: Tuple[Param, ...]
    keyword_only: Tuple[Param, ...]
    implicit: Optional[str]
    defaults: Tuple[Tuple[Param, Value], ...]
    moves: Tuple[MoveEffect, ...]
    removes: FrozenSet[str]
    returns: Value

    def bindings(
        self, arguments: Sequence[Tuple[Optional[str], Value]], starred: bool, implicit: bool
    ) -> Mapping[Param, Value]:
        """Each parameter's value at a call with ``arguments`` (keyword or None, value);
        ``implicit``: the call binds the first parameter itself (``obj.method(...)``).

        After ``*args`` or ``**kwargs`` positions are unknown: only keywords bind then."""
        bound = {}
        by_name = {p.name: p for p in (*self.positional, *self.keyword_only)}
        index = 1 if implicit else 0
        for keyword, value in arguments:
            if keyword is not None:
                param = by_name.get(keyword)
                if param is not None:
                    bound[param] = value
            elif not starred and index < len(self.positional):
                bound[self.positional[index]] = value
                index += 1
        if not starred:
            for param, default in self.defaults:
                bound.setdefault(param, default)
        for param in (*self.positional, *self.keyword_only):
            # Not passed that we can see (``f(*args)``): nothing known but its guess.
            bound.setdefault(param, Value(locations=param.guess))
        return bound


CROSS, TEMP_OUT, STAGED_OUT, TEMP_IN, STAGED_IN = "cross", "temp-out", "staged-out", "temp-in", "staged-in"


@dataclass(frozen=True)
class Verdict:
    """Why a move may cross mounts: ``kind`` is one of the constants above."""

    kind: str
    source: FrozenSet[str]
    destination: FrozenSet[str]
    staged: FrozenSet[cst.CSTNode] = frozenset()  # the ``dir=`` of the staged temp

    @property
    def code(self) -> str:
        return "XDV101" if self.kind == CROSS else "XDV102"


def verdict(source: Value, destination: Value) -> Optional[Verdict]:
    """Whether moving ``source`` to ``destination`` with a rename may cross mounts.

    Paths shown to lie in one directory tree never do. Otherwise: two different known
    locations (XDV101); a temp moved to a path of unknown location, or a path of unknown
    location moved onto a new temp (XDV102); a temp staged with ``dir=X`` moved anywhere
    but into X's location, or a path moved onto such a temp from elsewhere (XDV102).
    Only a path ``tempfile`` made counts as a temp destination: below a temp directory,
    a path of unknown location is as likely to have come from there."""
    if together(source, destination) or together(destination, source):
        return None
    here, there = source.locations, destination.locations
    if here and there and here != there:
        return Verdict(CROSS, here, there)
    if TEMP in here and not there:
        return Verdict(TEMP_OUT, here, there)
    if source.staged and not (here and here == there):
        return Verdict(STAGED_OUT, here, there, source.staged)
    fresh = any(isinstance(t, Fresh) for t in destination.idents)
    if fresh and TEMP in there and not here:
        return Verdict(TEMP_IN, here, there)
    if fresh and destination.staged and not (here and here == there):
        return Verdict(STAGED_IN, here, there, destination.staged)
    return None


def instantiate(value: Value, bindings: Mapping[Param, Value]) -> Value:
    """``value``, computed inside a function, with the caller's values for its parameters."""
    bound = [p for p in value.params if p in bindings]
    if not bound and not _mentions(value, bindings):
        return value
    locations = value.locations.difference(*(p.guess for p in bound))
    params = value.params.difference(bound)
    staged = value.staged
    for param in bound:
        argument = bindings[param]
        locations |= argument.locations or param.guess
        params |= argument.params
        staged |= argument.staged
    same = [p for p in bound if p in value.idents]
    kinds, literal, callees, defs, instances = value.kinds, value.literal, value.callees, value.defs, value.instances
    for param in same:
        argument = bindings[param]
        kinds |= argument.kinds
        literal = argument.literal
        callees, defs, instances = callees | argument.callees, defs | argument.defs, instances | argument.instances
    idents = frozenset(t for ident in value.idents for t in _substituted(ident, bindings))
    within: Set[Token] = set()
    for directory in value.within:
        within.update(_substituted(directory, bindings))
    # What lies below a parameter (or is it, or its directory) lies where its argument does.
    for token in (*value.within, *value.idents):
        root = _parameter_below(token)
        if root is not None and root in bindings:
            within.update(bindings[root].within)
    elements = None if value.elements is None else tuple(instantiate(e, bindings) for e in value.elements)
    return Value(
        locations=locations, kinds=kinds, literal=literal, callees=callees, defs=defs, instances=instances,
        elements=elements, params=params, staged=staged, idents=idents, within=frozenset(within),
    )


def _mentions(value: Value, bindings: Mapping[Param, Value]) -> bool:
    return any(_substituted(t, bindings) != (t,) for t in (*value.idents, *value.within))


def _substituted(token: Token, bindings: Mapping[Param, Value]) -> Tuple[Token, ...]:
    """The names ``token`` stands for at the call: a parameter's are its argument's."""
    if isinstance(token, Param):
        argument = bindings.get(token)
        return (token,) if argument is None else tuple(argument.idents)
    if isinstance(token, Parent):
        inner = _substituted(token.of, bindings)
        return (token,) if inner == (token.of,) else tuple(parent_of(t) for t in inner)
    if isinstance(token, Attr):
        inner = _substituted(token.of, bindings)
        return (token,) if inner == (token.of,) else tuple(Attr(t, token.name) for t in inner)
    return (token,)


def _parameter_below(token: Token) -> Optional[Param]:
    """The parameter ``token`` is, or is a parent of: what lies below it lies below that."""
    while isinstance(token, Parent):
        token = token.of
    return token if isinstance(token, Param) else None


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
