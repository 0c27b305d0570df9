"""Every refusal is said in the reader's language: no sentence handed to a refusal is a bare
English literal or f-string.

A refusal's sentence goes through the one mechanism of ``kaiser_club.sentences``: an English
template marked ``N_`` (or ``Np_``; the pure modules' own no-op ``N_``) with named parameters,
rendered where it is shown; or, in a request, Django's ``gettext`` with ``%``. The source is
parsed, not imported: each call of an error of the family (and Django's and DRF's refusals),
each ``field_errors`` message, each row error appended, and each ``message``/``why``/``where``
variable, in every module of the three apps but migrations, settings and management commands
(the operator's command line, in English)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
APPS = ("kaiser_club", "scoring", "tournaments")
SKIPPED = ("/migrations/", "/management/commands/", "kaiser_club/settings/")

# The refusals: the KaiserError family, the pure modules' errors, Django's and DRF's.
REFUSALS = {
    "KaiserError",
    "InvalidInput",
    "Conflict",
    "NotAllowed",
    "NotFound",
    "StaleGame",
    "ClientIdReused",
    "HandNotAccepted",
    "ImportRefused",
    "PairingError",
    "NoValidPairing",
    "Http404",
    "PermissionDenied",
    "ValidationError",
    "NotAuthenticated",
    "refuse",  # tournaments.transfer.values.refuse(where, why)
    "note",  # the event import's notes: a row imported otherwise than the file says, and why
}
# Calls that make a sentence in the reader's language.
TRANSLATING = {
    "N_",
    "Np_",
    "_",
    "gettext",
    "gettext_lazy",
    "ngettext",
    "ngettext_lazy",
    "pgettext",
    "pgettext_lazy",
    "render",
}
SENTENCE_VARIABLES = {"message", "why", "where", "reason"}
ROW_ERRORS = {"errors", "problems"}


def bare(node: ast.expr) -> bool:
    """English text as it is: a literal with a space, an f-string, or text built from one."""
    if isinstance(node, ast.Constant):  # words: "Taken.", "Enter a name." (not a code: "slug")
        text = node.value.strip() if isinstance(node.value, str) else ""
        return " " in text or text.endswith((".", "!", "?", ":"))
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.BinOp):  # "..." + x, "..." % x
        return bare(node.left) or (isinstance(node.op, ast.Add) and bare(node.right))
    if isinstance(node, ast.IfExp):
        return bare(node.body) or bare(node.orelse)
    if isinstance(node, ast.BoolOp):
        return any(bare(value) for value in node.values)
    if isinstance(node, ast.Call):
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if name in TRANSLATING:
            return False
        if name == "str" and node.args:
            return bare(node.args[0])
        if name in ("format", "join") and isinstance(func, ast.Attribute):
            return bare(func.value) or any(bare(arg) for arg in node.args)
    if isinstance(node, ast.List | ast.Tuple):
        return any(bare(element) for element in node.elts)
    return False


def _name(func: ast.expr) -> str:
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def said(tree: ast.AST) -> Iterator[tuple[int, ast.expr]]:
    """Each expression of the module that is a sentence a refusal says, with its line."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = _name(node.func)
            if name in REFUSALS:
                yield from ((node.lineno, arg) for arg in node.args)
                for keyword in node.keywords:
                    if keyword.arg in ("message", "detail"):
                        yield node.lineno, keyword.value
                    if keyword.arg == "field_errors" and isinstance(keyword.value, ast.Dict):
                        yield from ((node.lineno, value) for value in keyword.value.values)
            elif (
                name in ("append", "extend")
                and isinstance(node.func, ast.Attribute)
                and _name(node.func.value) in ROW_ERRORS
            ):
                yield from ((node.lineno, arg) for arg in node.args)
        elif isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(_name(target) in SENTENCE_VARIABLES for target in targets):
                yield node.lineno, node.value


def modules() -> Iterator[Path]:
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if not any(part in path.as_posix() for part in SKIPPED):
                yield path


def untranslated(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    relative = path.relative_to(ROOT).as_posix()
    return [
        f"{relative}:{line}: {ast.unparse(expr)[:90]}" for line, expr in said(tree) if bare(expr)
    ]


def test_no_refusal_is_bare_english() -> None:
    found = [offence for path in modules() for offence in untranslated(path)]
    assert not found, "refusals in English only (mark them N_):\n" + "\n".join(found)


@pytest.mark.parametrize(
    ("source", "caught"),
    [
        ('raise InvalidInput("Bid too low.")', True),
        ('raise InvalidInput(f"Bid {bid} is too low.")', True),
        ('raise NotFound("There is no game " + str(n) + ".")', True),
        ('message = f"{name} is taken."', True),
        ('raise InvalidInput(m, field_errors={"bid": ["Too low."]})', True),
        ('raise InvalidInput(m, field_errors={"seed": ["Taken."]})', True),
        ('row.errors.append(f"Row {n}: no name.")', True),
        ('raise PairingError("A round needs two teams.")', True),
        ('raise InvalidInput(N_("Bid %(bid)s is too low.", bid=bid))', False),
        ('raise InvalidInput(gettext("Too low: %(b)s.") % {"b": bid})', False),
        ('raise PermissionDenied(str(N_("Sign in.")))', False),
        ('raise PairingError(N_("Team %(team)s twice."), team=team)', False),
        ("raise InvalidInput(message, field_errors={'bid': [message]})", False),
        ('raise ValueError(f"node {i} is not a node")', False),  # a bug, not a refusal
    ],
)
def test_the_check_sees_bare_sentences(source: str, caught: bool) -> None:
    assert any(bare(expr) for _line, expr in said(ast.parse(source))) is caught
