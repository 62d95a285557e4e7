"""Location provenance: for each expression, the locations its path may point into.

A small abstract interpreter over the module. It walks statements in order, so a
reassignment replaces a value and branches merge; loops run twice to let values flow
round; functions and methods are analysed once each, their parameters symbolic
(``Param``), so a ``self.attr`` set in another method reaches its users, and each
function gets a ``FunctionSummary`` (its moves, the parameters it removes, the path it
returns) that every same-module call applies with the caller's values.
Imports bind names to qualified names (``import os as _os`` makes ``_os.replace``
``os.replace``) as the interpreter walks past them, flow-sensitively, so a
conditional import merges like any other assignment; a name bound nowhere is a
builtin. libcst's ScopeProvider answers the same question, but costs about three
times a parse per file (12 s of 19 s over the stdlib's 12 candidate files), while
the binding here is free: the interpreter already keeps an environment.
"""

from __future__ import annotations

import os.path
import posixpath
from functools import lru_cache
from pathlib import Path
from dataclasses import dataclass, field, replace
from typing import Dict, FrozenSet, Iterable, List, Mapping, Optional, Sequence, Set, Tuple, TypeVar, Union

import libcst as cst

from libcst.helpers import get_absolute_module_for_import, get_full_name_for_node
from libcst.metadata import BaseMetadataProvider

from xdevlint.analysis import names
from xdevlint.analysis.locations import CACHE, DEFAULT, TEMP, Locations, staging_literal, staging_name
from xdevlint.analysis.moves import NAMED, SEVERITY, UNPROVEN, WRITTEN, FunctionSummary, MoveEffect, Related, Verdict, copies_by_hand, handed_to, instantiate, move_of
from xdevlint.analysis.tree import children, is_property
from xdevlint.analysis.values import (
    EMPTY, FILE, NONE, PATH_KIND, STR, STR_KIND, TEMPDIR, Attr, Fresh, Literal, Merge, Param, Parent, Partial, Relation, Token, Value,
)

_FunctionNode = Union[cst.FunctionDef, cst.Lambda]
#: One move as seen at one call: the call, and the move's key there (``MoveEffect.key``).
_Node = Tuple[cst.Call, Tuple[cst.Call, Tuple[str, ...]]]
_N = TypeVar("_N", bound=cst.CSTNode)
_OBJECT_KINDS = frozenset({FILE, TEMPDIR})


class Env:
    """Local values of one scope at one program point; ``dead`` after return/raise."""

    __slots__ = ("vars", "parent", "dead")

    def __init__(self, parent: Optional["Env"] = None, values: Optional[Dict[str, Value]] = None) -> None:
        self.vars: Dict[str, Value] = values if values is not None else {}
        self.parent = parent
        self.dead = False

    def lookup(self, name: str) -> Optional[Value]:
        env: Optional[Env] = self
        while env is not None:
            found = env.vars.get(name)
            if found is not None:
                return found
            env = env.parent
        return None

    def fork(self) -> "Env":
        child = Env(self.parent, dict(self.vars))
        child.dead = self.dead
        return child

    def become(self, other: "Env") -> None:
        self.vars, self.dead = other.vars, other.dead


def join(envs: Sequence[Env], at: Token) -> Env:
    """The state after paths meet (at the statement ``at``): a name's value is the union
    over live paths. Where the paths bound a name to different paths, it is still one
    path from here on, named for the meeting point, so ``dirname(d)`` and ``d`` agree."""
    live = [e for e in envs if not e.dead] or [envs[0]]
    merged: Dict[str, Value] = dict(live[0].vars)
    for env in live[1:]:
        for name, value in env.vars.items():
            old = merged.get(name)
            if old is None or old is value:
                merged[name] = value
                continue
            both = old | value
            if not both.idents and (old.idents or value.idents) and not both.is_object:
                both = both.with_idents(frozenset({Merge(at, name)}))
            merged[name] = both
    result = Env(live[0].parent, merged)
    result.dead = all(e.dead for e in live)
    return result


@dataclass
class _Function:
    node: _FunctionNode
    env: Env
    cls: Optional[cst.ClassDef]
    defaults: Dict[str, Value]
    name: str
    state: int = 0  # 0 new, 1 running, 2 done
    returns: Value = EMPTY
    generator: bool = False
    #: ``return f(*args, **kwargs)`` of its own ``*args``/``**kwargs``: a wrapper whose
    #: calls are calls of ``f`` (pkg_resources' ``_mkstemp``), with the caller's arguments.
    forwards: Optional[cst.Call] = None
    #: ``self``/``cls``, bound by the call: "instance" (on an instance), "class", or None.
    implicit: Optional[str] = None
    parameters: Dict[str, Param] = field(default_factory=dict)
    #: The moves made in the body, by (call, (move call, via)).
    effects: Dict[_Node, MoveEffect] = field(default_factory=dict)
    removes: Set[str] = field(default_factory=set)
    summary: Optional[FunctionSummary] = None
    #: Where each of ``summary.moves`` was made: (call, effect key) in this function or a nested one.
    origins: List[_Node] = field(default_factory=list)
    #: Functions defined in this one's body: closures over its parameters.
    nested: List["_Function"] = field(default_factory=list)
    #: Names of the paths it has opened for writing so far: a file it wrote is staged.
    written: Set[Token] = field(default_factory=set)


@dataclass
class _Class:
    node: cst.ClassDef
    body: Dict[str, Value] = field(default_factory=dict)
    attributes: Dict[str, Value] = field(default_factory=dict)
    methods: List[_Function] = field(default_factory=list)
    #: Names the body only annotates (``pack_dir: Path``): declared, set elsewhere.
    declared: Set[str] = field(default_factory=set)
    #: A subclass of a ``pathlib`` class: its instances, ``self`` included, are paths.
    is_path: bool = False
    _setters: Optional[Dict[str, List[_Function]]] = None

    def setters(self) -> Dict[str, List[_Function]]:
        """The methods that assign each attribute name (on any object: a cheap look)."""
        if self._setters is None:
            self._setters = {}
            for method in self.methods:
                for name in dict.fromkeys(_assigned_attributes(method.node)):
                    self._setters.setdefault(name, []).append(method)
        return self._setters


@dataclass
class _Loop:
    continues: List[Env] = field(default_factory=list)
    breaks: List[Env] = field(default_factory=list)


class ProvenanceProvider(BaseMetadataProvider[Value]):
    """Maps every expression the interpreter reached to its ``Value``.

    The configured ``Locations`` arrive through ``MetadataWrapper(cache=...)``, libcst's
    channel for data a provider needs from outside the file.
    """

    @staticmethod
    def gen_cache(
        root_path: Path, paths: List[str], *, timeout: Optional[int] = None, use_pyproject_toml: bool = False
    ) -> Mapping[str, object]:
        # Only FullRepoManager calls this; being set is what makes MetadataWrapper
        # hand its ``cache`` entry to the constructor.
        return {}

    def __init__(self, cache: object = None) -> None:
        super().__init__(cache if cache is not None else DEFAULT)

    def _gen_impl(self, module: cst.Module) -> None:
        setting = self.cache
        interpreter = _Interpreter(setting if isinstance(setting, Locations) else DEFAULT)
        interpreter.run(module)
        values: Dict[cst.CSTNode, Value] = interpreter.values
        if interpreter.effects:
            values = dict(values)
            judged = interpreter.judged()
            for call, effects in interpreter.effects.items():
                values[call] = values[call].evolve(moves=tuple(
                    judged.get((call, key)) or replace(interpreter.guard(call, effect), deferred=True)
                    for key, effect in effects.items()
                ))
        for node, value in values.items():
            self.set_metadata(node, value)


def summaries(module: cst.Module, locations: Locations = DEFAULT) -> Dict[cst.CSTNode, FunctionSummary]:
    """The summary of every function and method of ``module`` (by its node), as the
    provider computes them: what a caller in the module applies."""
    interpreter = _Interpreter(locations)
    interpreter.run(module)
    return {node: fn.summary for node, fn in interpreter.functions.items() if fn.summary is not None}


