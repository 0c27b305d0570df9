"""The apps depend one way: tournaments on scoring, scoring on kaiser_club, never back.

No module of ``scoring`` imports ``tournaments``; no module of ``kaiser_club`` imports
``scoring`` or ``tournaments``. The one place allowed to name every app is the project's own
wiring: ``kaiser_club/settings/``, ``kaiser_club/urls.py`` and ``kaiser_club/celery.py``.

The source is parsed, not imported, so every import counts: at the top of a module, inside a
function (a late import to dodge a cycle is still a dependency), relative ones resolved, and
``importlib.import_module``/``__import__`` of a written-out name.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# app -> the apps it must not import
FORBIDDEN = {
    "scoring": ("tournaments",),
    "kaiser_club": ("scoring", "tournaments"),
}
# The project's wiring, which names every app (relative to the repository's root).
WIRING = ("kaiser_club/settings/", "kaiser_club/urls.py", "kaiser_club/celery.py")


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_names(path: Path, root: Path = ROOT) -> Iterator[tuple[str, int]]:
    """Every module name the file imports, with its line."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    module = module_name(path, root)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                stem = ".".join(base + ([node.module] if node.module else []))
            else:
                stem = node.module or ""
            yield stem, node.lineno
            for alias in node.names:  # "from tournaments import services": a module too
                yield f"{stem}.{alias.name}", node.lineno
        elif isinstance(node, ast.Call) and node.args:
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            first = node.args[0]
            if (
                name in ("import_module", "__import__")
                and isinstance(first, ast.Constant)
                and isinstance(first.value, str)
            ):
                yield first.value, node.lineno


def offences(app: str, root: Path = ROOT) -> list[str]:
    """Each import of a forbidden app by a module of ``app``: file, line, module, name."""
    found = []
    for path in sorted((root / app).rglob("*.py")):
        relative = path.relative_to(root).as_posix()
        if relative.startswith(WIRING):
            continue
        for name, line in imported_names(path, root):
            if name.split(".")[0] in FORBIDDEN[app]:
                found.append(f"{relative}:{line} ({module_name(path, root)}) imports {name}")
    return sorted(set(found))


@pytest.mark.parametrize("app", sorted(FORBIDDEN))
def test_no_app_imports_the_apps_built_on_it(app: str) -> None:
    bad = offences(app)
    assert not bad, f"{app} must not import {' or '.join(FORBIDDEN[app])}:\n" + "\n".join(bad)


def test_the_check_sees_late_relative_and_dynamic_imports(tmp_path: Path) -> None:
    """The parser itself, on a made-up tree: an import inside a function, a relative one that
    climbs out of the app, and an import_module of a written-out name are all found."""
    (tmp_path / "kaiser_club" / "members").mkdir(parents=True)
    (tmp_path / "kaiser_club" / "settings").mkdir()
    (tmp_path / "kaiser_club" / "members" / "probe.py").write_text(
        "from . import services\n"
        "def late():\n"
        "    from scoring.models import Game\n"
        "    import importlib\n"
        "    return importlib.import_module('tournaments.services')\n",
        encoding="utf-8",
    )
    (tmp_path / "kaiser_club" / "settings" / "base.py").write_text(
        "import tournaments\n", encoding="utf-8"
    )
    (tmp_path / "kaiser_club" / "urls.py").write_text("import scoring.urls\n", encoding="utf-8")
    probe = tmp_path / "kaiser_club" / "members" / "probe.py"
    names = {name for name, _line in imported_names(probe, tmp_path)}
    assert {"kaiser_club.members.services", "scoring.models", "tournaments.services"} <= names
    assert offences("kaiser_club", tmp_path) == [
        "kaiser_club/members/probe.py:3 (kaiser_club.members.probe) imports scoring.models",
        "kaiser_club/members/probe.py:3 (kaiser_club.members.probe) imports scoring.models.Game",
        "kaiser_club/members/probe.py:5 (kaiser_club.members.probe) imports tournaments.services",
    ]
