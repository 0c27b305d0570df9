"""No function of the apps imports: an import inside a function hides a circle between modules
(or a dependency a reader looks for at the top), so the layers' direction breaks circles instead:
tasks import the services they call, services queue a task by its registered name, selectors
import no service, and a module that models import imports no model.

The source is parsed, not imported. Every module of ``kaiser_club``, ``scoring`` and
``tournaments`` (migrations included) is read; an ``import`` or ``from ... import`` anywhere
inside a function or method body fails, except:

- in ``ready()`` of an ``AppConfig`` (Django's place for what needs every app loaded);
- in the demo data (``demo*.py``) and management commands (``management/commands/``), which
  run once, by hand;
- under ``if TYPE_CHECKING:`` (never run);
- in ``ALLOWED`` below, with its reason.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APPS = ("kaiser_club", "scoring", "tournaments")

# (module path, function): imports that stay inside that function, and why.
ALLOWED = {
    # WeasyPrint takes two seconds to import: only the process that draws a PDF pays for it.
    ("tournaments/reports/render.py", "local_only_fetcher"),
    ("tournaments/reports/render.py", "pdf_from_html"),
}


def exempt_module(path: Path) -> bool:
    relative = path.relative_to(ROOT)
    return path.name.startswith("demo") or "management/commands" in relative.as_posix()


def is_type_checking(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and (
        (isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING")
        or (isinstance(node.test, ast.Attribute) and node.test.attr == "TYPE_CHECKING")
    )


def is_app_config(node: ast.ClassDef) -> bool:
    return any(
        (isinstance(base, ast.Name) and base.id == "AppConfig")
        or (isinstance(base, ast.Attribute) and base.attr == "AppConfig")
        for base in node.bases
    )


def hidden_imports(tree: ast.Module) -> Iterator[tuple[int, str, str]]:
    """(line, outermost function, the import) for every import inside a function body."""

    def walk(
        node: ast.AST, function: str | None, app_config: bool
    ) -> Iterator[tuple[int, str, str]]:
        for child in ast.iter_child_nodes(node):
            if is_type_checking(child):
                continue
            if isinstance(child, ast.ClassDef):
                yield from walk(child, function, is_app_config(child))
            elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                if app_config and function is None and child.name == "ready":
                    continue
                yield from walk(child, function or child.name, False)
            elif isinstance(child, ast.Import | ast.ImportFrom) and function is not None:
                yield child.lineno, function, ast.unparse(child)
            else:
                yield from walk(child, function, app_config)

    yield from walk(tree, None, False)


def modules() -> Iterator[Path]:
    for app in APPS:
        yield from sorted((ROOT / app).rglob("*.py"))


def test_no_function_imports() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line} in {function}(): {statement}"
        for path in modules()
        if not exempt_module(path)
        for line, function, statement in hidden_imports(ast.parse(path.read_text()))
        if (path.relative_to(ROOT).as_posix(), function) not in ALLOWED
    ]
    assert not found, (
        "Imports inside functions (import at the top; if that makes a circle, turn one of the "
        "arrows around: see this test's docstring):\n" + "\n".join(found)
    )


def test_the_check_sees_what_it_refuses_and_lets_pass_what_it_allows() -> None:
    source = """
from typing import TYPE_CHECKING
from django.apps import AppConfig

if TYPE_CHECKING:
    from x import Y

class Config(AppConfig):
    def ready(self):
        from . import receivers

def service():
    if TYPE_CHECKING:
        from x import Z
    from .tasks import run

class Helper:
    def method(self):
        def inner():
            import json
        return inner

class NotAnApp:
    def ready(self):
        from . import signals
"""
    assert [
        (function, statement) for _, function, statement in hidden_imports(ast.parse(source))
    ] == [
        ("service", "from .tasks import run"),
        ("method", "import json"),
        ("ready", "from . import signals"),
    ]


def test_every_allowed_import_is_still_there() -> None:
    """An entry of ``ALLOWED`` whose import went is removed, so the list stays the truth."""
    still = {
        (path.relative_to(ROOT).as_posix(), function)
        for path in modules()
        for _, function, _ in hidden_imports(ast.parse(path.read_text()))
    }
    assert not ALLOWED - still, ALLOWED - still
