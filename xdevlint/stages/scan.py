"""The cheap first look at a file that decides whether libcst needs to see it.

Parsing with libcst and resolving scopes costs two orders of magnitude more than
reading bytes, so each rule states what a file must contain before it can hold a
finding, and the engine asks in order of cost: a byte search, then a stdlib ``ast``
pass. Every test here must be sound: it may keep a file that has no finding, never
drop one that has.
"""

from __future__ import annotations

import ast
import re
import sys
import warnings
from typing import Callable, Dict, FrozenSet, Iterable, Iterator, List, Match, Optional, Pattern, Sequence, Set, Tuple, cast

from xdevlint.analysis import names
from xdevlint.analysis.locations import CACHE, TEMP, Locations, staging_literal, staging_name
from xdevlint.stages.scan_lifetime import DOWNLOAD_NAMES, FACTORY_NAMES, UNIQUE_NAMES, ModuleIndex, cleared, temp_may_leak, temp_may_stay
from xdevlint.stages.source import lines_of

_MOVE_ATTRIBUTES = frozenset(names.MOVE_METHODS) | {q.rsplit(".", 1)[1] for q in names.MOVE_FUNCTIONS}
_MOVE_MODULES = {q.rsplit(".", 1)[0] for q in names.MOVE_FUNCTIONS}
_PATH_CLASS_NAMES = {q.rsplit(".", 1)[1] for q in names.PATH_CLASSES}


