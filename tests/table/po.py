"""Reading the French catalogue in tests: each entry's references, msgid and translation."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from pathlib import Path

CATALOGUE = Path(__file__).resolve().parents[2] / "locale" / "fr" / "LC_MESSAGES" / "django.po"
TABLE_SOURCES = (
    "templates/table/",
    "tournaments/table/",
    "scoring/rules/refusals.py",
    "scoring/rules/ruleset.py",
    "scoring/services/verification.py",
    "scoring/errors.py",
)


KEYWORD = re.compile(r'^(msgid|msgid_plural|msgctxt|msgstr(?:\[\d\])?) (".*")$')


@dataclass
class Entry:
    refs: list[str] = field(default_factory=list)
    msgid: str = ""
    plural: str = ""
    translations: list[str] = field(default_factory=list)
    fuzzy: bool = False

    @property
    def on_the_table_page(self) -> bool:
        return any(ref.startswith(TABLE_SOURCES) for ref in self.refs)


def entries(path: Path = CATALOGUE) -> list[Entry]:
    found: list[Entry] = []
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        entry = Entry()
        key = ""
        values: dict[str, str] = {}
        for line in block.splitlines():
            if line.startswith("#:"):
                entry.refs += line[2:].split()
            elif line.startswith("#,") and "fuzzy" in line:
                entry.fuzzy = True
            elif match := KEYWORD.match(line):
                key = match.group(1)
                values[key] = ast.literal_eval(match.group(2))
            elif line.startswith('"') and key:
                values[key] += ast.literal_eval(line)
        if not values.get("msgid"):
            continue
        entry.msgid = values["msgid"]
        entry.plural = values.get("msgid_plural", "")
        entry.translations = [v for k, v in sorted(values.items()) if k.startswith("msgstr")]
        found.append(entry)
    return found
