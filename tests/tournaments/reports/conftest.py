from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def media(settings: pytest.FixtureRequest, tmp_path: Path) -> Path:
    """Every reports test writes its PDFs to its own MEDIA_ROOT."""
    root = tmp_path / "media"
    settings.MEDIA_ROOT = str(root)  # type: ignore[attr-defined]
    return root
