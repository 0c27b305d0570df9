"""No module-level function or class of the apps is dead: something other than a test uses it.

The source is parsed, not imported (no database, well under a second). Every function and
class defined at the top level of a module of ``kaiser_club``, ``scoring`` or ``tournaments``
(migrations aside) must be *used*, which is one of:

- its name is referenced somewhere other than its own body: as an identifier (a name, an
  attribute, a keyword argument) or as a word inside a string (a dotted path in the settings,
  a lazy ``"module.function"``, a string annotation) in any module of the three apps (their
  migrations and settings included), ``bench/`` or ``manage.py``, or as a word in a template;
  a docstring is prose and uses nothing;
- it is listed in an ``__all__`` (a public service, selector or pure library function);
- a decorator registers it: ``@register.filter``/``@register.simple_tag`` and the like (template
  tags), ``@register`` (system checks, the standings' metrics), ``@admin.register``,
  ``@receiver``, ``@shared_task``/``@app.task``, ``@pytest.fixture``, ``@demo_step`` (the
  demo data's steps);
- Django finds it by its place and name: an ``AppConfig`` in ``apps.py``, a ``Command`` in
  ``management/commands/``, the ``DatabaseWrapper`` of a database backend's ``base.py``;
- it is a drf-spectacular extension (a class with a ``target_class``): subclassing registers it;
- it is in ``ALLOWED`` below, with its reason.

``tests/`` is not a user: a function only its own tests call is dead (delete it and its tests)
unless it is public, in an ``__all__``.

Methods are not checked (Django and DRF call them by name: ``ready``, ``get_queryset``...).
The check goes by name, not by import: a dead ``f`` goes unseen while something else named ``f``
is used (a method, a keyword, a word in a string). A use it cannot see at all (a ``getattr`` of
a name built at run time) goes in ``ALLOWED``.
"""

from __future__ import annotations

import ast
import functools
import re
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APPS = ("kaiser_club", "scoring", "tournaments")
# More code that uses the apps (tests/ is not among them: a test is not a user).
USERS = ("bench",)
USER_FILES = ("manage.py",)

# Decorators that register what they decorate (the dotted name, without the call's arguments).
REGISTERING = {
    "register",  # django.core.checks.register; tournaments.standings.metrics.register
    "checks.register",
    "admin.register",
    "admin.action",
    "admin.display",
    "receiver",
    "shared_task",
    "app.task",
    "celery_app.task",
    "pytest.fixture",
    "demo_step",  # kaiser_club.demo: the steps load_demo runs
}
REGISTERING_PREFIXES = ("register.",)  # a template library: register.filter, .simple_tag, ...

# Qualified name -> why it stays although the check finds no user of it.
ALLOWED: dict[str, str] = {
    "kaiser_club.outages.forget": (
        "the tests' reset, between tests, of the outages this process remembers: state private "
        "to the module (tests/conftest.py)"
    ),
}

IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class Definition:
    path: str  # relative to the repository's root
    line: int
    name: str

    @property
    def qualified(self) -> str:
        return ".".join(Path(self.path).with_suffix("").parts).removesuffix(".__init__") + (
            f".{self.name}"
        )


def _is_docstring(stmt: ast.stmt) -> bool:
    return (
        isinstance(stmt, ast.Expr)
        and isinstance(stmt.value, ast.Constant)
        and isinstance(stmt.value.value, str)
    )


def _names_in(node: ast.AST) -> list[str]:
    """The identifiers the node names, and the words of its strings (not of its docstrings).

    ``ast.walk`` and ``isinstance`` made the test three times slower: this walks by hand and
    does not descend into what cannot name anything (a name's context, a constant)."""
    found: list[str] = []
    stack = [node]
    while stack:
        child = stack.pop()
        if type(child) is ast.Name:
            found.append(child.id)
        elif type(child) is ast.Constant:
            if type(child.value) is str:
                found += IDENTIFIER.findall(child.value)
        elif type(child) is ast.Attribute:
            found.append(child.attr)
            stack.append(child.value)
        elif type(child) is ast.keyword:
            if child.arg:
                found.append(child.arg)
            stack.append(child.value)
        else:
            for field in child._fields:
                value = getattr(child, field, None)
                if type(value) is list:
                    if field == "body" and value and _is_docstring(value[0]):
                        value = value[1:]
                    stack += [v for v in value if isinstance(v, ast.AST)]
                elif isinstance(value, ast.AST):
                    stack.append(value)
    return found


def _dotted(node: ast.expr) -> str:
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    return node.id if isinstance(node, ast.Name) else ""


