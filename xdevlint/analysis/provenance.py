"""Location provenance: for each expression, the locations its path may point into.

A small abstract interpreter over the module. It walks statements in order, so a
reassignment replaces a value and branches merge; loops run twice to let values flow
round; functions and methods are analysed once each (their parameters unknown), so a
helper's return value and a ``self.attr`` set in another method reach their users.
Imports bind names to qualified names (``import os as _os`` makes ``_os.replace``
``os.replace``) as the interpreter walks past them, flow-sensitively, so a
conditional import merges like any other assignment; a name bound nowhere is a
builtin. libcst's ScopeProvider answers the same question, but costs about three
times a parse per file (12 s of 19 s over the stdlib's 12 candidate files), while
the binding here is free: the interpreter already keeps an environment.
"""

from __future__ import annotations

import os.path
from pathlib import Path
from dataclasses import dataclass, field
from typing import Dict, FrozenSet, Iterable, List, Mapping, Optional, Sequence, Set, Union

import libcst as cst
import builtins

from libcst.helpers import get_absolute_module_for_import, get_full_name_for_node
from libcst.metadata import BaseMetadataProvider

from xdevlint.analysis import names
from xdevlint.analysis.locations import DEFAULT, TEMP, Locations
from xdevlint.analysis.values import EMPTY, FILE, PATH_KIND, STR_KIND, TEMPDIR, Value

_FunctionNode = Union[cst.FunctionDef, cst.Lambda]
_OBJECT_KINDS = frozenset({FILE, TEMPDIR})
_BUILTINS = frozenset(dir(builtins))


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


def join(envs: Sequence[Env]) -> Env:
    """The state after paths meet: a name's value is the union over live paths."""
    live = [e for e in envs if not e.dead] or [envs[0]]
    merged: Dict[str, Value] = dict(live[0].vars)
    for env in live[1:]:
        for name, value in env.vars.items():
            old = merged.get(name)
            merged[name] = value if old is None else old | value
    result = Env(live[0].parent, merged)
    result.dead = all(e.dead for e in live)
    return result


@dataclass
class _Function:
    node: _FunctionNode
    env: Env
    cls: Optional[cst.ClassDef]
    defaults: Dict[str, Value]
    state: int = 0  # 0 new, 1 running, 2 done
    returns: Value = EMPTY
    generator: bool = False