class Scan:
    """One file's text with the facts rules ask about, each computed at most once."""

    def __init__(self, text: str, tree: Optional[ast.AST] = None) -> None:
        """``tree``: the stdlib AST of ``text`` when the caller has it (flake8 does)."""
        self.text = text
        self._lowered: Optional[str] = None
        self._tree: Optional[ast.AST] = tree
        self._parsed = tree is not None
        self._index: Optional[ModuleIndex] = None
        self._answers: Dict[str, bool] = {}
        self._contains: Dict[Tuple[str, ...], bool] = {}
        self._moves: Optional[List[ast.Call]] = None  # ``move_calls``
        self._sources: Optional[Tuple[Optional[Set[str]]]] = None  # ``location_sources``: one configuration
        self._cleared: Dict[str, FrozenSet[Tuple[int, int]]] = {}

    @property
    def lowered(self) -> str:
        if self._lowered is None:
            self._lowered = self.text.lower()
        return self._lowered

    def contains_any(self, tokens: Tuple[str, ...]) -> bool:
        """Whether the lowered text holds one of ``tokens``: remembered, since each gate
        asks (XDV101 and XDV102 share one)."""
        answer = self._contains.get(tokens)
        if answer is None:
            lowered = self.lowered
            answer = self._contains[tokens] = any(token in lowered for token in tokens)
        return answer

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

    @property
    def index(self) -> Optional[ModuleIndex]:
        """The AST's nodes and their parents, from one walk that every AST tier shares."""
        if self._index is None and self.tree is not None:
            self._index = ModuleIndex(self.tree)
        return self._index

    def has_move_call(self) -> bool:
        """Whether any call could be a filesystem move (sound over-approximation).

        Text first (where every ``.replace(`` of ``str`` is told apart by its two
        arguments), the stdlib AST only for files that text cannot rule out.
        """
        answer = self._answers.get("move")
        if answer is None:
            answer = _text_may_move(self.text) and _has_move_call(self.index)
            self._answers["move"] = answer
        return answer

    def has_guarded_move_call(self) -> bool:
        """Whether a ``try`` with handlers, a ``with contextlib.suppress(...)`` or a ``with``
        of a same-module ``@contextmanager`` may hold a rename/move/copy/link call in its
        body (sound over-approximation of what XDV202 looks at).

        A ``with`` counts only in a file that says ``suppress`` or ``contextmanager``:
        ``contextlib.suppress`` is spelled so however it is imported or aliased, and the
        context manager must be decorated in the same file.
        """
        answer = self._answers.get("guarded-move")
        if answer is None:
            answer = self.may_guard() and _text_may_guard_move(self.text) and _has_guarded_move_call(self.index, self._withs())
            self._answers["guarded-move"] = answer
        return answer

    def may_guard(self) -> bool:
        """Whether the text may hold a ``try`` with a handler, or a ``with`` that may
        swallow an error (``suppress``, a ``contextmanager``): where a move's error may be lost."""
        answer = self._answers.get("may-guard")
        if answer is None:
            answer = self._answers["may-guard"] = "except" in self.text and _TRY.search(self.text) is not None or self._withs()
        return answer

    def _withs(self) -> bool:
        return "suppress" in self.text or "contextmanager" in self.text

    def may_leak_temp(self) -> bool:
        """Whether a temp the file holds may leak on an error path (sound
        over-approximation of the lifetime analysis: see ``scan_lifetime``)."""
        answer = self._answers.get("leak")
        if answer is None:
            answer = _text_may_hold_temp(self.text) and temp_may_leak(self.tree, self.index)
            self._answers["leak"] = answer
        return answer

    def may_keep_temp(self) -> bool:
        """Whether a temp the file holds may never be removed (sound over-approximation
        of the lifetime analysis: see ``scan_lifetime``)."""
        answer = self._answers.get("keep")
        if answer is None:
            answer = _text_may_hold_temp(self.text) and temp_may_stay(self.tree, self.index)
            self._answers["keep"] = answer
        return answer

    def cleared_temps(self, stay: bool) -> FrozenSet[Tuple[int, int]]:
        """Where the creations are (1-based line and column, as findings give them) that
        the temp scan judges safe: from error paths (``stay`` False: XDV201) or for good
        (``stay`` True: XDV203). See ``scan_lifetime.cleared``."""
        key = "stay" if stay else "leak"
        found = self._cleared.get(key)
        if found is None:
            index = self.index
            sites = cleared(index, stay) if index is not None else frozenset()
            lines = lines_of(self.text) if sites else []
            # The AST's columns count UTF-8 bytes; a finding's count characters.
            found = self._cleared[key] = frozenset(
                (line, len(lines[line - 1].encode("utf-8")[:column].decode("utf-8", "replace")) + 1) for line, column in sites
            )
        return found

    def move_nodes(self) -> Set[int]:
        """The ids of every node that may move, copy or link, or name a function that
        does, wherever it stands: what the focus keeps (``stages.focus``)."""
        index = self.index
        if index is None:
            return set()
        return {id(node) for node in (*self.move_calls(), *_move_like(index, index.nodes))}

    def move_words(self) -> FrozenSet[str]:
        """Every identifier that makes a node of ``move_nodes`` wherever it stands,
        besides the move words themselves: the names and attributes the file binds to a
        move or move-like function. Code elsewhere that uses none of them and spells no
        move word holds no move node (``stages.focus.prefocus``)."""
        index = self.index
        if index is None:
            return frozenset()
        _, _, aliases, attributes = _move_aliases(index.nodes)
        _, like, like_attributes = _move_like_aliases(index.nodes)
        return frozenset(aliases | attributes | like | like_attributes)

    def may_stage_by_text(self, locations: Locations) -> bool:
        """The text tier of ``may_stage``: a location's word, a staging word, or a write."""
        answer = self._answers.get("stage-text")
        if answer is None:
            answer = self._answers["stage-text"] = self._staging_words(locations) or _WRITE_CALL.search(self.text) is not None
        return answer

    def _staging_words(self, locations: Locations) -> bool:
        return self.contains_any(locations.scan_tokens()) or any(
            token in _NOT_STAGING.sub("", self.lowered) for token in STAGING_TOKENS
        )

    def may_stage(self, locations: Locations) -> bool:
        """Whether a path in the file may be staged (sound over-approximation of
        ``Value.evidence`` and the locations): a location's word, a staging word in a name
        or a suffix (``tmp``, ``staging``, ``.part``), ``urlretrieve``, or a file opened
        for writing, with the mode spelled out, in a function that moves."""
        answer = self._answers.get("stage")
        if answer is None:
            answer = self.may_stage_by_text(locations) and (
                self._staging_words(locations) and _stages(self.index, self.location_sources(locations))
                or _writes_where_it_moves(self.index, self.move_calls())
            )
            self._answers["stage"] = answer
        return answer

    def move_calls(self) -> List[ast.Call]:
        """The calls that could be moves (``_move_calls``), found once."""
        if self._moves is None:
            self._moves = list(_move_calls(self.index)) if self.index is not None else []
        return self._moves

    def location_sources(self, locations: Locations) -> Optional[Set[str]]:
        """``_location_sources``, found once (XDV101's and XDV102's gates both ask)."""
        if self._sources is None:
            self._sources = (_location_sources(self.index, locations),)
        return self._sources[0]

    def has_location_source(self, locations: Locations) -> bool:
        """Whether the file can give paths the locations a move rule needs (sound):
        ``temp`` (a temp moved out, or a path moved onto a new temp: XDV102), or two
        different locations (XDV101). A file that can only ever say "cache" cannot
        hold a move finding, whatever it moves."""
        answer = self._answers.get("location")
        if answer is None:
            found = self.location_sources(locations)
            answer = found is None or TEMP in found or len(found) > 1
            self._answers["location"] = answer
        return answer


# A word that can name a move, where it is called or bound to another name.
def _words(words: Iterable[str]) -> Pattern[str]:
    """Any of ``words``, longest first. Word boundaries are checked by the caller: a
    leading ``\\b`` would cost the regex engine its fast scan for the first letters."""
    return re.compile("|".join(sorted(words, key=lambda word: (-len(word), word))))