def _registered(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> bool:
    for decorator in node.decorator_list:
        name = _dotted(decorator)
        if name in REGISTERING or name.startswith(REGISTERING_PREFIXES):
            return True
    return False


def _django_hook(path: str, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> bool:
    if isinstance(node, ast.ClassDef) and any(
        isinstance(t, ast.Name) and t.id == "target_class"
        for stmt in node.body
        if isinstance(stmt, ast.Assign)
        for t in stmt.targets
    ):
        return True  # a drf-spectacular extension: registered by being subclassed
    if path.endswith("/apps.py") and isinstance(node, ast.ClassDef):
        return any(_dotted(base).endswith("AppConfig") for base in node.bases)
    if "/management/commands/" in path:
        return node.name == "Command"
    if path.endswith("/base.py"):
        return node.name == "DatabaseWrapper"
    return node.name.startswith("__") and node.name.endswith("__")  # a module's __getattr__


def _all_names(tree: ast.Module) -> Iterator[str]:
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign):
            targets, assigned = stmt.targets, stmt.value
        elif isinstance(stmt, ast.AnnAssign | ast.AugAssign) and stmt.value:
            targets, assigned = [stmt.target], stmt.value
        else:
            continue
        if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
            for value in ast.walk(assigned):
                if isinstance(value, ast.Constant) and isinstance(value.value, str):
                    yield value.value


@functools.cache
def _parse(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def _python_files(root: Path) -> Iterator[Path]:
    for folder in (*APPS, *USERS):
        yield from sorted((root / folder).rglob("*.py"))
    for name in USER_FILES:
        if (root / name).is_file():
            yield root / name


def dead_code(root: Path = ROOT) -> list[Definition]:
    """Every module-level function and class of the apps that nothing uses."""
    candidates: list[Definition] = []
    public: set[str] = set()
    # name -> the places that name it: (file, the top-level definition it is in, or None)
    used_at: dict[str, set[tuple[str, str | None]]] = defaultdict(set)
    for path in _python_files(root):
        relative = path.relative_to(root).as_posix()
        tree = _parse(path)
        public.update(_all_names(tree))
        defines = relative.startswith(APPS) and "/migrations/" not in relative
        for stmt in tree.body[1:] if tree.body and _is_docstring(tree.body[0]) else tree.body:
            owner = None
            if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                owner = stmt.name
                if defines and not _registered(stmt) and not _django_hook(relative, stmt):
                    candidates.append(Definition(relative, stmt.lineno, stmt.name))
            if isinstance(stmt, ast.Import | ast.ImportFrom):
                continue  # an import alone uses nothing: what uses the name names it again
            for name in _names_in(stmt):
                used_at[name].add((relative, owner))
    for template in sorted((root / "templates").rglob("*.html")):
        words = set(IDENTIFIER.findall(template.read_text(encoding="utf-8")))
        for word in words:
            used_at[word].add((template.relative_to(root).as_posix(), None))
    return [
        d
        for d in candidates
        if d.name not in public
        and d.qualified not in ALLOWED
        and not (used_at.get(d.name, set()) - {(d.path, d.name)})
    ]


def _mentioned_in_tests(names: Iterable[str], root: Path = ROOT) -> dict[str, list[str]]:
    """For the failure's message: which tests name each dead function (delete them too)."""
    found: dict[str, list[str]] = defaultdict(list)
    wanted = re.compile(r"\b(" + "|".join(map(re.escape, names)) + r")\b")
    for path in sorted((root / "tests").rglob("*.py")):
        if path.name == Path(__file__).name:
            continue
        for name in set(wanted.findall(path.read_text(encoding="utf-8"))):
            found[name].append(path.relative_to(root).as_posix())
    return found


def test_no_module_level_function_or_class_is_dead() -> None:
    dead = dead_code()
    tests = _mentioned_in_tests(d.name for d in dead) if dead else {}
    lines = [
        f"{d.path}:{d.line} {d.qualified}"
        + (f" (only the tests name it: {', '.join(tests[d.name])})" if tests[d.name] else "")
        for d in dead
    ]
    assert not dead, (
        "Nothing uses these (delete them, with the tests of them alone; or, if something does "
        "use them in a way the check cannot see, add them to ALLOWED with the reason):\n"
        + "\n".join(lines)
    )


def test_every_allowed_name_is_still_defined() -> None:
    """An exception outlives its function only by mistake: ALLOWED names what exists."""
    defined = set()
    for path in _python_files(ROOT):
        relative = path.relative_to(ROOT).as_posix()
        if relative.startswith(APPS):
            for stmt in _parse(path).body:
                if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                    defined.add(Definition(relative, stmt.lineno, stmt.name).qualified)
    assert set(ALLOWED) <= defined, sorted(set(ALLOWED) - defined)


def test_the_check_sees_what_uses_a_function(tmp_path: Path) -> None:
    """The scanner itself, on a made-up tree: each kind of use counts, and each non-use (its
    own body, a docstring, an import, a test) does not."""
    app = tmp_path / "kaiser_club"
    (app / "management" / "commands").mkdir(parents=True)
    (tmp_path / "templates").mkdir()
    (tmp_path / "tests").mkdir()
    (app / "__init__.py").write_text('__all__ = ["exported"]\n', encoding="utf-8")
    (app / "things.py").write_text(
        "from django.dispatch import receiver\n"
        "def called(): ...\n"
        "def by_attribute(): ...\n"
        "def by_setting(): ...\n"
        "def in_template(): ...\n"
        "def exported(): ...\n"
        "@receiver(None)\n"
        "def on_signal(): ...\n"
        "@register.filter\n"
        "def a_filter(): ...\n"
        "def recursive():\n"
        "    return recursive()\n"
        "def imported_only(): ...\n"
        "def in_a_docstring(): ...\n"
        "def in_a_test(): ...\n"
        "class Unused: ...\n",
        encoding="utf-8",
    )
    (app / "uses.py").write_text(
        "from kaiser_club.things import called, imported_only\n"
        "from kaiser_club import things\n"
        "def user():\n"
        '    """Not in_a_docstring."""\n'
        "    called()\n"
        "    return things.by_attribute\n"
        'PATH = "kaiser_club.things.by_setting"\n',
        encoding="utf-8",
    )
    (app / "management" / "commands" / "go.py").write_text("class Command: ...\n")
    (tmp_path / "templates" / "page.html").write_text("{{ in_template }}\n")
    (tmp_path / "tests" / "test_things.py").write_text("in_a_test()\n")
    dead = {d.qualified for d in dead_code(tmp_path)}
    assert dead == {
        "kaiser_club.things.recursive",
        "kaiser_club.things.imported_only",
        "kaiser_club.things.in_a_docstring",
        "kaiser_club.things.in_a_test",
        "kaiser_club.things.Unused",
        "kaiser_club.uses.user",
    }