@dataclass
class _Class:
    node: cst.ClassDef
    body: Dict[str, Value] = field(default_factory=dict)
    attributes: Dict[str, Value] = field(default_factory=dict)
    methods: List[_Function] = field(default_factory=list)


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
        locations = self.cache if isinstance(self.cache, Locations) else DEFAULT
        interpreter = _Interpreter(locations)
        interpreter.run(module)
        for node, value in interpreter.values.items():
            self.set_metadata(node, value)


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
        if isinstance(node, cst.Lambda):
            fn.returns = self.ev(node.body, env)
        else:
            self.suite(node.body, env)
        self.loops = saved_loops
        self.function_stack.pop()
        if fn.generator:
            fn.returns = EMPTY
        fn.state = 2

    def parameter(self, fn: _Function, param: cst.Param, first: Optional[str]) -> Value:
        name = param.name.value
        value = fn.defaults.get(name, EMPTY)
        if fn.cls is not None and name == first and isinstance(fn.node, cst.FunctionDef):
            decorators = {d.decorator.value for d in fn.node.decorators if isinstance(d.decorator, cst.Name)}
            if "staticmethod" not in decorators:
                value = value | (Value(defs=frozenset({fn.cls})) if "classmethod" in decorators else Value(instances=frozenset({fn.cls})))
        if param.annotation is not None and self.annotation_is_path(param.annotation.annotation, fn.env):
            value = value | Value(kinds=PATH_KIND)
        if not value.locations:
            value = value.with_locations(self.locations.for_identifier(name))
        self.record(param.name, value)
        return value

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

    def return_value(self, node: cst.CSTNode) -> Value:
        fn = self.functions.get(node)
        if fn is None:
            return EMPTY
        self.analyse(fn)
        return fn.returns

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
                if self.annotation_is_path(node.annotation.annotation, env):
                    value = value | Value(kinds=PATH_KIND)
                self.bind(node.target, value, env, node.value)
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
            env.become(join(branches))
        else:
            # Import, Global, Del, Assert, Pass, ...: only their expressions matter.
            self.expressions(node, env)

    def import_from(self, node: cst.ImportFrom, env: Env) -> None:
        module = get_absolute_module_for_import(None, node) or ""
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
            self.bind(target, self.imported(f"{module}.{name}"), env, None)

    def imported(self, qualified: str) -> Value:
        if qualified in names.TEMP_DIR_ATTRIBUTES:
            return Value(locations=frozenset({TEMP}), kinds=STR_KIND)
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
        env.become(join([then, other]))

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
            entry = join([entry, body, *loop.continues])
        self.loops.pop()
        if node.orelse is not None:
            self.suite(node.orelse.body, entry)
        env.become(join([entry, *loop.breaks]))

    def try_statement(self, node: Union[cst.Try, cst.TryStar], env: Env) -> None:
        before = env.fork()
        body = env.fork()
        self.suite(node.body, body)
        # An exception may leave the body anywhere: handlers see both ends.
        raised = join([before, body])
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
        if node.orelse is not None:
            self.suite(node.orelse.body, body)
        result = join([body, *ends])
        if node.finalbody is not None:
            self.suite(node.finalbody.body, result)
        env.become(result)

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
                defaults[param.name.value] = self.ev(param.default, env)
        owner = self.class_stack[-1]
        fn = _Function(node, env, owner.node if owner is not None else None, defaults)
        self.functions[node] = fn
        self.pending.append(fn)
        return fn

    def define_class(self, node: cst.ClassDef, env: Env) -> None:
        for decorator in node.decorators:
            self.ev(decorator.decorator, env)
        self.expressions_of(node.bases, env)
        self.expressions_of(node.keywords, env)
        info = _Class(node)
        self.classes[node] = info
        body = Env(env)
        self.class_stack.append(info)
        self.suite(node.body, body)
        self.class_stack.pop()
        info.body = body.vars
        self.bind(node.name, Value(defs=frozenset({node})), env, None)

    # -- binding ----------------------------------------------------------------------

    def bind(self, target: cst.BaseExpression, value: Value, env: Env, source: Optional[cst.BaseExpression]) -> None:
        if isinstance(target, cst.Name):
            env.vars[target.value] = value
            self.record(target, value)
        elif isinstance(target, (cst.Tuple, cst.List)):
            elements = [e.value for e in target.elements]
            starred = any(isinstance(e, cst.StarredElement) for e in target.elements)
            known = value.elements if value.elements is not None and len(value.elements) == len(elements) and not starred else None
            spread = Value(locations=value.locations, kinds=value.kinds - _OBJECT_KINDS)
            for index, element in enumerate(elements):
                self.bind(element, known[index] if known is not None else spread, env, None)
        elif isinstance(target, cst.Attribute):
            receiver = self.ev(target.value, env)
            attr = target.attr.value
            for cls in receiver.instances:
                info = self.classes.get(cls)
                if info is not None:
                    info.attributes[attr] = info.attributes.get(attr, EMPTY) | value
        elif isinstance(target, cst.StarredElement):
            self.bind(target.value, Value(locations=value.locations, kinds=value.kinds), env, None)
        else:
            self.ev(target, env)

    def record(self, node: cst.CSTNode, value: Value) -> Value:
        old = self.values.get(node)
        self.values[node] = value if old is None else old | value
        return value

    # -- expressions -----------------------------------------------------------------

    def expressions(self, node: cst.CSTNode, env: Env) -> None:
        """Evaluate every expression below ``node`` so calls inside it get values."""
        for child in node.children:
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
        return self.record(node, value)

    def ev_other(self, node: cst.BaseExpression, env: Env) -> Value:
        self.expressions(node, env)
        return EMPTY

    def ev_Name(self, node: cst.Name, env: Env) -> Value:
        value = env.lookup(node.value)
        if value is None:
            value = Value(callees=frozenset({f"builtins.{node.value}"})) if node.value in _BUILTINS else EMPTY
        if not value.locations and not value.callees and not value.defs:
            value = value.with_locations(self.locations.for_identifier(node.value))
        return value

    def ev_Attribute(self, node: cst.Attribute, env: Env) -> Value:
        receiver = self.ev(node.value, env)
        attr = node.attr.value
        value = EMPTY
        if receiver.callees:
            callees = frozenset(f"{c}.{attr}" for c in receiver.callees)
            value = Value(callees=callees)
            if callees & names.TEMP_DIR_ATTRIBUTES:
                value = Value(locations=frozenset({TEMP}), kinds=STR_KIND)
        for cls in receiver.instances | {d for d in receiver.defs if isinstance(d, cst.ClassDef)}:
            value = value | self.class_attribute(cls, attr)
        if receiver.locations:
            if attr in names.PATH_DERIVING_ATTRIBUTES and receiver.is_path:
                value = value | receiver.located(PATH_KIND)
            elif attr == "name" and receiver.kinds & _OBJECT_KINDS:
                value = value | receiver.located(STR_KIND)
        if not value.locations and not value.callees and not value.defs:
            value = value.with_locations(self.locations.for_identifier(attr))
        return value

    def class_attribute(self, cls: cst.ClassDef, attr: str) -> Value:
        info = self.classes.get(cls)
        if info is None:
            return EMPTY
        if not self.resolving:
            # Attributes may be set in any method: analyse them all first, once; an
            # attribute read while doing so takes what is known, keeping recursion flat.
            self.resolving = True
            try:
                for method in info.methods:
                    self.analyse(method)
            finally:
                self.resolving = False
        return info.body.get(attr, EMPTY) | info.attributes.get(attr, EMPTY)

    def ev_SimpleString(self, node: cst.SimpleString, env: Env) -> Value:
        try:
            text = node.evaluated_value
        except (ValueError, SyntaxError):  # e.g. an unknown \N{...} name: no literal to know
            return Value(kinds=STR_KIND)
        return self.literal(text)

    def literal(self, text: Union[str, bytes, None]) -> Value:
        if isinstance(text, bytes):
            text = text.decode("latin-1")
        if text is None:
            return Value(kinds=STR_KIND)
        return Value(locations=self.locations.for_literal(text), kinds=STR_KIND, literal=text)

    def ev_ConcatenatedString(self, node: cst.ConcatenatedString, env: Env) -> Value:
        return _concatenated(self.ev(node.left, env), self.ev(node.right, env))

    def ev_FormattedString(self, node: cst.FormattedString, env: Env) -> Value:
        first: Optional[Value] = None
        for part in node.parts:
            if isinstance(part, cst.FormattedStringExpression):
                value = self.ev(part.expression, env)
                self.expressions_of([p for p in (part.format_spec or ())], env)
            elif isinstance(part, cst.FormattedStringText):
                value = self.literal(part.value)
            else:
                continue
            first = value if first is None else first
        if first is None:
            return Value(kinds=STR_KIND, literal="")
        return first.located(STR_KIND)

    def ev_BinaryOperation(self, node: cst.BinaryOperation, env: Env) -> Value:
        left = self.ev(node.left, env)
        right = self.ev(node.right, env)
        if isinstance(node.operator, cst.Divide) and (left.is_path or right.is_path):
            return self.joined([left, right], PATH_KIND)
        if isinstance(node.operator, cst.Add):
            return _concatenated(left, right)
        if isinstance(node.operator, cst.Modulo) and left.literal is not None:
            return self.formatted(left.literal, "%", _first_of(node.right, right, self))
        return EMPTY

    def formatted(self, template: str, marker: str, first_argument: Value) -> Value:
        """``template % args`` / ``template.format(args)``: the first component decides."""
        prefix, placeholder, _ = template.partition(marker)
        if not placeholder:
            return self.literal(template)
        if prefix:
            return self.literal(prefix).located(STR_KIND)
        return first_argument.located(STR_KIND)

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
        locations = parts[0].locations
        if literal is not None:
            locations = locations | self.locations.for_literal(literal)
        return Value(locations=locations, kinds=kinds, literal=literal)

    def ev_IfExp(self, node: cst.IfExp, env: Env) -> Value:
        self.ev(node.test, env)
        return self.ev(node.body, env) | self.ev(node.orelse, env)

    def ev_BooleanOperation(self, node: cst.BooleanOperation, env: Env) -> Value:
        return self.ev(node.left, env) | self.ev(node.right, env)

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
            return Value(locations=self.locations.for_env(index.literal), kinds=STR_KIND)
        if container.elements is not None and len(node.slice) == 1:
            slice_ = node.slice[0].slice
            if isinstance(slice_, cst.Index) and isinstance(slice_.value, cst.Integer):
                position = int(slice_.value.value, 0)
                if -len(container.elements) <= position < len(container.elements):
                    return container.elements[position]
        return Value(locations=container.locations, kinds=container.kinds - _OBJECT_KINDS)

    def ev_Tuple(self, node: Union[cst.Tuple, cst.List], env: Env) -> Value:
        values = tuple(self.ev(e.value, env) for e in node.elements)
        union = EMPTY
        for value in values:
            union = union | Value(locations=value.locations, kinds=value.kinds)
        return Value(locations=union.locations, kinds=union.kinds, elements=values)

    ev_List = ev_Tuple

    def ev_Set(self, node: cst.Set, env: Env) -> Value:
        union = EMPTY
        for element in node.elements:
            union = union | self.ev(element.value, env)
        return Value(locations=union.locations, kinds=union.kinds)

    def ev_Lambda(self, node: cst.Lambda, env: Env) -> Value:
        self.register_function(node, env)
        return Value(defs=frozenset({node}))

    def ev_ListComp(self, node: Union[cst.ListComp, cst.SetComp, cst.GeneratorExp], env: Env) -> Value:
        inner = self.comprehension(node.for_in, env)
        element = self.ev(node.elt, inner)
        return Value(locations=element.locations, kinds=element.kinds)

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
        arguments = _Arguments(node.args, [self.ev(arg.value, env) for arg in node.args])
        positional, keywords = arguments.positional, arguments.keywords
        result = EMPTY
        for callee in function.callees:
            result = result | self.library_call(callee, arguments)
        for definition in function.defs:
            if isinstance(definition, cst.ClassDef):
                result = result | Value(instances=frozenset({definition}))
            else:
                result = result | self.return_value(definition)
        if isinstance(node.func, cst.Attribute):
            receiver = self.values.get(node.func.value, EMPTY)
            result = result | self.method_call(receiver, node.func.attr.value, positional, keywords)
        return result

    def library_call(self, callee: str, arguments: "_Arguments") -> Value:
        argument, args = arguments.get, arguments.positional
        factory = names.TEMP_FACTORIES.get(callee)
        if factory is not None:
            dir_index, kind = factory
            directory = argument(dir_index, "dir")
            if directory is None and not arguments.starred:
                located = frozenset({TEMP})
            else:  # dir= given (or maybe, through *args/**kwargs): its location, if known
                located = directory.locations if directory is not None else frozenset()
            path = Value(locations=located, kinds=STR_KIND)
            if callee == "tempfile.mkstemp":
                return Value(locations=located, kinds=STR_KIND, elements=(EMPTY, path))
            return Value(locations=located, kinds=frozenset({kind}))
        if callee in names.TEMP_DIR_CALLS:
            return Value(locations=frozenset({TEMP}), kinds=STR_KIND)
        configured = self.locations.for_call(callee)
        if configured:
            return Value(locations=configured, kinds=PATH_KIND if callee.endswith("_path") else STR_KIND)
        if callee in names.ENV_CALLS:
            variable = argument(0, "key")
            found = EMPTY
            if variable is not None and variable.literal is not None:
                found = Value(locations=self.locations.for_env(variable.literal), kinds=STR_KIND)
            default = argument(1, "default")
            return found | default if default is not None else found
        if callee in names.PASS_THROUGH_CALLS:
            first = argument(0, "path")
            if first is None:
                return EMPTY
            literal = first.literal
            if literal is not None and callee.endswith(".dirname"):
                literal = os.path.dirname(literal)
            return first.located(STR_KIND, literal)
        if callee in names.JOIN_CALLS:
            return self.joined(args, STR_KIND)
        if callee in names.PATH_CLASSES:
            return self.joined(args, PATH_KIND)
        if callee in names.HOME_CALLS:
            return Value(kinds=PATH_KIND, literal="~")
        return EMPTY

    def method_call(self, receiver: Value, method: str, args: List[Value], keywords: Dict[str, Value]) -> Value:
        if receiver.is_path and receiver.locations:
            if method == "joinpath":
                return self.joined([receiver, *args], PATH_KIND)
            if method in names.PATH_DERIVING_METHODS or method in names.PATH_ITERATING_METHODS:
                return receiver.located(PATH_KIND)
            if method in ("as_posix", "__fspath__"):
                return receiver.located(STR_KIND)
        if receiver.is_path and method in ("rename", "replace"):
            target = args[0] if args else keywords.get("target", EMPTY)
            return target.located(PATH_KIND)
        if method == "format" and receiver.literal is not None:
            return self.formatted(receiver.literal, "{", args[0] if args else EMPTY)
        return EMPTY



