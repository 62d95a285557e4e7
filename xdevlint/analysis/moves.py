"""Which calls move or link a file, and what a same-module function does with its parameters.

A ``FunctionSummary`` is computed once per function by the provenance interpreter and
applied at each call site with the caller's values (``instantiate``): the moves the
function makes, the parameters it removes, and the path it returns, each in terms of
its parameters (``Param`` tokens in the values).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable, FrozenSet, List, Mapping, Optional, Sequence, Set, Tuple

import libcst as cst

from xdevlint.analysis import names
from xdevlint.analysis.locations import TEMP
from xdevlint.analysis.samefs import proven
from xdevlint.analysis.tree import children
from xdevlint.analysis.values import Attr, Fresh, Literal, Param, Parent, Partial, Shape, Token, Value, parent_of

ValueOf = Callable[[cst.CSTNode], Value]


@dataclass(frozen=True)
class Move:
    """A rename-like call: ``function`` is how users know it (``os.replace``, ``Path.rename``).

    ``passed``: the move function is handed to ``call`` with its arguments, to be called
    later or elsewhere (``loop.run_in_executor(None, os.rename, a, b)``,
    ``functools.partial(os.replace, a, b)``), so no rewrite of ``call`` replaces it.
    ``dir_fds``: the ``src_dir_fd`` and ``dst_dir_fd`` arguments, when both are given.
    ``own``: the project's own move function (``names.PROJECT_MOVE_NAMES``): reported, but
    not rewritten, since it may do more than ``os``'s."""

    call: cst.Call
    function: str
    source: cst.BaseExpression
    destination: cst.BaseExpression
    method: bool  # ``p.rename(q)`` rather than ``os.rename(p, q)``
    passed: bool = False
    dir_fds: Optional[Tuple[cst.BaseExpression, cst.BaseExpression]] = None
    own: bool = False


@dataclass(frozen=True)
class MoveEffect:
    """A move a call makes: the call itself (``via`` empty), or a move inside the
    same-module functions ``via`` names, from the one called here to the one holding it.

    ``source`` and ``destination`` are as seen at the call (the caller's values put in
    for the callee's parameters), ``dir_fds`` the values of its descriptors, if any.
    ``guarded``: a handler around it falls back to a copy when the rename fails.

    Once the whole module is read, each move is judged where it is written (``judged``),
    with the values of every call that reaches it. ``verdict`` is what it is reported as
    (None: nothing to report), ``proven`` whether its sides stay on one filesystem for
    every caller, ``related`` the calls whose paths make the verdict (a helper's
    callers). ``exdev``: on the evidence XDV101 and XDV102 go by (two locations, a staged
    file, a new temp as the destination) it may cross mounts, whether or not a fallback
    handles that: where a swallowed failure hides an ``EXDEV``. Every other effect is
    ``deferred``: told elsewhere."""

    move: Move
    source: Value
    destination: Value
    via: Tuple[str, ...] = ()
    guarded: bool = False
    deferred: bool = False
    dir_fds: Optional[Tuple[Value, Value]] = None
    judged: bool = False
    verdict: Optional["Verdict"] = None
    proven: bool = False
    related: Tuple["Related", ...] = ()
    exdev: bool = False

    @property
    def key(self) -> Tuple[cst.Call, Tuple[str, ...]]:
        return self.move.call, self.via

    def merged(self, other: "MoveEffect") -> "MoveEffect":
        """The same move seen on another pass (a loop's second round): values unite."""
        dir_fds = None
        if self.dir_fds is not None and other.dir_fds is not None:
            dir_fds = (self.dir_fds[0] | other.dir_fds[0], self.dir_fds[1] | other.dir_fds[1])
        return replace(
            self, source=self.source | other.source, destination=self.destination | other.destination,
            guarded=self.guarded and other.guarded, dir_fds=dir_fds,
        )

    def judge(self) -> Optional["Verdict"]:
        """This effect's verdict with its own values (None: proven, or a copy handles it)."""
        return verdict(self.source, self.destination, self.dir_fds)

    @property
    def is_proven(self) -> bool:
        return proven(self.source, self.destination, self.dir_fds)