class _Interpreter:
    def __init__(self, locations: Locations) -> None:
        self.locations = locations
        self.values: Dict[cst.CSTNode, Value] = {}
        self.functions: Dict[cst.CSTNode, _Function] = {}
        self.classes: Dict[cst.ClassDef, _Class] = {}
        self.pending: List[_Function] = []
        self.function_stack: List[_Function] = []
        self.class_stack: List[Optional[_Class]] = [None]
        self.loops: List[_Loop] = []
        self.resolving = False
        #: Functions and classes in the order they are defined: sets of them are walked in it.
        self.order: Dict[cst.CSTNode, int] = {}
        #: The moves each call makes, by (move call, via).
        self.effects: Dict[cst.Call, Dict[Tuple[cst.Call, Tuple[str, ...]], MoveEffect]] = {}
        #: Calls in a ``try`` whose handler falls back to a copy when they fail.
        self.guarded: Set[cst.Call] = set()
        #: For each ``try`` body being walked, the calls in it that make moves.
        self.try_frames: List[List[cst.Call]] = []
        #: Each move made in a function, seen again at the calls of that function.
        self.callers: Dict[_Node, Dict[_Node, None]] = {}
        #: The function each call with a move effect is in ("" at module level), for messages.
        self.enclosing: Dict[cst.Call, str] = {}
        #: The arguments ``functools.partial`` bound, by its call (``Partial``), and their values.
        self.partials: Dict[cst.Call, Tuple[Sequence[cst.Arg], List[Value]]] = {}
        #: What the module's own code (outside functions) opened for writing.
        self.written: Set[Token] = set()
        #: Values seen divided by a string (``self.outdir / f"{n}.tmp"``): only a path is,
        #: so they are paths wherever they are read (``self.outdir / n``).
        self.divided: Set[Token] = set()

    # -- driver -------------------------------------------------------------------

    def run(self, module: cst.Module) -> None:
        self.block(module.body, Env())
        # Functions run after the code that defines them, in the order they appear.
        index = 0
        while index < len(self.pending):
            self.analyse(self.pending[index])
            index += 1

    def analyse(self, fn: _Function) -> None:
        if fn.state:
            return
        fn.state = 1
        env = Env(fn.env)
        node = fn.node
        params = node.params
        ordered = [*params.posonly_params, *params.params]
        first = ordered[0].name.value if ordered else None
        for param in (*ordered, *params.kwonly_params):
            env.vars[param.name.value] = self.parameter(fn, param, first)
        for star in (params.star_arg, params.star_kwarg):
            if isinstance(star, cst.Param):
                env.vars[star.name.value] = EMPTY
        self.function_stack.append(fn)
        self.loops, saved_loops = [], self.loops
        self.try_frames, saved_frames = [], self.try_frames
        if isinstance(node, cst.Lambda):
            fn.returns = self.ev(node.body, env)
        else:
            self.suite(node.body, env)
        self.loops = saved_loops
        self.try_frames = saved_frames
        self.function_stack.pop()
        if fn.generator:
            fn.returns = EMPTY
        for inner in fn.nested:  # their moves may depend on this one's parameters
            self.analyse(inner)
        fn.state = 2
        fn.summary = self.summarise(fn)

    def parameter(self, fn: _Function, param: cst.Param, first: Optional[str]) -> Value:
        name = param.name.value
        default = fn.defaults.get(name, EMPTY)
        kinds = default.kinds
        if param.annotation is not None and self.annotation_is_path(param.annotation.annotation, fn.env):
            kinds = kinds | PATH_KIND
        symbol = Param(fn.node, name, default.locations or self.locations.for_identifier(name))
        fn.parameters[name] = symbol
        if fn.cls is not None and name == first and isinstance(fn.node, cst.FunctionDef):
            decorators = {d.decorator.value for d in fn.node.decorators if isinstance(d.decorator, cst.Name)}
            if "staticmethod" not in decorators:
                fn.implicit = "class" if "classmethod" in decorators else "instance"
                if fn.implicit == "class":
                    value = default | Value(defs=frozenset({fn.cls}))
                else:
                    # ``self`` is one object throughout the method: ``os.replace(tmp, self)``
                    # after ``mkstemp(dir=self.parent)`` stays in its directory.
                    info = self.classes.get(fn.cls)
                    kinds = PATH_KIND if info is not None and info.is_path else frozenset()
                    value = default | Value(instances=frozenset({fn.cls}), kinds=kinds, idents=frozenset({symbol}))
                self.record(param.name, value)
                return value
        value = default.evolve(
            locations=symbol.guess, kinds=kinds, params=default.params | {symbol},
            idents=frozenset({symbol}), within=frozenset(), evidence=default.evidence | _named(name),
        )
        self.record(param.name, value)
        return value

    def summarise(self, fn: _Function) -> FunctionSummary:
        """What callers need of ``fn``: the moves that depend on its parameters, with the
        copy fallbacks around them, the parameters it removes, and what it returns."""
        params = fn.node.params
        made = list(self.effects_depending_on(fn, fn, ()))
        fn.origins = [origin for origin, _ in made]
        moves = [self.guard(origin[0], effect) for origin, effect in made]
        return FunctionSummary(
            node=fn.node,
            name=fn.name,
            positional=tuple(fn.parameters[p.name.value] for p in (*params.posonly_params, *params.params)),
            keyword_only=tuple(fn.parameters[p.name.value] for p in params.kwonly_params),
            implicit=fn.implicit,
            defaults=tuple((fn.parameters[name], value) for name, value in fn.defaults.items()),
            moves=tuple(moves),
            removes=frozenset(fn.removes),
            returns=fn.returns,
        )

    def effects_depending_on(
        self, fn: _Function, holder: _Function, via: Tuple[str, ...]
    ) -> Iterable[Tuple[_Node, MoveEffect]]:
        """The moves in ``holder`` (``fn`` or a function nested in it) that depend on
        ``fn``'s parameters, as made from ``fn`` (``via`` the nested functions)."""
        for origin, effect in holder.effects.items():
            if any(p.function is fn.node for p in effect.source.params | effect.destination.params):
                yield origin, replace(effect, via=(*via, *effect.via)) if via else effect
        for inner in holder.nested:
            yield from self.effects_depending_on(fn, inner, (*via, inner.name))

    def judged(self) -> Dict[_Node, MoveEffect]:
        """Each move where it is told, with its verdict: where it is written.

        A move whose sides depend on the parameters of functions the module calls is
        judged with the values of each outermost call that reaches it (a helper's
        callers, their callers...): the worst verdict among them is the move's, and the
        calls that give it are its related locations. A helper nobody in the module
        calls is judged with its parameters as they are (their names may say staged).
        A copy fallback around the move, or around a call that reaches it, handles it."""
        derived = {node for callers in self.callers.values() for node in callers}
        told: Dict[_Node, MoveEffect] = {}
        for call, effects in self.effects.items():
            for key, effect in effects.items():
                node = (call, key)
                if node in derived:
                    continue  # judged where it is written
                own = self.guard(call, effect)
                found: Optional[Verdict] = None
                related: List[Related] = []
                # Each outermost call's verdict as if no copy fallback handled the move.
                judged = [(c, leaf, leaf.judge()) for c, leaf in ((c, self.guard(c, self.effects[c][k])) for c, k in self.outermost(node))]
                exdev = any(v is not None and v.kind != UNPROVEN for v in ([v for _, _, v in judged] if judged else [own.judge()]))
                # Whether the sides stay on one filesystem does not depend on a fallback: a
                # guarded link between siblings is still proven (XDV202 asks).
                proven_everywhere = own.is_proven or bool(judged) and all(v is None for _, _, v in judged)
                if not own.guarded and not proven_everywhere:
                    if not judged:
                        found = own.judge()
                    else:
                        reported = [(c, leaf, v) for c, leaf, v in judged if v is not None and not leaf.guarded]
                        if reported:
                            found = max((v for _, _, v in reported), key=lambda v: SEVERITY[v.kind])
                            alone = own.judge()
                            if alone is None or alone.code != found.code or len(reported) < len(judged):
                                # The callers' paths make it what it is (or some prove it): name them.
                                related = [
                                    Related(c, leaf.via, v, self.enclosing.get(c, "")) for c, leaf, v in reported if v.code == found.code
                                ]
                told[node] = replace(own, judged=True, verdict=found, proven=proven_everywhere, related=tuple(related), exdev=exdev)
        return told

    def outermost(self, node: _Node) -> List[_Node]:
        """The calls that reach the move ``node`` from furthest out: those of its function
        that no same-module function passes on, and so on up (cycles end the climb)."""
        found: Dict[_Node, None] = {}
        seen: Set[_Node] = {node}
        stack = list(self.callers.get(node, ()))
        while stack:
            current = stack.pop()
            if current in seen:
                continue
            seen.add(current)
            callers = self.callers.get(current)
            if callers:
                stack.extend(callers)
            else:
                found[current] = None
        return list(found)

    def guard(self, call: cst.CSTNode, effect: MoveEffect) -> MoveEffect:
        """``effect`` of ``call``, marked when a copy fallback around the call handles it."""
        return replace(effect, guarded=True) if call in self.guarded and not effect.guarded else effect

    def annotation_is_path(self, annotation: cst.BaseExpression, env: Env) -> bool:
        if isinstance(annotation, cst.SimpleString):
            text = annotation.evaluated_value
            return isinstance(text, str) and text.rsplit(".", 1)[-1] in {"Path", "PurePath", "PosixPath"}
        if isinstance(annotation, (cst.Name, cst.Attribute)):
            callees = self.ev(annotation, env).callees
            return bool(callees & (names.PATH_CLASSES | {"os.PathLike"}))
        if isinstance(annotation, (cst.Subscript, cst.BinaryOperation)):
            return any(
                self.annotation_is_path(child, env)
                for child in _expressions_below(annotation)
            )
        return False

    def called(self, call: cst.Call, node: cst.CSTNode, arguments: "_Arguments", receiver: Optional[Value]) -> Value:
        """A call of the same-module function ``node``: its summary with the caller's values.
        Its moves become this call's; its return value is the call's value."""
        fn = self.functions.get(node)
        if fn is None:
            return EMPTY
        self.analyse(fn)
        if fn.forwards is not None:
            # A wrapper that hands all its arguments on: what it wraps, with this call's.
            wrapped = self.value_of(fn.forwards.func).callees
            forwarded = [self.library_call(call, callee, arguments) for callee in sorted(wrapped)]
            if any(v is not EMPTY for v in forwarded):
                result = EMPTY
                for value in forwarded:
                    result = result | value
                return result
        summary = fn.summary
        if summary is None:  # a recursive call: only what is known so far
            return fn.returns
        implicit = summary.implicit == "class" or summary.implicit == "instance" and receiver is not None and bool(receiver.instances)
        bindings = summary.bindings(arguments.items, arguments.starred, implicit, receiver if summary.implicit == "instance" else None)
        for effect, origin in zip(summary.moves, fn.origins):
            made = MoveEffect(
                effect.move,
                instantiate(effect.source, bindings),
                instantiate(effect.destination, bindings),
                via=(summary.name, *effect.via),
                guarded=effect.guarded,
                dir_fds=None if effect.dir_fds is None else (
                    instantiate(effect.dir_fds[0], bindings), instantiate(effect.dir_fds[1], bindings)
                ),
            )
            self.add_effect(call, made)
            self.callers.setdefault(origin, {})[(call, made.key)] = None
        if summary.removes and self.function_stack:
            for param, value in bindings.items():
                if param.name in summary.removes:
                    self.note_removal(value)
        return instantiate(summary.returns, bindings)

    def add_effect(self, call: cst.Call, effect: MoveEffect) -> None:
        if call not in self.effects:
            self.enclosing[call] = self.function_stack[-1].name if self.function_stack else ""
        effects = self.effects.setdefault(call, {})
        old = effects.get(effect.key)
        effects[effect.key] = effect if old is None else old.merged(effect)
        if self.function_stack:
            own = self.function_stack[-1].effects
            key = (call, effect.key)
            old = own.get(key)
            own[key] = effect if old is None else old.merged(effect)
        if self.try_frames:
            self.try_frames[-1].append(call)

    def note_removal(self, value: Value) -> None:
        """The running function removes the path ``value``: one of its parameters, maybe."""
        fn = self.function_stack[-1]
        for ident in value.idents:
            if isinstance(ident, Param) and ident.function is fn.node:
                fn.removes.add(ident.name)

    def ordered(self, nodes: Iterable[_N]) -> List[_N]:
        """``nodes`` (functions, classes) in the order they were defined, not by hash."""
        return sorted(nodes, key=lambda node: self.order.get(node, -1))

    # -- statements -----------------------------------------------------------------

    def block(self, statements: Sequence[cst.CSTNode], env: Env) -> None:
        for statement in statements:
            self.statement(statement, env)

    def suite(self, suite: cst.BaseSuite, env: Env) -> None:
        self.block(suite.body, env)

    def statement(self, node: cst.CSTNode, env: Env) -> None:
        if isinstance(node, cst.SimpleStatementLine):
            self.block(node.body, env)
        elif isinstance(node, cst.Assign):
            value = self.ev(node.value, env)
            for target in node.targets:
                self.bind(target.target, value, env, node.value)
        elif isinstance(node, cst.AnnAssign):
            if node.value is not None:
                value = self.ev(node.value, env)
                # ``p: Optional[Path] = None`` is no path yet: ``None`` stays ``None``.
                if value is not NONE and self.annotation_is_path(node.annotation.annotation, env):
                    value = value.evolve(kinds=value.kinds | PATH_KIND)
                self.bind(node.target, value, env, node.value)
            elif self.class_stack[-1] is not None and not self.function_stack and isinstance(node.target, cst.Name):
                # A field (``tmp_dir: Path`` of a dataclass): its instances' attribute is a path.
                if self.annotation_is_path(node.annotation.annotation, env):
                    self.bind(node.target, Value(kinds=PATH_KIND), env, None)
                    self.class_stack[-1].declared.add(node.target.value)
        elif isinstance(node, cst.AugAssign):
            value = self.ev(node.value, env)
            if isinstance(node.operator, (cst.AddAssign, cst.DivideAssign)):
                current = self.ev(node.target, env)
                value = _concatenated(current, value) if isinstance(node.operator, cst.AddAssign) else self.joined([current, value], PATH_KIND)
            else:
                value = EMPTY
            self.bind(node.target, value, env, None)
        elif isinstance(node, cst.Expr):
            self.ev(node.value, env)
        elif isinstance(node, cst.Return):
            value = self.ev(node.value, env) if node.value is not None else EMPTY
            if self.function_stack:
                fn = self.function_stack[-1]
                fn.returns = fn.returns | value
                if isinstance(node.value, cst.Call) and _forwards_stars(node.value, fn.node):
                    fn.forwards = node.value
            env.dead = True
        elif isinstance(node, cst.Raise):
            self.expressions(node, env)
            env.dead = True
        elif isinstance(node, (cst.Break, cst.Continue)):
            if self.loops:
                loop = self.loops[-1]
                (loop.breaks if isinstance(node, cst.Break) else loop.continues).append(env.fork())
            env.dead = True
        elif isinstance(node, cst.If):
            self.if_statement(node, env)
        elif isinstance(node, (cst.For, cst.While)):
            self.loop(node, env)
        elif isinstance(node, (cst.Try, cst.TryStar)):
            self.try_statement(node, env)
        elif isinstance(node, cst.With):
            for item in node.items:
                value = self.ev(item.item, env)
                if item.asname is not None:
                    self.bind(item.asname.name, _entered(value), env, None)
            self.suite(node.body, env)
        elif isinstance(node, cst.FunctionDef):
            self.define_function(node, env)
        elif isinstance(node, cst.ClassDef):
            self.define_class(node, env)
        elif isinstance(node, cst.Import):
            for alias in node.names:
                dotted = get_full_name_for_node(alias.name) or ""
                if alias.asname is not None:
                    self.bind(alias.asname.name, Value(callees=frozenset({dotted})), env, None)
                else:
                    top = dotted.split(".", 1)[0]
                    env.vars[top] = Value(callees=frozenset({top}))
        elif isinstance(node, cst.ImportFrom):
            self.import_from(node, env)
        elif isinstance(node, cst.Match):
            self.ev(node.subject, env)
            branches = [env.fork()]
            for case in node.cases:
                branch = env.fork()
                self.suite(case.body, branch)
                branches.append(branch)
            env.become(join(branches, node))
        else:
            # Import, Global, Del, Assert, Pass, ...: only their expressions matter.
            self.expressions(node, env)

    def import_from(self, node: cst.ImportFrom, env: Env) -> None:
        module = get_absolute_module_for_import(None, node) or ""
        if node.relative and not isinstance(node.names, cst.ImportStar):
            # ``from .posixemulation import rename``: the project's own, named from this package.
            module = "." * len(node.relative) + ((get_full_name_for_node(node.module) or "") if node.module else "")
        if isinstance(node.names, cst.ImportStar):
            # Only what the analysis knows of: a star import of os binds os.rename.
            for qualified in names.KNOWN_NAMES:
                parent, _, name = qualified.rpartition(".")
                if parent == module:
                    env.vars[name] = Value(callees=frozenset({qualified}))
            return
        for alias in node.names:
            name = get_full_name_for_node(alias.name) or ""
            target = alias.asname.name if alias.asname is not None else alias.name
            qualified = f"{module}{name}" if module.endswith(".") else f"{module}.{name}"
            if _another_path_class(qualified):
                # A project's own ``Path`` (``from hatch.utils.fs import Path``) is, in practice,
                # a ``pathlib.Path`` subclass: it makes, joins, moves and removes paths alike.
                qualified = "pathlib.Path"
            self.bind(target, self.imported(qualified), env, None)

    def imported(self, qualified: str) -> Value:
        if qualified in names.TEMP_DIR_ATTRIBUTES:
            return Value(locations=frozenset({TEMP}), kinds=STR_KIND)
        return self.library_object(qualified)

    def library_object(self, qualified: str) -> Value:
        """A library's object by its name; a well-known constant is a directory of its location."""
        located = self.locations.for_library(qualified)
        if located:
            return Value(locations=located, kinds=STR_KIND, idents=frozenset({qualified}))
        return Value(callees=frozenset({qualified}))

    def if_statement(self, node: cst.If, env: Env) -> None:
        self.ev(node.test, env)
        then = env.fork()
        self.suite(node.body, then)
        other = env.fork()
        if isinstance(node.orelse, cst.If):
            self.if_statement(node.orelse, other)
        elif isinstance(node.orelse, cst.Else):
            self.suite(node.orelse.body, other)
        env.become(join([then, other], node))

    def loop(self, node: Union[cst.For, cst.While], env: Env) -> None:
        loop = _Loop()
        self.loops.append(loop)
        entry = env.fork()
        element = EMPTY
        if isinstance(node, cst.For):
            element = _element_of(self.ev(node.iter, env))
        for _ in range(2):  # a second pass lets values assigned late in the body flow round
            body = entry.fork()
            if isinstance(node, cst.For):
                self.bind(node.target, element, body, None)
            else:
                self.ev(node.test, body)
            self.suite(node.body, body)
            entry = join([entry, body, *loop.continues], node)
        self.loops.pop()
        if node.orelse is not None:
            self.suite(node.orelse.body, entry)
        env.become(join([entry, *loop.breaks], (node, "break")))

    def try_statement(self, node: Union[cst.Try, cst.TryStar], env: Env) -> None:
        before = env.fork()
        body = env.fork()
        self.try_frames.append([])
        self.suite(node.body, body)
        moving = self.try_frames.pop()
        # An exception may leave the body anywhere: handlers see both ends.
        raised = join([before, body], (node, "raised"))
        raised.dead = False
        ends = []
        for handler in node.handlers:
            branch = raised.fork()
            if handler.type is not None:
                self.ev(handler.type, branch)
            if handler.name is not None:
                self.bind(handler.name.name, EMPTY, branch, None)
            self.suite(handler.body, branch)
            ends.append(branch)
        if moving and any(self.falls_back_to_copy(handler) for handler in node.handlers):
            self.guarded.update(moving)
        elif moving and any(self.goes_on(handler) for handler in node.handlers):
            # A link that fails leaves its source where it was, and a clause that goes on
            # without it has its way forward (a copy, an upload, ``return False``).
            self.guarded.update(c for c in moving if self.links(c))
        if self.try_frames:
            self.try_frames[-1].extend(moving)
        if node.orelse is not None:
            self.suite(node.orelse.body, body)
        result = join([body, *ends], node)
        if node.finalbody is not None:
            self.suite(node.finalbody.body, result)
        env.become(result)

    def links(self, call: cst.Call) -> bool:
        """Whether ``call`` makes a hard link (``os.link``, ``Path.hardlink_to``): it moves nothing."""
        found = move_of(call, self.value_of)
        return found is not None and found.function.rpartition(".")[2] in ("link", "hardlink_to")

    def catches_os_errors(self, handler: Union[cst.ExceptHandler, cst.ExceptStarHandler]) -> bool:
        """Whether ``handler`` catches ``OSError`` (or broader): a bare clause does."""
        if handler.type is None:
            return True
        types = [e.value for e in handler.type.elements] if isinstance(handler.type, cst.Tuple) else [handler.type]
        return any(self.values.get(t, EMPTY).callees & (names.OS_ERROR_CLASSES | names.BROAD_EXCEPTIONS) for t in types)

    def goes_on(self, handler: Union[cst.ExceptHandler, cst.ExceptStarHandler]) -> bool:
        """Whether ``handler`` catches ``OSError`` (or broader) and never raises."""
        return self.catches_os_errors(handler) and not any(isinstance(n, cst.Raise) for n in _nodes_in(handler.body))

    def falls_back_to_copy(self, handler: Union[cst.ExceptHandler, cst.ExceptStarHandler]) -> bool:
        """Whether ``handler`` catches ``EXDEV`` and copies (or moves with a copying
        function) in reply, or tells ``EXDEV`` apart (``e.errno == errno.EXDEV``): the
        rename's failure across mounts is handled there."""
        if not self.catches_os_errors(handler):
            return False
        if any(self.values.get(call.func, EMPTY).callees & names.COPY_FALLBACKS or copies_by_hand(call) for call in _calls_in(handler.body)):
            return True
        return any(
            isinstance(node, cst.Attribute) and node.attr.value == "EXDEV" and "errno.EXDEV" in self.values.get(node, EMPTY).callees
            for node in _nodes_in(handler.body)
        )

    def define_function(self, node: cst.FunctionDef, env: Env) -> None:
        for decorator in node.decorators:
            self.ev(decorator.decorator, env)
        fn = self.register_function(node, env)
        if node.returns is not None:
            self.ev(node.returns.annotation, env)
        self.bind(node.name, Value(defs=frozenset({node})), env, None)
        if self.class_stack[-1] is not None:
            self.class_stack[-1].methods.append(fn)

    def register_function(self, node: _FunctionNode, env: Env) -> _Function:
        defaults = {}
        params = node.params
        for param in (*params.posonly_params, *params.params, *params.kwonly_params):
            if param.default is not None:
                value = self.ev(param.default, env)
                # ``p=None`` says "not passed": no path, as a literal ``None`` argument is none.
                if not (isinstance(param.default, cst.Name) and param.default.value == "None"):
                    defaults[param.name.value] = value
        owner = self.class_stack[-1]
        name = node.name.value if isinstance(node, cst.FunctionDef) else "<lambda>"
        if owner is not None and isinstance(node, cst.FunctionDef):
            name = f"{owner.node.name.value}.{name}"
        fn = _Function(node, env, owner.node if owner is not None else None, defaults, name)
        if self.function_stack:
            self.function_stack[-1].nested.append(fn)
        self.functions[node] = fn
        self.order[node] = len(self.order)
        self.pending.append(fn)
        return fn

    def define_class(self, node: cst.ClassDef, env: Env) -> None:
        for decorator in node.decorators:
            self.ev(decorator.decorator, env)
        self.expressions_of(node.bases, env)
        self.expressions_of(node.keywords, env)
        info = _Class(node)
        info.is_path = any(self.value_of(base.value).callees & names.PATH_CLASSES for base in node.bases)
        self.classes[node] = info
        self.order[node] = len(self.order)
        body = Env(env)
        self.class_stack.append(info)
        self.suite(node.body, body)
        self.class_stack.pop()
        info.body = body.vars
        self.bind(node.name, Value(defs=frozenset({node})), env, None)

    # -- binding ----------------------------------------------------------------------

    def bind(self, target: cst.BaseExpression, value: Value, env: Env, source: Optional[cst.BaseExpression]) -> None:
        if isinstance(target, cst.Name):
            if not value.idents and not value.is_object:
                value = value.with_idents(frozenset({target}))  # the variable names the path from here
            if not self.function_stack and self.class_stack[-1] is not None:
                self.class_stack[-1].declared.discard(target.value)  # given a value in the body
            env.vars[target.value] = value
            self.record(target, value)
        elif isinstance(target, (cst.Tuple, cst.List)):
            elements = [e.value for e in target.elements]
            starred = any(isinstance(e, cst.StarredElement) for e in target.elements)
            known = value.elements if value.elements is not None and len(value.elements) == len(elements) and not starred else None
            spread = _element_of(value)
            for index, element in enumerate(elements):
                self.bind(element, known[index] if known is not None else spread, env, None)
        elif isinstance(target, cst.Attribute):
            receiver = self.ev(target.value, env)
            attr = target.attr.value
            # An attribute outlives the call that set it: no caller's value reaches it
            # through the parameters it came from (their guesses stay).
            if value.params:
                value = value.evolve(params=frozenset())  # (``None`` itself stays the one ``NONE``)
            for cls in receiver.instances:
                info = self.classes.get(cls)
                if info is not None:
                    info.attributes[attr] = info.attributes.get(attr, EMPTY) | value
        elif isinstance(target, cst.StarredElement):
            self.bind(target.value, _element_of(value).evolve(kinds=value.kinds), env, None)
        else:
            self.ev(target, env)

    def record(self, node: cst.CSTNode, value: Value) -> Value:
        old = self.values.get(node)
        self.values[node] = value if old is None else old | value
        return value

    # -- expressions -----------------------------------------------------------------

    def expressions(self, node: cst.CSTNode, env: Env) -> None:
        """Evaluate every expression below ``node`` so calls inside it get values."""
        for child in children(node):
            if isinstance(child, cst.BaseExpression):
                self.ev(child, env)
            else:
                self.expressions(child, env)

    def expressions_of(self, nodes: Iterable[cst.CSTNode], env: Env) -> None:
        for node in nodes:
            self.expressions(node, env)

    def ev(self, node: cst.BaseExpression, env: Env) -> Value:
        method = getattr(self, "ev_" + type(node).__name__, None)
        value = method(node, env) if method is not None else self.ev_other(node, env)
        if not value.idents:
            # Every value is some path: name it for the library object it is, or for
            # the expression that made it, so that what is derived from it can be related.
            if len(value.callees) == 1 and not value.alternatives:
                # (Where paths met, the object is what one of them gave: no name for all.)
                value = value.with_idents(value.callees)
            elif value.literal is not None:
                value = value.with_idents(frozenset({Literal(posixpath.normpath(value.literal) if value.literal else ".")}))
            elif not value.is_object:
                value = value.with_idents(frozenset({node}))
        elif self.divided and not value.is_path and not value.is_object and not self.divided.isdisjoint(value.idents):
            value = value.evolve(kinds=value.kinds | PATH_KIND)
        return self.record(node, value)

    def ev_other(self, node: cst.BaseExpression, env: Env) -> Value:
        self.expressions(node, env)
        return EMPTY

    def ev_Name(self, node: cst.Name, env: Env) -> Value:
        value = env.lookup(node.value)
        if value is None and node.value == "None":
            return NONE
        if value is NONE and self.function_stack and node.value not in env.vars:
            # A global or closure variable that is ``None`` where it is defined is a slot set
            # from elsewhere (``jieba.tmp_dir = ...``): some path, the same wherever it is read.
            return Value(idents=frozenset({f"global {node.value}"}))
        if value is None:
            value = Value(callees=frozenset({f"builtins.{node.value}"})) if node.value in names.BUILTINS else EMPTY
        if not value.locations and not value.callees and not value.defs and not value.staged:
            value = value.with_locations(self.locations.for_identifier(node.value))
        if not value.is_object:
            value = value.with_evidence(_named(node.value))
        return value

    def ev_Attribute(self, node: cst.Attribute, env: Env) -> Value:
        receiver = self.ev(node.value, env)
        attr = node.attr.value
        value = EMPTY
        if receiver.callees:
            callees = frozenset(f"{c}.{attr}" for c in receiver.callees)
            value = Value(callees=callees)
            if callees & names.TEMP_DIR_ATTRIBUTES:
                value = Value(locations=frozenset({TEMP}), kinds=STR_KIND, idents=callees & names.TEMP_DIR_ATTRIBUTES)
            elif len(callees) == 1 and names.LIBRARY_LOCATIONS.keys() & callees:
                value = self.library_object(next(iter(callees)))
        classes: List[cst.ClassDef] = self.ordered(receiver.instances | {d for d in receiver.defs if isinstance(d, cst.ClassDef)})
        for cls in classes:
            value = value | self.class_attribute(cls, attr)
        if value.defs:
            value = self.read_properties(value, receiver)
        if attr in names.PATH_DERIVING_ATTRIBUTES and (receiver.is_path or not receiver.kinds and not receiver.is_object):
            # ``p.parent``: of a path, or of what may be one (``path.parent`` of an
            # unannotated parameter), whose directory it is.
            return value | receiver.derived(PATH_KIND if receiver.is_path else receiver.kinds, Relation.PARENT)
        if attr == "name" and receiver.kinds & _OBJECT_KINDS:
            return value | receiver.derived(STR_KIND, Relation.SAME)
        if not value.locations and not value.callees and not value.defs and not value.staged:
            value = value.with_locations(self.locations.for_identifier(attr))
        if not value.is_object:
            # ``self.root`` is the same path wherever it is read.
            owners: Iterable[Token] = classes or receiver.idents
            value = value.with_idents(frozenset(Attr(owner, attr) for owner in owners)).with_evidence(_named(attr))
        return value

    def read_properties(self, value: Value, receiver: Value) -> Value:
        """``obj.path`` where ``path`` is a ``@property`` of a class of the module: what
        its getter returns for ``obj``, as a call would."""
        getters = [
            d for d in self.ordered(value.defs)
            if isinstance(d, cst.FunctionDef) and is_property(d)
        ]
        if not getters:
            return value
        rest = value.evolve(defs=value.defs.difference(getters))
        result = EMPTY if rest == EMPTY else rest  # nothing else: the getters' paths alone
        for getter in getters:
            fn = self.functions.get(getter)
            if fn is None:
                continue
            self.analyse(fn)
            summary = fn.summary
            if summary is None:  # read while it runs: only what is known so far
                result = result | fn.returns
                continue
            bindings = summary.bindings([], False, True, receiver)
            result = result | instantiate(summary.returns, bindings)
        return result

    def class_attribute(self, cls: cst.ClassDef, attr: str) -> Value:
        info = self.classes.get(cls)
        if info is None:
            return EMPTY
        if not self.resolving:
            # Attributes may be set in any method: analyse those that set this one first,
            # once; an attribute read while doing so takes what is known, keeping
            # recursion flat. Other methods wait their turn, so that one that calls the
            # method running now sees its summary complete.
            self.resolving = True
            try:
                for method in info.setters().get(attr, ()):
                    self.analyse(method)
            finally:
                self.resolving = False
        body, assigned = info.body.get(attr, EMPTY), info.attributes.get(attr)
        if assigned is not None and attr in info.declared:
            # ``pack_dir: Path`` in the body declares what ``__init__`` sets: its kind, and no path of its own.
            return assigned.evolve(kinds=assigned.kinds | body.kinds)
        return body | (assigned or EMPTY)

    def ev_SimpleString(self, node: cst.SimpleString, env: Env) -> Value:
        try:
            text = node.evaluated_value
        except (ValueError, SyntaxError):  # e.g. an unknown \N{...} name: no literal to know
            return Value(kinds=STR_KIND)
        value = self.literal(text)
        cwd = env.lookup(_CWD)
        if cwd is not None and cwd is not EMPTY and isinstance(value.literal, str) and value.literal and not value.literal.startswith(("/", "~")):
            # After ``os.chdir(d)``, ``"out.bin"`` is a name in ``d``.
            return value.evolve(
                locations=value.locations | cwd.locations, evidence=value.evidence | cwd.evidence,
                within=value.within | cwd.within | cwd.idents,
            )
        return value

    def literal(self, text: Union[str, bytes, None]) -> Value:
        if isinstance(text, bytes):
            text = text.decode("latin-1")
        if text is None:
            return Value(kinds=STR_KIND)
        return Value(locations=self.locations.for_literal(text), kinds=STR_KIND, literal=text, evidence=staging_literal(text))

    def ev_ConcatenatedString(self, node: cst.ConcatenatedString, env: Env) -> Value:
        return _concatenated(self.ev(node.left, env), self.ev(node.right, env))

    def ev_FormattedString(self, node: cst.FormattedString, env: Env) -> Value:
        values: List[Value] = []
        texts: List[Optional[str]] = []  # the text of each part, None for an expression
        for part in node.parts:
            if isinstance(part, cst.FormattedStringExpression):
                values.append(self.ev(part.expression, env))
                texts.append(None)
                self.expressions_of([p for p in (part.format_spec or ())], env)
            elif isinstance(part, cst.FormattedStringText):
                values.append(self.literal(part.value))
                texts.append(part.value)
        if not values:
            return Value(kinds=STR_KIND, literal="")
        evidence = frozenset().union(*(v.evidence for v in values))
        if texts[0] is not None:
            return values[0].derived(STR_KIND, Relation.OTHER).with_evidence(evidence)
        rest = "".join(t if t is not None else "{}" for t in texts[1:])
        return values[0].derived(STR_KIND, _relation_of_suffix(rest if len(texts) > 1 else "")).with_evidence(evidence)

    def ev_BinaryOperation(self, node: cst.BinaryOperation, env: Env) -> Value:
        left = self.ev(node.left, env)
        right = self.ev(node.right, env)
        if isinstance(node.operator, cst.Divide):
            # Only a path is divided by text: a string written out, or one the code made
            # (``"%s_%s" % (uuid4().hex, name)``), whatever it is divided into.
            by_text = isinstance(node.right, (cst.SimpleString, cst.FormattedString, cst.ConcatenatedString)) or (
                STR in right.kinds and right.kinds <= STR_KIND and not right.is_object
            )
            if by_text and not left.is_path and not left.is_object:
                self.divided.update(t for t in left.idents if isinstance(t, (Attr, Param)))
            if (
                left.is_path or right.is_path or by_text
                # ``self.tmp_dir / name`` where nothing says ``tmp_dir`` is a path but its name:
                # a number is rarely named for a temp directory, or divided by a name.
                or (left.evidence or left.locations) and not isinstance(node.right, (cst.Integer, cst.Float))
            ):
                return self.joined([left, right], PATH_KIND)
        if isinstance(node.operator, cst.Add):
            return _concatenated(left, right)
        if isinstance(node.operator, cst.Modulo) and left.literal is not None:
            return self.formatted(left.literal, "%", _first_of(node.right, right, self))
        return EMPTY

    def formatted(self, template: str, marker: str, first_argument: Value) -> Value:
        """``template % args`` / ``template.format(args)``: the first component decides."""
        prefix, placeholder, rest = template.partition(marker)
        if not placeholder:
            return self.literal(template)
        if prefix:
            return self.literal(prefix).derived(STR_KIND, Relation.OTHER)
        # What follows the first placeholder: ``%s/x`` -> ``/x``, ``{}/x`` -> ``/x``.
        after = rest.partition("}")[2] if marker == "{" else rest[1:] if rest[:1].isalpha() else ".."
        return first_argument.derived(STR_KIND, _relation_of_suffix(after))

    def joined(self, parts: Sequence[Value], kinds: FrozenSet[str]) -> Value:
        """``os.path.join`` semantics: a later absolute component starts afresh."""
        if not parts:
            return Value(kinds=kinds)
        start = 0
        for index, part in enumerate(parts):
            if part.literal is not None and part.literal.startswith("/"):
                start = index
        parts = parts[start:]
        literal: Optional[str] = None
        if all(p.literal is not None for p in parts):
            literal = os.path.join(*[p.literal for p in parts if p.literal is not None])
        relation = Relation.SAME
        if len(parts) > 1:
            up = any(p.literal is not None and ".." in p.literal.replace("\\", "/").split("/") for p in parts[1:])
            relation = Relation.OTHER if up else Relation.BELOW
        # ``join(out_dir, tmp_name)``: a staged name anywhere makes the path staged.
        value = parts[0].derived(kinds, relation, literal).with_evidence(frozenset().union(*(p.evidence for p in parts[1:])))
        if literal is not None:
            value = value.with_locations(self.locations.for_literal(literal))
        return value

    def ev_IfExp(self, node: cst.IfExp, env: Env) -> Value:
        self.ev(node.test, env)
        return self.ev(node.body, env) | self.ev(node.orelse, env)

    def ev_BooleanOperation(self, node: cst.BooleanOperation, env: Env) -> Value:
        left, right = self.ev(node.left, env), self.ev(node.right, env)
        if isinstance(node.operator, cst.Or) and right.literal in (".", "") and left.idents and all(isinstance(t, Parent) for t in left.idents):
            # ``dirname(p) or "."``: the empty dirname of a relative name is the current
            # directory, which holds it: the same directory either way.
            return left
        return left | right

    def ev_NamedExpr(self, node: cst.NamedExpr, env: Env) -> Value:
        value = self.ev(node.value, env)
        self.bind(node.target, value, env, node.value)
        return value

    def ev_Await(self, node: cst.Await, env: Env) -> Value:
        return self.ev(node.expression, env)

    def ev_Subscript(self, node: cst.Subscript, env: Env) -> Value:
        container = self.ev(node.value, env)
        index: Optional[Value] = None
        for element in node.slice:
            if isinstance(element.slice, cst.Index):
                index = self.ev(element.slice.value, env)
            else:
                self.expressions(element.slice, env)
        if container.callees & names.ENV_MAPPINGS and index is not None and index.literal is not None:
            return self.environment(index.literal)
        if container.elements is not None and len(node.slice) == 1:
            slice_ = node.slice[0].slice
            if isinstance(slice_, cst.Index) and isinstance(slice_.value, cst.Integer):
                position = int(slice_.value.value, 0)
                if -len(container.elements) <= position < len(container.elements):
                    return container.elements[position]
        return _element_of(container)

    def environment(self, variable: str) -> Value:
        """``os.environ[variable]``: the same path wherever it is read."""
        return Value(locations=self.locations.for_env(variable), kinds=STR_KIND, idents=frozenset({f"${variable}"}))

    def ev_Tuple(self, node: Union[cst.Tuple, cst.List], env: Env) -> Value:
        values = tuple(self.ev(e.value, env) for e in node.elements)
        return _collection(values).evolve(elements=values)

    ev_List = ev_Tuple

    def ev_Set(self, node: cst.Set, env: Env) -> Value:
        return _collection([self.ev(element.value, env) for element in node.elements])

    def ev_Lambda(self, node: cst.Lambda, env: Env) -> Value:
        self.register_function(node, env)
        return Value(defs=frozenset({node}))

    def ev_ListComp(self, node: Union[cst.ListComp, cst.SetComp, cst.GeneratorExp], env: Env) -> Value:
        inner = self.comprehension(node.for_in, env)
        return _collection([self.ev(node.elt, inner)])

    ev_SetComp = ev_GeneratorExp = ev_ListComp

    def ev_DictComp(self, node: cst.DictComp, env: Env) -> Value:
        inner = self.comprehension(node.for_in, env)
        self.ev(node.key, inner)
        self.ev(node.value, inner)
        return EMPTY

    def comprehension(self, clause: cst.CompFor, env: Env) -> Env:
        inner = Env(env)
        current: Optional[cst.CompFor] = clause
        while current is not None:
            element = _element_of(self.ev(current.iter, inner))
            self.bind(current.target, element, inner, None)
            for condition in current.ifs:
                self.ev(condition.test, inner)
            current = current.inner_for_in
        return inner

    def ev_Yield(self, node: cst.Yield, env: Env) -> Value:
        if self.function_stack:
            self.function_stack[-1].generator = True
        self.expressions(node, env)
        return EMPTY

    # -- calls --------------------------------------------------------------------------

    def ev_Call(self, node: cst.Call, env: Env) -> Value:
        function = self.ev(node.func, env)
        values = [self.ev(arg.value, env) for arg in node.args]
        if function.callees & _PARTIALS and node.args and not node.args[0].star and node.args[0].keyword is None:
            # ``partial(NamedTemporaryFile, dir=d)``: that function, with these arguments first.
            self.partials[node] = (node.args[1:], values[1:])
            self.effects_of(node, function, None)
            return values[0].evolve(idents=frozenset({Partial(node)}))
        args: Sequence[cst.Arg] = node.args
        for token in function.idents:
            if isinstance(token, Partial) and token.call in self.partials:
                bound_args, bound_values = self.partials[token.call]
                args, values = [*bound_args, *node.args], [*bound_values, *values]
                break
        arguments = _Arguments(args, values)
        if function.callees & _CHDIR:
            # ``os.chdir(d)``: a relative name means a path in ``d`` from here on.
            directory = arguments.get(0, "path")
            env.vars[_CWD] = directory if directory is not None else EMPTY
        positional, keywords = arguments.positional, arguments.keywords
        result = EMPTY
        for callee in sorted(function.callees):
            result = result | self.library_call(node, callee, arguments)
        known = result is not EMPTY  # a library function whose result the analysis knows
        receiver = self.values.get(node.func.value, EMPTY) if isinstance(node.func, cst.Attribute) else None
        for definition in self.ordered(function.defs):
            if isinstance(definition, cst.ClassDef):
                info = self.classes.get(definition)
                result = result | Value(instances=frozenset({definition}), kinds=PATH_KIND if info is not None and info.is_path else frozenset())
            else:
                result = result | self.called(node, definition, arguments, receiver)
        if not function.defs:
            self.handed(node)
        if receiver is not None and isinstance(node.func, cst.Attribute):
            result = result | self.method_call(receiver, node.func.attr.value, positional, keywords)
        self.effects_of(node, function, receiver)
        self.note_write(node, function, receiver, arguments)
        if not result.is_object:
            name = node.func.attr.value if isinstance(node.func, cst.Attribute) else node.func.value if isinstance(node.func, cst.Name) else None
            if name is not None:
                if not result.locations and not result.staged and not function.defs:
                    # ``get_temp_dir()``: the name says where, when nothing better is known (a
                    # function of this module says what it returns; a temp made with ``dir=`` is
                    # in that directory, whatever its name).
                    result = result.with_locations(self.locations.for_call_name(name))
                if not known and (staging_name(name) or self.locations.for_identifier(name)):
                    # ``get_temp_download_dir()``, ``cached_path(url)``: staged, whatever else is known.
                    result = result.with_evidence(frozenset({f"from `{name}()`"}))
            if not known and not function.defs and not result.idents and receiver is not None and isinstance(node.func, cst.Attribute):
                result = result | self.filesystem_method(receiver, node.func.attr.value, positional, keywords)
            # ``prepend_extension(dst, "temp")``, ``name.replace(".x", ".tmp")``: a variant of a
            # known path (a method of a str or path counts; of another object, not).
            transformed = [*positional, *keywords.values()]
            if receiver is not None and receiver.kinds & (STR_KIND | PATH_KIND):
                transformed.append(receiver)
            if not known and not function.defs and result is EMPTY and len(transformed) == 1 and _is_separator(transformed[0]):
                result = self.literal("/")  # ``to_bytes(os.sep)``: the separator, in another type
            elif not known and not function.defs and (result is EMPTY or bool(result.evidence) and result.evolve(evidence=frozenset()) == EMPTY):
                # ``_tmp_name(dst)``, ``atomic_tmp_file(final)``: what its name says it makes
                # is a variant of what it was given, wherever that lies.
                made_from = frozenset(t for v in transformed if _known_path(v) for t in (*v.idents, *v.within))
                if made_from:
                    result = result.evolve(remade_from=made_from)
            if (
                not known and not function.defs and not result.idents and not node.args
                and receiver is not None and not receiver.kinds & (STR_KIND | PATH_KIND) and isinstance(node.func, cst.Attribute)
            ):
                # ``self.get_download_dir()``, ``node.get_internal_path()``: an accessor of an
                # object (not a str's or a path's method), named like an attribute of it (as
                # ``self.download_dir`` would be), so that two calls name one path.
                result = result.with_idents(frozenset(Attr(t, node.func.attr.value + "()") for t in receiver.idents))
        return result

    def handed(self, node: cst.Call) -> None:
        """A same-module function handed to ``node`` with its arguments (``moves.handed_to``):
        its moves are this call's, with those arguments."""
        found = handed_to(node, self.value_of)
        if found is None:
            return
        function, rest = found
        receiver = self.value_of(function.value) if isinstance(function, cst.Attribute) else None
        arguments = _Arguments(rest, [self.value_of(a.value) for a in rest])
        for definition in self.ordered(self.value_of(function).defs):
            if isinstance(definition, cst.FunctionDef):
                self.called(node, definition, arguments, receiver)

    def note_write(self, node: cst.Call, function: Value, receiver: Optional[Value], arguments: "_Arguments") -> None:
        """Remember a path the running code opens for writing (``open(p, "w")``,
        ``p.write_bytes(...)``): a file a function wrote and then moves is staged."""
        path: Optional[Value] = None
        if function.callees & _OPENS:
            mode = arguments.get(1, "mode")
            if mode is not None and writes(mode.literal):
                path = arguments.get(0, "file")
        elif receiver is not None and receiver.is_path and isinstance(node.func, cst.Attribute):
            method = node.func.attr.value
            if method in ("write_text", "write_bytes"):
                path = receiver
            elif method == "open":
                mode = arguments.get(0, "mode")
                if mode is not None and writes(mode.literal):
                    path = receiver
        if path is not None:
            (self.function_stack[-1].written if self.function_stack else self.written).update(path.idents)

    def value_of(self, node: cst.CSTNode) -> Value:
        return self.values.get(node, EMPTY)

    def effects_of(self, node: cst.Call, function: Value, receiver: Optional[Value]) -> None:
        """Note what ``node`` does to paths itself: a move, or a removal of a parameter."""
        move = move_of(node, self.value_of)
        if move is not None:
            source = self.value_of(move.source)
            written = self.function_stack[-1].written if self.function_stack else self.written
            if not source.idents.isdisjoint(written):
                source = source.with_evidence(frozenset({WRITTEN}))
            dir_fds = None
            if move.dir_fds is not None:
                dir_fds = (self.value_of(move.dir_fds[0]), self.value_of(move.dir_fds[1]))
            self.add_effect(node, MoveEffect(move, source, self.value_of(move.destination), dir_fds=dir_fds))
        if not self.function_stack:
            return
        if function.callees & names.CLEANUP_FUNCTIONS and node.args and not node.args[0].star:
            self.note_removal(self.value_of(node.args[0].value))
        elif receiver is not None and isinstance(node.func, cst.Attribute) and node.func.attr.value in names.CLEANUP_METHODS:
            self.note_removal(receiver)

    def library_call(self, call: cst.Call, callee: str, arguments: "_Arguments") -> Value:
        argument, args = arguments.get, arguments.positional
        if callee in _OPENS:
            # ``f = open(p, "w")``: a file object whose ``.name`` is ``p``.
            opened = argument(0, "file")
            return opened.derived(frozenset({FILE}), Relation.SAME) if opened is not None and not opened.is_object else EMPTY
        factory = names.TEMP_FACTORIES.get(callee)
        if factory is not None:
            dir_index, kind = factory
            directory = argument(dir_index, "dir")
            prefix = argument(dir_index - 1, "prefix")
            if prefix is not None and _a_located_path(prefix) and not arguments.starred:
                # ``mkdtemp(prefix=f"{cache_dir}/x.")``: a prefix that is a path of a known
                # location is absolute, and ``os.path.join(dir, prefix + name)`` drops ``dir``:
                # the temp lies beside that path, wherever ``dir`` points.
                path = prefix.derived(STR_KIND, Relation.SIBLING).evolve(staged=frozenset({arguments.node(dir_index - 1, "prefix")}))
            elif directory is None and not arguments.starred:
                # Made in ``tempfile.gettempdir()``: beside what else is put there.
                path = Value(locations=frozenset({TEMP}), kinds=STR_KIND, within=_IN_TEMPDIR)
            elif directory is not None and directory.literal == "." and prefix is not None:
                # ``mkstemp(prefix=str(p), dir=".")``: joined to ".", the prefix keeps its own
                # directory, absolute or relative to the working one: the temp lies beside ``p``.
                path = prefix.derived(STR_KIND, Relation.SIBLING).evolve(staged=frozenset({arguments.node(dir_index, "dir")}))
            elif directory is not None:
                # Staged in ``dir``: its location, and inside it.
                path = directory.derived(STR_KIND, Relation.BELOW).evolve(staged=frozenset({arguments.node(dir_index, "dir")}))
            else:  # dir= maybe, through *args/**kwargs: nothing known
                path = Value(kinds=STR_KIND)
            path = path.with_idents(frozenset({Fresh(call)})).with_evidence(frozenset({f"made by `{callee}()`"}))
            if callee == "tempfile.mkstemp":
                return path.evolve(elements=(EMPTY, path))
            return path.evolve(kinds=frozenset({kind}))
        if callee in names.TEMP_DIR_CALLS:
            return Value(locations=frozenset({TEMP}), kinds=STR_KIND, idents=frozenset({"tempfile.gettempdir"}))
        lookalike = _tempfile_lookalike(callee)
        if lookalike is not None and "dir" in arguments.keywords:
            # A project's or a backport's ``TemporaryDirectory(dir=d)`` (setuptools' py31compat):
            # named and called as tempfile's, it makes its temp in ``d``. Only where the
            # temp lies is taken from the name; whether it is one stays unknown.
            path = arguments.keywords["dir"].derived(lookalike, Relation.BELOW)
            return path.evolve(elements=(EMPTY, path)) if callee.endswith(".mkstemp") else path
        if callee in names.BESIDE_CALLS:  # ``cache_from_source(p)``: in ``p``'s directory tree
            first = argument(0, "path")
            return first.derived(STR_KIND, Relation.SIBLING) if first is not None else EMPTY
        if callee in names.IDENTITY_CALLS:  # ``typing.cast(str, p)`` is ``p``
            found = argument(1, "val")
            return found if found is not None else EMPTY
        if callee == "re.sub":  # ``re.sub(r"\\", "/", p)``: the same path, other separators
            pattern, replacement, found = argument(0, "pattern"), argument(1, "repl"), argument(2, "string")
            if pattern is not None and replacement is not None and found is not None and not found.is_object and (
                pattern.literal in _SEPARATOR_PATTERNS and replacement.literal in _SEPARATOR_SPELLINGS
            ):
                return found.derived(STR_KIND, Relation.SAME)
            return EMPTY
        if callee in names.DOWNLOAD_CALLS:
            # ``urlretrieve(url)`` downloads to a temp it names; ``urlretrieve(url, p)`` to ``p``.
            target = argument(1, "filename")
            if target is None and not arguments.starred:
                target = Value(locations=frozenset({TEMP}), kinds=STR_KIND, idents=frozenset({Fresh(call)}), within=_IN_TEMPDIR)
            if target is None:
                return EMPTY
            return Value(elements=(target.with_evidence(frozenset({f"downloaded by `{callee.rsplit('.', 1)[-1]}()`"})), EMPTY))
        if callee.rpartition(".")[2] in names.CACHE_FETCH_NAMES:
            elsewhere = arguments.keywords.get(names.CACHE_FETCH_ELSEWHERE)
            if elsewhere is not None:  # ``hf_hub_download(..., local_dir=d)``: below ``d``
                return elsewhere.derived(STR_KIND, Relation.BELOW)
            return EMPTY if arguments.starred else self.fetched(callee)
        configured = self.locations.for_call(callee)
        if configured:
            return Value(locations=configured, kinds=PATH_KIND if callee.endswith("_path") else STR_KIND, idents=frozenset({callee}))
        if callee in names.ENV_CALLS:
            variable = argument(0, "key")
            found = EMPTY
            if variable is not None and variable.literal is not None:
                found = self.environment(variable.literal)
            default = argument(1, "default")
            return found | default if default is not None else found
        if callee in names.PASS_THROUGH_CALLS or _normalizer_lookalike(callee):
            first = argument(0, "path")
            if first is None:
                return EMPTY
            literal = first.literal
            relation = Relation.SAME
            if callee.endswith(".dirname"):
                relation = Relation.PARENT
                if literal is not None:
                    literal = os.path.dirname(literal)
            return first.derived(STR_KIND, relation, literal)
        if callee in names.SPLIT_CALLS:
            first = argument(0, "p")
            if first is None:
                return EMPTY
            # ``head, tail = split(p)``: head is p's directory; ``root, ext = splitext(p)``: root is beside p.
            relation = Relation.PARENT if callee.endswith(".split") else Relation.SIBLING
            return Value(elements=(first.derived(STR_KIND, relation), Value(kinds=STR_KIND)))
        if callee in names.JOIN_CALLS:
            return self.joined(args, STR_KIND)
        if callee in names.PATH_CLASSES or _another_path_class(callee):
            return self.joined(args, PATH_KIND)
        if callee in names.HOME_CALLS:
            return Value(kinds=PATH_KIND, literal="~", idents=frozenset({"~"}))
        return EMPTY

    def fetched(self, callee: str) -> Value:
        """A file ``callee`` fetched into its download cache: staged there, in the cache
        location (when one is configured), below the directory the call names."""
        found = self.locations.configured(CACHE)
        name = callee.rpartition(".")[2]
        return Value(locations=found, kinds=STR_KIND, within=frozenset({callee})).with_evidence(
            frozenset({f"fetched into its cache by `{name}()`"})
        )

    def filesystem_method(self, receiver: Value, method: str, args: List[Value], keywords: Dict[str, Value]) -> Value:
        """``fs.join(parent, name)``, ``fs.parent(path)``: the path methods of a filesystem
        object (fsspec's, dvc's ``LocalFileSystem``), which are ``os.path``'s under its names."""
        if receiver.kinds & (STR_KIND | PATH_KIND) or receiver.literal is not None or keywords:
            return EMPTY  # ``",".join(parts)``, a str's or a path's own methods
        if method == "join" and len(args) >= 2:
            return self.joined(args, STR_KIND)
        if method in ("parent", "dirname") and len(args) == 1:
            return args[0].derived(STR_KIND, Relation.PARENT)
        return EMPTY

    def method_call(self, receiver: Value, method: str, args: List[Value], keywords: Dict[str, Value]) -> Value:
        if method in _PATH_ONLY_METHODS and not receiver.is_path and receiver.idents:
            # Only a path has them (``str`` has none): ``path.with_name(x)`` on a parameter.
            receiver = receiver.derived(PATH_KIND, Relation.SAME)
        if receiver.is_path:
            if method == "joinpath":
                return self.joined([receiver, *args], PATH_KIND)
            relation = _PATH_METHODS.get(method)
            if relation is not None:
                return receiver.derived(PATH_KIND, relation)
            if method in ("as_posix", "__fspath__"):
                return receiver.derived(STR_KIND, Relation.SAME)
        if receiver.is_path and method == "open":
            return receiver.derived(frozenset({FILE}), Relation.SAME)  # ``p.open("w").name`` is ``p``
        if receiver.is_path and method in ("rename", "replace"):
            target = args[0] if args else keywords.get("target", EMPTY)
            return target.derived(PATH_KIND, Relation.SAME)
        if method == "format" and receiver.literal is not None:
            return self.formatted(receiver.literal, "{", args[0] if args else EMPTY)
        if method in ("encode", "decode") and receiver.kinds <= STR_KIND and not receiver.is_object:
            return receiver.derived(STR_KIND, Relation.SAME)  # the same path, as bytes or text
        if method == "replace" and receiver.kinds <= STR_KIND and not receiver.is_object and len(args) == 2 and all(
            a.literal in _SEPARATOR_SPELLINGS for a in args
        ):
            return receiver.derived(STR_KIND, Relation.SAME)  # ``p.replace("\\", "/")``: the same path, other separators
        if _is_separator(receiver):
            if method in ("encode", "decode"):
                return self.literal("/")
            if method == "join" and len(args) == 1 and args[0].elements:
                # ``os.sep.join([dirname(p), name])`` is ``os.path.join``'s work, done by hand.
                return self.joined(list(args[0].elements), STR_KIND)
        return EMPTY


