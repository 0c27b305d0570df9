"""The French catalogue is complete: every entry translated, none left fuzzy, and it compiles.

Reads the .po file itself (no extra library): an entry is its comment lines and its msgid /
msgstr lines, separated from the next by a blank line."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
from pathlib import Path

import pytest

PO = Path(__file__).resolve().parent.parent / "locale" / "fr" / "LC_MESSAGES" / "django.po"
FIELD = re.compile(r'^(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?) "(.*)"$')


def entries() -> list[tuple[list[str], dict[str, str]]]:
    found = []
    for block in PO.read_text(encoding="utf-8").split("\n\n"):
        comments, fields, current = [], {}, None
        for line in block.strip().splitlines():
            if line.startswith("#"):
                comments.append(line)
            elif match := FIELD.match(line):
                current = match.group(1)
                fields[current] = match.group(2)
            elif line.startswith('"') and current:
                fields[current] += line[1:-1]
        if fields.get("msgid"):  # the header has an empty msgid
            found.append((comments, fields))
    return found


def test_the_catalogue_has_entries():
    assert len(entries()) > 500


def test_no_entry_is_left_untranslated():
    missing = [
        fields["msgid"]
        for _comments, fields in entries()
        if any(value == "" for key, value in fields.items() if key.startswith("msgstr"))
    ]
    assert missing == [], f"{len(missing)} French entries have no translation: {missing[:20]}"


def test_no_entry_is_fuzzy():
    fuzzy = [
        fields["msgid"]
        for comments, fields in entries()
        if any(line.startswith("#,") and "fuzzy" in line for line in comments)
    ]
    assert fuzzy == [], f"fuzzy entries (translations guessed by makemessages): {fuzzy}"


def test_no_entry_is_obsolete():
    lines = PO.read_text(encoding="utf-8").splitlines()
    obsolete = [line for line in lines if line.startswith("#~")]
    assert obsolete == []


def test_placeholders_are_kept():
    """A translation keeps every %(name)s and %s of its msgid: else it fails at run time."""
    placeholder = re.compile(r"%\(\w+\)[sd]|%[sd]")
    wrong = []
    for _comments, fields in entries():
        wanted = sorted(placeholder.findall(fields["msgid"] + fields.get("msgid_plural", "")))
        for key, value in fields.items():
            if key.startswith("msgstr") and value:
                got = set(placeholder.findall(value))
                missing_some = key == "msgstr" and set(wanted) != got
                if not got <= set(wanted) or missing_some:
                    wrong.append((fields["msgid"], value))
    assert wrong == []


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="gettext's msgfmt is not installed")
def test_the_catalogue_compiles(tmp_path):
    subprocess.run(["msgfmt", "--check", "-o", str(tmp_path / "django.mo"), str(PO)], check=True)


MARKERS = {"N_", "Np_", "_", "gettext", "gettext_lazy", "ngettext", "ngettext_lazy"}
CONTEXT_MARKERS = {"pgettext", "pgettext_lazy"}
APPS = ("kaiser_club", "scoring", "tournaments")


def _literal(node: ast.expr) -> str | None:
    """A string literal, or adjacent literals Python joins; None for anything computed."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def marked_in_code() -> set[tuple[str, str]]:
    """(context, msgid) of every literal the code marks for translation."""
    root = PO.parents[3]
    found: set[tuple[str, str]] = set()
    for app in APPS:
        for path in (root / app).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(node, ast.Call) or not node.args:
                    continue
                name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
                if name in MARKERS and (msgid := _literal(node.args[0])):
                    found.add(("", msgid))
                    plural = _literal(node.args[1]) if len(node.args) > 1 else None
                    if name in {"Np_", "ngettext", "ngettext_lazy"} and plural:
                        found.add(("plural", plural))
                elif name in CONTEXT_MARKERS and len(node.args) > 1:
                    context, msgid = _literal(node.args[0]), _literal(node.args[1])
                    if context is not None and msgid:
                        found.add((context, msgid))
    return found


def _unescape(po_text: str) -> str:
    """A .po string as the code writes it: the C escapes \\\\, \\" and \\n undone."""
    return re.sub(r'\\(["\\n])', lambda m: "\n" if m.group(1) == "n" else m.group(1), po_text)


def test_every_sentence_the_code_marks_is_in_the_catalogue():
    """A sentence added to the code without `makemessages -l fr` would show in English on a
    French page; this names it."""
    known: set[tuple[str, str]] = set()
    for _comments, fields in entries():
        known.add((_unescape(fields.get("msgctxt", "")), _unescape(fields["msgid"])))
        if plural := fields.get("msgid_plural"):
            known.add(("plural", _unescape(plural)))
    missing = sorted(text for text in marked_in_code() - known)
    assert missing == [], (
        f"marked in the code, not in the catalogue (makemessages -l fr): {missing}"
    )