@dataclass(frozen=True)
class Related:
    """A call whose paths make a helper's move what it is reported as: ``call`` passes
    them, ``via`` names the functions from the one called there to the one moving;
    ``caller`` the function ``call`` is in ("" at module level)."""

    call: cst.Call
    via: Tuple[str, ...]
    verdict: "Verdict"
    caller: str = ""


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
        self, arguments: Sequence[Tuple[Optional[str], Value]], starred: bool, implicit: bool,
        receiver: Optional[Value] = None,
    ) -> Mapping[Param, Value]:
        """Each parameter's value at a call with ``arguments`` (keyword or None, value);
        ``implicit``: the call binds the first parameter itself (``obj.method(...)``), to
        ``receiver`` when it is known.

        After ``*args`` or ``**kwargs`` positions are unknown: only keywords bind then."""
        bound = {}
        by_name = {p.name: p for p in (*self.positional, *self.keyword_only)}
        index = 1 if implicit else 0
        if implicit and receiver is not None and self.positional:
            bound[self.positional[0]] = receiver
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


#: Kinds of verdict: two different known locations (XDV101); a staged path moved where
#: it is not proven to stay on one filesystem, or a path moved onto a new temp (XDV102);
#: any other move not proven to stay on one filesystem (XDV103).
CROSS, STAGED, STAGED_IN, UNPROVEN = "cross", "staged", "staged-in", "unproven"
_CODES = {CROSS: "XDV101", STAGED: "XDV102", STAGED_IN: "XDV102", UNPROVEN: "XDV103"}
#: Which verdict is worse, when the callers of a helper disagree.
SEVERITY = {UNPROVEN: 0, STAGED_IN: 1, STAGED: 2, CROSS: 3}


@dataclass(frozen=True)
class Verdict:
    """Why a move may cross mounts: ``kind`` is one of the constants above;
    ``evidence`` what makes the source staged (phrases for the message)."""

    kind: str
    source: FrozenSet[str]
    destination: FrozenSet[str]
    evidence: Tuple[str, ...] = ()

    @property
    def code(self) -> str:
        return _CODES[self.kind]


def verdict(source: Value, destination: Value, dir_fds: Optional[Tuple[Value, Value]] = None) -> Optional[Verdict]:
    """Whether moving ``source`` to ``destination`` with a rename may cross mounts.

    Paths proven to stay on one filesystem (``samefs``) never do. Otherwise: two
    different known locations (XDV101); a staged source, whatever the destination, or a
    path moved onto a new temp (XDV102); anything else is only not proven (XDV103)."""
    if proven(source, destination, dir_fds):
        return None
    here, there = source.locations, destination.locations
    if here and there and here != there:
        return Verdict(CROSS, here, there)
    why = staging(source)
    if why and anchored(source) and not (_a_variant(source, destination) and all(w.startswith((NAMED, CALLED, WRITTEN)) for w in why)):
        return Verdict(STAGED, here, there, why)
    if any(isinstance(t, Fresh) for t in (*destination.idents, *destination.within)) and TEMP in there and anchored(destination):
        return Verdict(STAGED_IN, here, there)  # onto a new temp, or into a new temp directory
    return Verdict(UNPROVEN, here, there)


def anchored(value: Value) -> bool:
    """Whether a staged path's place is known from what the code calls or spells, not
    only from a name: ``tempfile`` made it in the temp directory (no ``dir=``),
    ``urlretrieve`` downloaded it there, or it lies below ``gettempdir()``, a spelled-out
    path of a location (``"/tmp/x"``), a location's environment variable or a library's
    location (``platformdirs.user_cache_dir()``). Only then is a move of it elsewhere
    worth XDV102: a temp made with ``dir=`` something the analysis cannot follow, or a path
    whose name alone says staged (``self.tmp_dir``, ``storage_directory("tmp")``) lies
    where the project put it, on real code as often beside its destination as not; its
    move is only not proven (XDV103)."""
    return bool(value.locations) and any(_anchor(t) for idents, within in value.shapes for t in (*idents, *within))


