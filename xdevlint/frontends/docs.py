"""``docs/rules/``: one Markdown page per code, generated from the docstrings that ship
in the package (what ``xdevlint rule CODE`` prints), and an index.

``python -m xdevlint.frontends.docs docs/rules`` writes them; ``tests/test_docs.py``
fails when the pages in the repository are not what the docstrings say.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Dict, Optional, Sequence


def pages() -> Dict[str, str]:
    """File name -> content, for every documented code and the index (``README.md``)."""
    from xdevlint import registry
    from xdevlint.rules.documented import markdown

    documented = registry.documented()
    found = {f"{doc.CODE}.md": markdown(doc) for doc in documented}
    index = [
        "# Rules\n\n",
        "Generated from the rule docstrings by `python -m xdevlint.frontends.docs docs/rules`; "
        "`xdevlint rule CODE` prints the same text.\n\n",
        "| Code | Name | Fix | Summary |\n",
        "| ---- | ---- | --- | ------- |\n",
    ]
    for doc in documented:
        summary = doc.summary().replace("|", "\\|")
        index.append(f"| [{doc.CODE}]({doc.CODE}.md) | {doc.NAME} | {'yes' if doc.FIX_TITLE else ''} | {summary} |\n")
    found["README.md"] = "".join(index)
    return found


def write(directory: Path) -> None:
    """Write the pages into ``directory``, removing pages of codes that no longer exist."""
    directory.mkdir(parents=True, exist_ok=True)
    wanted = pages()
    for stale in directory.glob("*.md"):
        if stale.name not in wanted:
            stale.unlink()
    for name, content in wanted.items():
        (directory / name).write_text(content, encoding="utf-8")


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1:
        sys.stderr.write("usage: python -m xdevlint.frontends.docs DIRECTORY\n")
        return 2
    write(Path(args[0]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
