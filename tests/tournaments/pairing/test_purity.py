"""The pairing package stays pure: no Django, importable on its own."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def test_no_django_import_anywhere() -> None:
    package = ROOT / "tournaments" / "pairing"
    for path in sorted(package.glob("*.py")):
        text = path.read_text()
        assert "import django" not in text and "from django" not in text, path.name


def test_importing_the_package_loads_no_django() -> None:
    code = (
        "import sys, tournaments.pairing; "
        "assert not [m for m in sys.modules if m.split('.')[0] == 'django'], 'django loaded'"
    )
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)