def _anchor(token: Token) -> bool:
    """A directory named by what the code calls or spells: a library name
    (``tempfile.gettempdir``), an environment variable (``$TMPDIR``), an absolute path or
    the home directory. A module's global slot (``global tmp_dir``) is only a name."""
    if isinstance(token, Literal):
        return token.path.startswith(("/", "~"))
    return isinstance(token, str) and token != "builtins.None" and not token.startswith("global ")


#: How evidence from a name begins (``named `tmp_path```), from the name of a call the
#: analysis cannot see into (``from `_tmp_name()```), and from the function's own writes.
NAMED, CALLED, WRITTEN = "named `", "from `", "written by this function"


def _a_variant(source: Value, destination: Value) -> bool:
    """Whether ``source`` was made, by calls the analysis cannot see into, from the
    destination or from what the destination was made from: ``temp_filename =
    prepend_extension(filename, "temp")`` or ``_tmp_name(filename)`` moved onto
    ``filename``. Its name, or its maker's, then names a variant of the destination, not a
    staging place."""
    if not source.remade_from:
        return False
    made = destination.idents | destination.within | destination.remade_from
    return not source.remade_from.isdisjoint(made | {parent_of(t) for t in destination.idents})


def staging(value: Value) -> Tuple[str, ...]:
    """What makes ``value`` a staged path, in words, most telling first: ``tempfile`` made
    it, it is in a known location, its name or the call that gave it says so."""
    made = sorted(e for e in value.evidence if not e.startswith((NAMED, CALLED, WRITTEN)))
    named = sorted(e for e in value.evidence if e.startswith((NAMED, CALLED, WRITTEN)))
    return (*made, *(f"in the {location} location" for location in sorted(value.locations)), *named)


def instantiate(value: Value, bindings: Mapping[Param, Value]) -> Value:
    """``value``, computed inside a function, with the caller's values for its parameters."""
    bound = [p for p in value.params if p in bindings]
    if not bound and not _mentions(value, bindings):
        return value
    locations = value.locations.difference(*(p.guess for p in bound))
    params = value.params.difference(bound)
    staged, evidence = value.staged, value.evidence
    for param in bound:
        argument = bindings[param]
        locations |= argument.locations or param.guess
        params |= argument.params
        staged |= argument.staged
        evidence |= argument.evidence
    same = [p for p in bound if p in value.idents]
    kinds, literal, callees, defs, instances = value.kinds, value.literal, value.callees, value.defs, value.instances
    for param in same:
        argument = bindings[param]
        kinds |= argument.kinds
        literal = argument.literal
        callees, defs, instances = callees | argument.callees, defs | argument.defs, instances | argument.instances
    idents, within, alternatives = _shapes_at_call(value, bindings)
    elements = None if value.elements is None else tuple(instantiate(e, bindings) for e in value.elements)
    return Value(
        locations=locations, kinds=kinds, literal=literal, callees=callees, defs=defs, instances=instances,
        elements=elements, params=params, staged=staged, idents=idents, within=within,
        alternatives=alternatives, evidence=evidence, remade_from=value.remade_from,
    )


def _shapes_at_call(value: Value, bindings: Mapping[Param, Value]) -> Tuple[FrozenSet[Token], FrozenSet[Token], Tuple[Shape, ...]]:
    """``value``'s names, directories and alternatives with the caller's values: a parameter
    whose argument may be one of several paths (``return str(dst)`` or ``return join(dirname(dst),
    n)``) is each of them, so that a proof holds on every one."""
    shapes: List[Shape] = []
    for shape in value.shapes:
        idents, within = _shape_at_call(shape, bindings)
        varied = next((bindings[t] for t in shape[0] if isinstance(t, Param) and t in bindings and bindings[t].alternatives), None)
        if varied is None:
            shapes.append((idents, within))
        else:
            shapes.extend((idents | names, within | below) for names, below in varied.alternatives)
    unique = tuple(dict.fromkeys(shapes))
    if len(unique) == 1:
        return unique[0][0], unique[0][1], ()
    return frozenset.intersection(*(i for i, _ in unique)), frozenset.intersection(*(w for _, w in unique)), unique