#: Classes named ``Path`` that are no file system path: a member of a zip archive.
_NOT_FILE_PATHS = frozenset({"zipfile.Path", "zipfile._path.Path", "zipp.Path"})


def _another_path_class(qualified: str) -> bool:
    """A class named ``Path`` of another library or of the project (``etils.epath.Path``,
    ``hatch.utils.fs.Path``): a ``pathlib``-like path, joined and derived the same way."""
    return qualified.rpartition(".")[2] == "Path" and qualified not in names.KNOWN_NAMES and qualified not in _NOT_FILE_PATHS


def _normalizer_lookalike(qualified: str) -> bool:
    """A function of another module named as ``os.path``'s normalisers (gradio's
    ``utils.abspath``): it returns the same path, spelled otherwise."""
    return qualified.rpartition(".")[2] in _NORMALIZERS and qualified not in names.KNOWN_NAMES


#: ``os.path`` functions that return their argument's path, normalised.
_NORMALIZERS = frozenset({"abspath", "realpath", "normpath"})


def _tempfile_lookalike(qualified: str) -> Optional[FrozenSet[str]]:
    """The kind a function of another module named as one of ``tempfile``'s makers returns."""
    if qualified in names.KNOWN_NAMES or qualified.startswith("tempfile."):
        return None
    factory = names.TEMP_FACTORIES.get("tempfile." + qualified.rpartition(".")[2])
    return frozenset({factory[1]}) if factory is not None else None


