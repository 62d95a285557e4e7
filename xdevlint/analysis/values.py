"""The abstract value of an expression: where a path may point, and what it is."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import FrozenSet, Optional, Tuple

import libcst as cst

#: Kinds of value the analysis tells apart.
STR = "str"
PATH = "path"  # a pathlib path: ``.rename`` on it moves a file
FILE = "file"  # a NamedTemporaryFile object: ``.name`` is its path
TEMPDIR = "tempdir"  # a TemporaryDirectory object: ``.name`` is its path


@dataclass(frozen=True)
class Value:
    """What is known of one expression; the empty value means "nothing known".

    ``locations`` are the locations the value may point into (a union over paths);
    ``literal`` is its text when statically known (``"~/.cache"``); ``callees`` the
    qualified names of library objects it may be (``os.replace`` for an alias);
    ``defs`` the same-module functions or classes it may be; ``instances`` the
    same-module classes it may be an instance of; ``elements`` the values of a
    tuple whose shape is known (``mkstemp()`` is ``(fd, path)``).
    """

    locations: FrozenSet[str] = frozenset()
    kinds: FrozenSet[str] = frozenset()
    literal: Optional[str] = None
    callees: FrozenSet[str] = frozenset()
    defs: FrozenSet[cst.CSTNode] = frozenset()
    instances: FrozenSet[cst.ClassDef] = frozenset()
    elements: Optional[Tuple["Value", ...]] = None

    def __or__(self, other: "Value") -> "Value":
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
        )

    @property
    def is_path(self) -> bool:
        return PATH in self.kinds

    def located(self, kinds: FrozenSet[str], literal: Optional[str] = None) -> "Value":
        """A new value in the same locations, of another kind (a path derived from this one)."""
        return Value(locations=self.locations, kinds=kinds, literal=literal)

    def with_locations(self, locations: FrozenSet[str]) -> "Value":
        return replace(self, locations=self.locations | locations) if locations else self


def _union_elements(
    a: Optional[Tuple[Value, ...]], b: Optional[Tuple[Value, ...]]
) -> Optional[Tuple[Value, ...]]:
    if a is None or b is None or len(a) != len(b):
        return None
    return tuple(x | y for x, y in zip(a, b))


EMPTY = Value()
STR_KIND: FrozenSet[str] = frozenset({STR})
PATH_KIND: FrozenSet[str] = frozenset({PATH})
