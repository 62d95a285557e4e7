"""The data every stage passes on: spans, edits, fixes and findings (all immutable)."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Optional, Tuple

if TYPE_CHECKING:  # only fixes hold libcst nodes; reading results must not import it
    import libcst as cst


@dataclass(frozen=True, order=True)
class Span:
    """A source region; lines and columns are 1-based, the end exclusive."""

    line: int
    column: int
    end_line: int
    end_column: int


class Applicability(str, enum.Enum):
    """Ruff's split: a safe fix keeps behaviour except for the bug; unsafe may not."""

    SAFE = "safe"
    UNSAFE = "unsafe"


@dataclass(frozen=True)
class Edit:
    """Replace the text of ``span`` with ``content``."""

    span: Span
    content: str


@dataclass(frozen=True)
class Replacement:
    """Replace ``node`` (a node of the analysed module) with ``new``."""

    node: cst.CSTNode
    new: cst.CSTNode


@dataclass(frozen=True)
class Import:
    """An import a fix needs: ``import module`` or ``from module import obj [as alias]``."""

    module: str
    obj: Optional[str] = None
    alias: Optional[str] = None


@dataclass(frozen=True)
class Fix:
    """A CST-level rewrite plus the imports it needs; ``edits`` (the replacements) and
    ``header`` (the imports) are its textual view, filled in by the engine once
    positions are known."""

    applicability: Applicability
    message: str
    replacements: Tuple[Replacement, ...] = ()
    imports: Tuple[Import, ...] = ()
    edits: Tuple[Edit, ...] = ()
    #: The edits to the module's imports (added, or made unused by the fix).
    header: Tuple[Edit, ...] = ()

    @property
    def all_edits(self) -> Tuple[Edit, ...]:
        """Every textual change the fix makes, in source order: what a client applies."""
        return tuple(sorted((*self.edits, *self.header), key=lambda edit: (edit.span.line, edit.span.column)))


@dataclass(frozen=True)
class Related:
    """Another place a finding rests on, with what it adds: the call of a helper that
    passes the staged path the helper's move is reported for."""

    path: str
    span: Span
    message: str


@dataclass(frozen=True, order=True)
class Finding:
    path: str
    span: Span
    code: str
    name: str = field(compare=False)
    message: str = field(compare=False)
    fix: Optional[Fix] = field(default=None, compare=False)
    related: Tuple[Related, ...] = field(default=(), compare=False)

    @property
    def line(self) -> int:
        return self.span.line

    @property
    def column(self) -> int:
        return self.span.column


#: Reported for files that could not be read, decoded, parsed or analysed; never
#: selected away by ``select`` (a file we could not check must not pass silently); only
#: an explicit ``ignore`` turns it off (``registry.engine_code_selected``).
ANALYSIS_ERROR_CODE = "XDV000"
ANALYSIS_ERROR_NAME = "analysis-error"


def analysis_error(path: str, reason: str, line: int = 1, column: int = 1) -> Finding:
    """The XDV000 finding for a file that could not be checked (or fixed)."""
    return Finding(path, Span(line, column, line, column), ANALYSIS_ERROR_CODE, ANALYSIS_ERROR_NAME, reason)


@dataclass(frozen=True)
class FileResult:
    """What linting one file produced; ``source`` is kept for excerpts and fixing.

    After ``--fix``, ``findings`` are those that remain (in the fixed ``source``) and
    ``fixed`` those whose fixes were applied.
    """

    path: str
    findings: Tuple[Finding, ...] = ()
    source: Optional[bytes] = None
    fixed: Tuple[Finding, ...] = ()


@dataclass(frozen=True)
class FixResult:
    """One file after fixing.

    ``fixed`` is ``source`` when nothing applied or the fixes were rolled back;
    ``applied`` are the findings whose fixes were applied (as reported in the pass
    that fixed them); ``result`` holds what remains to report, against ``fixed``;
    ``before`` is the first pass, what checking ``source`` alone reports.
    """

    path: str
    source: bytes
    fixed: bytes
    applied: Tuple[Finding, ...]
    result: FileResult
    before: FileResult
    error: Optional[str] = None

    @property
    def changed(self) -> bool:
        return self.fixed != self.source


def portable(findings: Tuple[Finding, ...]) -> Tuple[Finding, ...]:
    """``findings`` without their fixes' libcst nodes (``Fix.replacements``), which only
    the fixer uses: what crosses a process boundary."""
    return tuple(
        replace(f, fix=replace(f.fix, replacements=())) if f.fix is not None and f.fix.replacements else f
        for f in findings
    )