#: The path separator, by name: ``os.sep.join(parts)`` joins a path.
_SEPARATORS = frozenset({"os.sep", "os.path.sep", "posixpath.sep"})


#: How a path's separator is spelled out, for either system.
_SEPARATOR_SPELLINGS = frozenset({"/", "\\"})
#: ... and as a regular expression that matches one (``r"\\"``, ``r"[\\/]"``).
_SEPARATOR_PATTERNS = frozenset({"/", "\\\\", "[\\\\/]", "[/\\\\]"})


def _is_separator(value: Value) -> bool:
    return value.literal == "/" or not _SEPARATORS.isdisjoint(value.callees | value.idents)


#: ``Path`` methods no other common type has: their receiver is a path, whatever else is known.
_PATH_ONLY_METHODS = frozenset({"with_name", "with_suffix", "with_stem", "joinpath", "as_posix"})

#: ``Path`` methods whose result is a path, and where it lies relative to the receiver.
_PATH_METHODS: Dict[str, Relation] = {
    **{m: Relation.SIBLING for m in ("with_name", "with_suffix", "with_stem")},
    **{m: Relation.SAME for m in ("resolve", "absolute", "expanduser")},
    **{m: Relation.BELOW for m in names.PATH_ITERATING_METHODS},
    "readlink": Relation.OTHER,
}


