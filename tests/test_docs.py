"""The documentation tells the truth: the rule pages are what the docstrings say, and
no file names a file the repository lacks."""

from __future__ import annotations

import re
from pathlib import Path

from tests.process import REPO, run
from xdevlint import registry
from xdevlint.frontends import docs


def test_rule_pages_are_current() -> None:
    """Regenerate with ``python -m xdevlint.frontends.docs docs/rules`` when this fails."""
    directory = REPO / "docs" / "rules"
    wanted = docs.pages()
    assert sorted(p.name for p in directory.glob("*.md")) == sorted(wanted)
    for name, content in wanted.items():
        assert (directory / name).read_text(encoding="utf-8") == content, name
    assert set(wanted) == {"README.md", *(f"{code}.md" for code in registry.known_codes())}


def test_rule_pages_are_what_the_command_prints(tmp_path: Path) -> None:
    for code in ("XDV000", "XDV001", "XDV101"):
        printed = run("rule", code, cwd=tmp_path).stdout
        assert printed == (REPO / "docs" / "rules" / f"{code}.md").read_text(encoding="utf-8")


def test_the_generator_writes_and_prunes(tmp_path: Path) -> None:
    (tmp_path / "XDV999.md").write_text("a code that is gone")
    assert docs.main([str(tmp_path)]) == 0
    assert sorted(p.name for p in tmp_path.glob("*.md")) == sorted(docs.pages())


#: A path with a directory part, naming a documentation file.
_REFERENCE = re.compile(r"(?<![\w/.:-])((?:\.?[\w-]+/)+[\w.-]+\.(?:md|txt))\b")
_BARE = re.compile(r"(?<![\w/.-])((?:SAFEMOVE|DESIGN|STYLE)\.md|incident\.txt)\b")


def test_no_reference_to_a_missing_file() -> None:
    """README, the docs, bench's notes and the package's own text name only real files
    (paths from the repository root, or beside the file that names them)."""
    texts = [REPO / "README.md", *(REPO / "docs").glob("*.md"), *(REPO / "bench").glob("*.md"), *(REPO / "xdevlint").rglob("*.py")]
    missing = []
    for path in texts:
        text = path.read_text(encoding="utf-8")
        for match in [*_REFERENCE.finditer(text), *_BARE.finditer(text)]:
            name = match.group(1)
            if name.startswith(("/", "~")) or "CODE" in name or "<" in name:
                continue
            if not ((REPO / name).exists() or (path.parent / name).exists()):
                missing.append(f"{path.relative_to(REPO)}: {name}")
    assert missing == []


def test_safemove_names_its_contract() -> None:
    text = (REPO / "xdevlint" / "safemove.py").read_text(encoding="utf-8")
    assert "docs/SAFEMOVE.md" in text and (REPO / "docs" / "SAFEMOVE.md").is_file()
