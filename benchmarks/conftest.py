"""The benchmarks' fixture: inputs sized down when timing is off (as in the test suite)."""
from __future__ import annotations

import pytest


@pytest.fixture
def scale(benchmark) -> float:
    """1 when timing; a small fraction when the benchmarks only run as tests (timing disabled)."""
    return 0.01 if benchmark.disabled else 1.0