class _Arguments:
    """A call's arguments by position and keyword; a literal ``None`` counts as absent."""

    def __init__(self, args: Sequence[cst.Arg], values: Sequence[Value]) -> None:
        self.positional: List[Value] = []
        self.keywords: Dict[str, Value] = {}
        #: (keyword or None, value) of each argument but ``*``/``**`` ones, in order.
        self.items: List[Tuple[Optional[str], Value]] = []
        self.starred = False
        self._none: Set[Union[int, str]] = set()
        self._nodes: Dict[Union[int, str], cst.BaseExpression] = {}
        for arg, value in zip(args, values):
            if arg.star:
                self.starred = True
                continue
            key: Union[int, str] = arg.keyword.value if arg.keyword is not None else len(self.positional)
            self._nodes[key] = arg.value
            self.items.append((arg.keyword.value if arg.keyword is not None else None, value))
            if isinstance(arg.value, cst.Name) and arg.value.value == "None":
                self._none.add(key)
            if isinstance(key, str):
                self.keywords[key] = value
            else:
                self.positional.append(value)

    def get(self, index: int, keyword: str) -> Optional[Value]:
        if keyword in self.keywords:
            return None if keyword in self._none else self.keywords[keyword]
        if self.starred or index >= len(self.positional) or index in self._none:
            return None  # after *args, positions are not known
        return self.positional[index]

    def node(self, index: int, keyword: str) -> cst.BaseExpression:
        """The expression ``get`` found (call it only when ``get`` found one)."""
        return self._nodes[keyword] if keyword in self.keywords else self._nodes[index]


