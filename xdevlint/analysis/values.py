"""The abstract value of an expression: where a path may point, and what it is.

Besides the locations a path may point into (a class of directories, which may be a
mount), a value says which *directory* it provably lies in, symbolically: ``idents``
are names of the path itself (``dst``, the ``os.path.join`` call that made it,
``self.root``), ``within`` names of directories it lies at or below. Together they
show that ``mkstemp(dir=os.path.dirname(dst))`` is beside ``dst`` whatever ``dst`` is.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, FrozenSet, Hashable, Optional, Tuple

import libcst as cst

if TYPE_CHECKING:
    from xdevlint.analysis.moves import MoveEffect

#: Kinds of value the analysis tells apart.
STR = "str"
PATH = "path"  # a pathlib path: ``.rename`` on it moves a file
FILE = "file"  # a NamedTemporaryFile object: ``.name`` is its path
TEMPDIR = "tempdir"  # a TemporaryDirectory object: ``.name`` is its path

#: A symbolic name of a path: one of the dataclasses below, an expression node (the
#: value it produced), a class (its instances), or a string (a library name, an
#: environment variable).
Token = Hashable


@dataclass(frozen=True)
class Param:
    """A parameter of a same-module function: whatever its caller passes.

    ``guess`` is the location its default or its name gives it, which holds only when
    the caller says nothing better."""

    function: cst.CSTNode
    name: str
    guess: FrozenSet[str] = frozenset()


@dataclass(frozen=True)
class Parent:
    """The directory that holds the path ``of`` names."""

    of: Token


@dataclass(frozen=True)
class Attr:
    """Attribute ``name`` of what ``of`` names (``self.root``: ``of`` is the class)."""

    of: Token
    name: str


@dataclass(frozen=True)
class Literal:
    """A path spelled out in the source, normalised (``"model.bin"``, ``"/srv/cache"``)."""

    path: str

    def holds(self, other: "Literal") -> bool:
        """Whether ``other`` lies below this directory, by their text."""
        if other.path == self.path or other.path.startswith("..") or other.path == "." or self.path == "/":
            return False  # everything is below "/", whatever its mount
        if self.path == ".":
            return not other.path.startswith("/")
        return other.path.startswith(self.path.rstrip("/") + "/")


def parent_of(token: Token) -> Token:
    """The directory holding the path ``token`` names: a literal's is worked out."""
    if isinstance(token, Literal):
        return Literal(posixpath.dirname(token.path) or ".") if token.path not in (".", "/") and ".." not in token.path else Parent(token)
    return Parent(token)


@dataclass(frozen=True)
class Fresh:
    """The path a ``tempfile`` call made (``mkdtemp()``, ``mkstemp()[1]``, ``f.name``)."""

    call: cst.Call


@dataclass(frozen=True)
class Partial:
    """The function ``functools.partial(f, ...)`` made at ``call``: ``f`` with those
    arguments first (the interpreter keeps them)."""

    call: cst.Call


@dataclass(frozen=True)
class Merge:
    """A variable's value where paths that disagree about it meet (``at``: the statement)."""

    at: Token
    name: str


class Relation(Enum):
    """How a derived path lies relative to the path it is made from."""

    SAME = "same"  # ``abspath(p)``, ``Path(p)``, ``str(p)``: the same file
    PARENT = "parent"  # ``dirname(p)``, ``p.parent``
    SIBLING = "sibling"  # ``p + ".tmp"``, ``p.with_suffix(".part")``: in p's directory
    BELOW = "below"  # ``join(p, name)``, ``p / name``: inside p
    OTHER = "other"  # unrelated, but in the same locations (``paths[0]``)