def _shape_at_call(shape: Shape, bindings: Mapping[Param, Value]) -> Shape:
    """One path's names and directories, with the caller's values for the parameters."""
    idents, directories = shape
    within: Set[Token] = set()
    for directory in directories:
        within.update(_substituted(directory, bindings))
    # What lies below a parameter (or is it, or its directory) lies where its argument does.
    for token in (*directories, *idents):
        root = _parameter_below(token)
        if root is not None and root in bindings:
            within.update(bindings[root].within)
    return frozenset(t for ident in idents for t in _substituted(ident, bindings)), frozenset(within)


def _mentions(value: Value, bindings: Mapping[Param, Value]) -> bool:
    return any(
        _substituted(t, bindings) != (t,) for idents, within in value.shapes for t in (*idents, *within)
    )


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
    """The move ``call`` performs, or None: by qualified name, as a method on a known
    path, or a move function handed to ``call`` with its arguments (``passed``)."""
    function = value_of(call.func)
    if any(isinstance(t, Partial) for t in function.idents):
        return None  # a ``partial`` of a move is reported where it is made, with its arguments
    callees = function.callees
    for qualified, (source_param, destination_param) in names.MOVE_FUNCTIONS.items():
        if qualified in callees:
            return _move(call, call.args, qualified, 0, source_param, 1, destination_param)
    unbound = sorted(names.UNBOUND_MOVE_METHODS.keys() & callees)
    if unbound:
        return _unbound(call, call.args, names.UNBOUND_MOVE_METHODS[unbound[0]])
    project = sorted(c for c in callees if names.project_move(c))
    if project:
        return _move(call, call.args, project[0].lstrip("."), 0, "src", 1, "dst", own=True)
    func = call.func
    if isinstance(func, cst.Attribute) and func.attr.value in names.MOVE_METHODS and value_of(func.value).is_path:
        argument = _argument(call.args, 0, "target")
        if argument is not None:
            return _bound(call, func.attr.value, func.value, argument, passed=False)
    return _passed(call, value_of)


def _unbound(call: cst.Call, args: Sequence[cst.Arg], name: str, passed: bool = False) -> Optional[Move]:
    """``Path.rename(p, q)``: the method called on the class, its receiver passed first."""
    receiver, target = (0, "self"), (1, "target")
    source, destination = (receiver, target) if names.MOVE_METHODS[name] else (target, receiver)
    return _move(call, args, f"Path.{name}", *source, *destination, passed=passed)


def _bound(call: cst.Call, method: str, receiver: cst.BaseExpression, argument: cst.BaseExpression, passed: bool) -> Move:
    """``p.rename(q)`` (``p.hardlink_to(q)`` makes ``p`` the link: ``q`` is the source)."""
    if names.MOVE_METHODS[method]:
        return Move(call, f"Path.{method}", receiver, argument, method=not passed, passed=passed)
    return Move(call, f"Path.{method}", argument, receiver, method=not passed, passed=passed)


def _passed(call: cst.Call, value_of: ValueOf) -> Optional[Move]:
    """A move function handed to ``call`` with the arguments it will be called with:
    ``run_in_executor(None, os.rename, a, b)``, ``submit(os.replace, a, b)``,
    ``partial(p.rename, q)``, ``Thread(target=os.rename, args=(a, b))``. The arguments
    after it are its own, whatever ``call`` does with them."""
    args = call.args
    for index, arg in enumerate(args):
        if arg.star or arg.keyword is not None and arg.keyword.value != "target":
            continue
        rest: Sequence[cst.Arg] = args[index + 1:] if arg.keyword is None else _tuple_argument(args, "args")
        move = _handed(call, arg.value, rest, value_of)
        if move is not None:
            return move
    return None


