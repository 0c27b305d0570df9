"""One answer per transport, written once: the source is read for new copies.

- The role refusals are said only by ``kaiser_club/refusals.py``.
- An API module raises no exception of DRF's or Django's own (they answer without the
  project's code): it raises the KaiserError family, which the exception handler answers with
  its code. A sign-in refusal is DRF's, answered as DRF answers the others of its kind.
- A page view shows a refusal through ``kaiser_club/page_errors.py`` (``refusal_shown``), not
  by catching it and calling ``show_error`` itself."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("kaiser_club", "scoring", "tournaments")
ROLE_SENTENCES = (
    "Your role in %(club)s does not allow this.",
    "This needs the %(role)s role in %(club)s.",
)
FOREIGN_EXCEPTIONS = ("rest_framework.exceptions", "django.core.exceptions", "django.http")
SIGN_IN_REFUSALS = {"AuthenticationFailed", "NotAuthenticated"}


def sources() -> list[Path]:
    return sorted(
        path
        for package in PACKAGES
        for path in (ROOT / package).rglob("*.py")
        if "migrations" not in path.parts
    )


def relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def test_the_role_refusals_are_said_in_one_place() -> None:
    copies = [
        f"{relative(path)}: {sentence}"
        for path in sources()
        if relative(path) != "kaiser_club/refusals.py"
        for sentence in ROLE_SENTENCES
        if sentence in path.read_text()
    ]
    assert not copies, "raise kaiser_club.refusals' function instead:\n" + "\n".join(copies)


def foreign_raises(path: Path) -> list[str]:
    """``raise X(...)`` of an exception imported from DRF or Django, in ``path``."""
    tree = ast.parse(path.read_text())
    foreign = {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module in FOREIGN_EXCEPTIONS
        for alias in node.names
    }
    raised: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
            called = node.exc.func
            name = called.id if isinstance(called, ast.Name) else None
            if isinstance(called, ast.Attribute) and isinstance(called.value, ast.Name):
                name = called.attr if called.value.id == "exceptions" else None
            if name in SIGN_IN_REFUSALS:
                continue
            if name is not None and (name in foreign or isinstance(called, ast.Attribute)):
                raised.append((node.lineno, name))
    return [f"line {line}: raise {name}(…)" for line, name in sorted(raised)]


def test_api_modules_raise_refusals_with_a_code() -> None:
    api_modules = [path for path in sources() if "api" in path.parent.parts]
    assert len(api_modules) > 10  # the API's modules were found
    found = [f"{relative(path)}, {line}" for path in api_modules for line in foreign_raises(path)]
    assert not found, "raise kaiser_club.errors' refusals (they carry a code):\n" + "\n".join(found)


def show_error_calls(path: Path) -> int:
    tree = ast.parse(path.read_text())
    return sum(
        1
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "show_error"
    )


def test_pages_show_a_refusal_through_one_helper() -> None:
    calls = Counter(
        {
            relative(path): count
            for path in sources()
            if relative(path) not in ("kaiser_club/error_answers.py", "kaiser_club/page_errors.py")
            if (count := show_error_calls(path))
        }
    )
    over = dict(calls)
    assert not over, f"use kaiser_club.page_errors.refusal_shown: {over}"


def test_the_checks_find_what_they_look_for(tmp_path: Path) -> None:
    """Each check, given a copy, finds it (else the tests above would pass on anything)."""
    module = tmp_path / "views.py"
    module.write_text(
        "from rest_framework.exceptions import PermissionDenied\n"
        "from rest_framework import exceptions\n"
        "def view():\n"
        "    try:\n"
        "        raise PermissionDenied('no')\n"
        "    except KaiserError as exc:\n"
        "        show_error(request, exc)\n"
        "    raise exceptions.NotFound()\n"
        "    raise exceptions.AuthenticationFailed()\n"
    )
    assert foreign_raises(module) == [
        "line 5: raise PermissionDenied(…)",
        "line 8: raise NotFound(…)",
    ]
    assert show_error_calls(module) == 1
