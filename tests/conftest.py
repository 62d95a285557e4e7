"""Shared helpers for the test suite."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "fixtures"


@pytest.fixture
def repo() -> Path:
    return REPO


@pytest.fixture(autouse=True)
def _own_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test gets an empty result cache of its own (and the checkout gets none)."""
    monkeypatch.setenv("XDEVLINT_CACHE_DIR", str(tmp_path_factory.mktemp("xdevlint-cache")))