def _entered(value: Value) -> Value:
    """The ``as`` target of ``with``: a TemporaryDirectory yields its path."""
    if TEMPDIR in value.kinds:
        return value.derived(STR_KIND, Relation.SAME)
    return value


def _element_of(iterable: Value) -> Value:
    """An item of a collection of paths lies where the collection's items all do (a file
    object's items are its lines)."""
    if FILE in iterable.kinds:
        return EMPTY
    return Value(
        locations=iterable.locations, kinds=iterable.kinds - _OBJECT_KINDS, params=iterable.params,
        staged=iterable.staged, within=iterable.within,
    )


def _collection(values: Sequence[Value]) -> Value:
    """A tuple, list or set of ``values``: what holds for each item holds for the collection's."""
    if not values:
        return EMPTY
    within = values[0].within
    for value in values[1:]:
        within = within & value.within
    return Value(
        locations=frozenset().union(*(v.locations for v in values)),
        kinds=frozenset().union(*(v.kinds for v in values)),
        params=frozenset().union(*(v.params for v in values)),
        staged=frozenset().union(*(v.staged for v in values)),
        within=within,
    )


def _concatenated(left: Value, right: Value) -> Value:
    """``a + b``: the first component decides where the result points."""
    literal = left.literal + right.literal if left.literal is not None and right.literal is not None else None
    kinds = left.kinds or right.kinds
    relation = _relation_of_suffix(right.literal) if right.literal is not None else Relation.SIBLING
    return left.derived(kinds, relation, literal).with_evidence(right.evidence)