_MOVE_WORD = _words(_MOVE_ATTRIBUTES)
#: Lower-case words of which a file must contain one for a name or a suffix to say staged
#: (``locations.staging_name``, ``STAGING_SUFFIXES``), or for ``urlretrieve`` to download.
STAGING_TOKENS = ("tmp", "temp", "stag", "scratch", "incomplete", ".part", ".download", "urlretrieve")
#: Words that hold ``temp`` but say nothing staged (``staging_name`` splits them off whole).
_NOT_STAGING = re.compile(r"templat|temperat|attempt|tempo(?!rar)|contempt")
#: A spelled-out ``open`` mode that writes (``"w"``, ``'ab'``, ``"r+b"``).
_WRITE_MODE = re.compile(r"""[rbtU]{0,2}[wax+][bt+]{0,2}""")
_WRITING_METHODS = frozenset({"write_text", "write_bytes"})
_WRITE_CALL = re.compile(r"open\s*\(|write_text|write_bytes")
_OPEN_CALL = re.compile(r"\s*\(")
#: ``from os import``, or a relative import, which may bring the project's own ``rename``
#: (``names.PROJECT_MOVE_NAMES``). No leading \b, for speed: more matches is still sound.
_FROM_OS = re.compile(r"from\s+(?:os|\.)[\w.]*\s+import\b")
_MODULE_LIKE = frozenset(_MOVE_MODULES | _PATH_CLASS_NAMES | {"pathlib"})


def _text_may_move(text: str) -> bool:
    """False only when no occurrence of a move word can be a move call.

    ``str.replace(old, new)`` and ``datetime.replace(tzinfo=tz)`` are everywhere;
    ``Path.replace(target)`` takes one argument and ``os.replace(src, dst)`` is called
    on a module. So a ``.replace(`` on anything but ``os`` or a pathlib class is a move
    only when called as a path method can be (one argument, ``target=``, or a
    star), a bare ``replace(`` only if something is imported from ``os``, and prose
    never. Every other shape (an attribute not called, which may be an alias; anything
    the lexer cannot close) goes on to the AST pass.
    """
    return _text_may_call(text, _MOVE_WORD, _MODULE_LIKE, lambda word: _FROM_OS.search(text) is not None)


def _text_may_call(text: str, words: Pattern[str], modules: FrozenSet[str], imported: Callable[[str], bool]) -> bool:
    """Whether an occurrence of ``words`` may be a call of a module's function of that
    name, or of a path method: the tiers' shared lexer (see ``_text_may_move``).

    ``imported(word)`` says whether a bare ``word`` may have been imported from one of
    ``modules``; ``modules`` also holds the path classes whose unbound methods count.
    """
    answers: Dict[str, bool] = {}
    aliases: Optional[Set[str]] = None
    for match in words.finditer(text):
        start, word = match.start(), match.group()
        if not _is_whole_word(text, match):
            continue  # ``copyright``, ``unlink``: part of another word
        if text[start - 1:start] != ".":
            if word not in answers:
                answers[word] = imported(word)
            if answers[word]:
                return True
            continue
        receiver = _receiver(text, start - 1)
        if receiver in modules:
            return True
        if receiver:  # ``f(x).replace``, ``"a".replace``: no module is called like that
            if aliases is None:
                aliases = _module_aliases(text, modules)
            if receiver in aliases:
                return True
        if word not in names.MOVE_METHODS:
            continue  # ``d.copy()``, ``x.link``: by that name, only a module's function moves
        call = _OPEN_CALL.match(text, match.end())
        if call is None or _may_call_path_method(text, call.end()):
            return True  # ``mv = p.rename`` is an alias, called elsewhere
    return False


_AS = re.compile(r"as\s+(\w+)")
_ASSIGNED_NAME = re.compile(r"=[ \t]*(\w+)[ \t\r\f]*$", re.M)


def _module_aliases(text: str, modules: FrozenSet[str]) -> Set[str]:
    """Names that may be bound to one of ``modules``: an import alias (``import os as
    _os``, ``import os.path as p``, ``from pathlib import Path as P``) or a plain
    assignment (``_os = os``, ``self._os = os``). Both searches start at a literal,
    which the regex engine finds fast; the name before is read back by hand."""
    found: Set[str] = set()
    for match in _AS.finditer(text):
        end = match.start()
        if _is_identifier_character(text[end - 1:end]):
            continue  # ``class C``: not the keyword
        while end > 0 and text[end - 1] in " \t\r\n\f\\":
            end -= 1
        dotted = text[_chain_start(text, end):end]
        if dotted in modules or dotted.split(".", 1)[0] in modules:
            found.add(match.group(1))
    for match in _ASSIGNED_NAME.finditer(text):
        if match.group(1) not in modules or text[match.start() - 1:match.start()] in ("=", "!", "<", ">"):
            continue
        target = _receiver(text, match.start())
        if target:
            found.add(target)
    return found


