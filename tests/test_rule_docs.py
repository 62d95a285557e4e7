"""Every rule's documentation is complete and its examples are true, as Fixit checks
VALID/INVALID: the Example blocks must produce the rule's finding, the Use-instead
blocks must not. Parametrised over ``registry.ALL_RULES``, so a new rule is covered
the moment it is registered."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from xdevlint import registry
from xdevlint.config import Config
from xdevlint.engine import lint_source
from xdevlint.rules.rule import DOC_SECTIONS, code_blocks

RULES = registry.ALL_RULES
IDS = [rule.CODE for rule in RULES]


def _codes(rule, source: str):
    config = replace(Config(), select=(rule.CODE,))
    # prescan off: the example must be flagged by the analysis itself, and the scan is
    # proven sound elsewhere; with it on as well, both must agree
    found = lint_source(source.encode(), f"{rule.CODE}_example.py", config, prescan=False).findings
    assert found == lint_source(source.encode(), f"{rule.CODE}_example.py", config).findings
    return [f.code for f in found]


def test_codes_and_names_are_unique() -> None:
    assert len({r.CODE for r in RULES}) == len(RULES)
    assert len({r.NAME for r in RULES}) == len(RULES)
    assert registry.ANALYSIS_ERROR_CODE not in {r.CODE for r in RULES}


@pytest.mark.parametrize("rule", RULES, ids=IDS)
def test_identity(rule) -> None:
    assert re.fullmatch(r"XDV\d{3}", rule.CODE)
    assert re.fullmatch(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)+", rule.NAME), rule.NAME
    assert isinstance(rule.MESSAGE, str) and rule.MESSAGE
    assert registry.by_code(rule.CODE) is rule


@pytest.mark.parametrize("rule", RULES, ids=IDS)
def test_every_section_is_there_in_order(rule) -> None:
    sections = rule.documentation()
    assert list(sections) == list(DOC_SECTIONS)
    assert all(body.strip() for body in sections.values())
    assert DOC_SECTIONS == ("What it does", "Why is this bad?", "Example", "Use instead", "Fix safety", "Options")


@pytest.mark.parametrize("rule", RULES, ids=IDS)
def test_the_example_is_flagged(rule) -> None:
    blocks = code_blocks(rule.documentation()["Example"])
    assert blocks, "the Example section has no ```python block"
    for block in blocks:
        assert rule.CODE in _codes(rule, block), block


@pytest.mark.parametrize("rule", RULES, ids=IDS)
def test_use_instead_is_not_flagged(rule) -> None:
    blocks = code_blocks(rule.documentation()["Use instead"])
    assert blocks, "the Use instead section has no ```python block"
    for block in blocks:
        assert _codes(rule, block) == [], block


@pytest.mark.parametrize("rule", RULES, ids=IDS)
def test_the_examples_are_valid_python(rule) -> None:
    sections = rule.documentation()
    for block in code_blocks(sections["Example"]) + code_blocks(sections["Use instead"]):
        compile(block, f"{rule.CODE}.md", "exec")