def _relation_of_suffix(after: str) -> Relation:
    """Where ``p + after`` lies relative to the path ``p``: ``.tmp`` beside it, ``/x`` in it."""
    if not after:
        return Relation.SAME
    if ".." in after:
        return Relation.OTHER
    return Relation.BELOW if after.startswith(("/", "\\")) else Relation.SIBLING


def _assigned_attributes(node: cst.CSTNode) -> Iterable[str]:
    """The names of the attributes ``node``'s statements assign (``x.name = ...``,
    ``x.a, x.b = ...``). Statements only: walking every expression costs too much."""
    statements: List[cst.CSTNode] = [node]
    while statements:
        current = statements.pop()
        if isinstance(current, cst.SimpleStatementLine):
            for small in current.body:
                targets: List[cst.BaseExpression] = []
                if isinstance(small, cst.Assign):
                    targets = [t.target for t in small.targets]
                elif isinstance(small, (cst.AnnAssign, cst.AugAssign)):
                    targets = [small.target]
                while targets:
                    target = targets.pop()
                    if isinstance(target, cst.Attribute):
                        yield target.attr.value
                    elif isinstance(target, (cst.Tuple, cst.List)):
                        targets.extend(e.value for e in target.elements)
                    elif isinstance(target, cst.StarredElement):
                        targets.append(target.value)
            continue
        for part in ("body", "orelse", "handlers", "finalbody", "cases"):
            child = getattr(current, part, None)
            if isinstance(child, cst.CSTNode):
                statements.append(child)
            elif isinstance(child, (list, tuple)):
                statements.extend(c for c in child if isinstance(c, cst.CSTNode))