def _is_identifier_character(char: str) -> bool:
    return char.isalnum() or char == "_"


def _is_whole_word(text: str, match: Match[str]) -> bool:
    start, end = match.span()
    return not _is_identifier_character(text[start - 1:start]) and not _is_identifier_character(text[end:end + 1])


def _receiver(text: str, dot: int) -> str:
    """The identifier just before the ``.`` at ``dot`` (``os`` in ``os.replace``)."""
    end = dot
    while end > 0 and text[end - 1] in " \t":
        end -= 1
    start = end
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] == "_"):
        start -= 1
    return text[start:end]


def _may_call_path_method(text: str, start: int) -> bool:
    """Whether the call whose ``(`` ends at ``start`` may be ``Path.rename/replace/
    hardlink_to(target)``: one positional argument, or only ``target=`` (a call with ``*``/``**``
    is no move the analysis judges). Others raise TypeError on a path: ``str.replace(old, new)``,
    ``date.replace(year=y)``. True when unsure (the lexer could not close the call)."""
    shape = _call_shape(text, start)
    if shape is None:
        return True
    positional, keywords, starred = shape
    return not starred and (positional == 1 and not keywords or not positional and keywords == {"target"})


_ARGUMENT_TOKEN = re.compile(r"'''|\"\"\"|['\"#()\[\]{},]")
_ARGUMENT_START = re.compile(r"(?:\s|#[^\n]*)*(?:(?P<star>\*)|(?P<keyword>[A-Za-z_]\w*)\s*=(?!=))?")


def _call_shape(text: str, start: int) -> Optional[Tuple[int, FrozenSet[str], bool]]:
    """``(positional count, keyword names, starred)`` of the call whose ``(`` ends at
    ``start``; None when unsure. A tiny lexer: strings (escapes, triple quotes),
    comments and brackets."""
    depth, index, segment = 0, start, start
    segments: List[str] = []
    while True:
        match = _ARGUMENT_TOKEN.search(text, index)
        if match is None:
            return None
        token, index = match.group(), match.end()
        if token[0] in "\"'":
            index = _string_end(text, index, token)
            if index < 0:
                return None
        elif token == "#":
            index = text.find("\n", index)
            if index < 0:
                return None
        elif token in "([{":
            depth += 1
        elif token in ")]}":
            if depth == 0:
                segments.append(text[segment:match.start()])
                break
            depth -= 1
        elif depth == 0:  # a comma between arguments
            segments.append(text[segment:match.start()])
            segment = index
    positional, keywords, starred = 0, set(), False
    for argument in segments:
        head = _ARGUMENT_START.match(argument)
        assert head is not None  # every part of the pattern is optional
        if head.group("star"):
            starred = True
        elif head.group("keyword"):
            keywords.add(head.group("keyword"))
        elif argument[head.end():].strip():
            positional += 1
    return positional, frozenset(keywords), starred


def _string_end(text: str, index: int, quote: str) -> int:
    """The index just past the ``quote`` closing the string whose body starts at
    ``index``, or -1 when it does not close (a backslash escapes the next character)."""
    while True:
        end = text.find(quote, index)
        if end < 0:
            return -1
        backslashes = 0
        while text[end - 1 - backslashes] == "\\":
            backslashes += 1
        if backslashes % 2 == 0:
            return end + len(quote)
        index = end + 1


def _writes_where_it_moves(index: Optional[ModuleIndex], moves: Sequence[ast.Call]) -> bool:
    """Whether a function (or the module's own code) both opens a file for writing, with
    the mode spelled out, and moves: a file a function wrote and moves is staged, and the
    analysis says so only of what the same function wrote (``provenance.note_write``)."""
    if index is None:
        return True
    scopes = {_scope_of(index, call) for call in moves}
    for node in index.nodes:
        if isinstance(node, ast.Call) and _writes(node) and _scope_of(index, node) in scopes:
            return True
    return False


def _writes(call: ast.Call) -> bool:
    """``open(p, "w")``, ``p.open("ab")``, ``p.write_text(...)``: as ``note_write`` reads them."""
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
    if name in _WRITING_METHODS:
        return True
    if name != "open":
        return False
    index = 0 if isinstance(func, ast.Attribute) else 1  # ``p.open(mode)`` or ``open(p, mode)``
    modes = [k.value for k in call.keywords if k.arg == "mode"]
    if len(call.args) > index:
        modes.append(call.args[index])
    return any(
        isinstance(m, ast.Constant) and isinstance(m.value, str) and _WRITE_MODE.fullmatch(m.value) is not None
        for m in modes
    )