class _Arguments:
    """A call's arguments by position and keyword; a literal ``None`` counts as absent."""

    def __init__(self, args: Sequence[cst.Arg], values: Sequence[Value]) -> None:
        self.positional: List[Value] = []
        self.keywords: Dict[str, Value] = {}
        self.starred = False
        self._none: Set[Union[int, str]] = set()
        for arg, value in zip(args, values):
            if arg.star:
                self.starred = True
                continue
            key: Union[int, str] = arg.keyword.value if arg.keyword is not None else len(self.positional)
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


def _entered(value: Value) -> Value:
    """The ``as`` target of ``with``: a TemporaryDirectory yields its path."""
    if TEMPDIR in value.kinds:
        return value.located(STR_KIND)
    return value


def _element_of(iterable: Value) -> Value:
    """An item of a collection of paths lies where the collection does."""
    return Value(locations=iterable.locations, kinds=iterable.kinds - _OBJECT_KINDS)


def _concatenated(left: Value, right: Value) -> Value:
    """``a + b``: the first component decides where the result points."""
    literal = left.literal + right.literal if left.literal is not None and right.literal is not None else None
    kinds = left.kinds or right.kinds
    return Value(locations=left.locations, kinds=kinds, literal=literal)


def _first_of(node: cst.BaseExpression, value: Value, interpreter: _Interpreter) -> Value:
    """The first argument of ``template % args``."""
    if isinstance(node, cst.Tuple) and node.elements:
        return interpreter.values.get(node.elements[0].value, EMPTY)
    return value


def _expressions_below(node: cst.CSTNode) -> Iterable[cst.BaseExpression]:
    for child in node.children:
        if isinstance(child, cst.BaseExpression):
            yield child
        else:
            yield from _expressions_below(child)