def _handed(call: cst.Call, mover: cst.BaseExpression, rest: Sequence[cst.Arg], value_of: ValueOf) -> Optional[Move]:
    callees = value_of(mover).callees
    for qualified, (source_param, destination_param) in names.MOVE_FUNCTIONS.items():
        if qualified in callees:
            return _move(call, rest, qualified, 0, source_param, 1, destination_param, passed=True)
    unbound = sorted(names.UNBOUND_MOVE_METHODS.keys() & callees)
    if unbound:
        return _unbound(call, rest, names.UNBOUND_MOVE_METHODS[unbound[0]], passed=True)
    if isinstance(mover, cst.Attribute) and mover.attr.value in names.MOVE_METHODS and value_of(mover.value).is_path:
        argument = _argument(rest, 0, "target")
        if argument is not None:
            return _bound(call, mover.attr.value, mover.value, argument, passed=True)
    return None


#: Calls that call the function they are handed once per element of what follows it.
_ELEMENTWISE: FrozenSet[str] = frozenset(
    {"map", "imap", "imap_unordered", "map_async", "starmap", "starmap_async", "filter", "reduce", "apply", "apply_async"}
)


def handed_to(call: cst.Call, value_of: ValueOf) -> Optional[Tuple[cst.BaseExpression, Sequence[cst.Arg]]]:
    """A same-module function handed to ``call`` with the arguments it will be called with,
    as a move function is (``_passed``): ``asyncio.to_thread(self._write, path, data)``,
    ``loop.run_in_executor(None, save, tmp, dst)``, ``executor.submit(f, a, b)``,
    ``atexit.register(_remove, tmp)``. The function and those arguments, or None. A
    function handed on alone is a callback called with arguments of someone else's
    choosing, and ``map(f, paths)`` and its kin call it with each element instead."""
    func = call.func
    name = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else None
    if name in _ELEMENTWISE or value_of(func).defs:
        return None
    for index, arg in enumerate(call.args):
        if arg.star or arg.keyword is not None:
            continue
        if not any(isinstance(d, cst.FunctionDef) for d in value_of(arg.value).defs):
            continue
        rest = call.args[index + 1:]
        if not rest or any(a.star for a in rest):
            return None
        return arg.value, rest
    return None


def _tuple_argument(args: Sequence[cst.Arg], keyword: str) -> Sequence[cst.Arg]:
    """The elements of ``keyword=(a, b)`` as arguments (``Thread(target=f, args=(a, b))``)."""
    for arg in args:
        if arg.keyword is not None and arg.keyword.value == keyword and isinstance(arg.value, (cst.Tuple, cst.List)):
            return [cst.Arg(e.value) for e in arg.value.elements if not isinstance(e, cst.StarredElement)]
    return ()


def _move(
    call: cst.Call, args: Sequence[cst.Arg], function: str, source_index: int, source_keyword: str,
    destination_index: int, destination_keyword: str, *, passed: bool = False, own: bool = False,
) -> Optional[Move]:
    source = _argument(args, source_index, source_keyword)
    destination = _argument(args, destination_index, destination_keyword)
    if source is None or destination is None:
        return None
    src_fd, dst_fd = _argument(args, 99, "src_dir_fd"), _argument(args, 99, "dst_dir_fd")
    dir_fds = (src_fd, dst_fd) if src_fd is not None and dst_fd is not None else None
    return Move(call, function, source, destination, method=False, passed=passed, dir_fds=dir_fds, own=own)


#: A file object's or a path's writing and reading methods: ``dst.write(src.read())`` copies.
_WRITES = frozenset({"write", "write_bytes", "write_text"})
_READS = frozenset({"read", "read_bytes", "read_text"})


def copies_by_hand(call: cst.Call) -> bool:
    """``f.write(f2.read())``, ``dst.write_bytes(src.read_bytes())``: a copy spelled out, the
    fallback a handler of a failed rename writes when it does not use ``shutil``."""
    if not (isinstance(call.func, cst.Attribute) and call.func.attr.value in _WRITES and call.args):
        return False
    stack: List[cst.CSTNode] = [call.args[0].value]
    while stack:
        node = stack.pop()
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value in _READS:
            return True
        if not isinstance(node, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
            stack.extend(children(node))
    return False