def _scope_of(index: ModuleIndex, node: ast.AST) -> Optional[ast.AST]:
    """The function ``node`` runs in (None: the module's own code)."""
    current = index.parents.get(node)
    while current is not None and not isinstance(current, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        current = index.parents.get(current)
    return current


def _has_move_call(index: Optional[ModuleIndex]) -> bool:
    if index is None:
        return True  # libcst may still parse it; only the real analysis can say
    return next(_move_calls(index), None) is not None  # the first will do: no list of them all


def _move_calls(index: ModuleIndex) -> Iterator[ast.Call]:
    """Every call that could be a filesystem move (sound over-approximation)."""
    nodes = index.nodes
    modules, classes, aliases, attribute_aliases = _move_aliases(nodes)
    for node in nodes:
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if _hands_on_a_move(node, aliases):
            yield node  # a move handed on with its arguments: ``run_in_executor(None, os.rename, a, b)``
        elif isinstance(func, ast.Name):
            if func.id in aliases:
                yield node
        elif isinstance(func, ast.Attribute):
            if func.attr in attribute_aliases:
                yield node
                continue
            if func.attr not in _MOVE_ATTRIBUTES:
                continue
            receiver = func.value
            if isinstance(receiver, ast.Name) and (receiver.id in modules or receiver.id in classes):
                yield node
            elif isinstance(receiver, ast.Attribute) and receiver.attr in _PATH_CLASS_NAMES:
                yield node  # pathlib.Path.rename(p, q)
            elif _may_be_path_method(node):
                yield node


def _move_aliases(nodes: List[ast.AST]) -> Tuple[Set[str], Set[str], Set[str], Set[str]]:
    """The local names of the os module and of pathlib's path classes, and the names
    and the attributes bound to a move function."""
    modules: Set[str] = set()  # local names of the os module
    classes: Set[str] = set()  # local names of pathlib path classes
    aliases: Set[str] = set()  # names bound to a move function
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
        elif isinstance(node, ast.ImportFrom) and node.level:
            # ``from .posixemulation import rename``: the project's own move function.
            aliases.update(a.asname or a.name for a in node.names if a.name in names.PROJECT_MOVE_NAMES)
    # ``mv = os.rename``, ``self._swap = os.replace``, ``mv2 = mv``: a name or
    # attribute bound to a move function. Two rounds follow an alias of an alias.
    attribute_aliases: Set[str] = set()
    assignments = [n for n in nodes if isinstance(n, (ast.Assign, ast.AnnAssign, ast.NamedExpr))]
    for _ in range(2):
        for node in assignments:
            if node.value is not None and _names_move(node.value, aliases):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    if isinstance(target, ast.Name):
                        aliases.add(target.id)
                    elif isinstance(target, ast.Attribute):
                        attribute_aliases.add(target.attr)
    return modules, classes, aliases, attribute_aliases


def _may_be_path_method(node: ast.Call) -> bool:
    """A method on a path takes one argument, the target: ``str.replace`` takes two. A
    call with ``*``/``**`` arguments is no move the analysis can judge (``moves._argument``)."""
    if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
        return False
    keywords = {k.arg for k in node.keywords}
    return len(node.args) == 1 and not keywords or not node.args and keywords == {"target"}


def _hands_on_a_move(node: ast.Call, aliases: Set[str]) -> bool:
    """Whether ``node`` is handed a move function with the arguments it will take, as
    ``moves._passed`` reads it: one or two positional arguments after it (a path method
    takes its target, a module's function its source and destination), or
    ``Thread(target=f, args=(...))``."""
    for index, argument in enumerate(node.args):
        if isinstance(argument, ast.Starred) or not _names_move(argument, aliases):
            continue
        after = node.args[index + 1:]
        if any(isinstance(a, ast.Starred) for a in after) or any(k.arg is None for k in node.keywords):
            return True
        if isinstance(argument, ast.Attribute) and argument.attr in names.MOVE_METHODS and len(after) >= 1:
            return True  # ``p.rename`` (or ``os.rename``, which takes two: counted loosely)
        if len(after) >= 2 or any(k.arg in ("src", "dst", "target") for k in node.keywords):
            return True
    return any(k.arg == "target" and _names_move(k.value, aliases) for k in node.keywords)


def _names_move(value: ast.AST, aliases: Set[str]) -> bool:
    if isinstance(value, ast.Attribute):
        return value.attr in _MOVE_ATTRIBUTES
    if isinstance(value, ast.Name):
        return value.id in aliases
    return False


_TEMP_NAMES = frozenset(
    q.rsplit(".", 1)[1] for q in (*names.TEMP_FACTORIES, *names.TEMP_DIR_CALLS, *names.TEMP_DIR_ATTRIBUTES)
)


def _location_sources(index: Optional[ModuleIndex], locations: Locations) -> Optional[Set[str]]:
    """The locations the file's nodes could give a value, by the same tests provenance
    uses (None: cannot tell, any):

    an identifier matching a location's name pattern, a literal under a location's
    path (or ``~``, which ``Path.home()`` and ``expanduser`` build on: every location
    with a path under ``~``), a location's environment variable, a temp factory or
    ``tempfile``'s directory (``temp``, which provenance hard-codes), a configured call, or a
    call that fetches into a download cache (``cache``).
    """
    if index is None:
        return None
    calls: Dict[str, Set[str]] = {name: {TEMP} for name in _TEMP_NAMES}
    for loc in locations.locations:
        for call in loc.calls:
            calls.setdefault(call.rsplit(".", 1)[-1], set()).add(loc.name)
    for name in names.CACHE_FETCH_NAMES:  # ``cached_path(url)``: a file in the download cache
        calls.setdefault(name, set()).update(locations.configured(CACHE))
    home = {loc.name for loc in locations.locations if any(p.startswith("~") for p in loc.paths)}
    found: Set[str] = set()
    for node in index.nodes:
        if isinstance(node, ast.Name):
            word = node.id
        elif isinstance(node, ast.Attribute):
            word = node.attr
        elif isinstance(node, ast.arg):
            word = node.arg
        elif isinstance(node, ast.alias):
            word = node.name.rsplit(".", 1)[-1]
        elif isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes)):
            text = node.value.decode("latin-1") if isinstance(node.value, bytes) else node.value
            if text.startswith("~"):
                found |= home
            found |= locations.for_literal(text) | locations.for_env(text)
            continue
        else:
            continue
        found |= calls.get(word, set()) | locations.for_identifier(word)
        if word == "home":
            found |= home
    return found


