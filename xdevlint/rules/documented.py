"""What every code xdevlint reports has, rule or not: a code, a name, a message and a
docstring in ruff's sections. Without libcst, so that ``xdevlint rule XDV000`` and the
codes the engine itself reports (XDV000, XDV001) cost no parser."""

from __future__ import annotations

import inspect
import re
from typing import ClassVar, Dict, List, Optional, Type

#: The sections of a rule's docstring, in order (ruff's layout).
DOC_SECTIONS = ("What it does", "Why is this bad?", "Example", "Use instead", "Fix safety", "Options")


class Documented:
    """A code's identity and documentation."""

    CODE: ClassVar[str]
    NAME: ClassVar[str]
    MESSAGE: ClassVar[str]
    #: The title of the code's fix, for codes that have one.
    FIX_TITLE: ClassVar[Optional[str]] = None

    @classmethod
    def documentation(cls) -> Dict[str, str]:
        """The docstring's sections by heading (``## What it does`` ...)."""
        return parse_sections(cls.__doc__ or "")

    @classmethod
    def summary(cls) -> str:
        text = " ".join(cls.documentation().get("What it does", "").split())
        match = re.match(r"(.+?\.)(?:\s|$)", text)  # "`os.rename`" is no sentence end
        sentence = match.group(1) if match else text or cls.NAME
        return sentence if len(sentence) <= 100 else sentence[:99].rstrip() + "…"


def markdown(documented: Type[Documented]) -> str:
    """The code's documentation as a Markdown page: what ``xdevlint rule CODE`` prints and
    ``docs/rules/CODE.md`` holds."""
    parts = [f"# {documented.NAME} ({documented.CODE})\n\n"]
    for heading, body in documented.documentation().items():
        parts.append(f"## {heading}\n{body}\n\n")
    return "".join(parts)


def parse_sections(doc: str) -> Dict[str, str]:
    sections: Dict[str, str] = {}
    heading: Optional[str] = None
    lines: List[str] = []
    for line in inspect.cleandoc(doc).splitlines():
        match = re.match(r"## (.+)$", line)
        if match:
            if heading is not None:
                sections[heading] = "\n".join(lines).strip()
            heading, lines = match.group(1).strip(), []
        elif heading is not None:
            lines.append(line)
    if heading is not None:
        sections[heading] = "\n".join(lines).strip()
    return sections
