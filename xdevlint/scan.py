"""The cheap first look at a file that decides whether libcst needs to see it.

Parsing with libcst and resolving scopes costs two orders of magnitude more than
reading bytes, so each rule states what a file must contain before it can hold a
finding, and the engine asks in order of cost: a byte search, then a stdlib ``ast``
pass. Every test here must be sound: it may keep a file that has no finding, never
drop one that has.
"""

from __future__ import annotations

import ast
import warnings
from typing import Dict, Iterable, Optional, Set

from xdevlint.analysis import names

_MOVE_ATTRIBUTES = frozenset(names.MOVE_METHODS) | {q.rsplit(".", 1)[1] for q in names.MOVE_FUNCTIONS}
_MOVE_MODULES = {q.rsplit(".", 1)[0] for q in names.MOVE_FUNCTIONS}
_PATH_CLASS_NAMES = {q.rsplit(".", 1)[1] for q in names.PATH_CLASSES}


class Scan:
    """One file's text with the facts rules ask about, each computed at most once."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._lowered: Optional[str] = None
        self._tree: Optional[ast.AST] = None
        self._parsed = False
        self._answers: Dict[str, bool] = {}

    @property
    def lowered(self) -> str:
        if self._lowered is None:
            self._lowered = self.text.lower()
        return self._lowered

    def contains_any(self, tokens: Iterable[str]) -> bool:
        lowered = self.lowered
        return any(token in lowered for token in tokens)

    @property
    def tree(self) -> Optional[ast.AST]:
        """The stdlib AST, or None when ``ast`` cannot parse the file (libcst decides then)."""
        if not self._parsed:
            self._parsed = True
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")  # invalid escapes and the like are not ours to report
                    self._tree = ast.parse(self.text)
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                self._tree = None
        return self._tree

    def has_move_call(self) -> bool:
        """Whether any call could be a filesystem move (sound over-approximation)."""
        answer = self._answers.get("move")
        if answer is None:
            answer = self.contains_any(names.MOVE_WORDS) and _has_move_call(self.tree)
            self._answers["move"] = answer
        return answer


def _has_move_call(tree: Optional[ast.AST]) -> bool:
    if tree is None:
        return True  # libcst may still parse it; only the real analysis can say
    modules: Set[str] = set()  # local names of the os module
    classes: Set[str] = set()  # local names of pathlib path classes
    aliases: Set[str] = set()  # names bound to a move function
    nodes = list(ast.walk(tree))
    for node in nodes:
        if isinstance(node, ast.Import):
            for alias in node.names:
                top = alias.name.split(".", 1)[0]
                if top in _MOVE_MODULES or top == "pathlib":
                    modules.add(alias.asname or top)
        elif isinstance(node, ast.ImportFrom) and node.module in _MOVE_MODULES | {"pathlib"}:
            for alias in node.names:
                if alias.name == "*":
                    aliases.update(_MOVE_ATTRIBUTES)
                    classes.update(_PATH_CLASS_NAMES)
                elif alias.name in _MOVE_ATTRIBUTES:
                    aliases.add(alias.asname or alias.name)
                elif alias.name in _PATH_CLASS_NAMES:
                    classes.add(alias.asname or alias.name)
    # ``mv = os.rename``, ``self._swap = os.replace``, ``mv2 = mv``: a name or
    # attribute bound to a move function. Two rounds follow an alias of an alias.
    attribute_aliases: Set[str] = set()
    assignments = [n for n in nodes if isinstance(n, (ast.Assign, ast.AnnAssign, ast.NamedExpr)) and n.value is not None]
    for _ in range(2):
        for node in assignments:
            if _names_move(node.value, aliases):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    if isinstance(target, ast.Name):
                        aliases.add(target.id)
                    elif isinstance(target, ast.Attribute):
                        attribute_aliases.add(target.attr)
    for node in nodes:
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Name):
            if func.id in aliases:
                return True
        elif isinstance(func, ast.Attribute):
            if func.attr in attribute_aliases:
                return True
            if func.attr not in _MOVE_ATTRIBUTES:
                continue
            receiver = func.value
            if isinstance(receiver, ast.Name) and (receiver.id in modules or receiver.id in classes):
                return True
            if isinstance(receiver, ast.Attribute) and receiver.attr in _PATH_CLASS_NAMES:
                return True  # pathlib.Path.rename(p, q)
            # A method on a path takes one argument, the target: ``str.replace`` takes two.
            positional = [a for a in node.args if not isinstance(a, ast.Starred)]
            keywords = {k.arg for k in node.keywords}
            if len(positional) == 1 and not keywords or not positional and keywords == {"target"}:
                return True
            if any(isinstance(a, ast.Starred) for a in node.args) or None in keywords:
                return True
    return False


def _names_move(value: ast.AST, aliases: Set[str]) -> bool:
    if isinstance(value, ast.Attribute):
        return value.attr in _MOVE_ATTRIBUTES
    if isinstance(value, ast.Name):
        return value.id in aliases
    return False