def _stages(index: Optional[ModuleIndex], found: Optional[Set[str]]) -> bool:
    """Whether a node of the file can make a path staged, by the tests provenance uses
    (``Value.evidence`` and the locations): a name, attribute, parameter or import that
    ``staging_name`` accepts, a literal ``staging_literal`` accepts, ``urlretrieve``, or a
    location source (``_location_sources``). Comments and docstrings say nothing."""
    if index is None or found is None or found:
        return True
    for node in index.nodes:
        if isinstance(node, ast.Name):
            word = node.id
        elif isinstance(node, ast.Attribute):
            word = node.attr
        elif isinstance(node, ast.arg):
            word = node.arg
        elif isinstance(node, ast.alias):
            word = (node.asname or node.name).rsplit(".", 1)[-1]
        elif isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes)):
            text = node.value.decode("latin-1") if isinstance(node.value, bytes) else node.value
            if staging_literal(text):
                return True
            continue
        else:
            continue
        if staging_name(word) or word == "urlretrieve":
            return True
    return False


#: What XDV202 counts as a move: the last component of every move-like function.
_GUARDED_MOVE_ATTRIBUTES = frozenset(q.rsplit(".", 1)[1] for q in names.MOVE_LIKE_FUNCTIONS) | _MOVE_ATTRIBUTES
#: Every function or attribute name a move node may spell (``Scan.move_nodes``).
MOVE_WORDS: FrozenSet[str] = _GUARDED_MOVE_ATTRIBUTES
_GUARDED_MOVE_MODULES = frozenset({"os", "shutil", "pathlib", "xdevlint", "safemove"}) | _PATH_CLASS_NAMES
_GUARDED_MOVE_WORD = _words(_GUARDED_MOVE_ATTRIBUTES)
_TRY = re.compile(r"try\s*:")
#: ``from shutil import move``, ``from os import (rename,\n replace)``, ``from .safemove import *``:
#: the names after ``import`` (to a closing bracket, or the end of the logical line).
_FROM_IMPORT = re.compile(
    r"from\s+(?P<module>[.\w]+)\s+import\s*(?P<names>\([^)]*\)|(?:[^\n\\]|\\.)*)", re.S
)


def _text_may_guard_move(text: str) -> bool:
    """False only when no occurrence of a move-like word can be a call XDV202 counts.

    As ``_text_may_move``, for the wider set of names (``copy``, ``move``, ``link``...):
    an attribute of what may be ``os``, ``shutil``, a pathlib class or safemove; a path
    method's name not called (an alias) or called as a path method can be; a bare
    name imported from one of those modules. ``d.copy()``, ``copy.copy(x)``, ``s.replace(a, b)`` and
    ``dataclasses.replace`` are none of these.
    """
    imported: Optional[Set[str]] = None

    def from_move_module(word: str) -> bool:
        nonlocal imported
        if imported is None:
            imported = _names_imported_from_move_modules(text)
        return word in imported or "*" in imported

    return _text_may_call(text, _GUARDED_MOVE_WORD, _GUARDED_MOVE_MODULES, from_move_module)


def _names_imported_from_move_modules(text: str) -> Set[str]:
    found: Set[str] = set()
    for match in _FROM_IMPORT.finditer(text):
        module = match.group("module").lstrip(".").split(".", 1)[0]
        last = match.group("module").rsplit(".", 1)[-1]
        if module in _GUARDED_MOVE_MODULES or last in _GUARDED_MOVE_MODULES or not module:
            found.update(re.findall(r"[\w*]+", match.group("names")))
    return found


