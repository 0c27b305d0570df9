"""Every test asserts something: a test that only runs code passes whatever the code does.

A test counts as asserting when its body (or a helper of its module it calls) has an
``assert``, raises, enters ``pytest.raises``/``warns`` or a ``django_assert_*`` block, runs a
subprocess with ``check=True``, or calls a helper whose name says it checks (assert, check,
expect, same, verify, refused, allowed, ...). Read with ``ast``: no test is run."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent
CHECKING_WORDS = ("assert", "check", "expect", "same", "verify", "must", "refused", "allowed")


def _checks(function: ast.AST, helpers: set[str]) -> bool:
    for node in ast.walk(function):
        if isinstance(node, ast.Assert | ast.Raise):
            return True
        if isinstance(node, ast.With | ast.AsyncWith):
            for item in node.items:
                said = ast.unparse(item.context_expr)
                if any(word in said for word in ("raises", "warns", "assert")):
                    return True
        if isinstance(node, ast.Call):
            name = ast.unparse(node.func).split(".")[-1].lower()
            if name in helpers or any(word in name for word in CHECKING_WORDS):
                return True
            if any(k.arg == "check" and ast.unparse(k.value) == "True" for k in node.keywords):
                return True
    return False


def _silent_tests(path: Path, root: Path = TESTS.parent) -> list[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    functions = [
        node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    ]
    helpers = {
        f.name.lower() for f in functions if not f.name.startswith("test") and _checks(f, set())
    }
    return [
        f"{path.relative_to(root)}:{f.lineno} {f.name}"
        for f in functions
        if f.name.startswith("test_") and not _checks(f, helpers)
    ]


def test_every_test_asserts_something() -> None:
    silent = [found for path in sorted(TESTS.rglob("*.py")) for found in _silent_tests(path)]
    assert silent == [], "tests that assert nothing:\n" + "\n".join(silent)


def test_a_test_that_only_runs_code_is_found(tmp_path: Path) -> None:
    planted = tmp_path / "test_planted.py"
    planted.write_text(
        "def helper():\n    return 1\n\n"
        "def test_runs_only():\n    helper()\n\n"
        "def test_checks():\n    assert helper() == 1\n"
    )
    assert _silent_tests(planted, tmp_path) == ["test_planted.py:4 test_runs_only"]