@dataclass(frozen=True)
class Value:
    """What is known of one expression; the empty value means "nothing known".

    ``locations`` are the locations the value may point into (a union over paths);
    ``literal`` is its text when statically known (``"~/.cache"``); ``callees`` the
    qualified names of library objects it may be (``os.replace`` for an alias);
    ``defs`` the same-module functions or classes it may be; ``instances`` the
    same-module classes it may be an instance of; ``elements`` the values of a
    tuple whose shape is known (``mkstemp()`` is ``(fd, path)``).

    ``params`` are the parameters of the function being analysed whose caller-side
    location flows into this one (their guesses are in ``locations``); ``staged`` the
    ``dir=`` arguments of the ``tempfile`` calls that may have made it. Those two are
    unions over paths, like ``locations``. ``idents`` and ``within`` hold on every
    path: the path is each of ``idents``, and lies at or below each of ``within``.
    ``alternatives``: where paths that disagree met (a branch, ``a or b``), the
    (``idents``, ``within``) of each, so that a proof can hold on every one of them
    (``samefs``); empty when the value has one shape, its own ``idents`` and ``within``.
    ``evidence``: why the path counts as *staged* (made to be moved: by ``tempfile``, named
    for a temp or staging place, written by the function...), each reason as a short
    phrase for messages; a union over paths, like ``locations``.
    ``moves``: on a call, the moves it makes, its own or in a same-module callee.
    ``remade_from``: the names and directories of known paths that calls the analysis
    cannot see into were given to make this one (``prepend_extension(dst, "temp")``,
    ``pkl_filepath(tmp_dir, "x")``): it is a variant of them, wherever they lie; a union
    over paths.
    """

    locations: FrozenSet[str] = frozenset()
    kinds: FrozenSet[str] = frozenset()
    literal: Optional[str] = None
    callees: FrozenSet[str] = frozenset()
    defs: FrozenSet[cst.CSTNode] = frozenset()
    instances: FrozenSet[cst.ClassDef] = frozenset()
    elements: Optional[Tuple["Value", ...]] = None
    params: FrozenSet[Param] = frozenset()
    staged: FrozenSet[cst.CSTNode] = frozenset()
    idents: FrozenSet[Token] = frozenset()
    within: FrozenSet[Token] = frozenset()
    alternatives: Tuple["Shape", ...] = ()
    evidence: FrozenSet[str] = frozenset()
    moves: Tuple["MoveEffect", ...] = ()
    remade_from: FrozenSet[Token] = frozenset()

    def __or__(self, other: "Value") -> "Value":
        # ``None`` is never a path: where it meets one (``tmp = None`` before a ``try``
        # that makes the temp), the path is what a move or a removal can be given; where
        # it meets what is not known (``self.f = None`` or a parameter), nothing is known.
        if other is NONE:
            return EMPTY if self == EMPTY else self
        if self is NONE:
            return EMPTY if other == EMPTY else other
        if other is EMPTY or other == self:
            return self
        if self is EMPTY:
            return other
        return Value(
            locations=self.locations | other.locations,
            kinds=self.kinds | other.kinds,
            literal=self.literal if self.literal == other.literal else None,
            callees=self.callees | other.callees,
            defs=self.defs | other.defs,
            instances=self.instances | other.instances,
            elements=_union_elements(self.elements, other.elements),
            params=self.params | other.params,
            staged=self.staged | other.staged,
            idents=self.idents & other.idents,
            within=self.within & other.within,
            alternatives=_alternatives(self, other),
            evidence=self.evidence | other.evidence,
            moves=self.moves + tuple(m for m in other.moves if m not in self.moves),
            remade_from=self.remade_from | other.remade_from,
        )

    @property
    def is_path(self) -> bool:
        return PATH in self.kinds

    @property
    def is_object(self) -> bool:
        """A library object, a function or class of the module, or an instance of one."""
        return bool(self.callees or self.defs or self.instances)

    def derived(self, kinds: FrozenSet[str], relation: Relation, literal: Optional[str] = None) -> "Value":
        """A path made from this one: in the same locations, and where ``relation`` puts it."""
        idents, within = _related((self.idents, self.within), relation)
        # A temp's directory is no temp: what made the path staged says nothing of its parent.
        parent = relation is Relation.PARENT
        return Value(
            locations=self.locations, kinds=kinds, literal=literal, params=self.params,
            staged=frozenset() if parent else self.staged, idents=idents, within=within,
            alternatives=tuple(_related(shape, relation) for shape in self.alternatives),
            evidence=frozenset() if parent else self.evidence, remade_from=self.remade_from,
        )

    @property
    def shapes(self) -> Tuple["Shape", ...]:
        """The (``idents``, ``within``) of every path the value may be."""
        return self.alternatives or ((self.idents, self.within),)

    def with_locations(self, locations: FrozenSet[str]) -> "Value":
        return self.evolve(locations=self.locations | locations) if locations else self

    def with_evidence(self, evidence: FrozenSet[str]) -> "Value":
        return self.evolve(evidence=self.evidence | evidence) if evidence and not evidence <= self.evidence else self

    def with_idents(self, idents: FrozenSet[Token]) -> "Value":
        """The value, named also by ``idents`` (on every path it may be)."""
        if not idents:
            return self
        alternatives = tuple((shape_idents | idents, within) for shape_idents, within in self.alternatives)
        return self.evolve(idents=self.idents | idents, alternatives=alternatives)

    def evolve(self, **changes: object) -> "Value":
        """``dataclasses.replace``, without its cost: the interpreter makes one per expression."""
        new = object.__new__(Value)
        new.__dict__.update(self.__dict__)
        new.__dict__.update(changes)
        return new


#: What a proof reads of one path: the names it is (``idents``) and the directories it lies
#: at or below (``within``).
Shape = Tuple[FrozenSet[Token], FrozenSet[Token]]
#: How many alternatives a value keeps: past that, only what all of them share.
_MAX_ALTERNATIVES = 4


def _related(shape: Shape, relation: Relation) -> Shape:
    """Where a path made from one of ``shape`` lies, by ``relation``."""
    idents, within = shape
    if relation is Relation.SAME:
        return idents, within
    if relation is Relation.PARENT:
        return frozenset(parent_of(t) for t in idents), within
    if relation is Relation.SIBLING:
        return frozenset(), within | {parent_of(t) for t in idents}
    if relation is Relation.BELOW:
        return frozenset(), within | idents
    return frozenset(), within


def _alternatives(a: "Value", b: "Value") -> Tuple[Shape, ...]:
    """The shapes of ``a | b``: each side's, when they differ (at most a few)."""
    if a.idents == b.idents and a.within == b.within and not a.alternatives and not b.alternatives:
        return ()
    shapes = tuple(dict.fromkeys((*a.shapes, *b.shapes)))
    if len(shapes) > _MAX_ALTERNATIVES:
        # Too many: each side's own common shape (what holds on all of its paths) still
        # tells more than what the two sides share.
        shapes = tuple(dict.fromkeys(((a.idents, a.within), (b.idents, b.within))))
    return shapes if len(shapes) > 1 else ()


def _union_elements(
    a: Optional[Tuple[Value, ...]], b: Optional[Tuple[Value, ...]]
) -> Optional[Tuple[Value, ...]]:
    if a is None or b is None or len(a) != len(b):
        return None
    return tuple(x | y for x, y in zip(a, b))


EMPTY = Value()
#: The value of ``None``: the object it is, never a path.
NONE = Value(callees=frozenset({"builtins.None"}), idents=frozenset({"builtins.None"}))
STR_KIND: FrozenSet[str] = frozenset({STR})
PATH_KIND: FrozenSet[str] = frozenset({PATH})