#: ``try`` statements, ``try/except*`` included where the interpreter has it (3.11+).
_TRY_NODES: Tuple[type, ...] = (ast.Try, ast.TryStar) if sys.version_info >= (3, 11) else (ast.Try,)


#: The last component of every class whose handler XDV202 says can catch ``EXDEV``
#: (its ``EXDEV_CLASSES``: ``OSError`` and its aliases, the broad classes, ``shutil.Error``).
EXDEV_CLASS_NAMES = frozenset(q.rsplit(".", 1)[1] for q in names.OS_ERROR_CLASSES | names.BROAD_EXCEPTIONS) | {"Error"}


def _may_swallow(handler: ast.ExceptHandler, index: ModuleIndex) -> bool:
    """Whether XDV202 could flag ``handler``: not when it catches only classes that are
    none of ``EXDEV_CLASS_NAMES`` (``except (KeyError, FileNotFoundError)``,
    ``except json.JSONDecodeError``), each spelled by a name the file never binds (a
    bound name may be an alias: ``Error = OSError``); nor when a ``raise`` is anywhere
    in it outside a nested function or class (the rule's ``reveals``: even a
    conditional re-raise shows the author looked at the error)."""
    if handler.type is not None:
        types = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
        if all(_names_other_class(t, index) for t in types):
            return False
    stack: List[ast.AST] = list(handler.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Raise):
            return False
        if not isinstance(node, _SCOPES):
            stack.extend(ast.iter_child_nodes(node))
    return True


_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def _names_other_class(expression: ast.expr, index: ModuleIndex) -> bool:
    """Whether ``expression`` surely names a class that cannot carry ``EXDEV``."""
    if isinstance(expression, ast.Name):
        name = expression.id
    elif isinstance(expression, ast.Attribute) and isinstance(expression.value, ast.Name):
        name = expression.attr
    else:
        return False
    return name not in EXDEV_CLASS_NAMES and name not in index.bound_anywhere


def _has_guarded_move_call(index: Optional[ModuleIndex], withs: bool) -> bool:
    """Whether a ``try`` with handlers (or, with ``withs``, any ``with``) holds a move-like
    call or hands a move-like function to one."""
    if index is None:
        return True
    guarded = _guarded_bodies(index, withs)
    if not guarded:
        return False
    inside = (n for body in guarded for statement in body for n in ast.walk(statement))
    return next(_move_like(index, inside), None) is not None


def _guarded_bodies(index: ModuleIndex, withs: bool) -> List[List[ast.stmt]]:
    """The bodies of each ``try`` with a handler that may swallow ``EXDEV`` and (with
    ``withs``) of each ``with``."""
    return [
        cast(ast.Try, node).body  # a ``TryStar`` has the same fields
        for node in index.nodes
        if isinstance(node, _TRY_NODES) and any(_may_swallow(h, index) for h in cast(ast.Try, node).handlers)
        or withs and isinstance(node, (ast.With, ast.AsyncWith))
    ]


def _move_like(index: ModuleIndex, candidates: Iterable[ast.AST]) -> Iterator[ast.AST]:
    """The ``candidates`` that call a move-like function or hand one to a call."""
    modules, aliases, attribute_aliases = _move_like_aliases(index.nodes)
    for node in candidates:
        if isinstance(node, ast.Name):
            if node.id in aliases:
                yield node  # called, or handed to a call: ``to_thread(mv, a, b)``
        elif isinstance(node, ast.Attribute):
            if node.attr in attribute_aliases:
                yield node
            elif node.attr in _GUARDED_MOVE_ATTRIBUTES:
                receiver = node.value
                if isinstance(receiver, ast.Name) and receiver.id in modules:
                    yield node
                elif isinstance(receiver, ast.Attribute) and receiver.attr in modules:
                    yield node
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in names.MOVE_METHODS and _may_be_path_method(node):
            yield node


