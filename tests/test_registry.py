"""The registry states each rule's name and cheap scan where the engine can use them without
importing the rule: they must stay the rule's own."""

from __future__ import annotations

from pathlib import Path
from typing import List

import pytest

from tests.conftest import FIXTURES
from xdevlint import registry
from xdevlint.config import from_table
from xdevlint.rules.rule import code_blocks
from xdevlint.stages.scan import Scan

REPO = Path(__file__).resolve().parent.parent


def sources() -> List[str]:
    texts = [path.read_text(encoding="utf-8", errors="replace") for path in sorted(FIXTURES.rglob("*.py"))]
    for rule in registry.ALL_RULES:
        for section in rule.documentation().values():
            texts.extend(code_blocks(section))
    return texts


@pytest.mark.parametrize("spec", registry.SPECS, ids=lambda s: s.code)
def test_spec_names_its_rule(spec: registry.RuleSpec) -> None:
    assert spec.rule.CODE == spec.code
    assert spec.rule.NAME == spec.name
    assert registry.by_code(spec.code) is spec.rule


@pytest.mark.parametrize("spec", registry.SPECS, ids=lambda s: s.code)
def test_gate_answers_as_the_rule_s_may_apply(spec: registry.RuleSpec) -> None:
    scratch = {"scratch": {"paths": ["/mnt/scratch"], "env": ["SCRATCH"], "calls": ["jobs.scratch_dir"]}}
    locations = [from_table({}, None).locations, from_table({"locations": scratch}, None).locations]
    texts = sources()
    assert len(texts) > 50
    kept = 0
    for text in texts:
        for where in locations:
            expected = spec.rule.may_apply(Scan(text), where)
            assert spec.gate(Scan(text), where) == expected, text[:200]
            kept += expected
    assert 0 < kept < 2 * len(texts)  # the fixtures both pass and fail each gate


@pytest.mark.parametrize("spec", registry.SPECS, ids=lambda s: s.code)
def test_cleared_places_are_the_rule_s(spec: registry.RuleSpec) -> None:
    """Where the engine drops a finding (``Rule.cleared``) is the same through the registry."""
    cleared = 0
    for text in sources():
        expected = spec.rule.cleared(Scan(text))
        assert spec.cleared(Scan(text)) == expected, text[:200]
        cleared += len(expected)
    assert (cleared > 0) == (spec.code in ("XDV201", "XDV203"))


def test_temp_factory_words_are_xdv201_s() -> None:
    from xdevlint.rules.xdv201_temp_not_cleaned_on_error import TEMP_FACTORY_WORDS

    assert registry.TEMP_FACTORY_WORDS == TEMP_FACTORY_WORDS


def test_all_rules_in_registry_order() -> None:
    assert [rule.CODE for rule in registry.ALL_RULES] == [spec.code for spec in registry.SPECS]
    with pytest.raises(AttributeError):
        registry.NO_SUCH_THING  # noqa: B018