def _calls_in(node: cst.CSTNode) -> Iterable[cst.Call]:
    """The calls below ``node`` that run with it (not in a nested function or class)."""
    return (n for n in _nodes_in(node) if isinstance(n, cst.Call))


def _forwards_stars(call: cst.Call, function: _FunctionNode) -> bool:
    """Whether ``call`` passes exactly ``function``'s own ``*args`` and ``**kwargs`` on."""
    params = function.params
    stars = {s.name.value for s in (params.star_arg, params.star_kwarg) if isinstance(s, cst.Param)}
    given = [a for a in call.args]
    return bool(stars) and bool(given) and all(
        a.star and isinstance(a.value, cst.Name) and a.value.value in stars for a in given
    ) and len(given) == len(stars)


def _nodes_in(node: cst.CSTNode) -> Iterable[cst.CSTNode]:
    """The nodes below ``node`` that run with it (not in a nested function or class)."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(c for c in children(current) if not isinstance(c, (cst.FunctionDef, cst.Lambda, cst.ClassDef)))


def _first_of(node: cst.BaseExpression, value: Value, interpreter: _Interpreter) -> Value:
    """The first argument of ``template % args``."""
    if isinstance(node, cst.Tuple) and node.elements:
        return interpreter.values.get(node.elements[0].value, EMPTY)
    return value


def _expressions_below(node: cst.CSTNode) -> Iterable[cst.BaseExpression]:
    for child in children(node):
        if isinstance(child, cst.BaseExpression):
            yield child
        else:
            yield from _expressions_below(child)


#: What ``tempfile.gettempdir()`` is named (``library_call``): a temp made without ``dir=`` lies in it.
_IN_TEMPDIR: FrozenSet[Token] = frozenset({"tempfile.gettempdir"})
#: ``functools.partial``: a function with some arguments bound.
_PARTIALS = frozenset({"functools.partial"})
#: Changing the working directory, which relative names are then in; the environment keeps
#: it under a name no variable can have.
_CHDIR = frozenset({"os.chdir"})
_CWD = "<cwd>"
#: ``open`` and its kin: with a writing mode, the function writes the file.
_OPENS = frozenset({"builtins.open", "io.open", "codecs.open"})


def _a_located_path(value: Value) -> bool:
    """A path built below a directory of a known location (``cache_root / host / repo``,
    ``join(user_cache_dir(), name)``): absolute. A bare name, whatever it is called
    (``prefix=cache_key``), lies below nothing but its own parent."""
    return bool(value.locations) and not value.is_object and any(not isinstance(t, Parent) for t in value.within)


def _known_path(value: Value) -> bool:
    """Whether ``value`` is a path the analysis knows something of: a parameter, an
    attribute, a temp, a directory's child..., not a bare literal or an object."""
    if value.is_object:
        return False
    return bool(
        value.is_path or value.params or value.within or value.staged
        or any(isinstance(t, (Fresh, Attr, Param, Parent)) for t in value.idents)
    )


@lru_cache(maxsize=4096)
def _named(name: str) -> FrozenSet[str]:
    """The evidence a name gives: staged when it says so (``tmp_path``), else none."""
    return frozenset({f"{NAMED}{name}`"}) if staging_name(name) else frozenset()


def writes(mode: Optional[str]) -> bool:
    """Whether an ``open`` mode writes: ``w``, ``a``, ``x`` or ``+``."""
    return mode is not None and any(c in mode for c in "wax+")