def _move_like_aliases(nodes: List[ast.AST]) -> Tuple[Set[str], Set[str], Set[str]]:
    """The local names of os, shutil, pathlib and safemove, and the names and the
    attributes bound to a move-like function."""
    modules: Set[str] = set(_PATH_CLASS_NAMES)  # local names of os, shutil, pathlib, safemove
    aliases: Set[str] = set()  # local names of move-like functions
    for node in nodes:
        if isinstance(node, ast.Import):
            for alias in node.names:
                top = alias.name.split(".", 1)[0]
                if top in _GUARDED_MOVE_MODULES:
                    modules.add(alias.asname or top)
        elif isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if alias.name == "*":
                    aliases.update(_GUARDED_MOVE_ATTRIBUTES)
                elif alias.name in _GUARDED_MOVE_ATTRIBUTES:
                    aliases.add(alias.asname or alias.name)
                elif alias.name in _GUARDED_MOVE_MODULES:
                    modules.add(alias.asname or alias.name)
    # ``mv = shutil.move``, ``self._os = os``, ``mv2 = mv``: two rounds follow an alias of an alias.
    attribute_aliases: Set[str] = set()
    assignments = [n for n in nodes if isinstance(n, (ast.Assign, ast.AnnAssign, ast.NamedExpr)) and n.value is not None]
    for _ in range(2):
        for node in assignments:
            value = node.value
            moving = isinstance(value, ast.Attribute) and value.attr in _GUARDED_MOVE_ATTRIBUTES or isinstance(value, ast.Name) and value.id in aliases
            module = isinstance(value, ast.Name) and value.id in modules
            if not (moving or module):
                continue
            for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                if isinstance(target, ast.Name):
                    (aliases if moving else modules).add(target.id)
                elif isinstance(target, ast.Attribute):
                    (attribute_aliases if moving else modules).add(target.attr)
    return modules, aliases, attribute_aliases


_TEMP_FACTORY_WORD = _words(FACTORY_NAMES | DOWNLOAD_NAMES)
_UNIQUE_WORD = _words(UNIQUE_NAMES)
_IMPORT_LINE = re.compile(r"[ \t]*(?:from[ \t]+[\w.]+[ \t]+)?import\b")
_IMPORT_BRACKET = re.compile(r"import\s*$")
_ALIASED = re.compile(r"\s+as\b")
_WITH = re.compile(r"(?:^|[\s;:])with\s*$")
_NAME_ATTRIBUTE = re.compile(r"\.[\s\\]*name\b")


def _text_may_hold_temp(text: str) -> bool:
    """False only when every factory in the text makes a temp nobody holds: an import
    of the name (not ``as`` another), ``NamedTemporaryFile(...)`` without ``delete``
    (in a file that reads no ``.name``: a file made again at the name of one, or beside
    it, is a temp), ``with TemporaryDirectory() as d``.
    Anything else goes on to the AST pass, and so does a file that may name something
    unique in the temp directory (``gettempdir`` and ``uuid4``)."""
    if "gettempdir" in text and _UNIQUE_WORD.search(text):
        return True
    for match in _TEMP_FACTORY_WORD.finditer(text):
        start, end, word = match.start(), match.end(), match.group()
        if not _is_whole_word(text, match):
            continue
        call = _OPEN_CALL.match(text, end)
        if call is None:
            if _ALIASED.match(text, end) or not _in_import(text, start):
                return True  # ``make = tempfile.mkdtemp``, ``import mkdtemp as md``: an alias
            continue
        if _on_self_or_cls(text, start):
            # ``self.mkdtemp()``: a method, which the AST pass does not count as a
            # factory unless the name is an alias, and every alias is bound by an
            # occurrence this loop stops at (not called, or imported ``as``).
            continue
        if word == "NamedTemporaryFile":
            shape = _call_shape(text, call.end())
            if shape is None or shape[2] or "delete" in shape[1] or shape[0] > 7 or _NAME_ATTRIBUTE.search(text):
                return True  # ``f.name`` may outlive the file (``NamedTemporaryFile().name``, after ``close()``)
            continue  # deleted on close
        if word == "TemporaryDirectory" and _WITH.search(text, max(0, start - 200), _chain_start(text, start)):
            continue  # the context manager removes it
        return True
    return False


def _on_self_or_cls(text: str, start: int) -> bool:
    """Whether the name at ``start`` is written ``self.NAME`` or ``cls.NAME``, the
    receiver a plain name (not ``x.self.NAME``)."""
    for receiver in ("self.", "cls."):
        begin = start - len(receiver)
        if text.startswith(receiver, begin):
            before = text[begin - 1:begin]
            return not (_is_identifier_character(before) or before == ".")
    return False


def _in_import(text: str, start: int) -> bool:
    """Whether the name at ``start`` is in an ``import`` statement (on its line, or in
    the brackets of a ``from ... import (...)``)."""
    line = text.rfind("\n", 0, start) + 1
    if _IMPORT_LINE.match(text, line):
        return not any(c in text[line:start] for c in "=;")  # ``import tempfile; mk = tempfile.mkdtemp``
    bracket = text.rfind("(", 0, start)
    if bracket < 0 or any(c in text[bracket:start] for c in ")=;"):
        return False
    return _IMPORT_BRACKET.search(text, max(0, bracket - 40), bracket) is not None


def _chain_start(text: str, start: int) -> int:
    """Where the dotted name ending at ``start`` begins (``tempfile.`` of
    ``tempfile.TemporaryDirectory``, ``os.path`` before `` as p``)."""
    while start > 0 and (_is_identifier_character(text[start - 1]) or text[start - 1] == "."):
        start -= 1
    return start
