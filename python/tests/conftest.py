"""Shared helpers of the varia module's tests: the repository's folders."""

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared"


@pytest.fixture
def root():
    return ROOT
