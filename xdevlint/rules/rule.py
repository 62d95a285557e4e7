"""The base every rule builds on: identity, documentation and reporting in one place."""

from __future__ import annotations

import io
import re
import tokenize
from dataclasses import dataclass
from typing import ClassVar, Collection, FrozenSet, List, Optional, Tuple

import libcst as cst
from libcst.metadata import ProviderT
from xdevlint.analysis.locations import Locations
from xdevlint.analysis.provenance import ProvenanceProvider
from xdevlint.analysis.values import EMPTY, Value
from xdevlint.model import Fix
from xdevlint.rules.documented import DOC_SECTIONS, Documented, parse_sections
from xdevlint.stages.scan import Scan

__all__ = ["DOC_SECTIONS", "Report", "Rule", "RuleContext", "code_blocks", "parse_sections", "snippet"]

@dataclass(frozen=True)
class Report:
    """A finding before it has a position: positions cost a pass over the whole
    module, so the engine resolves them only for files that have something to report."""

    node: cst.CSTNode
    code: str
    name: str
    message: str
    fix: Optional[Fix] = None
    #: Other nodes the finding rests on, each with what it adds (``model.Related``).
    related: Tuple[Tuple[cst.CSTNode, str], ...] = ()


@dataclass(frozen=True)
class RuleContext:
    """What a rule may know about the file besides its tree."""

    path: str
    locations: Locations
    #: How fixes call a move (``[tool.xdevlint] move-function``), and whether that
    #: function is atomic (``move-function-atomic``), which makes its rewrite safe.
    move_function: str = "shutil.move"
    move_function_atomic: bool = False
    #: The longest line fixed code may make (the file's ruff or black ``line-length``).
    line_length: int = 88
    #: Module-level names bound by the parts of the file the analysis does not see (the
    #: functions and classes a focus left out): a fix's new import must not clash with one.
    bound_elsewhere: FrozenSet[str] = frozenset()
    #: The file's top-level package (``stages.package``): its absolute imports name the project.
    package: Optional[str] = None


class Rule(cst.BatchableCSTVisitor, Documented):
    """One hazard: its code, name and message, its documentation, and its visitor.

    Rules only observe and report; selection, suppression and output belong to the
    engine and the front ends.
    """

    METADATA_DEPENDENCIES: ClassVar[Collection[ProviderT]] = (ProvenanceProvider,)

    def __init__(self, context: RuleContext) -> None:
        super().__init__()
        self.context = context
        self.reports: List[Report] = []

    @classmethod
    def may_apply(cls, scan: Scan, locations: Locations) -> bool:
        """Whether a file could hold a finding: a cheap, sound test done before parsing."""
        return True

    @classmethod
    def cleared(cls, scan: Scan) -> FrozenSet[Tuple[int, int]]:
        """Where (line, column) the cheap scan has judged, one by one, that the rule has
        nothing to report: the engine drops a finding there, so that whether the file
        was parsed at all (which another part of it may decide) changes no verdict."""
        return frozenset()

    def value_of(self, node: cst.CSTNode) -> Value:
        return self.get_metadata(ProvenanceProvider, node, EMPTY)

    def report(
        self, node: cst.CSTNode, message: str, fix: Optional[Fix] = None,
        related: Tuple[Tuple[cst.CSTNode, str], ...] = (),
    ) -> None:
        self.reports.append(Report(node, self.CODE, self.NAME, message, fix, related))


def code_blocks(section: str) -> Tuple[str, ...]:
    """The ```python blocks of a doc section, for tests that lint them."""
    return tuple(m.group(1) for m in re.finditer(r"```python\n(.*?)```", section, re.S))


def snippet(code: str, limit: int = 60) -> str:
    """The first line of code in ``code``, without its comment, for messages."""
    lines = [line.strip() for line in code.splitlines()]
    line = next((line for line in lines if line and not line.startswith("#")), "")
    try:
        for token in tokenize.generate_tokens(io.StringIO(line).readline):
            if token.type == tokenize.COMMENT:
                line = line[: token.start[1]].rstrip()
                break
    except (tokenize.TokenError, SyntaxError):
        pass  # an unclosed bracket: the line goes on below, and has no comment yet
    return line if len(line) <= limit else line[: limit - 3] + "..."
